// Package store is the portal's durable state behind one contract:
// browser sessions, bulk jobs, the audit trail, topic growth samples and
// notifications between replicas. Two adapters implement it: PostgreSQL
// (store/postgres: production, any number of replicas) and SQLite
// (store/sqlite: the embedded default, one node). Both share the SQL in
// store/sqlstore and run the same contract tests (store/storetest).
//
// Every method bounds its work by the context; a database that cannot be
// reached gives portal.UpstreamUnavailable (with Retry-After), a slow one
// portal.UpstreamTimeout, so that both front doors answer honestly.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// ErrNotFound is returned when a record does not exist; ErrExists when a
// record to create exists already.
var (
	ErrNotFound = errors.New("not found")
	// ErrLeaseLost refuses a write of a job that is no longer running on
	// the replica making it.
	ErrLeaseLost = errors.New("the job is no longer this replica's")
	ErrExists    = errors.New("exists already")
)

// Store is the durable state of the portal.
type Store interface {
	Sessions
	Jobs
	Audit
	Samples
	Tenants
	MetricResults
	RateBuckets
	Notifier
	Locks
	Leases
	Replicas
	APIKeyRecords
	Guardrails
	Webhooks
	ChangeRequests
	Grants
	Applies
	AutoRestarts
	ConnectorSecrets
	Alerts
	Catalog
	Usage
	Costs
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// CheckWritable checks that the database takes writes (readiness);
	// id names the probing process.
	CheckWritable(ctx context.Context, id string, now time.Time) error
	// Kind names the adapter ("postgres", "sqlite") for health reports.
	Kind() string
	Close() error
}

// Session is one browser session. Data holds the session's secrets (tokens,
// CSRF token, identity) sealed by the session keys: the database never
// sees them in clear. ID is a digest of the id the cookie carries, so a
// database dump gives no usable session either.
type Session struct {
	ID        string
	Subject   string
	Username  string
	Created   time.Time
	Expires   time.Time
	LastSeen  time.Time
	UserAgent string
	IP        string
	Data      []byte
}

// Sessions keeps browser sessions.
type Sessions interface {
	CreateSession(ctx context.Context, s Session) error
	// Session returns a session that has not expired at now, or ErrNotFound.
	Session(ctx context.Context, id string, now time.Time) (Session, error)
	// UpdateSession replaces a session's data and last-seen time.
	UpdateSession(ctx context.Context, id string, data []byte, lastSeen time.Time) error
	DeleteSession(ctx context.Context, id string) error
	// SessionsOf lists the live sessions of a subject (or of everyone
	// when subject is ""), newest first.
	SessionsOf(ctx context.Context, subject string, now time.Time) ([]Session, error)
	// CountSessions counts the sessions alive at now.
	CountSessions(ctx context.Context, now time.Time) (int, error)
	// DeleteExpiredSessions removes sessions expired before now.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error)
}

// Job is a background job (a bulk create). Items and the principal are
// JSON, kept as the service gives them.
type Job struct {
	ID        string
	Kind      string
	BU        string
	Stage     string
	Owner     string
	Principal []byte
	Items     []byte
	State     string
	Error     string
	Replica   string
	Created   time.Time
	Heartbeat time.Time
	Finished  time.Time
	// Results are by item index; nil while an item is pending.
	Results [][]byte
}

// Locks serialise the changes to one resource across replicas.
type Locks interface {
	// TryLock takes the locks named keys (distinct) for holder if every
	// one is free, all or none, and returns their release; ok is false
	// when another holds one of them. However many keys, they take one
	// database connection while held.
	TryLock(ctx context.Context, keys []string, holder string) (unlock func(), ok bool, err error)
}

// Leases give work that must run on one replica at a time (a sweeper) to
// one holder until a time: it renews the lease while it works; when it
// dies, the lease lapses and another takes it.
type Leases interface {
	// AcquireLease takes or renews the lease name for holder until until;
	// false while another holder's lease runs, unless that holder is a
	// replica known stopped at now (Replicas).
	AcquireLease(ctx context.Context, name, holder string, until, now time.Time) (bool, error)
}

