package changerequests

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// review enters a decision on a request: the caller reviews the unit's
// requests, is not its requester, and the request is still open. A
// refusal is audited as event.
func (s *Service) review(ctx context.Context, scope portal.Scope, id, comment string, event portal.Action) (*gate.Call, store.RequestRecord, func(), error) {
	ctx, call, err := s.guard.EnterWrite(ctx, scope, access.Read, "review change requests", event, id)
	if err != nil {
		return nil, store.RequestRecord{}, nil, err
	}
	r, err := s.find(ctx, call, id)
	fail := func(err error) (*gate.Call, store.RequestRecord, func(), error) {
		s.guard.Record(ctx, call, event, id, err)
		return nil, r, nil, err
	}
	if portal.Is(err, portal.NotFound) {
		return fail(err) // a refused decision is audited, also on no request
	} else if err != nil {
		return nil, r, nil, err
	}
	switch {
	case call.Principal.Subject == r.RequesterSubject:
		return fail(portal.New(portal.InsufficientRole, "you cannot review your own change request %s: another Admin of %s or a Super Admin of %s does", id,
			call.Scope.Unit.ID, call.Scope.Zone().ID))
	case !reviewer(call):
		return fail(portal.New(portal.InsufficientRole, "your role in %s is %s; change requests are reviewed by the unit's Admins and the zone's Super Admins",
			call.Scope.Unit.ID, call.Role))
	case portal.CheckText("comment", comment, MaxReason, true) != nil:
		return fail(portal.CheckText("comment", comment, MaxReason, true))
	}
	// One decision at a time on any replica; the state is read again
	// under the lock.
	unlock, err := s.guard.Lock(ctx, "change-request "+id)
	if err != nil {
		return nil, r, nil, err
	}
	if r, err = s.find(ctx, call, id); err != nil {
		unlock()
		return nil, r, nil, err
	}
	if v := s.view(call, r); v.State != changerequest.RequestOpen {
		unlock()
		return fail(portal.New(portal.Conflict, "change request %s is %s: only an open request can be reviewed", id, v.State))
	}
	return call, r, unlock, nil
}

// decide records a decision on an open request with its audit event.
func (s *Service) decide(ctx context.Context, call *gate.Call, r store.RequestRecord, event portal.Action, state, comment string, changes ...trail.Change) (changerequest.ChangeRequest, error) {
	r.State, r.DecidedBy, r.Decided, r.Comment = state, call.Principal.Actor(), s.guard.Now().UTC(), strings.TrimSpace(comment)
	err := s.guard.Write(ctx, call, gate.Change{Event: event, Resource: r.ID,
		Changes: append([]trail.Change{{Field: "state", Before: changerequest.RequestOpen, After: state}}, changes...),
		Do: func(ctx context.Context) error {
			ok, err := s.store.DecideRequest(ctx, r, changerequest.RequestOpen)
			if err == nil && !ok {
				return portal.New(portal.Conflict, "change request %s was decided meanwhile", r.ID)
			}
			return err
		}})
	if err != nil {
		return changerequest.ChangeRequest{}, err
	}
	return s.view(call, r), nil
}

// Approve applies exactly the requested plan as the caller: planned again
// first, a plan whose upstream state changed is stale and is not applied.
func (s *Service) Approve(ctx context.Context, scope portal.Scope, id, comment string) (changerequest.ChangeRequest, error) {
	call, r, unlock, err := s.review(ctx, scope, id, comment, portal.ActChangeRequestApprove)
	if err != nil {
		return changerequest.ChangeRequest{}, err
	}
	defer unlock()
	var doc ascode.Document
	if err := json.Unmarshal(r.Document, &doc); err != nil {
		return changerequest.ChangeRequest{}, err
	}
	again, err := s.plans.Review(ctx, call.Unit(), doc)
	if err != nil {
		return changerequest.ChangeRequest{}, err
	}
	if again.Fingerprint != r.Fingerprint || refused(again) != nil {
		stale := "the unit's resources changed since the request (or a change is now refused): plan the document again and file a new request"
		if _, err := s.decide(ctx, call, r, portal.ActChangeRequestStale, changerequest.RequestStale, stale); err != nil {
			return changerequest.ChangeRequest{}, err
		}
		return changerequest.ChangeRequest{}, portal.New(portal.Conflict, "change request %s is stale: %s", id, stale)
	}
	return s.apply(ctx, call, scope, r, doc, again, comment)
}

// Reject closes an open request with the reviewer's comment.
func (s *Service) Reject(ctx context.Context, scope portal.Scope, id, comment string) (changerequest.ChangeRequest, error) {
	call, r, unlock, err := s.review(ctx, scope, id, comment, portal.ActChangeRequestReject)
	if err != nil {
		return changerequest.ChangeRequest{}, err
	}
	defer unlock()
	return s.decide(ctx, call, r, portal.ActChangeRequestReject, changerequest.RequestRejected, comment)
}

// Withdraw closes the caller's own open request.
func (s *Service) Withdraw(ctx context.Context, scope portal.Scope, id string) (changerequest.ChangeRequest, error) {
	return gate.Writing(ctx, s.guard, scope, access.Read, "withdraw change requests", portal.ActChangeRequestWithdraw, id, func(ctx context.Context, call *gate.Call) (_ changerequest.ChangeRequest, err error) {
		r, err := s.find(ctx, call, id)
		if err != nil {
			return changerequest.ChangeRequest{}, err
		}
		if call.Principal.Subject != r.RequesterSubject {
			e := portal.New(portal.InsufficientRole, "only %s, who filed change request %s, may withdraw it; reviewers reject it", r.Requester, id)
			s.guard.Record(ctx, call, portal.ActChangeRequestWithdraw, id, e)
			return changerequest.ChangeRequest{}, e
		}
		unlock, err := s.guard.Lock(ctx, "change-request "+id)
		if err != nil {
			return changerequest.ChangeRequest{}, err
		}
		defer unlock()
		if r, err = s.find(ctx, call, id); err != nil {
			return changerequest.ChangeRequest{}, err
		}
		if v := s.view(call, r); v.State != changerequest.RequestOpen {
			return changerequest.ChangeRequest{}, portal.New(portal.Conflict, "change request %s is %s: only an open request can be withdrawn", id, v.State)
		}
		return s.decide(ctx, call, r, portal.ActChangeRequestWithdraw, changerequest.RequestWithdrawn, "")
	})
}

// Waiting lists the open requests the caller may review, oldest first.
func (s *Service) Waiting(ctx context.Context) ([]changerequest.ChangeRequest, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return nil, portal.New(portal.Unauthenticated, "sign-in required")
	}
	recs, err := s.store.OpenRequests(ctx, 500)
	if err != nil {
		return nil, err
	}
	out := []changerequest.ChangeRequest{}
	for _, r := range recs {
		if p.Role(r.BU) < portal.Admin || p.Subject == r.RequesterSubject {
			continue
		}
		v := changerequest.ChangeRequest{ID: r.ID, BU: r.BU, Stage: r.Stage, Zone: r.Zone, Requester: r.Requester, Reason: r.Reason, State: r.State,
			Created: r.Created, Expires: r.Created.Add(s.maxAge), Reviewable: true}
		if s.guard.Now().After(v.Expires) {
			continue
		}
		out = append(out, v)
	}
	return out, nil
}
