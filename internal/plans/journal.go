package plans

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// A direct apply is a journal: recorded applying, with its document, the
// plan being applied and its audit attempt, before its first change;
// finished with each change's outcome. An apply holds its scope's lock
// until its journal is finished, so that a journal still applying once
// the lock is had is one whose replica stopped: Resume finishes it on
// any replica. An approved change request's apply is journaled by its
// request instead.

// Journal keeps the service's applies in st.
func (s *Service) Journal(st store.Applies) { s.journal = st }

// resumingKey marks the apply that finishes a stopped one: it is
// journaled by the one it finishes.
type resumingKey struct{}

// journalApply records an apply about to make plan's changes; it returns
// the journal ("" when none is kept).
func (s *Service) journalApply(ctx context.Context, call *gate.Call, doc ascode.Document, plan ascode.Plan, event int64) (string, error) {
	if s.journal == nil || gate.Approved(ctx) || ctx.Value(resumingKey{}) != nil {
		return "", nil
	}
	docJSON, _ := json.Marshal(withoutSecrets(doc))
	planJSON, _ := json.Marshal(plan)
	j := store.ApplyRecord{ID: "ap-" + rand.Text(), BU: call.Scope.Unit.ID, Stage: call.Scope.Stage.Name, Actor: call.Principal.Actor(),
		Document: docJSON, Plan: planJSON, State: changerequest.RequestApplying, Event: event, Started: s.guard.Now().UTC()}
	if err := s.journal.CreateApply(ctx, j); err != nil {
		return "", portal.Wrap(err, portal.UpstreamUnavailable, "the apply could not be journaled, so nothing was changed; try again shortly")
	}
	return j.ID, nil
}

// withoutSecrets is doc without its connectors' secret values: a journal
// is kept in the database, a secret never is. A stopped apply whose
// connector with secrets was not made yet is not finished by the portal
// (it has not the secrets): the journal says to apply again.
func withoutSecrets(doc ascode.Document) ascode.Document {
	out := doc
	out.Resources = append([]portal.Resource(nil), doc.Resources...)
	for i, r := range out.Resources {
		d := portal.DeclOf[portal.ConnectorDecl](r)
		if d == nil || len(d.Secrets) == 0 {
			continue
		}
		c := *d
		c.Secrets = map[string]portal.SecretRef{}
		for k, ref := range d.Secrets {
			c.Secrets[k] = portal.SecretRef{FromEnv: ref.FromEnv}
		}
		out.Resources[i].Spec = &c
	}
	return out
}

// needsSecrets tells whether a change still to be made in left is of a
// connector whose secrets the journal does not keep.
func needsSecrets(doc ascode.Document, left ascode.Plan) bool {
	withSecrets := map[int]bool{}
	for i, r := range doc.Resources {
		if d := portal.DeclOf[portal.ConnectorDecl](r); d != nil && len(d.Secrets) > 0 {
			withSecrets[i] = true
		}
	}
	for _, c := range left.Changes {
		if (pending(c) || c.Action == ascode.ActionRefused) && c.Index >= 0 && withSecrets[c.Index] {
			return true
		}
	}
	return false
}

// finishJournal records an apply's outcome in its journal.
func (s *Service) finishJournal(ctx context.Context, id string, result ascode.Plan) {
	if id == "" {
		return
	}
	if err := s.finish(context.WithoutCancel(ctx), id, result); err != nil {
		// Left applying, the journal is finished by Resume, which finds
		// nothing left to do and records the outcome then.
		s.guard.Log().ErrorContext(ctx, "an apply's outcome could not be journaled; it will be finished later", "apply", id, "err", err)
	}
}

func (s *Service) finish(ctx context.Context, id string, result ascode.Plan) error {
	// A copy: the caller's answer keeps the keys it issued.
	result.Changes = append([]ascode.PlannedChange(nil), result.Changes...)
	state := changerequest.RequestApplied
	for i, c := range result.Changes {
		if c.Outcome == ascode.OutcomeFailed || c.Outcome == ascode.OutcomeSkipped {
			state = changerequest.RequestPartlyApplied
		}
		result.Changes[i].Issued = nil // secrets are never journaled
	}
	out, _ := json.Marshal(result)
	_, err := s.journal.FinishApply(ctx, store.ApplyRecord{ID: id, State: state, Finished: s.guard.Now().UTC(), Result: out})
	return err
}

