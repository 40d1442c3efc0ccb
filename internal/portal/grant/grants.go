// Package grant is the contract of grants: access to another unit's topic,
// asked for, reviewed, expiring and revoked.
package grant

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// Grant states.
const (
	// GrantRequested waits for the owner unit's Admins.
	GrantRequested = "requested"
	// GrantApproving is approved, its role bindings being made: a grant
	// whose replica stopped meanwhile is finished by another.
	GrantApproving = "approving"
	// GrantRevoking is revoked, its role bindings being removed.
	GrantRevoking = "revoking"
	// GrantEnding is ending with what it names (a topic, a principal)
	// being deleted, its role bindings being removed.
	GrantEnding = "ending"
	// GrantActive holds role bindings upstream.
	GrantActive    = "active"
	GrantRejected  = "rejected"
	GrantWithdrawn = "withdrawn"
	// GrantRevoked was revoked by a person of either unit.
	GrantRevoked = "revoked"
	// GrantExpired ended by time, revoked by the portal.
	GrantExpired = "expired"
	// GrantEnded ended with what it names: its topic or its principal was
	// deleted (a request on it, too).
	GrantEnded = "ended"
	// GrantRenewed is a request that extended an active grant (Renews)
	// when approved.
	GrantRenewed = "renewed"
)

// Access a grant gives.
const (
	// AccessRead is DeveloperRead on the topic (or prefix) and on the
	// grantee unit's consumer groups.
	AccessRead = "read"
	// AccessWrite is DeveloperWrite on the topic (or prefix).
	AccessWrite = "write"
)

// Sides of a unit's grants.
const (
	// GrantsGiven are the grants on the unit's topics.
	GrantsGiven = "given"
	// GrantsReceived are the grants the unit asked for.
	GrantsReceived = "received"
)

// TopicGrant is access one unit of a landing zone (the grantee) has, or asks
// for, on a topic or a topic prefix of another (the owner), for one of
// its own service accounts or identity pools.
type TopicGrant struct {
	ID, Zone, Stage string
	// Owner owns the topic; Grantee asked for access to it.
	Owner, Grantee string
	// Principal is the account's or pool's id (sa-..., pool-...),
	// PrincipalName its display name.
	Principal, PrincipalName string
	// Topic is the full topic name, or with Prefix the prefix of the
	// topics the grant covers.
	Topic  string
	Prefix bool
	Access string
	State  string
	// Requester is who asked, with Reason.
	Requester, Reason string
	Created           time.Time
	// DecidedBy decided the request (approved or rejected) or, once
	// revoked or withdrawn, closed the grant; Comment is theirs.
	DecidedBy, Comment string
	Decided            time.Time
	// Bindings are the role bindings the grant made (and removes when
	// revoked).
	Bindings []iam.RoleBinding
	// Duration is how long the grant lasts once approved (0: for good, a
	// grant made before grants expired); Expires when an active one ends
	// (zero: never), Expiring whether that is soon (warned about).
	Duration time.Duration
	Expires  time.Time
	Expiring bool
	// Classification is the topic's when asked for; Approvals are the
	// owner's Admins who approved so far, of ApprovalsNeeded.
	Classification  string
	Approvals       []string
	ApprovalsNeeded int
	// Renews is the active grant this request extends.
	Renews string
	// Reviewable tells whether the caller may approve or reject it,
	// Withdrawable whether they may withdraw the request, Revocable
	// whether they may revoke the active grant.
	Reviewable, Withdrawable, Revocable bool
	// Renewable tells whether the caller may ask to renew the active,
	// expiring grant (an Admin of the grantee).
	Renewable bool
}

// Covers tells whether the grant is on topic.
func (g TopicGrant) Covers(topic string) bool {
	if g.Prefix {
		return len(topic) >= len(g.Topic) && topic[:len(g.Topic)] == g.Topic
	}
	return topic == g.Topic
}

// NewTopicGrant asks a unit of the zone for access to its topic or prefix.
type NewTopicGrant struct {
	// Owner is the unit that owns the topic.
	Owner string
	// Topic is the topic's identifier in the owner unit or its full
	// name; with Prefix, the prefix of topics (may be empty: all of the
	// owner's topics).
	Topic  string
	Prefix bool
	Access string
	// Principal is one of the asking unit's service accounts or identity
	// pools, by id.
	Principal string
	Reason    string
	// Duration is how long the grant is to last ("7d", "2w", "36h"); ""
	// asks for the longest the topic's classification allows.
	Duration string
	// Renews, when set, is an active grant of the same access that the
	// request extends once approved (its bindings are kept).
	Renews string
}

// GrantQuery filters a unit's grants.
type GrantQuery struct {
	portal.ListQuery
	// Side keeps the grants given or received ("" both).
	Side string
	// State keeps one state ("" all).
	State string
	// Topic keeps the grants covering one topic (its full name).
	Topic string
	// Expiring keeps the active grants that expire soon.
	Expiring bool
}

// GrantOffer is what a unit may ask access to in a stage: the other
// units of its landing zone, and one owner's topic identifiers (at most
// a few hundred; More when there are others).
type GrantOffer struct {
	Units  []string
	Topics []string
	More   bool
}

// GrantService asks for, reviews and revokes access across units.
type GrantService interface {
	// RequestGrant asks the owner unit for access, from the grantee's
	// scope. Errors: Validation (an owner of another zone, a topic the
	// owner does not hold, a principal of another unit), Conflict (the
	// same grant asked or given already), InsufficientRole (below Admin).
	RequestGrant(ctx context.Context, scope portal.Scope, in NewTopicGrant) (TopicGrant, error)
	// Offer lists the units the scope's unit may ask, and owner's topics.
	Offer(ctx context.Context, scope portal.Scope, owner string) (GrantOffer, error)
	// Grants lists the grants a unit gave or received in the stage.
	Grants(ctx context.Context, scope portal.Scope, q GrantQuery) (portal.Page[TopicGrant], error)
	// Grant returns one of them.
	Grant(ctx context.Context, scope portal.Scope, id string) (TopicGrant, error)
	// ApproveGrant makes the role bindings, from the owner's scope (an
	// Admin, never the requester). Errors: InsufficientRole, Conflict (no
	// longer requested).
	ApproveGrant(ctx context.Context, scope portal.Scope, id, comment string) (TopicGrant, error)
	RejectGrant(ctx context.Context, scope portal.Scope, id, comment string) (TopicGrant, error)
	// WithdrawGrant closes a request, from the grantee's scope.
	WithdrawGrant(ctx context.Context, scope portal.Scope, id string) (TopicGrant, error)
	// RevokeGrant removes an active grant's role bindings, from either
	// side's scope.
	RevokeGrant(ctx context.Context, scope portal.Scope, id, comment string) (TopicGrant, error)
	// WaitingGrants lists the requests the caller may approve.
	WaitingGrants(ctx context.Context) ([]TopicGrant, error)
	// ExpiringGrants lists the active grants of the caller's units (either
	// side) that end soon, soonest first.
	ExpiringGrants(ctx context.Context) ([]TopicGrant, error)
}
