package service

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// AuditTrail reads the audit trail that the services write.
type AuditTrail struct {
	guard *gate.Guard
	store store.Audit
}

var _ trail.AuditService = (*AuditTrail)(nil)

// NewAuditTrail returns the audit reader.
func NewAuditTrail(g *gate.Guard, s store.Audit) *AuditTrail { return &AuditTrail{guard: g, store: s} }

// List returns a page of the unit's events in a stage, newest first.
func (a *AuditTrail) List(ctx context.Context, scope portal.Scope, q trail.AuditQuery) (portal.Page[trail.AuditEvent], error) {
	if _, _, err := a.guard.Enter(ctx, scope, access.ReadAudit, "read the audit trail"); err != nil {
		return portal.Page[trail.AuditEvent]{}, err
	}
	f, err := AuditFilter(a.guard.Pages(), "audit "+scope.BU+"/"+scope.Stage, q)
	if err != nil {
		return portal.Page[trail.AuditEvent]{}, err
	}
	f.BU, f.Stage = scope.BU, scope.Stage
	return a.Page(ctx, f, "audit "+scope.BU+"/"+scope.Stage)
}

// AuditFilter checks a query and turns it into the store's filter.
func AuditFilter(p *gate.Pages, list string, q trail.AuditQuery) (store.AuditFilter, error) {
	var v portal.Validation
	f := store.AuditFilter{Actor: q.Actor, Action: q.Action, Resource: q.Resource, Outcome: q.Outcome, Since: q.Since, Until: q.Until, Limit: q.PageSize}
	switch {
	case q.PageSize == 0:
		f.Limit = portal.DefaultPageSize
	case q.PageSize < 0 || q.PageSize > portal.MaxPageSize:
		v.Add(portal.Invalid("page_size", "must be between 1 and %d", portal.MaxPageSize))
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && !q.Until.After(q.Since) {
		v.Add(portal.Invalid("until", "must be after since"))
	}
	if q.PageToken != "" {
		pos, ok := p.Decode(list, q.PageToken)
		at, id, found := strings.Cut(pos, ":")
		micros, err1 := strconv.ParseInt(at, 10, 64)
		n, err2 := strconv.ParseInt(id, 10, 64)
		if !ok || !found || err1 != nil || err2 != nil || n <= 0 {
			v.Add(gate.BadToken())
		}
		f.After = &store.AuditCursor{At: time.UnixMicro(micros), ID: n}
	}
	return f, v.Err()
}

// Page reads a page of the events f selects, newest first, with the token
// of the next page of list.
func (a *AuditTrail) Page(ctx context.Context, f store.AuditFilter, list string) (portal.Page[trail.AuditEvent], error) {
	limit := f.Limit
	f.Limit = limit + 1 // one more tells whether there is a next page
	events, err := a.store.ListAudit(ctx, f)
	if err != nil {
		return portal.Page[trail.AuditEvent]{}, err
	}
	out := portal.Page[trail.AuditEvent]{Items: make([]trail.AuditEvent, 0, min(limit, len(events)))}
	for i, e := range events {
		if i == limit {
			last := events[i-1]
			out.NextPageToken = a.guard.Pages().Encode(list, strconv.FormatInt(last.Time.UnixMicro(), 10)+":"+strconv.FormatInt(last.ID, 10))
			break
		}
		out.Items = append(out.Items, e)
	}
	out.Total = -1 // not counted: a trail can hold millions of events
	return out, nil
}

// Refused records a write refused by a front door. Refusals of callers
// that could not be authenticated are counted per source and minute, one
// event each, so that a flood of bad tokens cannot flood the trail.
func (a *AuditTrail) Refused(ctx context.Context, scope portal.Scope, action portal.Action, resource string, err error) {
	e := trail.AuditEvent{BU: scope.BU, Stage: scope.Stage, Action: action, Resource: resource, Outcome: string(portal.KindOf(err)),
		Detail: portal.FirstMessage(err)}
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		a.guard.RefusedAnonymous(ctx, e)
		return
	}
	e.Actor, e.ActorRole, e.Groups, e.Service = p.Actor(), p.Role(scope.BU).String(), p.Grant(scope.BU).Groups, p.Service
	a.guard.RecordEvent(ctx, e)
}
