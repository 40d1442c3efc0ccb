// Package changerequest is the contract of change requests: a document
// filed for review, approved or rejected, and applied.
package changerequest

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
)

// Change request states.
const (
	RequestOpen = "open"
	// RequestApplying is approved, its plan being applied: one whose
	// replica stopped meanwhile is finished by another.
	RequestApplying      = "applying"
	RequestApplied       = "applied"
	RequestPartlyApplied = "partly_applied"
	RequestRejected      = "rejected"
	RequestWithdrawn     = "withdrawn"
	RequestStale         = "stale"
	RequestExpired       = "expired"
)

// ChangeRequest is a plan someone of a unit proposes and another person
// reviews: approved, exactly that plan is applied through the services.
type ChangeRequest struct {
	portal.Scope
	ID, Zone  string
	Requester string
	Reason    string
	State     string
	Created   time.Time
	// Expires is when an open request stops being approvable.
	Expires   time.Time
	DecidedBy string
	Decided   time.Time
	Comment   string
	// Plan is the diff as requested; Result the apply's, with each
	// change's outcome (once approved).
	Plan   ascode.Plan
	Result *ascode.Plan
	// Reviewable tells whether the caller may approve or reject it;
	// Withdrawable whether the caller may withdraw it (their own, open).
	Reviewable, Withdrawable bool
}

// RequestService files and reviews change requests.
type RequestService interface {
	// Request files doc as a change request of the unit in a stage.
	// Errors: Validation (and the plan's refusals), InsufficientRole
	// (Viewers), InvalidParameter (a document with secret values).
	Request(ctx context.Context, scope portal.Scope, doc ascode.Document, reason string) (ChangeRequest, error)
	// Requests lists the unit's requests ("" state: all), newest first.
	Requests(ctx context.Context, scope portal.Scope, state string) ([]ChangeRequest, error)
	ChangeRequest(ctx context.Context, scope portal.Scope, id string) (ChangeRequest, error)
	// Approve applies the request's plan as the caller (an Admin of the
	// unit or a Super Admin of its zone, never the requester). Errors:
	// InsufficientRole, Conflict (closed, expired, or stale: the state
	// upstream changed since the request).
	Approve(ctx context.Context, scope portal.Scope, id, comment string) (ChangeRequest, error)
	Reject(ctx context.Context, scope portal.Scope, id, comment string) (ChangeRequest, error)
	// Withdraw closes the caller's own open request.
	Withdraw(ctx context.Context, scope portal.Scope, id string) (ChangeRequest, error)
	// Waiting lists the open requests the caller may review.
	Waiting(ctx context.Context) ([]ChangeRequest, error)
}
