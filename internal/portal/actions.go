package portal

import (
	"database/sql/driver"
	"fmt"
	"slices"
	"strings"
)

// Action names a write (or a read worth a trace) in the audit trail,
// "<kind>.<verb>", with its past tense, which names its CloudEvent
// ("portal.topic.created"). Its fields are unexported: only this
// package's declarations make one, so a guard, a trail or an event
// handed an undeclared action does not compile. Stored actions come
// back through ActionNamed.
type Action struct {
	name, past string
}

// The actions on what is not a resource kind: a document's apply, a
// webhook, a budget, a unit, a stage's switch, a session. A kind's
// actions are declared beside it, and listed in its KindInfo.
var (
	ActResourcesApply       = Action{"resources.apply", "applied"}
	ActWebhookCreate        = Action{"webhook.create", "created"}
	ActWebhookDelete        = Action{"webhook.delete", "deleted"}
	ActBudgetSet            = Action{"budget.set", "set"}
	ActBusinessUnitOnboard  = Action{"business_unit.onboard", "onboarded"}
	ActBusinessUnitUpdate   = Action{"business_unit.update", "updated"}
	ActBusinessUnitOffboard = Action{"business_unit.offboard", "offboarded"}
	ActReadOnlySet          = Action{"read_only.set", "set"}
	ActSessionEnd           = Action{"session.end", "ended"}
)

// platform are the actions that act on no kind.
var platform = []Action{ActResourcesApply, ActWebhookCreate, ActWebhookDelete, ActBudgetSet, ActBusinessUnitOnboard,
	ActBusinessUnitUpdate, ActBusinessUnitOffboard, ActReadOnlySet, ActSessionEnd}

// String is the action's name ("topic.create").
func (a Action) String() string { return a.name }

// Past is what the action did, done ("created"); "" for an action not
// declared (a refused route's).
func (a Action) Past() string { return a.past }

// Declared tells whether the action is one of the portal's.
func (a Action) Declared() bool { return a.past != "" }

// IsZero tells whether the action is the zero one (none named).
func (a Action) IsZero() bool { return a.name == "" }

// Kind is the kind the action acts on ("topic").
func (a Action) Kind() string {
	k, _, _ := strings.Cut(a.name, ".")
	return k
}

// RouteAction stands for the action of a write refused at a front door
// before any service knew what it was ("POST /:bu/:stage/topic", "form
// /:bu/:stage/topics"): it is not declared, and has no past tense.
func RouteAction(route string) Action { return Action{name: route} }

// ActionNamed is the declared action of that name, as the trail stored
// it; a name not declared (a refused route's, or one a later version
// dropped) comes back undeclared, without a past tense.
func ActionNamed(name string) Action {
	if a, ok := actionsByName[name]; ok {
		return a
	}
	return Action{name: name}
}

// actionsByName is the declared actions by name, made once from the
// declarations (as kinds is, it never changes).
var actionsByName = func() map[string]Action {
	m := map[string]Action{}
	for _, a := range Actions() {
		m[a.name] = a
	}
	return m
}()

// Actions lists the declared actions, sorted by name: the kinds' verbs
// and the platform's.
func Actions() []Action {
	out := slices.Clone(platform)
	for _, k := range kinds {
		out = append(out, k.Verbs...)
	}
	slices.SortFunc(out, func(a, b Action) int { return strings.Compare(a.name, b.name) })
	return out
}

// MarshalText writes the action's name, so JSON and logs carry it as a
// string.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.name), nil }

// UnmarshalText reads a name back, as ActionNamed does.
func (a *Action) UnmarshalText(b []byte) error {
	*a = ActionNamed(string(b))
	return nil
}

// Value stores the action's name.
func (a Action) Value() (driver.Value, error) { return a.name, nil }

// Scan reads a stored name back, as ActionNamed does.
func (a *Action) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*a = ActionNamed(v)
	case []byte:
		*a = ActionNamed(string(v))
	case nil:
		*a = Action{}
	default:
		return fmt.Errorf("action: cannot scan %T", src)
	}
	return nil
}

// The consumer group's actions; its KindInfo declares their past tenses.
var (
	ActConsumerGroupDelete       = Action{"consumer-group.delete", "deleted"}
	ActConsumerGroupResetOffsets = Action{"consumer-group.reset-offsets", "offsets-reset"}
)

// The change request's actions; its KindInfo declares their past tenses.
var (
	ActChangeRequestCreate   = Action{"change-request.create", "created"}
	ActChangeRequestApprove  = Action{"change-request.approve", "approved"}
	ActChangeRequestReject   = Action{"change-request.reject", "rejected"}
	ActChangeRequestWithdraw = Action{"change-request.withdraw", "withdrawn"}
	ActChangeRequestStale    = Action{"change-request.stale", "stale"}
)

