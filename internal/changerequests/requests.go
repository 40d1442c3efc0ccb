// Package changerequests is change requests: a member of a unit proposes the
// exact plan of a document, another person of the unit (an Admin, or a
// Super Admin of its zone) reviews that diff and approves it, and the
// portal applies exactly that plan through the services, with the same
// checks, policies, budgets and audit as a direct write; or the reviewer
// rejects it, or the requester withdraws it. A plan whose upstream state
// changed since the request is stale and is refused at approval.
package changerequests

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// MaxReason bounds a request's reason and a reviewer's comment.
const MaxReason = 2000

// Service files and reviews change requests.
type Service struct {
	guard  *gate.Guard
	plans  *plans.Service
	store  store.ChangeRequests
	maxAge time.Duration
}

var _ changerequest.RequestService = (*Service)(nil)

// New returns the service; an open request expires after maxAge (7 days
// when 0).
func New(g *gate.Guard, p *plans.Service, s store.ChangeRequests, maxAge time.Duration) *Service {
	if maxAge <= 0 {
		maxAge = 7 * 24 * time.Hour
	}
	return &Service{guard: g, plans: p, store: s, maxAge: maxAge}
}

// Request plans doc as a review would and stores it as an open request.
func (s *Service) Request(ctx context.Context, scope portal.Scope, doc ascode.Document, reason string) (changerequest.ChangeRequest, error) {
	return gate.Writing(ctx, s.guard, scope, access.RequestChange, "request changes", portal.ActChangeRequestCreate, scope.String(), func(ctx context.Context, call *gate.Call) (_ changerequest.ChangeRequest, err error) {
		var v portal.Validation
		reason = strings.TrimSpace(reason)
		switch {
		case reason == "":
			v.Add(portal.Missing("reason"))
		case portal.CheckText("reason", reason, MaxReason, true) != nil:
			v.Add(portal.CheckText("reason", reason, MaxReason, true))
		}
		for i, r := range doc.Resources {
			d := portal.DeclOf[portal.ConnectorDecl](r)
			if d == nil {
				continue
			}
			for k, ref := range d.Secrets {
				if ref.Value != "" {
					// A request is stored and read later: a secret must not be.
					v.Add(portal.Invalid(fmt.Sprintf("items[%d].spec.secrets.%s", i, k),
						"a change request cannot carry secret values (it is kept for its review); an Admin applies connectors with secrets directly"))
				}
			}
		}
		if err := v.Err(); err != nil {
			return changerequest.ChangeRequest{}, err
		}
		plan, err := s.plans.Review(ctx, call.Unit(), doc)
		if err != nil {
			return changerequest.ChangeRequest{}, err
		}
		if err := refused(plan); err != nil {
			return changerequest.ChangeRequest{}, err
		}
		if !plan.HasChanges() {
			return changerequest.ChangeRequest{}, portal.Invalid("items", "the document changes nothing in %s: there is nothing to request", call.Scope)
		}
		for _, c := range plan.Changes {
			for _, d := range c.Diff {
				if strings.HasPrefix(d.Field, "apiKeys.") && d.Before == nil {
					// A new key's secret goes to whoever applies: not a reviewer.
					return changerequest.ChangeRequest{}, portal.Invalid(fmt.Sprintf("items[%d].spec.apiKeys", c.Index),
						"a change request cannot make API keys (their secret is answered to whoever applies the plan): request the account, then create its keys yourself")
				}
			}
		}
		docJSON, _ := json.Marshal(doc)
		planJSON, _ := json.Marshal(plan)
		p := call.Principal
		rec := store.RequestRecord{ID: newID(), Zone: call.Scope.Zone().ID, BU: call.Scope.Unit.ID, Stage: call.Scope.Stage.Name, Requester: p.Actor(),
			RequesterSubject: p.Subject, Reason: reason, Document: docJSON, Fingerprint: plan.Fingerprint, Plan: planJSON, State: changerequest.RequestOpen,
			Created: s.guard.Now().UTC()}
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActChangeRequestCreate, Resource: rec.ID, Changes: summary(plan),
			Do: func(ctx context.Context) error { return s.store.CreateRequestRecord(ctx, rec) }})
		if err != nil {
			return changerequest.ChangeRequest{}, err
		}
		return s.view(call, rec), nil
	})
}

