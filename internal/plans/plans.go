// Package plans is resources as code: a unit's desired state, declared in
// a document, planned against what exists (a diff per resource, with every
// refusal the single calls would give), applied as planned, and exported
// from what exists. The kinds' own rules come from their services through
// the Kind interface; this package orders, authorizes, fingerprints and
// applies.
package plans

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/store"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Service plans, applies and exports documents.
type Service struct {
	guard *gate.Guard
	// kinds are in the order changes are applied: what others need first.
	kinds []Kind
	// journal keeps direct applies (nil: none kept).
	journal store.Applies
}

var _ ascode.PlanService = (*Service)(nil)

// New returns the service over the kinds, which it orders as the kinds'
// declaration does (portal.ResourceKinds): creates and updates in that
// order, deletes the other way.
func New(g *gate.Guard, kinds ...Kind) *Service {
	order := portal.ResourceKinds()
	sorted := slices.Clone(kinds)
	slices.SortStableFunc(sorted, func(a, b Kind) int {
		return cmp.Compare(slices.Index(order, a.Kind()), slices.Index(order, b.Kind()))
	})
	return &Service{guard: g, kinds: sorted}
}

// Kinds names the kinds the service plans, in the order it applies them.
func (s *Service) Kinds() []string {
	out := make([]string, len(s.kinds))
	for i, k := range s.kinds {
		out[i] = k.Kind()
	}
	return out
}

func (s *Service) kind(name string) (Kind, int) {
	for i, k := range s.kinds {
		if k.Kind() == name {
			return k, i
		}
	}
	return nil, -1
}

// Plan works out what applying doc would change, changing nothing.
func (s *Service) Plan(ctx context.Context, scope portal.Scope, doc ascode.Document) (ascode.Plan, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "plan changes")
	if err != nil {
		return ascode.Plan{}, err
	}
	plan, _, err := s.plan(ctx, call, doc)
	return plan, err
}

// Review plans doc as a change request: every change as a reviewer of
// the unit would make it, the caller's own role and the stage's
// read-only switch left to the review (validation, policies and budgets
// still refuse). The plan is the one an approval applies, or stale.
func (s *Service) Review(ctx context.Context, call *gate.Call, doc ascode.Document) (ascode.Plan, error) {
	plan, _, err := s.planAs(ctx, call, doc, true)
	return plan, err
}

func (s *Service) plan(ctx context.Context, call *gate.Call, doc ascode.Document) (ascode.Plan, []*Step, error) {
	return s.planAs(ctx, call, doc, false)
}

func (s *Service) planAs(ctx context.Context, call *gate.Call, doc ascode.Document, review bool) (ascode.Plan, []*Step, error) {
	if doc.Prune && len(doc.Resources) == 0 {
		return ascode.Plan{}, nil, portal.Invalid("prune", "prune with a document that declares nothing would delete every topic, connector and identity pool of the unit; declare what stays")
	}
	// Plans are about the unit's own resources, also for a Super Admin
	// who sees the whole cluster.
	call = call.Unit()
	declared := map[string][]portal.Resource{}
	for i, r := range doc.Resources {
		if !portal.HasSpec(r) {
			return ascode.Plan{}, nil, portal.Missing(fmt.Sprintf("items[%d].spec", i))
		}
		if k, _ := s.kind(r.Kind); k == nil {
			return ascode.Plan{}, nil, portal.Invalid(fmt.Sprintf("items[%d].kind", i), "kind %q is not known", r.Kind)
		}
		declared[r.Kind] = append(declared[r.Kind], r)
	}
	observed := map[string]Observed{}
	for _, k := range s.kinds {
		if len(declared[k.Kind()]) > 0 || doc.Prune && k.Prunes() {
			obs, err := k.Observe(ctx, call, declared[k.Kind()])
			if err != nil {
				return ascode.Plan{}, nil, err
			}
			observed[k.Kind()] = obs
		}
	}
	steps := make([]*Step, 0, len(doc.Resources))
	for i, r := range doc.Resources {
		k, _ := s.kind(r.Kind)
		st, err := k.Plan(ctx, call, observed[r.Kind], r)
		if err != nil {
			return ascode.Plan{}, nil, err
		}
		st.Change.Index, st.Change.Identifier = i, r.Name
		steps = append(steps, st)
	}
	refuseDuplicates(steps)
	if doc.Prune {
		steps = append(steps, s.prune(call, observed, steps)...)
	}
	for _, st := range steps {
		k, _ := s.kind(kindOfChange(st.Change.Kind))
		authorize(call, st, k.Action(), doc.SkipForbidden, review)
	}
	if err := weigh(ctx, call, steps, doc.Force); err != nil {
		return ascode.Plan{}, nil, err
	}
	s.order(steps)
	budget, err := s.judge(ctx, call, steps)
	if err != nil {
		return ascode.Plan{}, nil, err
	}
	plan := ascode.Plan{BU: call.Scope.Unit.ID, Stage: call.Scope.Stage.Name, Prune: doc.Prune, Force: doc.Force, Budget: budget}
	for _, st := range steps {
		plan.Changes = append(plan.Changes, st.Change)
	}
	plan.Fingerprint = fingerprint(plan, steps)
	return plan, steps, nil
}

