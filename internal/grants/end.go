package grants

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Nothing outlives what it was for: a grant names a topic and a principal,
// and a delete of either ends it. The delete ends its grants first, as
// the first step of its own write: each active grant is journalled as
// ending (so that a replica that stops in between leaves it for any
// other to finish, as a revoke), its role bindings are removed by
// looking, and it is recorded ended; a request on it is closed. Only then
// is the resource deleted, so that no moment exists in which it is gone
// and its bindings are not: a topic made again under the name starts
// with no other unit's access.

// Ends is what a delete takes away that grants may name.
type Ends struct {
	// Topic is a full topic name: the grants on exactly that topic end (a
	// grant on a prefix covers the topics made under it later, and stays).
	Topic string
	// Principal is a service account's or identity pool's id: the grants
	// for it end.
	Principal string
}

// End ends, ahead of a delete that call makes, every grant of call's zone
// and stage that names what the delete takes away, each with its own
// audit event (grant.end) that says why (cause: "topic x is deleted by
// bob"). It returns the delete's changes, one per grant ended; an error
// when a grant could not be ended (its role bindings still held), which
// must stop the delete.
func (s *Service) End(ctx context.Context, call *gate.Call, what Ends, cause string) ([]trail.Change, error) {
	recs, err := s.store.GrantsNaming(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name, what.Topic, what.Principal, maxListed)
	if err != nil {
		return nil, err
	}
	var changes []trail.Change
	unbound := false
	for _, r := range recs {
		ended, err := s.end(ctx, call, r, cause)
		if err != nil {
			return changes, portal.Wrap(err, portal.KindOf(err), "grant %s (%s access of %s) could not be ended, so nothing was deleted: %s",
				r.ID, r.Access, r.PrincipalName, portal.FirstMessage(err))
		}
		if ended {
			changes = append(changes, trail.Change{Field: "grant", Before: r.ID + " (" + r.Access + " access of " + r.Grantee + "'s " + r.PrincipalName + ")",
				After: grant.GrantEnded})
			unbound = unbound || r.State != grant.GrantRequested
		}
	}
	if unbound && s.bindingDelay > 0 {
		// The platform enforces a removed binding some time after it is
		// removed: until then the resource stays, so that nothing made
		// again under its name is readable by the grant's principal.
		t := time.NewTimer(s.bindingDelay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return changes, portal.Wrap(ctx.Err(), portal.UpstreamTimeout, "the grants on it were ended, but it was not deleted: ask again")
		}
	}
	return changes, nil
}

// end ends one grant under the locks a decision takes (inner ones: the
// delete holds its resource's), read again under them.
func (s *Service) end(ctx context.Context, call *gate.Call, r store.GrantRecord, cause string) (bool, error) {
	unlock, err := s.guard.LockInner(ctx, "grant "+r.ID, "grant-principal "+r.Principal)
	if err != nil {
		return false, err
	}
	defer unlock()
	now, err := s.store.GrantRecord(ctx, r.ID)
	if err != nil {
		return false, err
	}
	switch now.State {
	case grant.GrantRequested:
		// A request holds no binding: it is closed.
		err := s.endWrite(ctx, call, now, cause, func(ctx context.Context, _ *gate.Write) ([]trail.Change, error) {
			now.State, now.DecidedBy, now.Decided, now.Comment = grant.GrantEnded, call.Principal.Actor(), s.guard.Now().UTC(), cause
			err := s.update(ctx, now, grant.GrantRequested)
			return append(describe(now), trail.Change{Field: "state", Before: grant.GrantRequested, After: grant.GrantEnded}), err
		})
		return err == nil, err
	case grant.GrantActive, grant.GrantApproving, grant.GrantEnding:
		// An approval or an ending whose replica stopped is ended too: what
		// it made is removed by looking.
		err := s.endWrite(ctx, call, now, cause, func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			from := now.State
			now.State, now.DecidedBy, now.Decided, now.Comment, now.Event = grant.GrantEnding, call.Principal.Actor(), s.guard.Now().UTC(), cause, w.ID()
			if from != grant.GrantEnding {
				if err := s.update(ctx, now, from); err != nil {
					return nil, err
				}
			}
			_, changes, err := s.finishRevoke(ctx, call, now, grant.GrantEnded)
			return changes, err
		})
		return err == nil, err
	case grant.GrantRevoking:
		// A revoke (or an expiry) whose replica stopped: finished now, as
		// what it was, before its topic or principal goes.
		err := s.guard.Write(ctx, call, gate.Change{Event: revokeEvent(now), Resource: r.ID, Resume: true, Attempt: now.Event,
			Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
				w.Note("finished by a delete after the replica that began it stopped")
				_, changes, err := s.finishRevoke(ctx, call, now, revokedState(now))
				return changes, err
			}})
		return false, err
	}
	// Closed meanwhile.
	return false, nil
}

// endWrite makes a grant's end (steps) as a write whose attempt says
// why, or takes up the one an ending whose replica stopped left.
func (s *Service) endWrite(ctx context.Context, call *gate.Call, r store.GrantRecord, cause string, steps func(ctx context.Context, w *gate.Write) ([]trail.Change, error)) error {
	resume := r.State == grant.GrantEnding && r.Event != 0
	note := cause
	if resume {
		note = cause + "; finished by a later delete after the replica that began it stopped"
	}
	return s.guard.Write(ctx, call, gate.Change{Event: portal.ActGrantEnd, Resource: r.ID, Resume: resume, Attempt: r.Event,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			w.Note(note)
			return steps(ctx, w)
		}})
}
