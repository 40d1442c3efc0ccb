package iam

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// What an API key is for: the stage's Kafka cluster of the landing zone,
// or its Schema Registry.
const (
	KeyForKafka          = "kafka"
	KeyForSchemaRegistry = "schema-registry"
)

// APIKey is a service account's API key as the portal shows it: never its
// secret.
type APIKey struct {
	ID string
	// Owner is the service account (sa-...); OwnerName its display name.
	Owner     string
	OwnerName string
	// BusinessUnit owns the key through its account (naming convention).
	BU string
	// Resource is KeyForKafka or KeyForSchemaRegistry; ResourceID the
	// cluster (lkc-...) or registry (lsrc-...).
	Resource    string
	ResourceID  string
	Description string
	Created     time.Time
	// CreatedBy is who made the key in the portal; "" for a key made
	// outside it (Adopted: given an expiry from its creation).
	CreatedBy string
	Adopted   bool
	// Expires is when the portal deletes the key; zero for never.
	Expires time.Time
	// ReplacedBy is the key a rotation made in its place.
	ReplacedBy string
	// ReadOnly: the caller may see the key but not change it.
	ReadOnly bool
	// State is KeyProvisioning until a client can sign in with the key
	// (Confluent Cloud takes up to about two minutes to spread a new
	// key), then KeyReady (at ReadyAt); KeyUnverified when the portal
	// could not tell.
	State   string
	ReadyAt time.Time
}

// A key's readiness (APIKey.State).
const (
	KeyProvisioning = "provisioning"
	KeyReady        = "ready"
	KeyUnverified   = "unverified"
	// KeyDeleted is a key removed with its account (in the delete's
	// answer only).
	KeyDeleted = "deleted"
)

// KeySpreadTime is how long Confluent Cloud may take before a new key
// signs in (and a changed role binding is enforced): what a new key's
// page tells its reader to expect.
const KeySpreadTime = 2 * time.Minute

// ExpiresWithin reports whether the key expires before now+d.
func (k APIKey) ExpiresWithin(now time.Time, d time.Duration) bool {
	return !k.Expires.IsZero() && k.Expires.Before(now.Add(d))
}

// NewAPIKey is a key to create for a service account.
type NewAPIKey struct {
	// Resource is KeyForKafka or KeyForSchemaRegistry.
	Resource    string
	Description string
	// Expires, when set, is sooner than the stage's maximum age allows.
	Expires time.Time
}

// CreatedAPIKey is a key just created, with the one copy of its secret
// there will ever be, and what a client needs to connect with it.
type CreatedAPIKey struct {
	APIKey
	Secret string
	// Properties is the client configuration as Java/librdkafka
	// properties; Env the same as environment variables.
	Properties string
	Env        string
}

// APIKeyQuery selects keys.
type APIKeyQuery struct {
	portal.ListQuery
	// Account keeps one service account's keys.
	Account string
	// ExpiringWithin keeps the keys that expire within it.
	ExpiringWithin time.Duration
}

// DefaultOverlap is how long a rotated key keeps working beside its
// successor, unless the caller says otherwise.
const DefaultOverlap = 24 * time.Hour

// APIKeyService manages the API keys of a unit's service accounts. Every
// role of the unit reads their metadata; creating, rotating, changing
// and deleting them needs the Admin role (Admins bypass a read-only
// stage). A secret is handed out once, in the answer that creates its
// key, and never stored.
type APIKeyService interface {
	// List returns one page of the unit's keys (those of its accounts on
	// the stage's cluster and registry).
	List(ctx context.Context, scope portal.Scope, q APIKeyQuery) (portal.Page[APIKey], error)
	// Get returns one of the unit's keys. Errors: NotFound.
	Get(ctx context.Context, scope portal.Scope, key string) (APIKey, error)
	// Create makes a key for one of the unit's accounts. Errors:
	// NotFound (account), InvalidParameter (resource, expiry).
	Create(ctx context.Context, scope portal.Scope, account string, in NewAPIKey) (CreatedAPIKey, error)
	// Rotate makes a key in place of another (same owner and resource)
	// and has the old one expire after overlap. Errors: NotFound,
	// InvalidParameter (overlap).
	Rotate(ctx context.Context, scope portal.Scope, key string, overlap time.Duration) (CreatedAPIKey, error)
	// Update changes a key's description.
	Update(ctx context.Context, scope portal.Scope, key, description string) (APIKey, error)
	// Delete deletes a key: clients using it are refused from then.
	Delete(ctx context.Context, scope portal.Scope, key string) error
	// Notices counts, for every unit and stage the caller has a role in,
	// the keys that expire within a span (for the home page).
	Notices(ctx context.Context, within time.Duration) ([]KeyNotice, error)
}

// KeyNotice counts a unit's keys in a stage that expire soon.
type KeyNotice struct {
	portal.Scope
	Count int
}

// AccountDeletion says what deleting a service account removed.
type AccountDeletion struct {
	Account      ServiceAccount
	Keys         []APIKey
	RoleBindings []RoleBinding
}

// AccountUse is what uses a service account.
type AccountUse struct {
	// Connectors run as the account (those using one of its keys cannot
	// be told: Confluent Cloud masks kafka.api.key on reads).
	Connectors []string
}

// ParseSpan reads a span of time as people write it: a whole number of
// days ("7d") or a Go duration ("36h", "90m").
func ParseSpan(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 || days > 3650 {
			return 0, fmt.Errorf("%q is not a number of days", s)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}
