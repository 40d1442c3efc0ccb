package plans

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/requestid"
)

// ApplyBudget bounds how long the changes of one apply may take.
const ApplyBudget = 10 * time.Minute

// Apply plans doc again and, when nothing is refused and the plan is the
// one reviewed (its fingerprint), makes the changes in order. A change
// whose prerequisite failed is skipped; the others go on, and the result
// says what was applied. One audit event summarises the apply; each change
// is audited by its service under the same request id.
func (s *Service) Apply(ctx context.Context, scope portal.Scope, doc ascode.Document, fingerprint string) (ascode.Plan, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "apply changes")
	if err != nil {
		return ascode.Plan{}, err
	}
	// One apply per unit and stage at a time, on any replica: the second
	// of two applies of one plan finds it stale.
	unlock, err := s.guard.LockOuter(ctx, "apply "+call.Scope.String())
	if err != nil {
		return ascode.Plan{}, err
	}
	defer unlock()
	plan, steps, err := s.plan(ctx, call, doc)
	if err != nil {
		return ascode.Plan{}, err
	}
	if err := refusals(plan); err != nil {
		s.guard.Record(ctx, call, portal.ActResourcesApply, call.Scope.String(), err)
		return plan, err
	}
	fingerprint = strings.Trim(strings.TrimSpace(fingerprint), `"`)
	if fingerprint == "" {
		e := portal.Missing("If-Match")
		e.Message = "If-Match is required: send the fingerprint of the plan you reviewed (POST .../plan first)"
		return plan, e
	}
	if plan.Fingerprint != fingerprint {
		return plan, portal.New(portal.Conflict,
			"the plan is stale: the document or the unit's resources changed since plan %s was made (it is now %s); plan again and review",
			short(fingerprint), short(plan.Fingerprint))
	}
	if !plan.HasChanges() {
		return plan, nil
	}
	plan.AuditID = requestid.From(ctx)
	// The apply's own outcome (how many changes failed) is the trail's;
	// its answer is the plan, each change with its outcome.
	finished := false
	err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActResourcesApply, Resource: call.Scope.String(),
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			changes, journalled, err := s.run(ctx, w, call, doc, &plan, steps)
			finished = journalled
			return changes, err
		}})
	if !finished {
		return plan, err
	}
	return plan, nil
}

// runBatch makes, with steps[first], every later step of the same batch
// whose prerequisites stand, and keeps each one's error in done.
func runBatch(ctx context.Context, steps []*Step, first int, broken map[string]string, done map[int]error) {
	key := steps[first].Batch.Key
	var idx []int
	var items []any
	for j := first; j < len(steps); j++ {
		st := steps[j]
		if st.Do == nil || st.Batch == nil || st.Batch.Key != key || firstBroken(st, broken) != "" {
			continue
		}
		idx, items = append(idx, j), append(items, st.Item)
	}
	errs := steps[first].Batch.Run(ctx, items)
	for k, j := range idx {
		done[j] = errs[k]
	}
}

// doStep makes a step: its batch's outcome when it was made with one,
// else alone.
func doStep(ctx context.Context, st *Step, i int, done map[int]error) error {
	if err, made := done[i]; made {
		return err
	}
	return st.Do(ctx)
}

// refusals gathers the problems of every refused change into one error
// (policy refusals first, which sets the status), or nil.
func refusals(p ascode.Plan) error {
	var v portal.Validation
	for _, c := range p.Changes {
		if c.Action == ascode.ActionRefused {
			for _, e := range c.Errors {
				v.Add(e)
			}
		}
	}
	rank := func(e *portal.Error) int {
		switch e.Kind {
		case portal.InsufficientRole, portal.ReadOnlyEnvironment:
			return 0
		}
		return 1
	}
	slices.SortStableFunc(v.Problems, func(a, b *portal.Error) int { return cmp.Compare(rank(a), rank(b)) })
	return v.Err()
}

func firstBroken(st *Step, broken map[string]string) string {
	for _, need := range st.Needs {
		if why, ok := broken[need]; ok {
			return why
		}
	}
	return broken[st.Key]
}

func short(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// run makes an apply's steps as its write's steps: the journal first
// (which names the write's attempt), then each change in order, each
// with its outcome in plan; journalled says whether the journal holds
// the outcome. The write's outcome says how many changes failed.
func (s *Service) run(ctx context.Context, w *gate.Write, call *gate.Call, doc ascode.Document, plan *ascode.Plan, steps []*Step) (_ []trail.Change, journalled bool, _ error) {
	journal, err := s.journalApply(ctx, call, doc, *plan, w.ID())
	if err != nil {
		return nil, false, err
	}
	// An apply that started finishes even when its caller goes away: a
	// half-made plan is worse than a finished one nobody waited for. The
	// budget bounds it; what it does not reach is skipped and reported.
	stepCtx, cancel := context.WithTimeout(gate.WithApplyStep(context.WithoutCancel(ctx)), ApplyBudget)
	defer cancel()
	broken := map[string]string{}
	for _, st := range steps {
		if st.Change.Action == ascode.ActionSkipped {
			broken[st.Key] = st.Change.Kind + " " + st.Change.Name + " is not yours to change"
		}
	}
	var changes []trail.Change
	failed := 0
	done := map[int]error{}
	for i, st := range steps {
		c := &plan.Changes[i]
		if st.Do == nil {
			continue
		}
		if st.Batch != nil && stepCtx.Err() == nil && firstBroken(st, broken) == "" {
			if _, made := done[i]; !made {
				runBatch(stepCtx, steps, i, broken, done)
			}
		}
		if stepCtx.Err() != nil {
			broken[st.Key] = fmt.Sprintf("the apply ran out of time (%s)", ApplyBudget)
		}
		if why := firstBroken(st, broken); why != "" {
			c.Outcome = ascode.OutcomeSkipped
			c.Error = portal.New(portal.Conflict, "not tried: %s", why)
			broken[st.Key] = c.Kind + " " + c.Name + " was skipped"
		} else if err := doStep(stepCtx, st, i, done); err != nil {
			c.Issued = st.Issued
			c.Outcome = ascode.OutcomeFailed
			c.Error = portal.ItemError(err)
			if c.Error.Kind == portal.Internal {
				s.guard.Log().ErrorContext(ctx, "a change of an apply failed", "change", st.Key, "error", err)
			}
			broken[st.Key] = c.Kind + " " + c.Name + " failed"
			failed++
		} else {
			c.Issued = st.Issued
			c.Outcome = ascode.OutcomeApplied
		}
		changes = append(changes, trail.Change{Field: c.Kind + "/" + c.Name, Before: c.Action, After: c.Outcome})
	}
	var summary error
	if failed > 0 {
		summary = portal.New(portal.Conflict, "%d of %d changes failed; plan again to see what remains", failed, len(changes))
	}
	changes = append(changes, trail.Change{Field: "fingerprint", After: plan.Fingerprint})
	s.finishJournal(ctx, journal, *plan)
	return changes, true, summary
}