// Replicas say which replicas run, so that what a stopped one left
// unknown is settled, and its leases taken over (AcquireLease), as soon
// as it is known stopped: each replica says it is alive every so often,
// and that it stops when it shuts down.
type Replicas interface {
	// ReplicaAlive records that replica id runs at at, and is to be taken
	// for stopped after staleAt unless it says so again (its first call
	// records its start).
	ReplicaAlive(ctx context.Context, id string, at, staleAt time.Time) error
	// ReplicaStopped records that replica id stopped at at.
	ReplicaStopped(ctx context.Context, id string, at time.Time) error
	// DeleteReplicasBefore forgets the replicas not seen since t.
	DeleteReplicasBefore(ctx context.Context, t time.Time) (int, error)
}

// KeyRecord is what the portal knows of an API key that Confluent Cloud
// does not keep; never its secret.
type KeyRecord struct {
	ID       string
	Owner    string
	Resource string
	// Zone, BU and Stage are the owner account's unit and stage.
	Zone, BU, Stage string
	// CreatedBy is who made the key through the portal ("" for a key
	// adopted from outside it).
	CreatedBy string
	Created   time.Time
	// Expires is when the portal deletes the key; zero for never.
	Expires time.Time
	// ReplacedBy is the key a rotation made in its place.
	ReplacedBy string
	// Adopted: made outside the portal, given an expiry from its creation.
	Adopted bool
	// State is KeyProvisioning until the portal's check with the key
	// succeeds (KeyReady, at ReadyAt) or it gives up (KeyUnverified); ""
	// for a key recorded before checks or adopted.
	State   string
	ReadyAt time.Time
	// Probe is the key's secret, sealed, kept while the key provisions so
	// that any replica can check it; "" otherwise.
	Probe string
}

// A recorded key's readiness (KeyRecord.State).
const (
	KeyProvisioning = "provisioning"
	KeyReady        = "ready"
	KeyUnverified   = "unverified"
)

// KeyCount counts a unit's keys in a stage.
type KeyCount struct {
	Zone, BU, Stage string
	N               int
}

// APIKeyRecords keeps the portal's records of API keys.
type APIKeyRecords interface {
	// SaveKey stores or replaces a key's record.
	SaveKey(ctx context.Context, k KeyRecord) error
	// Keys returns the records of the keys named (those it has).
	Keys(ctx context.Context, ids []string) (map[string]KeyRecord, error)
	// StageKeys lists the records of one zone's stage.
	StageKeys(ctx context.Context, zone, stage string) ([]KeyRecord, error)
	// ExpiredKeys lists the keys whose expiry is before t (at most limit).
	ExpiredKeys(ctx context.Context, t time.Time, limit int) ([]KeyRecord, error)
	// CountExpiringKeys counts, by zone, unit and stage, the keys that
	// expire before t.
	CountExpiringKeys(ctx context.Context, t time.Time) ([]KeyCount, error)
	// DeleteKeys forgets keys.
	DeleteKeys(ctx context.Context, ids []string) error
	// MarkRotation records (creating the key's record when the portal
	// had none) that a rotation of the key began, as marker: false when
	// the key was rotated already, or a rotation is under way. One
	// rotation of a key at a time, whichever replica.
	MarkRotation(ctx context.Context, k KeyRecord, marker string) (bool, error)
	// ClearRotation ends a rotation that made no key (marker is the one it
	// set).
	ClearRotation(ctx context.Context, id, marker string) error
	// RotatingKeys lists the keys whose rotation began before before and
	// never ended: their replica stopped in the middle.
	RotatingKeys(ctx context.Context, before time.Time) ([]KeyRecord, error)
	// ProvisioningKeys lists the keys still provisioning, oldest first
	// (at most limit).
	ProvisioningKeys(ctx context.Context, limit int) ([]KeyRecord, error)
	// SettleKey ends a key's provisioning: state KeyReady (at at) or
	// KeyUnverified, and its sealed secret wiped. False when the key was
	// not provisioning (settled meanwhile, or forgotten).
	SettleKey(ctx context.Context, id, state string, at time.Time) (bool, error)
}

// RotationMarker is a key's ReplacedBy while a rotation that began at
// at is under way.
func RotationMarker(at time.Time) string {
	return RotatingPrefix + at.UTC().Format(time.RFC3339Nano)
}

// RotatingPrefix starts a RotationMarker.
const RotatingPrefix = "rotating:"