// The grant's actions; its KindInfo declares their past tenses.
var (
	ActGrantRequest  = Action{"grant.request", "requested"}
	ActGrantApprove  = Action{"grant.approve", "approved"}
	ActGrantReject   = Action{"grant.reject", "rejected"}
	ActGrantWithdraw = Action{"grant.withdraw", "withdrawn"}
	ActGrantRevoke   = Action{"grant.revoke", "revoked"}
	ActGrantCreate   = Action{"grant.create", "created"}
	ActGrantExpire   = Action{"grant.expire", "expired"}
	ActGrantEnd      = Action{"grant.end", "ended"}
	ActGrantExpiring = Action{"grant.expiring", "expiring"}
)

// The alert's actions; its KindInfo declares their past tenses.
var (
	ActAlertFire    = Action{"alert.fire", "fired"}
	ActAlertResolve = Action{"alert.resolve", "resolved"}
)

// The alert channel's actions; its KindInfo declares their past tenses.
var (
	ActAlertChannelCreate = Action{"alert-channel.create", "created"}
	ActAlertChannelDelete = Action{"alert-channel.delete", "deleted"}
)

// The alert rule's actions; its KindInfo declares their past tenses.
var (
	ActAlertRuleUpdate  = Action{"alert-rule.update", "updated"}
	ActAlertRuleDelete  = Action{"alert-rule.delete", "deleted"}
	ActAlertRuleSilence = Action{"alert-rule.silence", "silenced"}
)

// The policy's actions; its KindInfo declares their past tenses.
var (
	ActPolicyCreate = Action{"policy.create", "created"}
	ActPolicyUpdate = Action{"policy.update", "updated"}
	ActPolicyDelete = Action{"policy.delete", "deleted"}
)

// The connector's actions; its KindInfo declares their past tenses.
var (
	ActConnectorCreate         = Action{"connector.create", "created"}
	ActConnectorUpdate         = Action{"connector.update", "updated"}
	ActConnectorDelete         = Action{"connector.delete", "deleted"}
	ActConnectorPause          = Action{"connector.pause", "paused"}
	ActConnectorResume         = Action{"connector.resume", "resumed"}
	ActConnectorRestart        = Action{"connector.restart", "restarted"}
	ActConnectorAutoRestart    = Action{"connector.auto-restart", "auto-restarted"}
	ActConnectorGiveUp         = Action{"connector.give-up", "given-up"}
	ActConnectorSetAutoRestart = Action{"connector.set-auto-restart", "auto-restart-set"}
)

// The schema's actions; its KindInfo declares their past tenses.
var (
	ActSchemaCreate  = Action{"schema.create", "created"}
	ActSchemaVersion = Action{"schema.version", "versioned"}
	ActSchemaDelete  = Action{"schema.delete", "deleted"}
)

// The topic's actions; its KindInfo declares their past tenses.
var (
	ActTopicCreate      = Action{"topic.create", "created"}
	ActTopicUpdate      = Action{"topic.update", "updated"}
	ActTopicConfig      = Action{"topic.config", "configured"}
	ActTopicPartitions  = Action{"topic.partitions", "repartitioned"}
	ActTopicDelete      = Action{"topic.delete", "deleted"}
	ActTopicDescribe    = Action{"topic.describe", "described"}
	ActTopicProduce     = Action{"topic.produce", "produced"}
	ActTopicReadRecords = Action{"topic.read-records", "read-records"}
)

// The identity pool's actions; its KindInfo declares their past tenses.
var (
	ActIdentityPoolCreate = Action{"identity-pool.create", "created"}
	ActIdentityPoolFilter = Action{"identity-pool.filter", "updated"}
	ActIdentityPoolDelete = Action{"identity-pool.delete", "deleted"}
)

// The service account's actions; its KindInfo declares their past tenses.
var (
	ActServiceAccountCreate     = Action{"service-account.create", "created"}
	ActServiceAccountBulkCreate = Action{"service-account.bulk-create", "bulk-created"}
	ActServiceAccountUpdate     = Action{"service-account.update", "updated"}
	ActServiceAccountDelete     = Action{"service-account.delete", "deleted"}
)

// The api key's actions; its KindInfo declares their past tenses.
var (
	ActAPIKeyCreate = Action{"api-key.create", "created"}
	ActAPIKeyUpdate = Action{"api-key.update", "updated"}
	ActAPIKeyRotate = Action{"api-key.rotate", "rotated"}
	ActAPIKeyDelete = Action{"api-key.delete", "deleted"}
	ActAPIKeyExpire = Action{"api-key.expire", "expired"}
)
