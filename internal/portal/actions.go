package portal

import (
	"slices"
	"strings"
)

// Action names a write (or a read worth a trace) in the audit trail:
// "<kind>.<verb>". Every action the portal records is declared here with
// its past tense, which names its CloudEvent ("portal.topic.created"):
// a new verb cannot reach the trail without saying what it did.
type Action string

// The actions, by kind.
const (
	ActTopicCreate      Action = "topic.create"
	ActTopicUpdate      Action = "topic.update"
	ActTopicConfig      Action = "topic.config"
	ActTopicPartitions  Action = "topic.partitions"
	ActTopicDelete      Action = "topic.delete"
	ActTopicDescribe    Action = "topic.describe"
	ActTopicProduce     Action = "topic.produce"
	ActTopicReadRecords Action = "topic.read-records"

	ActConnectorCreate         Action = "connector.create"
	ActConnectorUpdate         Action = "connector.update"
	ActConnectorDelete         Action = "connector.delete"
	ActConnectorPause          Action = "connector.pause"
	ActConnectorResume         Action = "connector.resume"
	ActConnectorRestart        Action = "connector.restart"
	ActConnectorAutoRestart    Action = "connector.auto-restart"
	ActConnectorGiveUp         Action = "connector.give-up"
	ActConnectorSetAutoRestart Action = "connector.set-auto-restart"

	ActSchemaCreate  Action = "schema.create"
	ActSchemaVersion Action = "schema.version"
	ActSchemaDelete  Action = "schema.delete"

	ActConsumerGroupDelete       Action = "consumer-group.delete"
	ActConsumerGroupResetOffsets Action = "consumer-group.reset-offsets"

	ActServiceAccountCreate     Action = "service-account.create"
	ActServiceAccountBulkCreate Action = "service-account.bulk-create"
	ActServiceAccountUpdate     Action = "service-account.update"
	ActServiceAccountDelete     Action = "service-account.delete"

	ActAPIKeyCreate Action = "api-key.create"
	ActAPIKeyUpdate Action = "api-key.update"
	ActAPIKeyRotate Action = "api-key.rotate"
	ActAPIKeyDelete Action = "api-key.delete"
	ActAPIKeyExpire Action = "api-key.expire"

	ActIdentityPoolCreate Action = "identity-pool.create"
	ActIdentityPoolFilter Action = "identity-pool.filter"
	ActIdentityPoolDelete Action = "identity-pool.delete"

	ActGrantRequest  Action = "grant.request"
	ActGrantApprove  Action = "grant.approve"
	ActGrantReject   Action = "grant.reject"
	ActGrantWithdraw Action = "grant.withdraw"
	ActGrantRevoke   Action = "grant.revoke"
	ActGrantCreate   Action = "grant.create"
	ActGrantExpire   Action = "grant.expire"
	ActGrantExpiring Action = "grant.expiring"

	ActChangeRequestCreate   Action = "change-request.create"
	ActChangeRequestApprove  Action = "change-request.approve"
	ActChangeRequestReject   Action = "change-request.reject"
	ActChangeRequestWithdraw Action = "change-request.withdraw"
	ActChangeRequestStale    Action = "change-request.stale"

	ActResourcesApply Action = "resources.apply"

	ActAlertRuleUpdate  Action = "alert-rule.update"
	ActAlertRuleDelete  Action = "alert-rule.delete"
	ActAlertRuleSilence Action = "alert-rule.silence"

	ActAlertChannelCreate Action = "alert-channel.create"
	ActAlertChannelDelete Action = "alert-channel.delete"

	ActAlertFire    Action = "alert.fire"
	ActAlertResolve Action = "alert.resolve"

	ActWebhookCreate Action = "webhook.create"
	ActWebhookDelete Action = "webhook.delete"

	ActPolicyCreate Action = "policy.create"
	ActPolicyUpdate Action = "policy.update"
	ActPolicyDelete Action = "policy.delete"

	ActBudgetSet Action = "budget.set"

	ActBusinessUnitOnboard  Action = "business_unit.onboard"
	ActBusinessUnitUpdate   Action = "business_unit.update"
	ActBusinessUnitOffboard Action = "business_unit.offboard"

	ActReadOnlySet Action = "read_only.set"

	ActSessionEnd Action = "session.end"
)

