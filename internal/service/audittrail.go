package service

import (
	"context"
	"encoding/base64"
	"strconv"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
)

// AuditTrail reads the audit trail that the services write.
type AuditTrail struct {
	guard *Guard
	store store.Audit
}

var _ portal.AuditService = (*AuditTrail)(nil)

// NewAuditTrail returns the audit reader.
func NewAuditTrail(g *Guard, s store.Audit) *AuditTrail { return &AuditTrail{guard: g, store: s} }

// List returns a page of the unit's events in a stage, newest first.
func (a *AuditTrail) List(ctx context.Context, bu, stage string, q portal.AuditQuery) (portal.Page[portal.AuditEvent], error) {
	if _, err := a.guard.Enter(ctx, bu, stage, access.ReadAudit, "read the audit trail"); err != nil {
		return portal.Page[portal.AuditEvent]{}, err
	}
	f, err := auditFilter(q)
	if err != nil {
		return portal.Page[portal.AuditEvent]{}, err
	}
	f.BU, f.Stage = bu, stage
	return a.page(ctx, f)
}

// auditFilter checks a query and turns it into the store's filter.
func auditFilter(q portal.AuditQuery) (store.AuditFilter, error) {
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
		raw, err := base64.RawURLEncoding.DecodeString(q.PageToken)
		id, perr := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || perr != nil || id <= 0 {
			v.Add(portal.Invalid("page_token", "is not a token this API issued; pass next_page_token from the previous page"))
		}
		f.Before = id
	}
	return f, v.Err()
}

func (a *AuditTrail) page(ctx context.Context, f store.AuditFilter) (portal.Page[portal.AuditEvent], error) {
	limit := f.Limit
	f.Limit = limit + 1 // one more tells whether there is a next page
	events, err := a.store.ListAudit(ctx, f)
	if err != nil {
		return portal.Page[portal.AuditEvent]{}, err
	}
	out := portal.Page[portal.AuditEvent]{Items: make([]portal.AuditEvent, 0, min(limit, len(events)))}
	for i, e := range events {
		if i == limit {
			out.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(events[i-1].ID, 10)))
			break
		}
		out.Items = append(out.Items, auditOut(e))
	}
	out.Total = -1 // not counted: a trail can hold millions of events
	return out, nil
}

func auditOut(e store.AuditEvent) portal.AuditEvent {
	out := portal.AuditEvent{ID: e.ID, Time: e.Time, Actor: e.Actor, ActorRole: e.ActorRole, Groups: e.Groups, Service: e.Service,
		SourceIP: e.SourceIP, UserAgent: e.UserAgent, RequestID: e.RequestID, BU: e.BU, Stage: e.Stage, Action: e.Action,
		Resource: e.Resource, Outcome: e.Outcome, Detail: e.Detail}
	for _, c := range e.Changes {
		out.Changes = append(out.Changes, portal.Change(c))
	}
	return out
}
