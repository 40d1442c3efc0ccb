package wire

// UnitGroups is the identity-provider groups of each role of a unit.
type UnitGroups struct {
	Admin     []string `json:"admin"`
	Developer []string `json:"developer" example:"['sg-scada-developers']"`
	Viewer    []string `json:"viewer" example:"['sg-crm-viewers']"`
}

// AdminStage is one stage of an onboarded unit with its resource counts.
type AdminStage struct {
	Stage      string `json:"stage"`
	Cluster    string `json:"cluster" example:"edh-shared/dev"`
	Prefix     string `json:"prefix" example:"edh-shared-billing-dev-"`
	Topics     int    `json:"topics"`
	Connectors int    `json:"connectors"`
	Subjects   int    `json:"subjects"`
	CountError string `json:"count_error,omitempty" doc:"Why counts are missing (an upstream did not answer)."`
}

// AdminUnit is a business unit as the admin area shows it.
type AdminUnit struct {
	ID          string       `json:"id" example:"billing"`
	LandingZone string       `json:"landing_zone" example:"edh-shared"`
	Dedicated   bool         `json:"dedicated"`
	Main        bool         `json:"main"`
	Source      string       `json:"source" enum:"configuration,portal"`
	Groups      UnitGroups   `json:"groups"`
	Stages      []AdminStage `json:"stages"`
	CreatedBy   string       `json:"created_by,omitempty"`
	Created     string       `json:"created,omitempty" format:"date-time"`
	UpdatedBy   string       `json:"updated_by,omitempty"`
	Updated     string       `json:"updated,omitempty" format:"date-time"`
}

// UnitOnboard is asks to onboard a business unit.
type UnitOnboard struct {
	ID          string     `json:"id" oa:"required" example:"billing"`
	LandingZone string     `json:"landing_zone" oa:"required" example:"edh-shared"`
	Groups      UnitGroups `json:"groups" oa:"required"`
}

// LeftUpstream is a resource left upstream by an offboarded unit.
type LeftUpstream struct {
	Stage string `json:"stage"`
	Kind  string `json:"kind" enum:"topic,connector,subject,service_account"`
	Name  string `json:"name"`
}

// ReadOnlyState is whether a zone's stage is read-only, and why.
type ReadOnlyState struct {
	LandingZone string `json:"landing_zone"`
	Stage       string `json:"stage"`
	ReadOnly    bool   `json:"read_only" doc:"What applies now."`
	Configured  bool   `json:"configured_read_only" doc:"The stage's default from the configuration file."`
	Switched    bool   `json:"switched" doc:"A switch overrides the default now."`
	Reason      string `json:"reason,omitempty"`
	Until       string `json:"until,omitempty" format:"date-time"`
	SetBy       string `json:"set_by,omitempty"`
	SetAt       string `json:"set_at,omitempty" format:"date-time"`
}

// UnitGroupsUpdate replaces an onboarded unit's groups.
type UnitGroupsUpdate struct {
	Groups UnitGroups `json:"groups" oa:"required"`
}

// UnitOffboard is what offboarding a unit left upstream.
type UnitOffboard struct {
	Offboarded   string         `json:"offboarded"`
	LeftUpstream []LeftUpstream `json:"left_upstream"`
	Incomplete   []string       `json:"incomplete" doc:"Upstreams that could not be listed."`
}

// ReadOnlySet switches a zone's stage read-only or writable.
type ReadOnlySet struct {
	ReadOnly *bool  `json:"read_only,omitempty" oa:"required"`
	Reason   string `json:"reason" oa:"required,maxlen=500" example:"Quarterly release freeze"`
	Until    string `json:"until" format:"date-time"`
}

// AdminUnitList is a page of AdminUnit.
type AdminUnitList = List[AdminUnit]

// ReadOnlyStateList is a page of ReadOnlyState.
type ReadOnlyStateList = List[ReadOnlyState]