// Jobs keeps background jobs where every replica can read them. A
// running job is leased to one replica: its heartbeat renews the lease,
// and every write of the job is fenced by it, so that a replica that lost
// the lease (another claimed the job while it was paused) changes nothing.
type Jobs interface {
	CreateJob(ctx context.Context, j Job) error
	// Job returns a job with its results, or ErrNotFound.
	Job(ctx context.Context, id string) (Job, error)
	// SaveJobResult records one item's state and renews the lease;
	// ErrLeaseLost unless the job is running on replica.
	SaveJobResult(ctx context.Context, id, replica string, index int, result []byte, at time.Time) error
	// Heartbeat renews replica's lease of a running job; false when the
	// job is no longer running on replica.
	Heartbeat(ctx context.Context, id, replica string, at time.Time) (bool, error)
	// ClaimJob gives replica a running job whose heartbeat is older than
	// staleBefore (its replica died or handed it over); false when the
	// job is not claimable (any more: another replica was first).
	ClaimJob(ctx context.Context, id, replica string, at, staleBefore time.Time) (bool, error)
	// ReleaseJob hands a running job of replica over: any replica may
	// claim it at once.
	ReleaseJob(ctx context.Context, id, replica string) error
	// FinishJob ends a job running on replica ("" for any) with a state
	// and an error message; it changes nothing (and returns false) when
	// the job was not running there.
	FinishJob(ctx context.Context, id, replica, state, message string, at time.Time) (bool, error)
	// StaleJobs lists running jobs whose heartbeat is older than before:
	// their replica died or handed them over.
	StaleJobs(ctx context.Context, before time.Time) ([]Job, error)
	// CountJobs counts jobs by state.
	CountJobs(ctx context.Context) (map[string]int, error)
	// DeleteFinishedJobs removes jobs that finished before.
	DeleteFinishedJobs(ctx context.Context, before time.Time) (int, error)
}

// AuditFilter selects events; empty fields match everything. Events come
// newest first (by time, then id), paged by key: After continues below the
// event it names.
type AuditFilter struct {
	LandingZone string
	// Zones, when given, keeps events of these landing zones only.
	Zones    []string
	BU       string
	Stage    string
	Actor    string
	Action   string
	Resource string
	Outcome  string
	Since    time.Time
	Until    time.Time
	After    *AuditCursor
	Limit    int
}

// AuditCursor is the position of one event in the trail's order.
type AuditCursor struct {
	At time.Time
	ID int64
}

// Audit keeps the audit trail. An event is in the outbox of events
// (OutboxAfter) from the moment it is final: appended complete, or
// settled, in the same transaction.
type Audit interface {
	AppendAudit(ctx context.Context, e trail.AuditEvent) (int64, error)
	// SettleAudit records the outcome of an event appended as an attempt
	// (outcome "unknown") before its write was made; ErrNotFound when
	// there is no such event. An outcome other than "unknown", once
	// written, stays: settling it again with another outcome changes
	// nothing (with the same one, it updates the detail and changes).
	SettleAudit(ctx context.Context, id int64, outcome, detail, resource string, changes []trail.Change) error
	// PublishAudit puts an event into the outbox as it is (an attempt
	// whose outcome nobody can tell any more); once.
	PublishAudit(ctx context.Context, id int64) error
	// UnknownAttempts lists attempts still unknown, oldest first, that
	// began before before, or before gone.Begun by a replica known
	// stopped at gone.At (it said so, or its heartbeat went stale).
	UnknownAttempts(ctx context.Context, before time.Time, gone Gone, limit int) ([]trail.AuditEvent, error)
	// UnsettledAttempt finds the oldest attempt of a request (its id) on a
	// resource whose outcome is still unknown, or was only confirmed by the
	// reconciler's look (a job resuming it settles it again, in place);
	// ErrNotFound when none is.
	UnsettledAttempt(ctx context.Context, requestID string, action portal.Action, resource string) (int64, error)
	ListAudit(ctx context.Context, f AuditFilter) ([]trail.AuditEvent, error)
	// DeleteAuditBefore removes events older than t (retention).
	DeleteAuditBefore(ctx context.Context, t time.Time) (int, error)
}

// Gone says whose attempts are settled at once: those begun before
// Begun by a replica known stopped at At (zero times: none).
type Gone struct {
	At, Begun time.Time
}

// UnitRecord is a business unit onboarded through the admin area.
type UnitRecord struct {
	ID          string
	LandingZone string
	Admin       []string
	Developer   []string
	Viewer      []string
	CreatedBy   string
	Created     time.Time
	UpdatedBy   string
	Updated     time.Time
}

// SwitchRecord is a read-only switch on one landing zone's stage.
type SwitchRecord struct {
	LandingZone string
	Stage       string
	ReadOnly    bool
	Reason      string
	// Until ends the switch by itself; zero never does.
	Until time.Time
	SetBy string
	SetAt time.Time
}

