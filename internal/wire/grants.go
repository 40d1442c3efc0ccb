package wire

// Grant is one unit's access to another unit's topic.
type Grant struct {
	ID            string        `json:"id" example:"gr-x1y2z3"`
	Zone          string        `json:"landing_zone" example:"edh-shared"`
	Stage         string        `json:"stage"`
	Owner         string        `json:"owner" example:"scada" doc:"The unit that owns the topic."`
	Grantee       string        `json:"grantee" example:"crm" doc:"The unit that asked for access."`
	Principal     string        `json:"principal" example:"sa-1a2b3c"`
	PrincipalName string        `json:"principal_name" example:"sa-edh-shared-crm-dev-usr-reports-consumer"`
	Topic         string        `json:"topic" example:"edh-shared-scada-dev-orders" doc:"The full topic name, or the prefix when prefix is true."`
	Prefix        bool          `json:"prefix"`
	Access        string        `json:"access" enum:"read,write"`
	State         string        `json:"state" enum:"requested,approving,active,revoking,ending,rejected,withdrawn,revoked,expired,ended,renewed" doc:"approving, revoking and ending: the role bindings of the decision are being made or removed; if the replica doing it stops, another finishes it within two minutes. revoked: by a person of either unit; expired: by time, as the portal; ended: its topic or its principal was deleted (the delete ends it first). renewed: a request that extended the grant it renews."`
	Requester     string        `json:"requester"`
	Reason        string        `json:"reason"`
	Created       string        `json:"created_at" format:"date-time"`
	DecidedBy     string        `json:"decided_by,omitempty" doc:"Who approved or rejected it, or closed it since (withdrawn, revoked)."`
	Decided       string        `json:"decided_at,omitempty" format:"date-time"`
	Comment       string        `json:"comment,omitempty"`
	RoleBindings  []RoleBinding `json:"role_bindings" doc:"The bindings the grant made (and removes when revoked)."`
	Reviewable    bool          `json:"reviewable" doc:"Whether you may approve or reject it."`
	Withdrawable  bool          `json:"withdrawable"`
	Revocable     bool          `json:"revocable"`
	// Duration is "7d" and the like; "" for a grant that never expires.
	Duration        string   `json:"duration" example:"7d" doc:"How long the grant lasts once approved; empty for a grant made before grants expired (it never does)."`
	Expires         string   `json:"expires_at,omitempty" format:"date-time" doc:"When the active grant ends; the portal revokes it then (audited as grant.expire by portal)."`
	Expiring        bool     `json:"expiring" doc:"It ends within the warning period (announced once as grant.expiring)."`
	Classification  string   `json:"classification,omitempty" doc:"The topic's classification when asked for."`
	Approvals       []string `json:"approvals" doc:"The owner's Admins who approved it so far."`
	ApprovalsNeeded int      `json:"approvals_needed" doc:"2 for restricted topics (by default): two Admins, neither the requester."`
	Renews          string   `json:"renews,omitempty" doc:"The active grant this request extends once approved."`
}

// GrantRequest asks another unit of the zone for access to its topic.
type GrantRequest struct {
	Owner     string `json:"owner" oa:"required" example:"scada" doc:"Another unit of your landing zone."`
	Topic     string `json:"topic" oa:"required" example:"orders" doc:"The owner's topic, by identifier or full name; with prefix, the beginning of the names it covers."`
	Prefix    bool   `json:"prefix" oa:"default=false"`
	Access    string `json:"access" oa:"required" enum:"read,write"`
	Principal string `json:"principal" oa:"required" example:"sa-1a2b3c" doc:"One of your unit's service accounts or identity pools in the stage."`
	Reason    string `json:"reason" oa:"required,maxlen=2000"`
	Duration  string `json:"duration" example:"7d" doc:"Days (7d), weeks (2w) or hours (36h); at most what the topic's classification allows, which is also what an empty duration asks for."`
	Renews    string `json:"renews" doc:"An active grant of the same access that this request extends, once approved (its role bindings are kept)."`
}

// GrantList is a page of Grant.
type GrantList = List[Grant]
