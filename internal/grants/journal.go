package grants

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// A decision that changes role bindings is a journal in the grant's
// record: the grant is first recorded approving (with the bindings to
// make) or revoking, then the bindings are made or removed, then the
// grant is recorded active or revoked. A replica that stops in between
// leaves the grant approving or revoking, which says so; Resume finishes
// it on any replica, and settles the decision's audit attempt.

// approve records r approving, from state from ("" for a grant given
// without a request, recorded here), then makes its bindings and records
// it active, with its audit event (attempted before anything is made).
func (s *Service) approve(ctx context.Context, call *gate.Call, r store.GrantRecord, event portal.Action, from, comment string) (grant.TopicGrant, error) {
	err := s.guard.Write(ctx, call, gate.Change{Event: event, Resource: r.ID,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			planned, err := s.journal(ctx, call, r)
			if err == nil {
				r.State, r.DecidedBy, r.Decided, r.Comment = grant.GrantApproving, call.Principal.Actor(), s.guard.Now().UTC(), strings.TrimSpace(comment)
				r.Bindings, r.Event, r.Expires = planned, w.ID(), s.expiryOf(r)
				ok := false
				if from == "" {
					err = s.store.CreateGrantRecord(ctx, r)
					ok = err == nil
				} else {
					ok, err = s.store.UpdateGrant(ctx, r, from)
				}
				if err == nil && !ok {
					err = portal.New(portal.Conflict, "grant %s was decided meanwhile", r.ID)
				}
			}
			if err != nil {
				return describe(r), err
			}
			var changes []trail.Change
			r, changes, err = s.finishApproval(ctx, call, r, from)
			return changes, err
		}})
	if err != nil {
		return grant.TopicGrant{}, err
	}
	return s.view(call, r), nil
}

// finishApproval makes the bindings an approving grant's journal lists
// and records it active: the grant as recorded, what changed and the
// outcome, for the decision's write. When they cannot be made the grant
// goes back to from, holding none (a given one is forgotten).
func (s *Service) finishApproval(ctx context.Context, call *gate.Call, r store.GrantRecord, from string) (store.GrantRecord, []trail.Change, error) {
	bindings, err := s.bind(ctx, call, r)
	if err != nil {
		s.undecide(context.WithoutCancel(ctx), r, from)
		return r, describe(r), err
	}
	r.Bindings, r.State, r.Event = bindings, grant.GrantActive, 0
	ok, err := s.store.UpdateGrant(ctx, r, grant.GrantApproving)
	if err == nil && !ok {
		err = portal.New(portal.Conflict, "grant %s was decided meanwhile", r.ID)
	}
	changes := append(describe(r), trail.Change{Field: "state", Before: from, After: grant.GrantActive})
	for _, b := range decodeBindings(r.Bindings) {
		changes = append(changes, trail.Change{Field: "binding", After: b.ID + " " + b.Role + " " + b.Resource + "=" + b.Pattern})
	}
	return r, changes, err
}

// undecide takes back an approval that made nothing.
func (s *Service) undecide(ctx context.Context, r store.GrantRecord, from string) {
	var err error
	if from == "" {
		_, err = s.store.DeleteGrant(ctx, r.ID, grant.GrantApproving)
	} else {
		r.State, r.DecidedBy, r.Decided, r.Comment, r.Bindings, r.Event, r.Expires = from, "", time.Time{}, "", nil, 0, time.Time{}
		_, err = s.store.UpdateGrant(ctx, r, grant.GrantApproving)
	}
	if err != nil {
		// Left approving, the grant is finished by Resume: the bindings
		// are made then, and the trail says so.
		s.guard.Log().ErrorContext(ctx, "a failed approval could not be taken back; it will be finished later", "grant", r.ID, "err", err)
	}
}

// revoke records r revoking, removes its bindings (and the one it
// stands for, if some stopped approval left it unrecorded), and records
// it revoked; when a binding cannot be removed the grant stays active
// with what is left, and says so.
func (s *Service) revoke(ctx context.Context, call *gate.Call, r store.GrantRecord, comment string) (grant.TopicGrant, error) {
	err := s.guard.Write(ctx, call, gate.Change{Event: portal.ActGrantRevoke, Resource: r.ID,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			r.State, r.DecidedBy, r.Decided, r.Comment, r.Event = grant.GrantRevoking, call.Principal.Actor(), s.guard.Now().UTC(), strings.TrimSpace(comment), w.ID()
			ok, err := s.store.UpdateGrant(ctx, r, grant.GrantActive)
			if err == nil && !ok {
				err = portal.New(portal.Conflict, "grant %s was revoked meanwhile", r.ID)
			}
			if err != nil {
				return nil, err
			}
			var changes []trail.Change
			r, changes, err = s.finishRevoke(ctx, call, r, grant.GrantRevoked)
			return changes, err
		}})
	if err != nil {
		return grant.TopicGrant{}, err
	}
	return s.view(call, r), nil
}

