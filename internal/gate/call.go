package gate

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Call is an authorized operation in progress: who, where, and the
// environment that serves the scope.
type Call struct {
	Principal *portal.Principal
	Scope     tenancy.Scope
	Role      portal.Role
	Env       *platform.Environment
	// WholeCluster is true when a Super Admin views the main business unit
	// of a shared landing zone: the whole cluster is visible, including
	// resources outside the naming convention.
	WholeCluster bool
	// pace waits for the unit's share of the Confluent Cloud write quota.
	pace func(ctx context.Context) error
	g    *Guard
	// prefixes are the zone's units with their name prefixes in the
	// call's stage, the call's own first; Owner fills them once (a bulk
	// job's workers share the call).
	prefixes     []unitPrefix
	prefixesOnce sync.Once
	// warnings are what the rules let through with a warning, for the
	// call's audit events.
	warnings []string
	// write is the change a write call is about (EnterWrite), until its
	// attempt or its refusal is in the trail.
	write *pendingWrite
}

// pendingWrite is a write call's change, and whether the trail has it.
type pendingWrite struct {
	event    portal.Action
	resource string
	recorded atomic.Bool
}

// Writes makes c a write call about event on resource: Settle records
// its refusal if it ends before its attempt is in the trail (for a call
// entered as a read that turns out to write, such as a produce).
func (c *Call) Writes(event portal.Action, resource string) *Call {
	c.write = &pendingWrite{event: event, resource: resource}
	return c
}

// HandedOver marks the call's change as handed to a job, which audits
// it (its attempt before its first upstream call, then its outcome): the
// call's own end is not a refusal to record.
func (c *Call) HandedOver() { c.recorded() }

// recorded marks the call's change as in the trail.
func (c *Call) recorded() {
	if c != nil && c.write != nil {
		c.write.recorded.Store(true)
	}
}

type unitPrefix struct {
	unit, prefix string
}

// Named is the call's scope as callers name it, for the services a call
// makes on its way (an apply's changes).
func (c *Call) Named() portal.Scope {
	return portal.Scope{BU: c.Scope.Unit.ID, Stage: c.Scope.Stage.Name}
}

// Pace waits for the unit's and the organisation's share of the Confluent
// Cloud write quota, or refuses with RateLimited.
func (c *Call) Pace(ctx context.Context) error { return c.pace(ctx) }

// Unit is the call as its unit sees it, without the whole-cluster view:
// plans are about the unit's own resources, also for a Super Admin.
func (c *Call) Unit() *Call {
	return &Call{Principal: c.Principal, Scope: c.Scope, Role: c.Role, Env: c.Env, pace: c.pace, g: c.g, warnings: c.warnings, write: c.write}
}

// Event is the audit event of the call's write of resource.
func (c *Call) Event(action portal.Action, resource string) trail.AuditEvent {
	return trail.AuditEvent{Actor: c.Principal.Actor(), ActorRole: c.Role.String(), Groups: c.Principal.Grant(c.Scope.Unit.ID).Groups,
		Service: c.Principal.Service, LandingZone: c.Scope.Zone().ID, BU: c.Scope.Unit.ID, Stage: c.Scope.Stage.Name, Action: action,
		Resource: resource, Detail: warningDetail(c.warnings, "")}
}

// Ownership is who owns a resource name by the naming convention.
type Ownership struct {
	Unit       string
	Identifier string
	Outside    bool
}

// Owner finds the business unit whose prefix (and suffix, for
// connectors) a name carries, among the units of the call's landing zone.
func (c *Call) Owner(name, suffix string) Ownership {
	if !strings.HasSuffix(name, suffix) {
		return Ownership{Identifier: name, Outside: true}
	}
	c.prefixesOnce.Do(func() {
		// Once per call: a page asks for every item.
		c.prefixes = []unitPrefix{{c.Scope.Unit.ID, c.Scope.Prefix()}}
		for _, id := range c.Scope.Zone().BusinessUnits {
			if u, _ := c.g.tenancy.Current().Unit(id); u != c.Scope.Unit {
				c.prefixes = append(c.prefixes, unitPrefix{u.ID, tenancy.Scope{Unit: u, Stage: c.Scope.Stage}.Prefix()})
			}
		}
	})
	for _, p := range c.prefixes {
		if strings.HasPrefix(name, p.prefix) {
			return Ownership{Unit: p.unit, Identifier: strings.TrimSuffix(name[len(p.prefix):], suffix)}
		}
	}
	return Ownership{Identifier: name, Outside: true}
}

// KeepUnit tells whether an item owned by unit ("" for none) stays in a
// list filtered by q.Unit: only whole-cluster views are filtered.
func (c *Call) KeepUnit(q portal.ListQuery, unit string) bool {
	switch {
	case !c.WholeCluster || q.Unit == "":
		return true
	case q.Unit == portal.UnitNone:
		return unit == ""
	}
	return unit == q.Unit
}
