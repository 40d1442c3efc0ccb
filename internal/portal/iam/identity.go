// Package iam is the contract of identities: service accounts and their
// role bindings, bulk jobs, API keys and identity pools.
package iam

import (
	"context"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// MaxBulkAccounts bounds the service accounts of one bulk create.
const MaxBulkAccounts = 250

// Resource kinds a role binding can scope.
const (
	ResourceCluster         = "cluster"
	ResourceTopic           = "topic"
	ResourceGroup           = "group"
	ResourceTransactionalID = "transactional-id"
	ResourceSubject         = "subject"
)

// RoleBinding grants a role on a resource pattern; Pattern ends with "*"
// for a prefix and is empty for the cluster itself.
type RoleBinding struct {
	ID       string
	Role     string
	Resource string
	Pattern  string
	// CRN is the binding's full Confluent resource name pattern.
	CRN string
}

// AccountType is a kind of service account or identity pool; it selects
// the role bindings applied, all scoped to the business unit's prefix.
type AccountType struct {
	Name        string
	Description string
}

// AccountTypes lists the types, in the order pages offer them.
func AccountTypes() []AccountType {
	return []AccountType{
		{"producer", "Writes to the unit's topics: Operator on the cluster; DeveloperRead and DeveloperWrite on its topics and transactional ids; DeveloperRead on its consumer groups and subjects."},
		{"consumer", "Reads the unit's topics: Operator on the cluster; DeveloperRead on its topics, consumer groups and subjects."},
		{"stream-processor", "Kafka Streams or Flink applications: what a producer and a consumer have, plus DeveloperManage on the unit's topics (internal topics) and DeveloperWrite on its subjects."},
		{"metrics", "Monitoring: MetricsViewer on the cluster, nothing on data."},
	}
}

// AccountTypeOf is the type a service account's or identity pool's name
// ends with ("" for none), the longest that fits.
func AccountTypeOf(name string) string {
	best := ""
	for _, a := range AccountTypes() {
		if strings.HasSuffix(name, "-"+a.Name) && len(a.Name) > len(best) {
			best = a.Name
		}
	}
	return best
}

// ServiceAccount is a service account as the portal shows it.
type ServiceAccount struct {
	ID         string
	Name       string
	Identifier string
	// BusinessUnit owns the account by the naming convention ("" when
	// none does); shown in whole-cluster views.
	BU string
	// OutsideConvention marks an account whose name carries no unit's
	// prefix: a zone's Super Admins read it, only platform admins change it.
	OutsideConvention bool
	// ReadOnly is true when the caller may see the account but, whatever
	// its role, not change it (outside every convention). Pages use it to
	// hide controls; the service enforces it.
	ReadOnly    bool
	Type        string
	Description string
	// RoleBindings are filled on reads of one account and on creation.
	RoleBindings []RoleBinding
	// Job is the job still making the account when its create answered
	// (a slow Cloud API): the account and its bindings follow, or the
	// job says why not. Empty once made.
	Job string
}

// NewServiceAccount is one account to create.
type NewServiceAccount struct {
	Name        string
	Type        string
	Description string
}

// BulkResult is the outcome of one item of a bulk create: the account
// created, or the error it would have had alone (ALREADY_EXISTS, ...).
type BulkResult struct {
	Index int
	Item  *ServiceAccount
	// Outcome says what was done for the item: BulkCreated, or
	// BulkCompleted for an account that existed without all of its type's
	// role bindings.
	Outcome string
	Error   *portal.Error
}

// Outcomes of a bulk item that succeeded.
const (
	BulkCreated   = "created"
	BulkCompleted = "completed"
)

// Bulk job states.
const (
	JobRunning = "running"
	JobDone    = "done"
	// JobFailed: the batch stopped before every item was tried (the
	// replica running it died, or it ran out of time); Results say what
	// was done.
	JobFailed = "failed"
)

// BulkJob is a bulk create running in the background, readable by whoever
// started it (and platform admins) until it expires.
type BulkJob struct {
	portal.Scope
	ID string
	// Owner is the subject of the principal who started it.
	Owner string
	Items []NewServiceAccount
	// Results are by index; nil while an item is pending.
	Results  []*BulkResult
	State    string
	Error    string
	Created  time.Time
	Finished time.Time
}

// Done counts the items with an outcome.
func (j BulkJob) Done() int {
	n := 0
	for _, r := range j.Results {
		if r != nil {
			n++
		}
	}
	return n
}

// AccountService manages a business unit's service accounts. Reads are
// for every role; creating needs the Admin role (InsufficientRole), and
// in a read-only stage Admins bypass the rule.
type AccountService interface {
	List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[ServiceAccount], error)
	// Get returns an account with its role bindings. Errors: NotFound.
	Get(ctx context.Context, scope portal.Scope, id string) (ServiceAccount, error)
	// Create creates an account and applies its type's role bindings.
	// Errors: AlreadyExists, MissingParameter, InvalidParameter.
	Create(ctx context.Context, scope portal.Scope, in NewServiceAccount) (ServiceAccount, error)
	// StartBulk validates a batch (every bad item named as
	// items[i].field, nothing created) and journals it as a job that
	// creates it in the background; it returns the job before anything
	// is created. A job survives its replica: another resumes it. Errors:
	// RateLimited when too many batches run.
	StartBulk(ctx context.Context, scope portal.Scope, items []NewServiceAccount) (BulkJob, error)
	// Update changes an account's description. Errors: NotFound.
	Update(ctx context.Context, scope portal.Scope, id, description string) (ServiceAccount, error)
	// Delete deletes an account with its role bindings; while it owns API
	// keys it is refused (Conflict) unless opt.WithKeys, which deletes them
	// in the same audited action; while other units' grants are given to
	// it, an Admin names it (its id or name) and gives a reason. Errors:
	// NotFound, Conflict.
	Delete(ctx context.Context, scope portal.Scope, id string, opt portal.DeleteOptions) (AccountDeletion, error)
	// Impact lists what depends on an account: its API keys, the grants
	// other units gave it, its role bindings. Errors: NotFound.
	Impact(ctx context.Context, scope portal.Scope, id string) (portal.Impact, error)
	// Use lists what uses an account (connectors).
	Use(ctx context.Context, scope portal.Scope, id string) (AccountUse, error)
	// BulkJob returns a batch's progress, waiting up to wait for news.
	// Errors: NotFound (unknown, expired, or started by someone else).
	BulkJob(ctx context.Context, scope portal.Scope, id string, wait time.Duration) (BulkJob, error)
}

