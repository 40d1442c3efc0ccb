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