// refused is the plan's refusals as one error.
func refused(p ascode.Plan) error {
	var v portal.Validation
	for _, c := range p.Changes {
		if c.Action == ascode.ActionRefused {
			v.Problems = append(v.Problems, c.Errors...)
		}
	}
	return v.Err()
}

// summary lists a plan's changes for the trail.
func summary(p ascode.Plan) []trail.Change {
	var out []trail.Change
	for _, c := range p.Changes {
		if c.Action != ascode.ActionUnchanged {
			out = append(out, trail.Change{Field: c.Kind + "/" + c.Name, After: c.Action})
		}
	}
	return out
}

func newID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "cr-" + strings.ToLower(base64.RawURLEncoding.EncodeToString(b))
}

// view is a stored request as the caller sees it (expired when its age
// ran out, whether or not anyone closed it).
func (s *Service) view(call *gate.Call, r store.RequestRecord) changerequest.ChangeRequest {
	out := changerequest.ChangeRequest{ID: r.ID, BU: r.BU, Stage: r.Stage, Zone: r.Zone, Requester: r.Requester, Reason: r.Reason, State: r.State,
		Created: r.Created, Expires: r.Created.Add(s.maxAge), DecidedBy: r.DecidedBy, Decided: r.Decided, Comment: r.Comment}
	_ = json.Unmarshal(r.Plan, &out.Plan)
	if len(r.Result) > 0 {
		var res ascode.Plan
		if json.Unmarshal(r.Result, &res) == nil {
			out.Result = &res
		}
	}
	if out.State == changerequest.RequestOpen && s.guard.Now().After(out.Expires) {
		out.State = changerequest.RequestExpired
	}
	own := call.Principal.Subject == r.RequesterSubject
	out.Reviewable = out.State == changerequest.RequestOpen && reviewer(call) && !own
	out.Withdrawable = out.State == changerequest.RequestOpen && own
	return out
}

// reviewer tells whether the call's role reviews the unit's requests.
func reviewer(call *gate.Call) bool { return call.Role >= portal.Admin }

// Requests lists a unit's requests, newest first.
func (s *Service) Requests(ctx context.Context, scope portal.Scope, state string) ([]changerequest.ChangeRequest, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read change requests")
	if err != nil {
		return nil, err
	}
	switch state {
	case "", changerequest.RequestOpen, changerequest.RequestApplying, changerequest.RequestApplied, changerequest.RequestPartlyApplied, changerequest.RequestRejected, changerequest.RequestWithdrawn, changerequest.RequestStale, changerequest.RequestExpired:
	default:
		return nil, portal.Invalid("state", "state must be open, applied, partly_applied, rejected, withdrawn, stale or expired, not %q", state)
	}
	stored := state
	if state == changerequest.RequestExpired {
		stored = changerequest.RequestOpen // expiry is read, not written
	}
	recs, err := s.store.RequestRecords(ctx, call.Scope.Unit.ID, call.Scope.Stage.Name, stored, 200)
	if err != nil {
		return nil, err
	}
	out := []changerequest.ChangeRequest{}
	for _, r := range recs {
		if v := s.view(call, r); state == "" || v.State == state {
			out = append(out, v)
		}
	}
	return out, nil
}

// find reads one of the call's unit's requests.
func (s *Service) find(ctx context.Context, call *gate.Call, id string) (store.RequestRecord, error) {
	r, err := s.store.RequestRecord(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && (r.BU != call.Scope.Unit.ID || r.Stage != call.Scope.Stage.Name) {
		return r, portal.New(portal.NotFound, "change request %q not found in %s", portal.Clip(id, 64), call.Scope)
	}
	return r, err
}

// ChangeRequest returns one of the unit's requests.
func (s *Service) ChangeRequest(ctx context.Context, scope portal.Scope, id string) (changerequest.ChangeRequest, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read change requests")
	if err != nil {
		return changerequest.ChangeRequest{}, err
	}
	r, err := s.find(ctx, call, id)
	if err != nil {
		return changerequest.ChangeRequest{}, err
	}
	return s.view(call, r), nil
}