// Resume finishes the applies journaled for longer than stoppedAfter
// whose replica stopped. It returns how many it finished.
func (s *Service) Resume(ctx context.Context, stoppedAfter time.Duration) (int, error) {
	if s.journal == nil {
		return 0, nil
	}
	recs, err := s.journal.AppliesInState(ctx, changerequest.RequestApplying, 20)
	if err != nil {
		return 0, err
	}
	return gate.FinishStopped(s.guard.Now(), stoppedAfter, recs, func(j store.ApplyRecord) time.Time { return j.Started },
		func(j store.ApplyRecord) (bool, error) { return s.resume(ctx, j) })
}

// resume finishes one stopped apply: the document is planned again; when
// what is left was all in the journaled plan it is applied (as the
// portal, for the person who applied it), else the journal is finished
// partly applied with what was made and what was not. The apply's audit
// attempt is settled with the outcome.
func (s *Service) resume(ctx context.Context, j store.ApplyRecord) (bool, error) {
	ctx, call, err := s.guard.Portal(ctx, j.BU, j.Stage)
	if err != nil {
		return false, nil // a unit or stage no longer configured: kept for an operator
	}
	unlock, err := s.guard.LockOuter(ctx, "apply "+call.Scope.String())
	if err != nil {
		return false, err
	}
	now, err := s.journal.ApplyRecord(ctx, j.ID)
	unlock()
	if err != nil || now.State != changerequest.RequestApplying {
		return false, nil // finished meanwhile
	}
	var doc ascode.Document
	var journaled ascode.Plan
	if err := json.Unmarshal(now.Document, &doc); err != nil {
		return false, err
	}
	_ = json.Unmarshal(now.Plan, &journaled)
	left, _, err := s.plan(ctx, call.Unit(), doc)
	if err != nil {
		return false, nil // the upstream cannot be planned now: next round
	}
	// The journal's state is written before the attempt is settled: a
	// crash between the two leaves the attempt to the next round.
	var ran bool
	var finishErr error
	err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActResourcesApply, Resource: call.Scope.String(), Resume: true, Attempt: now.Event,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			ran = true
			w.Note("finished by the portal after the replica applying it stopped")
			result := Merged(journaled, left)
			var outcome error
			switch {
			case needsSecrets(doc, left):
				outcome = portal.New(portal.Conflict, "the apply stopped before a connector with secrets was made, and the portal does not keep secrets: apply the document again")
			case Within(left, journaled):
				rctx := context.WithValue(gate.WithNote(ctx, "applied by "+now.Actor+", finished by the portal after the replica applying it stopped"), resumingKey{}, true)
				after, err := s.Apply(rctx, call.Named(), doc, left.Fingerprint)
				if err == nil {
					result = Merged(journaled, after)
				}
				outcome = err
			default:
				outcome = portal.New(portal.Conflict, "the apply stopped part way and the unit's resources changed since: plan the document again")
			}
			failed := 0
			var changes []trail.Change
			for i, c := range result.Changes {
				if !pending(c) {
					continue
				}
				if c.Outcome == ascode.OutcomeSkipped && c.Error == nil {
					result.Changes[i].Error = portal.New(portal.Conflict, "not applied: %s", portal.FirstMessage(outcome))
				}
				if c.Outcome != ascode.OutcomeApplied {
					failed++
				}
				changes = append(changes, trail.Change{Field: c.Kind + "/" + c.Name, Before: c.Action, After: c.Outcome})
			}
			if outcome == nil && failed > 0 {
				outcome = portal.New(portal.Conflict, "%d of %d changes failed; plan again to see what remains", failed, len(changes))
			}
			if finishErr = s.finish(ctx, j.ID, result); finishErr != nil {
				w.Leave() // the next round finds the journal applying, and settles it
				return changes, finishErr
			}
			return changes, outcome
		}})
	switch {
	case !ran:
		return false, err
	case finishErr != nil:
		return false, finishErr
	}
	return true, nil
}
