package wire

// Upstream is one upstream service's health as the portal sees it.
type Upstream struct {
	Kind        string  `json:"kind" enum:"cluster,connect,iam,identity-pools,schema-registry,identity-provider"`
	Name        string  `json:"name"`
	LandingZone string  `json:"landing_zone,omitempty"`
	State       string  `json:"state" enum:"ok,failing,unknown"`
	Circuit     string  `json:"circuit" enum:"closed,open,half-open"`
	Since       string  `json:"since" format:"date-time"`
	LatencyMS   float64 `json:"latency_ms"`
	LastError   string  `json:"last_error,omitempty"`
	LastErrorAt string  `json:"last_error_at,omitempty" format:"date-time"`
	LastOK      string  `json:"last_ok,omitempty" format:"date-time"`
	Calls       int64   `json:"calls"`
}

// Session is one signed-in browser session.
type Session struct {
	ID        string `json:"id"`
	Subject   string `json:"subject"`
	Username  string `json:"username"`
	UserAgent string `json:"user_agent"`
	IP        string `json:"ip"`
	Created   string `json:"created" format:"date-time"`
	LastSeen  string `json:"last_seen" format:"date-time"`
	Expires   string `json:"expires" format:"date-time"`
}

// AccessReport is what roles and grants a set of groups or claims would give.
type AccessReport struct {
	PlatformAdmin bool            `json:"platform_admin"`
	Groups        []string        `json:"groups"`
	Units         []UnitAccess    `json:"business_units"`
	Unmatched     []string        `json:"unmatched_groups" doc:"Groups that give no role anywhere."`
	Overage       bool            `json:"groups_overage" doc:"The token had no room for the groups (Entra ID's _claim_names)."`
	Explanation   string          `json:"explanation"`
	Grants        []GrantedAccess `json:"grants" doc:"Access the units hold on other units' topics through active grants."`
}

// GrantedAccess is access a unit holds through a grant, explained.
type GrantedAccess struct {
	Unit      string `json:"business_unit"`
	Stage     string `json:"stage"`
	Grant     string `json:"grant"`
	Access    string `json:"access" enum:"read,write"`
	Topic     string `json:"topic" doc:"The full name, or a prefix ending in *."`
	Principal string `json:"principal"`
	Expires   string `json:"expires_at,omitempty" format:"date-time"`
	Line      string `json:"explanation" example:"read on edh-shared-scada-dev-orders through grant gr-12 for sa-edh-shared-crm-dev-usr-reports-consumer until 2026-12-24 10:00 UTC"`
}

// UnitAccess is a role the report gives in one unit.
type UnitAccess struct {
	ID          string   `json:"id"`
	LandingZone string   `json:"landing_zone"`
	Role        string   `json:"role" enum:"viewer,developer,admin,super_admin"`
	Groups      []string `json:"groups" doc:"The groups that give the role."`
}

// Version is the running build.
type Version struct {
	Version   string `json:"version" example:"1.4.0"`
	Commit    string `json:"commit"`
	Date      string `json:"date" doc:"When the build's commit was made (RFC 3339); empty when the build does not record it."`
	GoVersion string `json:"go_version"`
}

// AdminArea is what of the admin area the caller may use.
type AdminArea struct {
	PlatformAdmin bool     `json:"platform_admin"`
	LandingZones  []string `json:"landing_zones"`
}

// AccessPreview asks what roles and grants some groups or a token's
// claims would give.
type AccessPreview struct {
	Groups []string       `json:"groups" example:"['sg-scada-developers']"`
	Claims map[string]any `json:"claims" doc:"A token's claims; the configured groups claim is read, and Entra ID's _claim_names reports a groups overage."`
}

// AdminConfig is the configuration in force, as a JSON object; secrets are
// redacted.
type AdminConfig map[string]any

// UpstreamList is a page of Upstream.
type UpstreamList = List[Upstream]

// SessionList is a page of Session.
type SessionList = List[Session]
