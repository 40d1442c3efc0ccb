package present

import (
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// GrantAccess is the access a person has through grants, topic by topic.
func GrantAccess(gs []portal.GrantAccess) []wire.GrantedAccess {
	out := []wire.GrantedAccess{}
	for _, g := range gs {
		out = append(out, wire.GrantedAccess{Unit: g.Unit, Stage: g.Stage, Grant: g.Grant, Access: g.Access, Topic: g.Topic, Principal: g.Principal,
			Expires: Stamp(g.Expires), Line: g.Line})
	}
	return out
}

// AccessReport is what a person may do where, as the admin's access preview shows it.
func AccessReport(r portal.AccessReport) wire.AccessReport {
	out := wire.AccessReport{PlatformAdmin: r.PlatformAdmin, Groups: r.Groups, Units: []wire.UnitAccess{}, Unmatched: r.Unmatched,
		Overage: r.Overage, Explanation: r.Explanation, Grants: GrantAccess(r.Grants)}
	for _, u := range r.Units {
		out.Units = append(out.Units, wire.UnitAccess{ID: u.Unit, LandingZone: u.LandingZone, Role: u.Role.String(), Groups: u.Groups})
	}
	return out
}

// Stamp is a time in RFC 3339 (UTC), or "" for none.
func Stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// AdminUnit is a business unit as the platform admins manage it.
func AdminUnit(u adminarea.AdminUnit) wire.AdminUnit {
	out := wire.AdminUnit{ID: u.ID, LandingZone: u.LandingZone, Dedicated: u.Dedicated, Main: u.Main, Source: u.Source,
		Groups:    wire.UnitGroups{Admin: u.Groups.Admin, Developer: u.Groups.Developer, Viewer: u.Groups.Viewer},
		Stages:    []wire.AdminStage{},
		CreatedBy: u.CreatedBy, Created: Stamp(u.Created), UpdatedBy: u.UpdatedBy, Updated: Stamp(u.Updated)}
	for _, s := range u.Stages {
		out.Stages = append(out.Stages, wire.AdminStage(s))
	}
	return out
}

// ReadOnly is a stage's read-only switch.
func ReadOnly(s adminarea.ReadOnlyState) wire.ReadOnlyState {
	return wire.ReadOnlyState{LandingZone: s.LandingZone, Stage: s.Stage, ReadOnly: s.ReadOnly, Configured: s.Configured, Switched: s.Switched,
		Reason: s.Reason, Until: Stamp(s.Until), SetBy: s.SetBy, SetAt: Stamp(s.SetAt)}
}