// finishRevoke removes a revoking (or ending) grant's bindings and
// records it in its final state (revoked, expired, ended), or active
// again with the bindings left: the grant as recorded, what changed and
// the outcome, for the decision's write.
func (s *Service) finishRevoke(ctx context.Context, call *gate.Call, r store.GrantRecord, final string) (store.GrantRecord, []trail.Change, error) {
	from := r.State
	removed := decodeBindings(r.Bindings)
	left, uerr := s.unbind(ctx, call, r)
	if uerr == nil {
		uerr = s.strays(ctx, call, r)
	}
	if uerr != nil {
		r.Bindings, r.State, r.Event = left, grant.GrantActive, 0
		if _, err := s.store.UpdateGrant(ctx, r, from); err != nil {
			s.guard.Log().Error("a grant's remaining bindings could not be recorded", "grant", r.ID, "err", err)
		}
		return r, []trail.Change{{Field: "bindings_left", After: strings.Join(left, ", ")}},
			portal.Wrap(uerr, portal.KindOf(uerr), "grant %s stays active: %d of its role bindings could not be removed (try again): %s",
				r.ID, len(left), portal.FirstMessage(uerr))
	}
	r.Bindings, r.State, r.Event = nil, final, 0
	ok, err := s.store.UpdateGrant(ctx, r, from)
	if err == nil && !ok {
		err = portal.New(portal.Conflict, "grant %s was revoked meanwhile", r.ID)
	}
	changes := append(describe(r), trail.Change{Field: "state", Before: grant.GrantActive, After: final})
	for _, b := range removed {
		changes = append(changes, trail.Change{Field: "binding", Before: b.ID + " " + b.Role + " " + b.Resource + "=" + b.Pattern})
	}
	return r, changes, err
}

// Resume finishes the decisions under way for longer than stoppedAfter,
// whose replica stopped: approvals make their remaining bindings,
// revokes remove theirs; each settles the decision's audit attempt. It
// returns how many it finished. A decision holds the grant's lock while
// it runs, so a slow one is waited for, never repeated.
func (s *Service) Resume(ctx context.Context, stoppedAfter time.Duration) (int, error) {
	n := 0
	for _, state := range []string{grant.GrantApproving, grant.GrantRevoking, grant.GrantEnding} {
		recs, err := s.store.GrantsInState(ctx, state, 100)
		if err != nil {
			return n, err
		}
		m, err := gate.FinishStopped(s.guard.Now(), stoppedAfter, recs, func(r store.GrantRecord) time.Time { return r.Decided },
			func(r store.GrantRecord) (bool, error) { return s.resume(ctx, r) })
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// resume finishes one decision, under the locks a decision takes, if it
// is still under way.
func (s *Service) resume(ctx context.Context, r store.GrantRecord) (bool, error) {
	ctx, call, now, release, err := s.asPortal(ctx, r)
	if err != nil || release == nil {
		return false, err
	}
	defer release()
	if now.State != r.State || now.Event != r.Event {
		return false, nil // finished meanwhile
	}
	event := portal.ActGrantApprove
	switch r.State {
	case grant.GrantRevoking:
		event = revokeEvent(r)
	case grant.GrantEnding:
		event = portal.ActGrantEnd
	}
	ran := false
	err = s.guard.Write(ctx, call, gate.Change{Event: event, Resource: r.ID, Resume: true, Attempt: r.Event,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			ran = true
			if r.State == grant.GrantEnding {
				w.Note(r.Comment)
			}
			w.Note("finished by the portal after the replica that began it stopped")
			var changes []trail.Change
			var err error
			switch r.State {
			case grant.GrantRevoking:
				_, changes, err = s.finishRevoke(ctx, call, now, revokedState(now))
			case grant.GrantEnding:
				_, changes, err = s.finishRevoke(ctx, call, now, grant.GrantEnded)
			default:
				_, changes, err = s.finishApproval(ctx, call, now, grant.GrantRequested)
			}
			return changes, err
		}})
	if !ran {
		return false, err
	}
	if err != nil {
		s.guard.Log().WarnContext(ctx, "a stopped grant decision could not be finished", "grant", r.ID, "state", r.State, "err", err)
	}
	return true, nil
}

// asPortal takes, for the portal's own step on a grant (finishing a
// stopped decision, an expiry), the locks a decision takes, and reads the
// grant again under them. A nil release with a nil error: nothing to do
// (the grant's unit or stage is no longer configured, kept for an
// operator; or the grant is gone).
func (s *Service) asPortal(ctx context.Context, r store.GrantRecord) (context.Context, *gate.Call, store.GrantRecord, func(), error) {
	ctx, call, err := s.guard.Portal(ctx, r.Owner, r.Stage)
	if err != nil {
		return ctx, nil, r, nil, nil
	}
	unlock, err := s.guard.LockOuter(ctx, "grant "+r.ID)
	if err != nil {
		return ctx, nil, r, nil, err
	}
	unlockPrincipal, err := s.guard.Lock(ctx, "grant-principal "+r.Principal)
	if err != nil {
		unlock()
		return ctx, nil, r, nil, err
	}
	release := func() { unlockPrincipal(); unlock() }
	now, err := s.store.GrantRecord(ctx, r.ID)
	if err != nil {
		release()
		if errors.Is(err, store.ErrNotFound) {
			return ctx, nil, r, nil, nil
		}
		return ctx, nil, r, nil, err
	}
	return ctx, call, now, release, nil
}

// expiryComment begins the comment of a grant the portal revokes as its
// time is up.
const expiryComment = "expired at "

// revokeEvent is the action of a revoking grant: an expiry's or a
// person's revoke.
func revokeEvent(r store.GrantRecord) portal.Action {
	if strings.HasPrefix(r.Comment, expiryComment) {
		return portal.ActGrantExpire
	}
	return portal.ActGrantRevoke
}

// revokedState is where a revoking grant ends: expired by time, or
// revoked by a person.
func revokedState(r store.GrantRecord) string {
	if strings.HasPrefix(r.Comment, expiryComment) {
		return grant.GrantExpired
	}
	return grant.GrantRevoked
}
