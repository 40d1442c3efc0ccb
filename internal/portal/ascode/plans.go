// Package ascode is the contract of resources as code: documents, the
// plans made of them and the changes applying them makes.
package ascode

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// Document is a desired state: resources, and whether resources of the
// unit that it does not declare are deleted (topics, connectors and
// identity pools; schemas and service accounts are never pruned).
type Document struct {
	Resources []portal.Resource
	Prune     bool
	// Force lets an Admin's plan delete resources that live dependants
	// still use (consumer groups, other units' grants, connectors); without
	// it such a delete is refused, with its dependants.
	Force bool
	// SkipForbidden plans a change the caller's role may not make as
	// skipped (with why) instead of refusing the whole plan, so that the
	// rest can apply: a Developer's pipeline promoting a unit whose
	// export holds service accounts.
	SkipForbidden bool
}

// Plan actions.
const (
	ActionCreate    = "create"
	ActionUpdate    = "update"
	ActionUnchanged = "unchanged"
	ActionDelete    = "delete"
	ActionRefused   = "refused"
	// ActionSkipped: the caller's role may not make the change, and the
	// document asked to skip such changes (Document.SkipForbidden).
	ActionSkipped = "skipped"
)

// Apply outcomes of one change.
const (
	OutcomeApplied = "applied"
	OutcomeFailed  = "failed"
	// OutcomeSkipped: not tried, because a change it depends on failed.
	OutcomeSkipped = "skipped"
)

// FieldChange is one field of a resource that a change sets: Before is
// nil for a field being added, After nil for one being removed. Secret
// values never appear; their presence does.
type FieldChange struct {
	Field  string
	Before *string
	After  *string
}

// PlannedChange is what a plan does with one resource.
type PlannedChange struct {
	// Kind is the resource kind in lower case with dashes ("topic",
	// "service-account"), as the API's paths name it.
	Kind string
	// Name is the full name upstream; Identifier the name as declared.
	Name       string
	Identifier string
	// Index is the resource's place in the document (-1 for a delete).
	Index  int
	Action string
	// Wanted is the action the change would have had, when it is refused.
	Wanted   string
	Diff     []FieldChange
	Errors   []*portal.Error
	Warnings []string
	// Outcome and Error are set by Apply.
	Outcome string
	Error   *portal.Error
	// Issued are the API keys Apply made for the change, with their
	// secrets: in the apply's answer only, never in a plan or the trail.
	Issued []iam.CreatedAPIKey
}

// Plan is what applying a document would do, and a fingerprint of the
// document and of the upstream state it was planned against.
type Plan struct {
	portal.Scope
	Prune       bool
	Force       bool
	Fingerprint string
	Changes     []PlannedChange
	// Budget is the unit's use of each budgeted dimension after the plan
	// (the changes it would make), with the limits; nil without a budget.
	Budget []portal.BudgetLine
	// AuditID links the audit events of an apply.
	AuditID string
}

// PlanService is resources as code: it plans, applies and exports
// desired-state documents in a business unit's stage through the other
// services, with their rules.
type PlanService interface {
	// Plan works out the changes without making any; every role may plan.
	// Refusals (role, read-only stage, validation, schema compatibility)
	// are reported per change. Errors: MalformedBody, InvalidParameter on
	// the document's shape (items[i].field).
	Plan(ctx context.Context, scope portal.Scope, doc Document) (Plan, error)
	// Apply plans again and, when the plan's fingerprint equals the one
	// reviewed, makes the changes in dependency order. Errors: the plan's
	// refusals (nothing changes), Conflict when the plan is stale,
	// MissingParameter without a fingerprint.
	Apply(ctx context.Context, scope portal.Scope, doc Document, fingerprint string) (Plan, error)
	// Export returns the unit's current state as a document with
	// identifiers (portable to other stages) and secrets by reference.
	Export(ctx context.Context, scope portal.Scope) (Document, error)
}

// HasChanges tells whether applying the plan would change anything.
func (p Plan) HasChanges() bool {
	return p.Count(ActionCreate)+p.Count(ActionUpdate)+p.Count(ActionDelete) > 0
}

// Count returns how many changes have action.
func (p Plan) Count(action string) int {
	n := 0
	for _, c := range p.Changes {
		if c.Action == action {
			n++
		}
	}
	return n
}
