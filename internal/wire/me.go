package wire

// Me is the caller, their units with roles, and the stages.
type Me struct {
	Subject       string    `json:"subject"`
	Name          string    `json:"name"`
	Username      string    `json:"username"`
	Service       bool      `json:"service" doc:"True for a machine identity (client credentials)."`
	PlatformAdmin bool      `json:"platform_admin"`
	Groups        []string  `json:"groups"`
	BusinessUnits []MeUnit  `json:"business_units" doc:"Units where you have a role; empty when you are not onboarded."`
	Stages        []MeStage `json:"stages"`
	// GroupsOverage: the token had no room for the caller's groups.
	GroupsOverage bool `json:"groups_overage" doc:"Your token had no room for your groups (a groups overage), so roles come only from what it holds."`
	// Access explains the roles: the groups that match nothing, and why
	// other units do not appear.
	Access MeAccess `json:"access"`
}

// MeAccess is how the caller's groups and grants give access.
type MeAccess struct {
	Unmatched   []string        `json:"unmatched_groups" doc:"Your groups that give no role anywhere."`
	Explanation string          `json:"explanation" doc:"Why other units do not appear, or what to do about an overage."`
	Grants      []GrantedAccess `json:"grants" doc:"Access your units hold on other units' topics through active grants."`
}

// MeUnit is a unit the caller has a role in.
type MeUnit struct {
	ID          string `json:"id" example:"scada"`
	LandingZone string `json:"landing_zone" example:"edh-shared"`
	Dedicated   bool   `json:"dedicated"`
	Main        bool   `json:"main" doc:"The main unit of a shared landing zone."`
	Role        string `json:"role" enum:"viewer,developer,admin,super_admin"`
	// Groups are the caller's groups that gave the role.
	Groups []string `json:"groups" doc:"Your groups that give the role."`
}

// MeStage is a stage and whether it is read-only.
type MeStage struct {
	Name     string `json:"name" example:"run"`
	ReadOnly bool   `json:"read_only" doc:"The configured default; a landing zone's read-only switch may override it."`
}
