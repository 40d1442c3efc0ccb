package grants

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// decision enters a step on a grant the caller's unit holds on side
// (owner or grantee), under the grant's and its principal's lock (one
// decision at a time on any replica; bindings of one principal are made
// and removed one grant at a time). The grant is read again under the
// locks and must be in state from.
func (s *Service) decision(ctx context.Context, scope portal.Scope, id, comment string, event portal.Action, step access.GrantStep, from string,
	side func(store.GrantRecord, string) bool) (*gate.Call, store.GrantRecord, func(), error) {
	ctx, call, err := s.enter(ctx, scope, step, event, id)
	if err != nil {
		return nil, store.GrantRecord{}, nil, err
	}
	r, err := s.find(ctx, call, id)
	fail := func(err error) (*gate.Call, store.GrantRecord, func(), error) {
		s.guard.Record(ctx, call, event, id, err)
		return nil, r, nil, err
	}
	if portal.Is(err, portal.NotFound) {
		return fail(err) // a refused decision is audited, also on no grant
	} else if err != nil {
		return nil, r, nil, err
	}
	unit := call.Scope.Unit.ID
	switch {
	case !side(r, unit):
		return fail(portal.New(portal.InsufficientRole, "%s cannot %s grant %s (%s gives it, %s received it)", unit, step, id, r.Owner, r.Grantee))
	case portal.CheckText("comment", comment, MaxReason, true) != nil:
		return fail(portal.CheckText("comment", comment, MaxReason, true))
	}
	unlock, err := s.guard.LockOuter(ctx, "grant "+id)
	if err != nil {
		return nil, r, nil, err
	}
	unlockPrincipal, err := s.guard.Lock(ctx, "grant-principal "+r.Principal)
	if err != nil {
		unlock()
		return nil, r, nil, err
	}
	release := func() { unlockPrincipal(); unlock() }
	if r, err = s.find(ctx, call, id); err != nil {
		release()
		return nil, r, nil, err
	}
	if r.State == grant.GrantApproving || r.State == grant.GrantRevoking {
		release()
		return fail(busy(r))
	}
	if r.State != from {
		release()
		return fail(portal.New(portal.Conflict, "grant %s is %s: only a %s grant can be %s", id, r.State, from, pastTense[step]))
	}
	return call, r, release, nil
}

var pastTense = map[access.GrantStep]string{access.ReviewGrant: "reviewed", access.WithdrawGrant: "withdrawn", access.RevokeGrant: "revoked"}

// busy refuses a step on a grant whose decision is under way.
func busy(r store.GrantRecord) error {
	e := portal.New(portal.Conflict, "grant %s is %s (decided by %s): try again in a moment", r.ID, r.State, r.DecidedBy)
	e.RetryAfter = 5 * time.Second
	return e
}

func owns(r store.GrantRecord, unit string) bool     { return r.Owner == unit }
func receives(r store.GrantRecord, unit string) bool { return r.Grantee == unit }
func holds(r store.GrantRecord, unit string) bool    { return r.Owner == unit || r.Grantee == unit }

// update writes a grant that was in state from; a grant no longer in it
// was decided meanwhile.
func (s *Service) update(ctx context.Context, r store.GrantRecord, from string) error {
	ok, err := s.store.UpdateGrant(ctx, r, from)
	if err == nil && !ok {
		return portal.New(portal.Conflict, "grant %s was decided meanwhile", r.ID)
	}
	return err
}

// close records a grant's new state with its audit event.
func (s *Service) close(ctx context.Context, call *gate.Call, r store.GrantRecord, event portal.Action, from, state, comment string, changes ...trail.Change) (grant.TopicGrant, error) {
	r.State, r.DecidedBy, r.Decided, r.Comment = state, call.Principal.Actor(), s.guard.Now().UTC(), strings.TrimSpace(comment)
	err := s.guard.Write(ctx, call, gate.Change{Event: event, Resource: r.ID,
		Changes: append([]trail.Change{{Field: "state", Before: from, After: state}}, changes...),
		Do:      func(ctx context.Context) error { return s.update(ctx, r, from) }})
	if err != nil {
		return grant.TopicGrant{}, err
	}
	return s.view(call, r), nil
}

// ApproveGrant makes the grant's role bindings and records it active.
func (s *Service) ApproveGrant(ctx context.Context, scope portal.Scope, id, comment string) (grant.TopicGrant, error) {
	call, r, release, err := s.decision(ctx, scope, id, comment, portal.ActGrantApprove, access.ReviewGrant, grant.GrantRequested, owns)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	defer release()
	if call.Principal.Subject == r.RequesterSubject {
		err := portal.New(portal.InsufficientRole, "you asked for grant %s: another Admin of %s approves it", id, r.Owner)
		s.guard.Record(ctx, call, portal.ActGrantApprove, id, err)
		return grant.TopicGrant{}, err
	}
	if approvedBy(r, call.Principal.Subject) {
		err := portal.New(portal.InsufficientRole, "you approved grant %s already: a %s grant needs another Admin of %s", id, r.Classification, r.Owner)
		s.guard.Record(ctx, call, portal.ActGrantApprove, id, err)
		return grant.TopicGrant{}, err
	}
	need := s.approvalsNeeded(r)
	if len(r.Approvals)+1 < need {
		return s.firstApproval(ctx, call, r, comment, need)
	}
	if need > 1 {
		r.Approvals = append(r.Approvals, call.Principal.Subject+" "+call.Principal.Actor())
	}
	if r.Renews != "" {
		return s.renew(ctx, call, r, comment)
	}
	return s.approve(ctx, call, r, portal.ActGrantApprove, grant.GrantRequested, comment)
}