// Tenants keeps what the admin area changes in the tenancy: onboarded
// business units and read-only switches.
type Tenants interface {
	UnitRecords(ctx context.Context) ([]UnitRecord, error)
	// CreateUnitRecord stores a new unit, or returns ErrExists.
	CreateUnitRecord(ctx context.Context, r UnitRecord) error
	// UpdateUnitRecord replaces a unit's groups, or returns ErrNotFound.
	UpdateUnitRecord(ctx context.Context, r UnitRecord) error
	// DeleteUnitRecord removes a unit, or returns ErrNotFound.
	DeleteUnitRecord(ctx context.Context, id string) error
	SwitchRecords(ctx context.Context) ([]SwitchRecord, error)
	// PutSwitchRecord sets (creates or replaces) a switch.
	PutSwitchRecord(ctx context.Context, r SwitchRecord) error
}

// RateBuckets are token buckets shared by every replica, for an
// upstream's limit that is the fleet's (the Metrics API's per source
// address).
type RateBuckets interface {
	// TakeTokens takes n tokens from the bucket name (refilled at
	// perSecond up to burst) at now when it holds n and keep more (at most
	// burst in all), or returns how long until it will (0 when taken);
	// owed takes them whatever the bucket holds (into debt: the next
	// takers wait it out).
	TakeTokens(ctx context.Context, name string, n, keep int, owed bool, perSecond float64, burst int, now time.Time) (time.Duration, error)
}

// MetricResults keep the Metrics API's answers for every replica.
type MetricResults interface {
	// MetricResult returns an answer and when it was fetched, or
	// ErrNotFound.
	MetricResult(ctx context.Context, key string) ([]byte, time.Time, error)
	PutMetricResult(ctx context.Context, key string, body []byte, at time.Time) error
	DeleteMetricResultsBefore(ctx context.Context, t time.Time) (int, error)
}

// Sample is one observation of a series.
type Sample struct {
	At    time.Time
	Value int64
}

// Samples keeps time series that the portal measures itself.
type Samples interface {
	// AddSample records a value unless the series has one newer than
	// at-minGap, so that replicas sampling the same series do not crowd it.
	AddSample(ctx context.Context, series string, at time.Time, value int64, minGap time.Duration) error
	// SamplesSince returns a series' samples from since, oldest first.
	SamplesSince(ctx context.Context, series string, since time.Time) ([]Sample, error)
	DeleteSamplesBefore(ctx context.Context, t time.Time) (int, error)
}

// Notifier carries short messages to every replica (itself included):
// PostgreSQL LISTEN/NOTIFY, or in-process delivery on SQLite's one node.
type Notifier interface {
	Publish(ctx context.Context, channel, payload string) error
	// Subscribe delivers the channel's messages until ctx ends. Messages
	// may be lost while the connection to the database is down; consumers
	// treat a (re)connection as "anything may have changed".
	Subscribe(ctx context.Context, channel string) (<-chan string, error)
}

// Channels in use.
const (
	// ChannelCache carries cache changes: "topics <zone>/<stage>" (refetch
	// in the background), "topic <name> <partitions> <deleted>
	// <zone>/<stage>" (a write to apply in place), "accounts <zone>/<stage>".
	ChannelCache = "rms_cache"
	// ChannelJobs carries "<job id>" whenever a job changes.
	ChannelJobs = "rms_jobs"
	// ChannelTenancy carries "units" or "switches" when the admin area
	// changes the tenancy.
	ChannelTenancy = "rms_tenancy"
	// Reconnected is delivered on every channel after the subscription
	// was re-established: messages may have been missed.
	Reconnected = "\x00reconnected"
)

// PolicyRecord is a guardrail policy as stored: Body is the policy as
// JSON, compiled by the portal when it is used.
type PolicyRecord struct {
	ID        string
	Zone      string
	Body      []byte
	UpdatedBy string
	Updated   time.Time
}

// BudgetRecord is one unit's budget in a stage: Limits per dimension,
// as JSON.
type BudgetRecord struct {
	BU, Stage, Zone string
	Limits          []byte
	UpdatedBy       string
	Updated         time.Time
}

// ZoneGrants reads the zone's grants, for the impact of deletes.
type ZoneGrants interface {
	ZoneGrants(ctx context.Context, zone, stage string, limit int) ([]GrantRecord, error)
}

