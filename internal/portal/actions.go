package portal

import (
	"slices"
	"strings"
)

// Action names a write (or a read worth a trace) in the audit trail:
// "<kind>.<verb>". Every action the portal records is declared with its
// past tense, which names its CloudEvent ("portal.topic.created"): a
// kind's verbs in its KindInfo, the few others here. A new verb cannot
// reach the trail without saying what it did.
type Action string

// The actions on what is not a resource kind: a document's apply, a
// webhook, a budget, a unit, a stage's switch, a session. A kind's
// actions are declared beside it, their past tenses in its KindInfo.
const (
	ActResourcesApply       Action = "resources.apply"
	ActWebhookCreate        Action = "webhook.create"
	ActWebhookDelete        Action = "webhook.delete"
	ActBudgetSet            Action = "budget.set"
	ActBusinessUnitOnboard  Action = "business_unit.onboard"
	ActBusinessUnitUpdate   Action = "business_unit.update"
	ActBusinessUnitOffboard Action = "business_unit.offboard"
	ActReadOnlySet          Action = "read_only.set"
	ActSessionEnd           Action = "session.end"
)

// platformPast are the past tenses of the actions that act on no kind.
var platformPast = map[Action]string{
	ActResourcesApply:       "applied",
	ActWebhookCreate:        "created",
	ActWebhookDelete:        "deleted",
	ActBudgetSet:            "set",
	ActBusinessUnitOnboard:  "onboarded",
	ActBusinessUnitUpdate:   "updated",
	ActBusinessUnitOffboard: "offboarded",
	ActReadOnlySet:          "set",
	ActSessionEnd:           "ended",
}

// Past is what the action did, done ("created"): its kind's verb's past
// tense, or a platform action's; "" for an action not declared.
func (a Action) Past() string {
	kind, verb, _ := strings.Cut(string(a), ".")
	for _, k := range kinds {
		if k.Change != kind {
			continue
		}
		for _, v := range k.Verbs {
			if v.Name == verb {
				return v.Past
			}
		}
		return ""
	}
	return platformPast[a]
}

// Declared tells whether the action is one of the portal's.
func (a Action) Declared() bool { return a.Past() != "" }

// Kind is the kind the action acts on ("topic").
func (a Action) Kind() string {
	k, _, _ := strings.Cut(string(a), ".")
	return k
}

// RouteAction stands for the action of a write refused at a front door
// before any service knew what it was ("POST /:bu/:stage/topic", "form
// /:bu/:stage/topics"): it is not declared, and has no past tense.
func RouteAction(route string) Action { return Action(route) }

// Actions lists the declared actions, sorted: the kinds' verbs and the
// platform's.
func Actions() []Action {
	out := make([]Action, 0, len(platformPast)+4*len(kinds))
	for _, k := range kinds {
		for _, v := range k.Verbs {
			out = append(out, Action(k.Change+"."+v.Name))
		}
	}
	for a := range platformPast {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}