// firstApproval records one Admin's approval of a grant that needs two;
// the grant stays requested.
func (s *Service) firstApproval(ctx context.Context, call *gate.Call, r store.GrantRecord, comment string, need int) (grant.TopicGrant, error) {
	r.Approvals = append(r.Approvals, call.Principal.Subject+" "+call.Principal.Actor())
	if c := strings.TrimSpace(comment); c != "" {
		r.Comment = c
	}
	err := s.guard.Write(ctx, call, gate.Change{Event: portal.ActGrantApprove, Resource: r.ID,
		Changes: []trail.Change{{Field: "approvals", Before: strconv.Itoa(len(r.Approvals) - 1), After: strconv.Itoa(len(r.Approvals)) + " of " + strconv.Itoa(need)},
			{Field: "classification", After: r.Classification}},
		Do: func(ctx context.Context) error {
			return s.update(ctx, r, grant.GrantRequested)
		}})
	if err != nil {
		return grant.TopicGrant{}, err
	}
	return s.view(call, r), nil
}

// renew extends the active grant a request renews by the request's
// duration (from now), and closes the request as renewed: the grant's
// bindings stay as they are.
func (s *Service) renew(ctx context.Context, call *gate.Call, r store.GrantRecord, comment string) (grant.TopicGrant, error) {
	err := s.guard.Write(ctx, call, gate.Change{Event: portal.ActGrantApprove, Resource: r.ID,
		Steps: func(ctx context.Context, _ *gate.Write) ([]trail.Change, error) {
			old, err := s.store.GrantRecord(ctx, r.Renews)
			expires := s.expiryOf(r)
			if err == nil && old.State != grant.GrantActive {
				err = portal.New(portal.Conflict, "grant %s is %s, no longer active: withdraw this renewal and ask for a new grant", r.Renews, old.State)
			}
			if err == nil {
				var ok bool
				ok, err = s.store.ExtendGrant(ctx, r.Renews, expires)
				if err == nil && !ok {
					err = portal.New(portal.Conflict, "grant %s is no longer active: withdraw this renewal and ask for a new grant", r.Renews)
				}
			}
			if err == nil {
				r.State, r.DecidedBy, r.Decided, r.Comment, r.Expires = grant.GrantRenewed, call.Principal.Actor(), s.guard.Now().UTC(), strings.TrimSpace(comment), expires
				var ok bool
				ok, err = s.store.UpdateGrant(ctx, r, grant.GrantRequested)
				if err == nil && !ok {
					err = portal.New(portal.Conflict, "grant %s was decided meanwhile", r.ID)
				}
			}
			return []trail.Change{{Field: "renews", After: r.Renews}, {Field: "expires_at", Before: stampOf(old.Expires), After: stampOf(expires)},
				{Field: "state", Before: grant.GrantRequested, After: grant.GrantRenewed}}, err
		}})
	if err != nil {
		return grant.TopicGrant{}, err
	}
	return s.view(call, r), nil
}

func stampOf(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

// RejectGrant closes a request with the owner's comment.
func (s *Service) RejectGrant(ctx context.Context, scope portal.Scope, id, comment string) (grant.TopicGrant, error) {
	call, r, release, err := s.decision(ctx, scope, id, comment, portal.ActGrantReject, access.ReviewGrant, grant.GrantRequested, owns)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	defer release()
	return s.close(ctx, call, r, portal.ActGrantReject, grant.GrantRequested, grant.GrantRejected, comment)
}

// WithdrawGrant closes the caller's unit's request.
func (s *Service) WithdrawGrant(ctx context.Context, scope portal.Scope, id string) (grant.TopicGrant, error) {
	call, r, release, err := s.decision(ctx, scope, id, "", portal.ActGrantWithdraw, access.WithdrawGrant, grant.GrantRequested, receives)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	defer release()
	return s.close(ctx, call, r, portal.ActGrantWithdraw, grant.GrantRequested, grant.GrantWithdrawn, "")
}

// RevokeGrant removes an active grant's bindings, from either side.
func (s *Service) RevokeGrant(ctx context.Context, scope portal.Scope, id, comment string) (grant.TopicGrant, error) {
	call, r, release, err := s.decision(ctx, scope, id, comment, portal.ActGrantRevoke, access.RevokeGrant, grant.GrantActive, holds)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	defer release()
	return s.revoke(ctx, call, r, comment)
}

// WaitingGrants lists the requests on the caller's units' topics that
// the caller may approve, oldest first.
func (s *Service) WaitingGrants(ctx context.Context) ([]grant.TopicGrant, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return nil, portal.New(portal.Unauthenticated, "sign-in required")
	}
	recs, err := s.store.GrantsInState(ctx, grant.GrantRequested, 500)
	if err != nil {
		return nil, err
	}
	out := []grant.TopicGrant{}
	for _, r := range recs {
		if !access.DecideGrant(p.Role(r.Owner), access.ReviewGrant).Allowed || p.Subject == r.RequesterSubject || approvedBy(r, p.Subject) {
			continue
		}
		out = append(out, grant.TopicGrant{ID: r.ID, Zone: r.Zone, Stage: r.Stage, Owner: r.Owner, Grantee: r.Grantee, Principal: r.Principal,
			PrincipalName: r.PrincipalName, Topic: r.Pattern, Prefix: r.Prefixed, Access: r.Access, State: r.State, Requester: r.Requester,
			Reason: r.Reason, Created: r.Created, Reviewable: true})
	}
	return out, nil
}