// Guardrails keeps the policies and budgets platform admins set.
type Guardrails interface {
	// PolicyRecords lists the policies, by id.
	PolicyRecords(ctx context.Context) ([]PolicyRecord, error)
	// PutPolicyRecord creates or replaces a policy.
	PutPolicyRecord(ctx context.Context, r PolicyRecord) error
	// DeletePolicyRecord removes a policy, or returns ErrNotFound.
	DeletePolicyRecord(ctx context.Context, id string) error
	// BudgetRecords lists the budgets, by unit and stage.
	BudgetRecords(ctx context.Context) ([]BudgetRecord, error)
	// PutBudgetRecord creates or replaces a budget.
	PutBudgetRecord(ctx context.Context, r BudgetRecord) error
	// DeleteBudgetRecord removes a budget, or returns ErrNotFound.
	DeleteBudgetRecord(ctx context.Context, bu, stage string) error
	// ReserveBudget records the use a write checked against its unit's
	// budget, before it is made: whoever checks next counts it until the
	// resource shows upstream (or the write fails and it is released).
	ReserveBudget(ctx context.Context, r BudgetReservation) error
	// BudgetReservations lists the reservations of a unit in a stage
	// made since since.
	BudgetReservations(ctx context.Context, bu, stage string, since time.Time) ([]BudgetReservation, error)
	// ReleaseBudget removes the reservation of a resource (a write that
	// failed), or names it anew (one that learnt its id).
	ReleaseBudget(ctx context.Context, bu, stage, resource, renamed string) error
	// DeleteBudgetReservationsBefore removes reservations older than t.
	DeleteBudgetReservationsBefore(ctx context.Context, t time.Time) (int, error)
}

// BudgetReservation is the use of a write checked against a budget: the
// resource it makes and what it adds, per dimension, as JSON.
type BudgetReservation struct {
	BU, Stage, Resource string
	Use                 []byte
	At                  time.Time
}

// WebhookRecord is a webhook: where a zone's (or one unit's) events go,
// and the secret their signatures are made with.
type WebhookRecord struct {
	ID, Zone, BU, URL, Secret string
	// Stage, Format and AlertsOnly make a unit's alert channel: its
	// stage's alerts only, in the receiver's format (FormatCloudEvents,
	// FormatSlack, FormatAlertmanager).
	Stage, Format string
	AlertsOnly    bool
	CreatedBy     string
	Created       time.Time
	// Cursor is the position in the outbox deliveries were queued up to.
	Cursor OutboxPos
}

// OutboxPos is a position in the outbox of events: the order in which
// final events become visible to every reader, and never change.
type OutboxPos struct {
	TxID, Seq int64
}

// Less orders positions.
func (p OutboxPos) Less(q OutboxPos) bool {
	return p.TxID < q.TxID || p.TxID == q.TxID && p.Seq < q.Seq
}

// OutboxEvent is a final audit event at its place in the outbox.
type OutboxEvent struct {
	Pos   OutboxPos
	Event trail.AuditEvent
}

// Delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// Delivery is one event's delivery to one webhook.
type Delivery struct {
	WebhookID  string
	EventID    int64
	EventAt    time.Time
	State      string
	Attempts   int
	Next       time.Time
	LastStatus int
	LastError  string
	Done       time.Time
	// Body is the event as it is sent (queued once, sent as queued).
	Body []byte
	// Subject is the event's subject: a subject's events go in order.
	Subject string
	// ClaimedBy is the replica making an attempt, until ClaimedUntil.
	ClaimedBy    string
	ClaimedUntil time.Time
}

