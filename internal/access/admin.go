package access

import (
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// AdminAction is something done in the platform admin area.
type AdminAction int

// Admin actions. Platform admins may do all of them; a landing zone's
// Super Admins may read its audit trail, upstream health, guardrails and costs; nobody else
// may do any, nor learn that the area exists.
const (
	ManageTenancy    AdminAction = iota // onboard, change, offboard units; switch stages read-only
	ReadZoneAudit                       // read the trail across a zone's units
	ReadZoneHealth                      // read the health of a zone's upstreams
	ReadConfig                          // read the configuration in force
	ManageSessions                      // list and end people's sessions
	PreviewAccess                       // explain the access of a set of groups
	ManageGuardrails                    // change policies and budgets
	ReadGuardrails                      // read a zone's policies, their reports and budgets
	ManageWebhooks                      // configure webhooks and read their deliveries
	ReadZoneCosts                       // read the usage and costs of a zone's units side by side
)

// AdminActions lists every admin action, for tests and the docs.
var AdminActions = []AdminAction{ManageTenancy, ReadZoneAudit, ReadZoneHealth, ReadConfig, ManageSessions, PreviewAccess, ManageGuardrails, ReadGuardrails, ManageWebhooks, ReadZoneCosts}

func (a AdminAction) String() string {
	return [...]string{"manage tenancy", "read zone audit", "read zone health", "read config", "manage sessions", "preview access",
		"manage guardrails", "read guardrails", "manage webhooks", "read zone costs"}[a]
}

// zoneScoped actions may be done by a zone's Super Admins in their zone.
func (a AdminAction) zoneScoped() bool {
	return a == ReadZoneAudit || a == ReadZoneHealth || a == ReadGuardrails || a == ReadZoneCosts
}

// AdminZones are the landing zones whose Super Admin groups the principal
// is in.
func AdminZones(p *portal.Principal, t *tenancy.Tenancy) []string {
	var zones []string
	if p == nil {
		return nil
	}
	for _, z := range t.LandingZones() {
		if slices.ContainsFunc(z.SuperAdminGroups, func(g string) bool {
			return slices.ContainsFunc(p.Groups, func(x string) bool { return strings.EqualFold(x, g) })
		}) {
			zones = append(zones, z.ID)
		}
	}
	return zones
}

// CheckAdmin decides an admin action, in zone for the zone-scoped ones
// ("" asks whether any zone is allowed). The refusal is always NotFound:
// the area does not reveal itself to those who may not use it.
func CheckAdmin(p *portal.Principal, t *tenancy.Tenancy, a AdminAction, zone string) error {
	switch {
	case p == nil:
		return portal.New(portal.Unauthenticated, "sign-in required")
	case p.PlatformAdmin:
		return nil
	case a.zoneScoped():
		zones := AdminZones(p, t)
		if (zone == "" && len(zones) > 0) || (zone != "" && slices.Contains(zones, zone)) {
			return nil
		}
	}
	return AreaNotFound()
}

// AreaNotFound is the answer to anyone who may not use the admin area.
func AreaNotFound() error { return portal.New(portal.NotFound, "not found") }