// judge has the platform's guardrails judge the changes the plan would
// make, in the order they are made: a violation refuses its change (so an
// apply changes nothing), a warning is shown with it; the answer is the
// unit's budget use after the plan.
func (s *Service) judge(ctx context.Context, call *gate.Call, steps []*Step) ([]portal.BudgetLine, error) {
	inForce := s.guard.Rules()
	if inForce == nil {
		return nil, nil
	}
	var judged []*Step
	var changes []rules.Change
	for _, st := range steps {
		switch st.Change.Action {
		case ascode.ActionCreate, ascode.ActionUpdate, ascode.ActionDelete:
			if st.Rule != nil {
				ch := *st.Rule
				ch.Operation = st.Change.Action
				judged, changes = append(judged, st), append(changes, ch)
			}
		}
	}
	out, err := inForce.Judge(ctx, call, changes, true)
	if err != nil {
		return nil, err
	}
	for i, st := range judged {
		j := out.Each[i]
		st.Change.Warnings = append(st.Change.Warnings, j.Warnings...)
		if len(j.Errors) == 0 {
			continue
		}
		for _, e := range j.Errors {
			e := *e
			e.Field = documentField(st.Change.Index, e.Field)
			st.Change.Errors = append(st.Change.Errors, &e)
		}
		st.Change.Wanted, st.Change.Action = st.Change.Action, ascode.ActionRefused
		st.Do, st.Batch = nil, nil
	}
	var budget []portal.BudgetLine
	for _, d := range rules.Dimensions() {
		if l, ok := out.Limits[d]; ok {
			budget = append(budget, portal.BudgetLine{Dimension: d, Use: out.Use[d], Limit: &l})
		}
	}
	return budget, nil
}