// Webhooks keeps webhooks and their outbox of deliveries.
type Webhooks interface {
	WebhookRecords(ctx context.Context) ([]WebhookRecord, error)
	// CreateWebhookRecord stores a webhook, or returns ErrExists.
	CreateWebhookRecord(ctx context.Context, r WebhookRecord) error
	// DeleteWebhookRecord removes a webhook and its deliveries, or
	// returns ErrNotFound.
	DeleteWebhookRecord(ctx context.Context, id string) error
	// ResealWebhookSecret replaces a webhook's secret as kept (sealed),
	// when it is still old.
	ResealWebhookSecret(ctx context.Context, id, old, sealed string) error
	// QueueDeliveries adds pending deliveries of events (those queued
	// already stay as they are) and moves the webhook's cursor to cursor,
	// at once.
	QueueDeliveries(ctx context.Context, webhookID string, ds []Delivery, cursor OutboxPos) error
	// PendingDeliveries lists pending deliveries, oldest event first
	// (each webhook's in the order of its events).
	PendingDeliveries(ctx context.Context, limit int) ([]Delivery, error)
	// ClaimDelivery gives holder a pending delivery's next attempt until
	// until, unless another holder's claim still runs at now.
	ClaimDelivery(ctx context.Context, webhookID string, eventID int64, holder string, until, now time.Time) (bool, error)
	// SaveDelivery records an attempt's outcome and ends holder's claim;
	// false when holder no longer holds it (nothing is written).
	SaveDelivery(ctx context.Context, d Delivery, holder string) (bool, error)
	// Deliveries lists a webhook's deliveries, newest event first.
	Deliveries(ctx context.Context, webhookID string, limit int) ([]Delivery, error)
	// DeliveryCounts counts every webhook's deliveries by state.
	DeliveryCounts(ctx context.Context) (map[string]map[string]int, error)
	// OutboxAfter lists the final events after a position in the
	// outbox, in its order, only as far as every earlier transaction has
	// ended: what it lists never gains an event before it.
	OutboxAfter(ctx context.Context, after OutboxPos, limit int) ([]OutboxEvent, error)
	// OutboxEnd is the outbox's last position (a new webhook starts
	// after it).
	OutboxEnd(ctx context.Context) (OutboxPos, error)
}

// RequestRecord is a change request as stored: the document and the plan
// as JSON (never a secret: documents with secret values are refused).
type RequestRecord struct {
	ID, Zone, BU, Stage         string
	Requester, RequesterSubject string
	Reason                      string
	Document                    []byte
	Fingerprint                 string
	Plan                        []byte
	State                       string
	Created                     time.Time
	DecidedBy, Comment          string
	Decided                     time.Time
	// Result is the apply's plan with each change's outcome; while the
	// request is applying, the plan being applied (its journal).
	Result []byte
	// Event is the audit attempt of the approval being applied, which
	// whoever finishes the apply settles.
	Event int64
}

// ChangeRequests keeps change requests.
type ChangeRequests interface {
	CreateRequestRecord(ctx context.Context, r RequestRecord) error
	// RequestRecord returns one request, or ErrNotFound.
	RequestRecord(ctx context.Context, id string) (RequestRecord, error)
	// RequestRecords lists a unit's requests in a stage, newest first
	// ("" state: every state).
	RequestRecords(ctx context.Context, bu, stage, state string, limit int) ([]RequestRecord, error)
	// OpenRequests lists every open request, oldest first.
	OpenRequests(ctx context.Context, limit int) ([]RequestRecord, error)
	// RequestsInState lists every request in a state, oldest first.
	RequestsInState(ctx context.Context, state string, limit int) ([]RequestRecord, error)
	// DecideRequest moves a request from state from to r's state with r's
	// decision and result; false when it was no longer in from (another
	// reviewer was first).
	DecideRequest(ctx context.Context, r RequestRecord, from string) (bool, error)
}

// ApplyRecord is the journal of a direct apply: the document, the plan
// being applied and its audit attempt, written before the first change;
// then the outcome.
type ApplyRecord struct {
	ID, BU, Stage, Actor string
	Document, Plan       []byte
	// State is applying, then applied or partly_applied.
	State    string
	Event    int64
	Started  time.Time
	Finished time.Time
	// Result is the plan with each change's outcome.
	Result []byte
}

// Applies keeps the journals of direct applies.
type Applies interface {
	CreateApply(ctx context.Context, a ApplyRecord) error
	// FinishApply records an applying journal's outcome, once.
	FinishApply(ctx context.Context, a ApplyRecord) (bool, error)
	// AppliesInState lists the journals in a state, oldest first.
	AppliesInState(ctx context.Context, state string, limit int) ([]ApplyRecord, error)
	// ApplyRecord returns one journal, or ErrNotFound.
	ApplyRecord(ctx context.Context, id string) (ApplyRecord, error)
	// ForgetApplies removes the journals finished before before.
	ForgetApplies(ctx context.Context, before time.Time) (int, error)
}