// DefaultIdentityClaim names the claim that identifies a pool's members.
const DefaultIdentityClaim = "claims.sub"

// Pool is an identity pool as the portal shows it.
type Pool struct {
	ID         string
	Name       string
	Identifier string
	// BusinessUnit owns the pool by the naming convention ("" when none
	// does); shown in whole-cluster views.
	BU string
	// OutsideConvention marks a pool whose name carries no unit's prefix:
	// a zone's Super Admins read it, only platform admins change it.
	OutsideConvention bool
	// ReadOnly is true when the caller may see the pool but, whatever its
	// role, not change it (outside every convention). Pages use it to hide
	// controls; the service enforces it.
	ReadOnly      bool
	Type          string
	Description   string
	IdentityClaim string
	Filter        string
	State         string
	RoleBindings  []RoleBinding
	// Version changes whenever the name, description, claim or filter
	// does: the ETag of reads, the If-Match of writes.
	Version string
}

// NewPool is the input of Create.
type NewPool struct {
	Name          string
	Type          string
	Description   string
	IdentityClaim string
	Filter        string
}

// FilterResult is the outcome of testing a filter on sample claims.
type FilterResult struct {
	Matches bool
	// Reason explains a non-match that comes from an evaluation error,
	// such as a claim the token does not have.
	Reason string
}

// PoolService manages a business unit's identity pools. Writes need the
// Admin role.
type PoolService interface {
	List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[Pool], error)
	Get(ctx context.Context, scope portal.Scope, id string) (Pool, error)
	// Create checks the CEL filter before anything goes upstream.
	// Errors: InvalidParameter on filter (with the position), AlreadyExists.
	Create(ctx context.Context, scope portal.Scope, in NewPool) (Pool, error)
	UpdateFilter(ctx context.Context, scope portal.Scope, id, filter string, ifMatch portal.IfMatch) (Pool, error)
	// Delete deletes a pool with its role bindings; while other units'
	// grants are given to it, an Admin names it and gives a reason.
	Delete(ctx context.Context, scope portal.Scope, id string, opt portal.DeleteOptions) error
	// Impact lists what depends on a pool: the grants other units gave
	// it, its role bindings. Errors: NotFound.
	Impact(ctx context.Context, scope portal.Scope, id string) (portal.Impact, error)
	// TestFilter evaluates a filter on sample claims; it changes nothing,
	// so every role may call it.
	TestFilter(ctx context.Context, scope portal.Scope, filter string, claims map[string]any) (FilterResult, error)
}