// prune plans deleting what the document does not declare, kind by kind;
// a resource is deleted after the deletes of those that use it.
func (s *Service) prune(call *gate.Call, observed map[string]Observed, declared []*Step) []*Step {
	keep := map[string]bool{}
	for _, st := range declared {
		keep[st.Key] = true
	}
	var out []*Step
	for _, k := range s.kinds {
		if k.Prunes() {
			out = append(out, k.Prune(call, observed[k.Kind()], keep)...)
		}
	}
	for _, st := range out {
		for _, other := range out {
			if slices.Contains(other.Frees, st.Key) {
				st.Needs = append(st.Needs, other.Key)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *Step) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// kindOfChange maps a planned change's kind ("identity-pool") to the
// document's ("IdentityPool").
func kindOfChange(change string) string {
	if k := portal.DocumentKind(change); k != "" {
		return k
	}
	return change
}

// refuseDuplicates refuses resources declared more than once.
func refuseDuplicates(steps []*Step) {
	first := map[string]int{}
	for i, st := range steps {
		if st.Change.Name == "" {
			continue // no name to compare: its own problem is reported
		}
		if j, seen := first[st.Key]; seen {
			st.Change.Errors = append(st.Change.Errors, portal.Invalid("name", "%s %s is declared twice (also items[%d])", st.Change.Kind, st.Change.Name, steps[j].Change.Index))
			continue
		}
		first[st.Key] = i
	}
}

// authorize refuses a change the caller may not make here (the policy's
// refusal first; not for a review, which a reviewer's role decides), or
// one with problems; field names are made the
// document's (items[2].spec.partitions).
func authorize(call *gate.Call, st *Step, action access.Action, skipForbidden, review bool) {
	c := &st.Change
	var errs []*portal.Error
	forbidden := false
	if c.Action != ascode.ActionUnchanged && !review {
		what := c.Action + " " + plural(strings.ReplaceAll(c.Kind, "-", " "))
		if err := access.Check(call.Principal, call.Scope, action, what); err != nil {
			errs = append(errs, portal.Problems(err)...)
			forbidden = portal.Is(err, portal.InsufficientRole)
		}
	}
	errs = append(errs, c.Errors...)
	c.Errors = nil
	for _, e := range errs {
		e := *e
		e.Cause = nil
		e.Field = documentField(c.Index, e.Field)
		c.Errors = append(c.Errors, &e)
	}
	switch {
	case len(c.Errors) == 0:
	case forbidden && skipForbidden:
		// Not the caller's to change: said why, and out of the way of
		// the rest (its own problems would be someone else's to fix).
		c.Errors = c.Errors[:1]
		c.Wanted, c.Action = c.Action, ascode.ActionSkipped
		st.Do = nil
	default:
		c.Wanted, c.Action = c.Action, ascode.ActionRefused
		st.Do = nil
	}
}

// documentField names a service's field by its place in the document.
func documentField(index int, field string) string {
	if index < 0 {
		return field
	}
	item := fmt.Sprintf("items[%d]", index)
	switch {
	case field == "":
		return item
	case field == "name":
		return item + ".metadata.name"
	case field == "description":
		return item + ".metadata.description"
	case field == "partitions_count":
		return item + ".spec.partitions"
	case field == "config.connector.class":
		return item + ".spec.class"
	}
	camel := map[string]string{"schema_type": "schemaType", "subject_type": "subjectType", "identity_claim": "identityClaim"}
	if c, ok := camel[field]; ok {
		field = c
	}
	return item + ".spec." + field
}

// order puts the steps in the order they are applied: creates and
// updates in the kinds' order, deletes the other way round.
func (s *Service) order(steps []*Step) {
	rank := func(st *Step) int {
		_, i := s.kind(kindOfChange(st.Change.Kind))
		if st.Change.Action == ascode.ActionDelete || st.Change.Wanted == ascode.ActionDelete {
			return 2*len(s.kinds) - i
		}
		return i
	}
	slices.SortStableFunc(steps, func(a, b *Step) int { return cmp.Compare(rank(a), rank(b)) })
}

// fingerprint digests the plan's decisions and the upstream state they
// were made on: apply refuses when either changed since the review.
// Secret values are not part of it.
func fingerprint(p ascode.Plan, steps []*Step) string {
	type entry struct {
		Key, Action, Wanted, State string
		Diff                       []ascode.FieldChange
	}
	entries := make([]entry, len(steps))
	for i, st := range steps {
		entries[i] = entry{Key: st.Key + "#" + fmt.Sprint(st.Change.Index), Action: st.Change.Action, Wanted: st.Change.Wanted, State: st.State, Diff: st.Change.Diff}
	}
	b, _ := json.Marshal(struct {
		BU, Stage string
		Prune     bool
		Entries   []entry
	}{p.BU, p.Stage, p.Prune, entries})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Export returns the unit's resources as a document: names and topic
// references as identifiers, so that planning it in another stage is a
// promotion, and secrets as references to environment variables.
func (s *Service) Export(ctx context.Context, scope portal.Scope) (ascode.Document, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "export resources")
	if err != nil {
		return ascode.Document{}, err
	}
	call = call.Unit()
	var doc ascode.Document
	for _, k := range s.kinds {
		obs, err := k.Observe(ctx, call, nil)
		if err != nil {
			return ascode.Document{}, err
		}
		res, err := k.Export(ctx, call, obs)
		if err != nil {
			return ascode.Document{}, err
		}
		doc.Resources = append(doc.Resources, res...)
	}
	return doc, nil
}

// plural names a kind's resources in a refusal ("topics", "policies").
func plural(kind string) string {
	if k, ok := strings.CutSuffix(kind, "y"); ok {
		return k + "ies"
	}
	return kind + "s"
}
