package service

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Declarations plans and applies desired-state documents. Plans read the
// unit's upstream state with one list per kind and check each change with
// the same validation and policy as the individual calls; applies make the
// changes through the other services, so that every rule, audit event and
// cache update of a single call holds for each change.
type Declarations struct {
	guard      *gate.Guard
	topics     *Topics
	schemas    *Schemas
	connectors *Connectors
	accounts   *ServiceAccounts
	pools      *IdentityPools
}

var _ portal.DeclarationService = (*Declarations)(nil)

// NewDeclarations returns the service of resources as code.
func NewDeclarations(g *gate.Guard, t *Topics, sc *Schemas, c *Connectors, a *ServiceAccounts, p *IdentityPools) *Declarations {
	return &Declarations{guard: g, topics: t, schemas: sc, connectors: c, accounts: a, pools: p}
}

// step is one planned change with what applying it takes.
type step struct {
	change portal.PlannedChange
	// key names the resource in the plan ("topic/<full name>").
	key string
	// needs are the keys of changes that must succeed before this one.
	needs []string
	// state is the upstream state the change was planned against, for
	// the fingerprint.
	state string
	// do makes the change through a service; nil for nothing to do.
	do func(ctx context.Context) error
}

func (st *step) diff(field string, before, after *string) {
	if before == nil && after == nil || before != nil && after != nil && *before == *after {
		return
	}
	st.change.Diff = append(st.change.Diff, portal.FieldChange{Field: field, Before: before, After: after})
}

