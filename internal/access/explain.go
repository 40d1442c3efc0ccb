package access

import (
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Explain reports a principal's roles per unit with the groups that gave
// them, and the groups that give nothing anywhere. It names no unit where
// the principal has no role: which units exist is not for everyone.
func Explain(t *tenancy.Tenancy, p *portal.Principal, adminGroup string) portal.AccessReport {
	r := portal.AccessReport{PlatformAdmin: p.PlatformAdmin, Groups: slices.Clone(p.Groups), Units: []portal.UnitAccess{},
		Overage: p.GroupsOverage, Unmatched: []string{}}
	if r.Groups == nil {
		r.Groups = []string{}
	}
	mapped := map[string]bool{}
	note := func(gs ...[]string) {
		for _, g := range gs {
			for _, x := range g {
				mapped[strings.ToLower(x)] = true
			}
		}
	}
	if adminGroup != "" {
		note([]string{adminGroup})
	}
	for _, u := range t.Units() {
		note(u.AdminGroups, u.DeveloperGroups, u.ViewerGroups, u.LandingZone.SuperAdminGroups)
		if g := p.Grant(u.ID); g.Role > portal.NoRole {
			r.Units = append(r.Units, portal.UnitAccess{Unit: u.ID, LandingZone: u.LandingZone.ID, Role: g.Role, Groups: g.Groups})
		}
	}
	for _, g := range p.Groups {
		if !mapped[strings.ToLower(g)] {
			r.Unmatched = append(r.Unmatched, g)
		}
	}
	switch {
	case r.Overage:
		r.Explanation = OverageExplanation
	case len(r.Units) == 0 && len(r.Groups) == 0:
		r.Explanation = "Your token carries no groups, so no business unit gives you a role. Ask your identity provider's administrators to add the groups claim to the portal's tokens, or ask the platform team which group to join."
	case len(r.Units) == 0:
		r.Explanation = "None of your groups is mapped to a role in a business unit. Business units appear here when one of your groups gives you a role there; ask the unit's admins or the platform team which group to join."
	default:
		r.Explanation = "Other business units do not appear because none of your groups gives you a role there; the groups listed as unmatched give no role anywhere."
	}
	return r
}
