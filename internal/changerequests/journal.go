package changerequests

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// An approval is a journal in the request's record: the request is
// first recorded applying, with the plan being applied and the
// approval's audit attempt, then the plan is applied, then the request
// is recorded applied (or partly applied) with each change's outcome. A
// replica that stops in between leaves the request applying, which says
// so; Resume finishes it on any replica.

// apply records r applying the plan planned (checked against the
// request), applies it as the caller and records the outcome.
func (s *Service) apply(ctx context.Context, call *gate.Call, scope portal.Scope, r store.RequestRecord, doc ascode.Document, planned ascode.Plan,
	comment string) (changerequest.ChangeRequest, error) {
	var next store.RequestRecord
	err := s.guard.Write(ctx, call, gate.Change{Event: portal.ActChangeRequestApprove, Resource: r.ID,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			r.State, r.DecidedBy, r.Decided, r.Comment, r.Event = changerequest.RequestApplying, call.Principal.Actor(), s.guard.Now().UTC(), strings.TrimSpace(comment), w.ID()
			r.Result, _ = json.Marshal(planned)
			ok, err := s.store.DecideRequest(ctx, r, changerequest.RequestOpen)
			if err == nil && !ok {
				err = portal.New(portal.Conflict, "change request %s was decided meanwhile", r.ID)
			}
			if err != nil {
				return nil, err
			}
			// Every change's event says on whose request it was made.
			applyCtx := gate.WithApproval(gate.WithNote(ctx, "approved by "+call.Principal.Actor()+" on change request "+r.ID+" of "+r.Requester))
			result, err := s.plans.Apply(applyCtx, scope, doc, r.Fingerprint)
			var changes []trail.Change
			next, changes, err = s.finish(ctx, r, result, err)
			return changes, err
		}})
	return s.answer(call, next, err)
}

// answer is an approval's answer: the request as it is now, or why its
// apply failed (a stale request's says so).
func (s *Service) answer(call *gate.Call, next store.RequestRecord, err error) (changerequest.ChangeRequest, error) {
	if err != nil {
		if next.State == changerequest.RequestStale {
			return changerequest.ChangeRequest{}, portal.Wrap(err, portal.Conflict, "change request %s is stale: %s", next.ID, portal.FirstMessage(err))
		}
		return changerequest.ChangeRequest{}, err
	}
	return s.view(call, next), nil
}

// finish records the outcome of an applying request's apply (result, or
// err when nothing was applied): the request as it is now, what changed
// for the trail and the outcome.
func (s *Service) finish(ctx context.Context, r store.RequestRecord, result ascode.Plan, err error) (store.RequestRecord, []trail.Change, error) {
	next := r
	next.Event = 0
	switch {
	case err != nil && portal.Is(err, portal.Conflict):
		next.State, next.Comment, next.Result = changerequest.RequestStale, portal.FirstMessage(err), nil
	case err != nil:
		// Nothing was applied: the request is open again.
		next.State, next.DecidedBy, next.Decided, next.Comment, next.Result = changerequest.RequestOpen, "", time.Time{}, "", nil
	default:
		next.State = changerequest.RequestApplied
		for _, c := range result.Changes {
			if c.Outcome == ascode.OutcomeFailed || c.Outcome == ascode.OutcomeSkipped {
				next.State = changerequest.RequestPartlyApplied
			}
		}
		for i := range result.Changes {
			result.Changes[i].Issued = nil // never stored: no key is made by a request
		}
		next.Result, _ = json.Marshal(result)
	}
	ok, derr := s.store.DecideRequest(context.WithoutCancel(ctx), next, changerequest.RequestApplying)
	if derr == nil && !ok {
		derr = portal.New(portal.Conflict, "change request %s was finished meanwhile", r.ID)
	}
	if err == nil {
		err = derr
	} else if derr != nil {
		s.guard.Log().ErrorContext(ctx, "a change request's outcome could not be recorded; it will be finished later", "request", r.ID, "err", derr)
	}
	return next, []trail.Change{{Field: "state", Before: changerequest.RequestOpen, After: next.State}, {Field: "requester", After: r.Requester},
		{Field: "apply_request_id", After: result.AuditID}}, err
}

// Resume finishes the approved requests applying for longer than
// stoppedAfter, whose replica stopped (a running apply holds the
// request's lock, and is waited for). It returns how many it finished.
func (s *Service) Resume(ctx context.Context, stoppedAfter time.Duration) (int, error) {
	recs, err := s.store.RequestsInState(ctx, changerequest.RequestApplying, 50)
	if err != nil {
		return 0, err
	}
	return gate.FinishStopped(s.guard.Now(), stoppedAfter, recs, func(r store.RequestRecord) time.Time { return r.Decided },
		func(r store.RequestRecord) (bool, error) { return s.resume(ctx, r) })
}

// resume finishes one apply, under the request's lock, if it is still
// under way: the document is planned again; when what is left to do was
// all in the approved plan, it is applied (as the portal, on the
// approver's decision), else the request is recorded partly applied
// with what was made and what was not.
func (s *Service) resume(ctx context.Context, r store.RequestRecord) (bool, error) {
	ctx, call, err := s.guard.Portal(ctx, r.BU, r.Stage)
	if err != nil {
		return false, nil // a unit or stage no longer configured: kept for an operator
	}
	unlock, err := s.guard.Lock(ctx, "change-request "+r.ID)
	if err != nil {
		return false, err
	}
	defer unlock()
	now, err := s.store.RequestRecord(ctx, r.ID)
	if err != nil || now.State != changerequest.RequestApplying || now.Event != r.Event {
		return false, nil // finished meanwhile
	}
	var doc ascode.Document
	var approved ascode.Plan
	if err := json.Unmarshal(now.Document, &doc); err != nil {
		return false, err
	}
	_ = json.Unmarshal(now.Result, &approved)
	left, err := s.plans.Review(ctx, call.Unit(), doc)
	if err != nil {
		return false, nil // the upstream cannot be planned now: next round
	}
	_ = s.guard.Write(ctx, call, gate.Change{Event: portal.ActChangeRequestApprove, Resource: r.ID, Resume: true, Attempt: r.Event,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			w.Note("finished by the portal after the replica applying it stopped")
			var result ascode.Plan
			var applied error
			failure := "a stopped apply could not be recorded"
			if plans.Within(left, approved) {
				applyCtx := gate.WithApproval(gate.WithNote(ctx, "approved by "+now.DecidedBy+" on change request "+r.ID+" of "+r.Requester+
					", finished by the portal after the replica applying it stopped"))
				if result, applied = s.plans.Apply(applyCtx, call.Named(), doc, left.Fingerprint); applied == nil {
					result = plans.Merged(approved, result)
				}
				failure = "a stopped apply could not be finished"
			} else {
				result = plans.Merged(approved, left)
				for i, c := range result.Changes {
					if c.Outcome == ascode.OutcomeSkipped {
						result.Changes[i].Error = portal.New(portal.Conflict, "not applied: the apply stopped part way and the unit's resources changed since; plan the document again")
					}
				}
			}
			_, changes, err := s.finish(ctx, now, result, applied)
			if err != nil {
				s.guard.Log().WarnContext(ctx, failure, "request", r.ID, "err", err)
			}
			return changes, err
		}})
	return true, nil
}
