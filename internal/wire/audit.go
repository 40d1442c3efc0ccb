package wire

// AuditEvent is one write attempt, allowed or refused, as the trail's
// pages and JSON exports write it.
type AuditEvent struct {
	ID          int64         `json:"id" format:"int64"`
	Time        string        `json:"time" format:"date-time"`
	Actor       string        `json:"actor" example:"carol"`
	ActorRole   string        `json:"actor_role" example:"developer"`
	Groups      []string      `json:"groups" doc:"The actor's groups that gave the role."`
	Service     bool          `json:"service" doc:"True for a machine identity."`
	SourceIP    string        `json:"source_ip"`
	UserAgent   string        `json:"user_agent"`
	Door        string        `json:"door,omitempty" enum:"portal,api,mcp" doc:"The front door the write came through: the portal's pages, the API, or an assistant's MCP tool call."`
	RequestID   string        `json:"request_id"`
	LandingZone string        `json:"landing_zone,omitempty"`
	BU          string        `json:"business_unit"`
	Stage       string        `json:"stage"`
	Action      string        `json:"action" example:"topic.create"`
	Resource    string        `json:"resource" example:"edh-shared-scada-dev-orders"`
	Outcome     string        `json:"outcome" example:"ok"`
	Detail      string        `json:"detail,omitempty"`
	Changes     []AuditChange `json:"changes,omitempty"`
}

// AuditChange is one field a write changed.
type AuditChange struct {
	Field  string `json:"field" example:"config.retention.ms"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// AuditPage is one page of the trail, newest first.
type AuditPage struct {
	Items         []AuditEvent `json:"items"`
	NextPageToken string       `json:"next_page_token"`
}

// AuditExport is the trail's JSON export.
type AuditExport []AuditEvent