// GrantRecord is access one unit (the grantee) asked another (the owner)
// for, on a topic or a topic prefix of the owner, for one of its own
// service accounts or identity pools. Bindings are the ids of the role
// bindings the grant made (and alone removes when revoked).
type GrantRecord struct {
	ID, Zone, Stage          string
	Owner, Grantee           string
	Principal, PrincipalName string
	Pattern                  string
	Prefixed                 bool
	Access                   string
	State                    string
	Requester                string
	RequesterSubject         string
	Reason                   string
	Created                  time.Time
	DecidedBy, Comment       string
	Decided                  time.Time
	// Bindings are the role bindings the grant holds ("id role resource
	// pattern"); while it is being approved, those still to be made have
	// the id "-".
	Bindings []string
	// Event is the audit attempt of the decision under way (approving,
	// revoking), which whoever finishes the decision settles.
	Event int64
	// Duration is how long the grant lasts once approved (0: for good);
	// Expires when an active one ends (zero: never).
	Duration time.Duration
	Expires  time.Time
	// Classification is the topic's when the grant was asked for (it
	// decides the longest duration and the approvals needed).
	Classification string
	// Approvals are the Admins who approved a grant that needs two, so
	// far.
	Approvals []string
	// Renews is the active grant a request extends, when approved.
	Renews string
	// Warned: the grant's coming expiry has been announced.
	Warned bool
}

// Grants keeps grants between units.
type Grants interface {
	CreateGrantRecord(ctx context.Context, g GrantRecord) error
	// GrantRecord returns one grant, or ErrNotFound.
	GrantRecord(ctx context.Context, id string) (GrantRecord, error)
	// GrantRecords lists the grants a unit gave or received in a stage,
	// newest first.
	GrantRecords(ctx context.Context, unit, stage string, limit int) ([]GrantRecord, error)
	// GrantsInState lists every grant in a state, oldest first.
	GrantsInState(ctx context.Context, state string, limit int) ([]GrantRecord, error)
	// UpdateGrant moves a grant from state from to g's state, decision
	// and bindings; false when it was no longer in from.
	UpdateGrant(ctx context.Context, g GrantRecord, from string) (bool, error)
	// DeleteGrant forgets a grant still in state from (one given whose
	// bindings could not be made), once.
	DeleteGrant(ctx context.Context, id, from string) (bool, error)
	// ExpiringGrants lists the active grants that expire at or before
	// before, soonest first.
	ExpiringGrants(ctx context.Context, before time.Time, limit int) ([]GrantRecord, error)
	// ZoneGrants lists the active (and approving) grants of a zone in a
	// stage, for the catalog's readers and the impact of deletes.
	ZoneGrants(ctx context.Context, zone, stage string, limit int) ([]GrantRecord, error)
	// GrantsNaming lists a zone's grants in a stage that are not closed
	// (requested, approving, active, revoking, ending) and name exactly
	// topic (not as a prefix) or are for principal ("" matches nothing),
	// oldest first: what ends when a delete takes them away.
	GrantsNaming(ctx context.Context, zone, stage, topic, principal string, limit int) ([]GrantRecord, error)
	// MarkGrantWarned records that an active grant's expiry was
	// announced; false when it was already, or is no longer active.
	MarkGrantWarned(ctx context.Context, id string) (bool, error)
	// ExtendGrant moves an active grant's expiry (a renewal), and clears
	// its warning.
	ExtendGrant(ctx context.Context, id string, expires time.Time) (bool, error)
}

// CatalogEntry is what an owner unit says about one of its topics.
type CatalogEntry struct {
	Zone, Stage, Topic string
	// BU owns the topic.
	BU          string
	Description string
	// Contact is who to ask (a team, a mail address, a channel).
	Contact        string
	Tags           []string
	Classification string
	UpdatedBy      string
	Updated        time.Time
}

// Catalog keeps the catalog entries of the zones' topics.
type Catalog interface {
	// PutCatalogEntry creates or replaces an entry.
	PutCatalogEntry(ctx context.Context, e CatalogEntry) error
	// CatalogEntry returns one entry, or ErrNotFound.
	CatalogEntry(ctx context.Context, zone, stage, topic string) (CatalogEntry, error)
	// CatalogEntries lists a zone's entries in a stage, by topic.
	CatalogEntries(ctx context.Context, zone, stage string, limit int) ([]CatalogEntry, error)
	// DeleteCatalogEntry forgets an entry (its topic was deleted).
	DeleteCatalogEntry(ctx context.Context, zone, stage, topic string) error
}