// pastTenses are the declared actions' past tenses.
var pastTenses = map[Action]string{
	ActTopicCreate:               "created",
	ActTopicUpdate:               "updated",
	ActTopicConfig:               "configured",
	ActTopicPartitions:           "repartitioned",
	ActTopicDelete:               "deleted",
	ActTopicDescribe:             "described",
	ActTopicProduce:              "produced",
	ActTopicReadRecords:          "read-records",
	ActConnectorCreate:           "created",
	ActConnectorUpdate:           "updated",
	ActConnectorDelete:           "deleted",
	ActConnectorPause:            "paused",
	ActConnectorResume:           "resumed",
	ActConnectorRestart:          "restarted",
	ActConnectorAutoRestart:      "auto-restarted",
	ActConnectorGiveUp:           "given-up",
	ActConnectorSetAutoRestart:   "auto-restart-set",
	ActSchemaCreate:              "created",
	ActSchemaVersion:             "versioned",
	ActSchemaDelete:              "deleted",
	ActConsumerGroupDelete:       "deleted",
	ActConsumerGroupResetOffsets: "offsets-reset",
	ActServiceAccountCreate:      "created",
	ActServiceAccountBulkCreate:  "bulk-created",
	ActServiceAccountUpdate:      "updated",
	ActServiceAccountDelete:      "deleted",
	ActAPIKeyCreate:              "created",
	ActAPIKeyUpdate:              "updated",
	ActAPIKeyRotate:              "rotated",
	ActAPIKeyDelete:              "deleted",
	ActAPIKeyExpire:              "expired",
	ActIdentityPoolCreate:        "created",
	ActIdentityPoolFilter:        "updated",
	ActIdentityPoolDelete:        "deleted",
	ActGrantRequest:              "requested",
	ActGrantApprove:              "approved",
	ActGrantReject:               "rejected",
	ActGrantWithdraw:             "withdrawn",
	ActGrantRevoke:               "revoked",
	ActGrantCreate:               "created",
	ActGrantExpire:               "expired",
	ActGrantExpiring:             "expiring",
	ActChangeRequestCreate:       "created",
	ActChangeRequestApprove:      "approved",
	ActChangeRequestReject:       "rejected",
	ActChangeRequestWithdraw:     "withdrawn",
	ActChangeRequestStale:        "stale",
	ActResourcesApply:            "applied",
	ActAlertRuleUpdate:           "updated",
	ActAlertRuleDelete:           "deleted",
	ActAlertRuleSilence:          "silenced",
	ActAlertChannelCreate:        "created",
	ActAlertChannelDelete:        "deleted",
	ActAlertFire:                 "fired",
	ActAlertResolve:              "resolved",
	ActWebhookCreate:             "created",
	ActWebhookDelete:             "deleted",
	ActPolicyCreate:              "created",
	ActPolicyUpdate:              "updated",
	ActPolicyDelete:              "deleted",
	ActBudgetSet:                 "set",
	ActBusinessUnitOnboard:       "onboarded",
	ActBusinessUnitUpdate:        "updated",
	ActBusinessUnitOffboard:      "offboarded",
	ActReadOnlySet:               "set",
	ActSessionEnd:                "ended",
}

// Past is what the action did, done ("created"); "" for an action not
// declared.
func (a Action) Past() string { return pastTenses[a] }

// Declared tells whether the action is one of the portal's.
func (a Action) Declared() bool { _, ok := pastTenses[a]; return ok }

// Kind is the kind the action acts on ("topic").
func (a Action) Kind() string {
	k, _, _ := strings.Cut(string(a), ".")
	return k
}

// RouteAction stands for the action of a write refused at a front door
// before any service knew what it was ("POST /:bu/:stage/topic", "form
// /:bu/:stage/topics"): it is not declared, and has no past tense.
func RouteAction(route string) Action { return Action(route) }

// Actions lists the declared actions, sorted.
func Actions() []Action {
	out := make([]Action, 0, len(pastTenses))
	for a := range pastTenses {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}