func (st *step) diffMaps(prefix string, before, after map[string]string) {
	keys := slices.Sorted(maps.Keys(before))
	for k := range after {
		if _, ok := before[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		st.diff(prefix+k, ptrIf(before, k), ptrIf(after, k))
	}
}

// decide sets the action from the diff: create when the resource is new,
// update when a field differs.
func (st *step) decide(exists bool) {
	switch {
	case !exists:
		st.change.Action = portal.ActionCreate
	case len(st.change.Diff) > 0:
		st.change.Action = portal.ActionUpdate
	default:
		st.change.Action = portal.ActionUnchanged
		st.do = nil
	}
}

func ptr(s string) *string { return &s }

func ptrIf(m map[string]string, k string) *string {
	if v, ok := m[k]; ok {
		return &v
	}
	return nil
}

// Plan works out what applying doc would change, changing nothing.
func (s *Declarations) Plan(ctx context.Context, scope portal.Scope, doc portal.Document) (portal.Plan, error) {
	call, err := s.guard.Enter(ctx, scope, access.Read, "plan changes")
	if err != nil {
		return portal.Plan{}, err
	}
	plan, _, err := s.plan(ctx, call, doc)
	return plan, err
}

func (s *Declarations) plan(ctx context.Context, call *gate.Call, doc portal.Document) (portal.Plan, []*step, error) {
	if doc.Prune && len(doc.Resources) == 0 {
		return portal.Plan{}, nil, portal.Invalid("prune", "prune with a document that declares nothing would delete every topic, connector and identity pool of the unit; declare what stays")
	}
	call = call.Unit()
	obs, err := s.observe(ctx, call, kindsOf(doc))
	if err != nil {
		return portal.Plan{}, nil, err
	}
	var existing []string
	for _, r := range doc.Resources {
		if r.Kind != portal.KindTopic {
			continue
		}
		if full := topicName(call, &portal.Validation{}, s.rebase(call, r.Name)); full != "" && !slices.Contains(existing, full) {
			if _, ok := obs.topic(full); ok {
				existing = append(existing, full)
			}
		}
	}
	if err := s.describe(ctx, call, obs, existing); err != nil {
		return portal.Plan{}, nil, err
	}
	steps := make([]*step, 0, len(doc.Resources))
	for i, r := range doc.Resources {
		if !hasSpec(r) {
			return portal.Plan{}, nil, portal.Missing(fmt.Sprintf("items[%d].spec", i))
		}
		var st *step
		switch r.Kind {
		case portal.KindTopic:
			st, err = s.planTopic(ctx, call, obs, r)
		case portal.KindSchema:
			st, err = s.planSchema(ctx, call, obs, r)
		case portal.KindConnector:
			st, err = s.planConnector(ctx, call, obs, r)
		case portal.KindServiceAccount:
			st = s.planAccount(call, obs, r)
		case portal.KindIdentityPool:
			st = s.planPool(call, obs, r)
		default:
			return portal.Plan{}, nil, portal.Invalid(fmt.Sprintf("items[%d].kind", i), "kind %q is not known", r.Kind)
		}
		if err != nil {
			return portal.Plan{}, nil, err
		}
		st.change.Index, st.change.Identifier = i, r.Name
		steps = append(steps, st)
	}
	refuseDuplicates(steps)
	if doc.Prune {
		steps = append(steps, s.prune(call, obs, steps)...)
	}
	for _, st := range steps {
		authorize(call, st)
	}
	order(steps)
	plan := portal.Plan{BU: call.Scope.Unit.ID, Stage: call.Scope.Stage.Name, Prune: doc.Prune}
	for _, st := range steps {
		plan.Changes = append(plan.Changes, st.change)
	}
	plan.Fingerprint = fingerprint(plan, steps)
	return plan, steps, nil
}

// hasSpec tells whether a resource carries the spec of its kind.
func hasSpec(r portal.Resource) bool {
	switch r.Kind {
	case portal.KindTopic:
		return r.Topic != nil
	case portal.KindSchema:
		return r.Schema != nil
	case portal.KindConnector:
		return r.Connector != nil
	case portal.KindServiceAccount:
		return r.Account != nil
	case portal.KindIdentityPool:
		return r.Pool != nil
	}
	return true // an unknown kind is refused by name below
}

func kindsOf(doc portal.Document) map[string]bool {
	kinds := map[string]bool{}
	for _, r := range doc.Resources {
		kinds[r.Kind] = true
	}
	if doc.Prune {
		// What prune deletes is found in these lists.
		kinds[portal.KindTopic], kinds[portal.KindConnector], kinds[portal.KindIdentityPool] = true, true, true
	}
	return kinds
}

// refuseDuplicates refuses resources declared more than once.
func refuseDuplicates(steps []*step) {
	first := map[string]int{}
	for i, st := range steps {
		if st.change.Name == "" {
			continue // no name to compare: its own problem is reported
		}
		if j, seen := first[st.key]; seen {
			st.change.Errors = append(st.change.Errors, portal.Invalid("name", "%s %s is declared twice (also items[%d])", st.change.Kind, st.change.Name, steps[j].change.Index))
			continue
		}
		first[st.key] = i
	}
}

// actionOf is the policy's action for writing a kind.
func actionOf(kind string) access.Action {
	if kind == "service-account" || kind == "identity-pool" {
		return access.ManageIdentity
	}
	return access.Write
}

// authorize refuses a change the caller may not make here (the policy's
// refusal first), or one with problems; field names are made the
// document's (items[2].spec.partitions).
func authorize(call *gate.Call, st *step) {
	c := &st.change
	var errs []*portal.Error
	if c.Action != portal.ActionUnchanged {
		what := c.Action + " " + strings.ReplaceAll(c.Kind, "-", " ") + "s"
		if err := access.Check(call.Principal, call.Scope, actionOf(c.Kind), what); err != nil {
			errs = append(errs, portal.Problems(err)...)
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
	if len(c.Errors) > 0 {
		c.Wanted, c.Action = c.Action, portal.ActionRefused
		st.do = nil
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
// updates with what others need first (topics, schemas, connectors,
// accounts, pools), then deletes the other way round.
func order(steps []*step) {
	rank := func(st *step) int {
		i := slices.Index([]string{"topic", "schema", "connector", "service-account", "identity-pool"}, st.change.Kind)
		if st.change.Action == portal.ActionDelete || st.change.Wanted == portal.ActionDelete {
			return 10 - i
		}
		return i
	}
	slices.SortStableFunc(steps, func(a, b *step) int { return cmp.Compare(rank(a), rank(b)) })
}

// fingerprint digests the plan's decisions and the upstream state they
// were made on: apply refuses when either changed since the review.
// Secret values are not part of it.
func fingerprint(p portal.Plan, steps []*step) string {
	type entry struct {
		Key, Action, Wanted, State string
		Diff                       []portal.FieldChange
	}
	entries := make([]entry, len(steps))
	for i, st := range steps {
		entries[i] = entry{Key: st.key + "#" + fmt.Sprint(st.change.Index), Action: st.change.Action, Wanted: st.change.Wanted, State: st.state, Diff: st.change.Diff}
	}
	b, _ := json.Marshal(struct {
		BU, Stage string
		Prune     bool
		Entries   []entry
	}{p.BU, p.Stage, p.Prune, entries})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// rebase turns a name of the unit in any stage into its identifier, so
// that a document written for one stage plans in another; other names
// are kept.
func (s *Declarations) rebase(call *gate.Call, name string) string {
	n := tenancy.Normalise(name)
	for _, st := range s.guard.Tenancy().Stages() {
		if p := (tenancy.Scope{Unit: call.Scope.Unit, Stage: st}).Prefix(); strings.HasPrefix(n, p) && len(n) > len(p) {
			return n[len(p):]
		}
	}
	return name
}