// AutoRestart is a connector whose auto-restart is on: the most restarts
// before the portal gives up (0: no limit), and where its backoff stands.
type AutoRestart struct {
	Zone, Stage, Connector string
	// BU owns the connector (for the trail of the portal's restarts).
	BU          string
	MaxRestarts int
	// Attempts are the restarts since the connector last ran well, or
	// since a person paused, resumed or restarted it.
	Attempts int
	// FailingSince is when the current failure was first seen (zero:
	// none is); LastAt the last restart.
	FailingSince, LastAt time.Time
	// GivenUp: MaxRestarts restarts did not bring it back.
	GivenUp bool
	SetBy   string
	SetAt   time.Time
}

// AutoRestarts keeps the connectors whose auto-restart is on.
type AutoRestarts interface {
	// SetAutoRestart turns a connector's auto-restart on, or changes its
	// limit, with its backoff from the start.
	SetAutoRestart(ctx context.Context, a AutoRestart) error
	// AutoRestartOf returns one connector's, or ErrNotFound when it is
	// off.
	AutoRestartOf(ctx context.Context, zone, stage, connector string) (AutoRestart, error)
	// AutoRestartsIn lists a stage's of a zone, by connector.
	AutoRestartsIn(ctx context.Context, zone, stage string) ([]AutoRestart, error)
	// AutoRestartStages lists the zones and stages that have any, as
	// "zone/stage".
	AutoRestartStages(ctx context.Context) ([]portal.ZoneStage, error)
	// UpdateAutoRestart saves where a backoff stands (attempts, failing
	// since, last restart, given up); false when it is off meanwhile.
	UpdateAutoRestart(ctx context.Context, a AutoRestart) (bool, error)
	// DeleteAutoRestart turns it off (nothing when it was).
	DeleteAutoRestart(ctx context.Context, zone, stage, connector string) error
}

// ConnectorSecrets keeps a keyed digest of each secret setting the
// portal last sent to a connector: Confluent Cloud never gives a stored
// secret back, so the digest is how a plan tells a value changed.
type ConnectorSecrets interface {
	// SecretDigests returns a connector's digests by setting (empty when
	// none are kept).
	SecretDigests(ctx context.Context, zone, stage, connector string) (map[string]string, error)
	// SetSecretDigests replaces them; none removes the connector's.
	SetSecretDigests(ctx context.Context, zone, stage, connector string, digests map[string]string) error
}

// Formats of a webhook's messages.
const (
	FormatCloudEvents  = ""
	FormatSlack        = "slack"
	FormatAlertmanager = "alertmanager"
)

// AlertRuleRecord is a unit's alert rule in a stage.
type AlertRuleRecord struct {
	Zone, Stage, BU, Name, Kind, Target string
	Threshold                           float64
	For                                 time.Duration
	Enabled                             bool
	SilencedUntil                       time.Time
	SilenceReason, SilencedBy           string
	UpdatedBy                           string
	UpdatedAt                           time.Time
}

// AlertRecord is an alert a rule raised for one subject (a group, a
// connector, a key, a topic, the budget).
type AlertRecord struct {
	ID, Zone, Stage, BU, Rule, Kind, Subject string
	// State is pending (the condition holds, not yet for its duration),
	// firing or resolved.
	State, Value string
	// Since is when the condition was first seen; ClearSince when it was
	// last seen to end while firing (zero: it holds).
	Since, FiredAt, ResolvedAt, ClearSince time.Time
	Silenced                               bool
}

// Alerts keeps alert rules and the alerts they raise.
type Alerts interface {
	// AlertRules lists a stage's rules of a unit; "" for any zone, stage
	// or unit.
	AlertRules(ctx context.Context, zone, stage, bu string) ([]AlertRuleRecord, error)
	// PutAlertRule creates or replaces a rule.
	PutAlertRule(ctx context.Context, r AlertRuleRecord) error
	// DeleteAlertRule deletes a rule, or returns ErrNotFound.
	DeleteAlertRule(ctx context.Context, zone, stage, bu, name string) error
	// OpenAlerts lists a stage's pending and firing alerts ("" for any
	// zone or stage).
	OpenAlerts(ctx context.Context, zone, stage string) ([]AlertRecord, error)
	// SaveAlert creates or updates an alert.
	SaveAlert(ctx context.Context, a AlertRecord) error
	// AlertHistory lists a unit's alerts in a stage, newest first.
	AlertHistory(ctx context.Context, zone, stage, bu string, limit int) ([]AlertRecord, error)
	// FiringAlerts lists the firing alerts of units, newest first.
	FiringAlerts(ctx context.Context, bus []string, limit int) ([]AlertRecord, error)
}
