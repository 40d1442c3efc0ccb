package grants

import (
	"context"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Grants expire: a request asks for a duration (the longest its topic's
// classification allows when it names none), the approval sets when the
// grant ends, the lease holder announces it warnBefore and revokes it
// then, as the portal. A grant made before grants expired has no end.

// terms fills a grant's duration, expiry and approvals.
func (s *Service) terms(g *grant.TopicGrant, r store.GrantRecord) {
	g.Duration, g.Expires, g.Classification, g.Renews = r.Duration, r.Expires, r.Classification, r.Renews
	g.Expiring = r.State == grant.GrantActive && !r.Expires.IsZero() && r.Expires.Sub(s.guard.Now()) <= s.warnBefore
	g.ApprovalsNeeded = s.approvalsNeeded(r)
	for _, a := range r.Approvals {
		_, actor, _ := strings.Cut(a, " ")
		g.Approvals = append(g.Approvals, actor)
	}
}

// approvalsNeeded is how many of the owner's Admins approve a grant.
func (s *Service) approvalsNeeded(r store.GrantRecord) int {
	if s.classes == nil || r.Classification == "" {
		return 1
	}
	return max(1, s.classes.Class(r.Classification).Approvals)
}

// approvedBy tells whether a subject approved a grant already.
func approvedBy(r store.GrantRecord, subject string) bool {
	for _, a := range r.Approvals {
		if s, _, _ := strings.Cut(a, " "); s == subject {
			return true
		}
	}
	return false
}

// expiryOf is when a grant approved now ends (zero: never).
func (s *Service) expiryOf(r store.GrantRecord) time.Time {
	if r.Duration <= 0 {
		return time.Time{}
	}
	return s.guard.Now().UTC().Add(r.Duration)
}

// Expire revokes the active grants whose time is up, as the portal, and
// announces those that end within warnBefore (once each). It returns how
// many it revoked or announced.
func (s *Service) Expire(ctx context.Context) (int, error) {
	now := s.guard.Now()
	due, err := s.store.ExpiringGrants(ctx, now, 100)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range due {
		done, err := s.expire(ctx, r)
		if err != nil {
			s.guard.Log().WarnContext(ctx, "an expired grant could not be revoked; the next round tries again", "grant", r.ID, "err", err)
			continue
		}
		if done {
			n++
		}
	}
	soon, err := s.store.ExpiringGrants(ctx, now.Add(s.warnBefore), 500)
	if err != nil {
		return n, err
	}
	for _, r := range soon {
		if r.Warned || !r.Expires.After(now) {
			continue
		}
		ok, err := s.store.MarkGrantWarned(ctx, r.ID)
		if err != nil {
			return n, err
		}
		if ok {
			s.announce(ctx, r)
			n++
		}
	}
	return n, nil
}

// expire revokes one expired grant under the locks a decision takes.
func (s *Service) expire(ctx context.Context, r store.GrantRecord) (bool, error) {
	ctx, call, now, release, err := s.asPortal(ctx, r)
	if err != nil || release == nil {
		return false, err
	}
	defer release()
	if now.State != grant.GrantActive || now.Expires.IsZero() || now.Expires.After(s.guard.Now()) {
		return false, nil // renewed, revoked or expired meanwhile
	}
	err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActGrantExpire, Resource: r.ID,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			now.State, now.DecidedBy, now.Decided, now.Event = grant.GrantRevoking, call.Principal.Actor(), s.guard.Now().UTC(), w.ID()
			now.Comment = expiryComment + now.Expires.UTC().Format(time.RFC3339)
			ok, err := s.store.UpdateGrant(ctx, now, grant.GrantActive)
			if err == nil && !ok {
				err = portal.New(portal.Conflict, "grant %s was revoked meanwhile", r.ID)
			}
			if err != nil {
				return nil, err
			}
			_, changes, err := s.finishRevoke(ctx, call, now, grant.GrantExpired)
			return changes, err
		}})
	return err == nil, err
}

// announce records a grant's coming expiry (the event webhooks carry),
// in the grantee unit that loses access.
func (s *Service) announce(ctx context.Context, r store.GrantRecord) {
	zone := r.Zone
	s.guard.RecordEvent(ctx, trail.AuditEvent{Actor: "portal", ActorRole: "system", LandingZone: zone, BU: r.Grantee, Stage: r.Stage,
		Action: portal.ActGrantExpiring, Resource: r.ID, Outcome: "ok",
		Detail: r.Access + " access of " + r.PrincipalName + " to " + r.Pattern + " ends at " + r.Expires.UTC().Format(time.RFC3339) +
			": ask " + r.Owner + " to renew it",
		Changes: []trail.Change{{Field: "owner", After: r.Owner}, {Field: "topic", After: r.Pattern}, {Field: "expires_at", After: r.Expires.UTC().Format(time.RFC3339)}}})
}

// ExpiringGrants lists the active grants of the caller's units that end
// within warnBefore, soonest first.
func (s *Service) ExpiringGrants(ctx context.Context) ([]grant.TopicGrant, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return nil, portal.New(portal.Unauthenticated, "sign-in required")
	}
	recs, err := s.store.ExpiringGrants(ctx, s.guard.Now().Add(s.warnBefore), 500)
	if err != nil {
		return nil, err
	}
	out := []grant.TopicGrant{}
	for _, r := range recs {
		if p.Role(r.Grantee) <= portal.NoRole && p.Role(r.Owner) <= portal.NoRole {
			continue
		}
		g := grant.TopicGrant{ID: r.ID, Zone: r.Zone, Stage: r.Stage, Owner: r.Owner, Grantee: r.Grantee, Principal: r.Principal,
			PrincipalName: r.PrincipalName, Topic: r.Pattern, Prefix: r.Prefixed, Access: r.Access, State: r.State}
		s.terms(&g, r)
		out = append(out, g)
	}
	return out, nil
}

// describeDuration says how long a grant lasts, for its audit events.
func describeDuration(d time.Duration) string {
	if d <= 0 {
		return "for good"
	}
	return "for " + catalog.FormatDuration(d)
}

// Explain lists the access a principal's units hold through active
// grants, each in a line ("read on ... through grant gr-12 until ...").
func (s *Service) Explain(ctx context.Context, p *portal.Principal) ([]portal.GrantAccess, error) {
	out := []portal.GrantAccess{}
	if p == nil {
		return out, nil
	}
	t := s.guard.Tenancy()
	for _, u := range t.Units() {
		if p.Role(u.ID) <= portal.NoRole {
			continue
		}
		for _, st := range t.StageNames() {
			recs, err := s.store.GrantRecords(ctx, u.ID, st, maxListed)
			if err != nil {
				return out, err
			}
			for _, r := range recs {
				if r.Grantee != u.ID || r.State != grant.GrantActive {
					continue
				}
				topic := r.Pattern
				if r.Prefixed {
					topic += "*"
				}
				line := r.Access + " on " + topic + " through grant " + r.ID + " for " + r.PrincipalName
				if r.Expires.IsZero() {
					line += ", with no end"
				} else {
					line += " until " + r.Expires.UTC().Format("2006-01-02 15:04 UTC")
				}
				out = append(out, portal.GrantAccess{Unit: u.ID, Stage: st, Grant: r.ID, Access: r.Access, Topic: topic, Principal: r.PrincipalName,
					Expires: r.Expires, Line: line})
			}
		}
	}
	return out, nil
}
