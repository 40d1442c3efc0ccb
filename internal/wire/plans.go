package wire

// Plan is a plan, and after an apply each change's outcome.
type Plan struct {
	BusinessUnit string         `json:"business_unit"`
	Stage        string         `json:"stage"`
	Prune        bool           `json:"prune"`
	Force        bool           `json:"force"`
	Fingerprint  string         `json:"fingerprint" doc:"Send it as If-Match to apply this plan."`
	Summary      map[string]int `json:"summary" doc:"Changes per action, and after an apply per outcome."`
	Changes      []PlanChange   `json:"changes"`
	// Budget is the unit's use after the plan against each limit it has.
	Budget []BudgetLine `json:"budget,omitempty"`
	// RequestID is the request id of an apply's audit events.
	RequestID string `json:"audit_request_id,omitempty" doc:"After an apply: the request id of its audit events."`
}

// PlanChange is one change of a plan, and after an apply its outcome.
type PlanChange struct {
	Kind       string               `json:"kind" enum:"topic,schema,connector,service-account,identity-pool,grant,alert-rule,policy"`
	Name       string               `json:"name" doc:"The full name upstream."`
	Identifier string               `json:"identifier"`
	Item       *int                 `json:"item,omitempty" doc:"The resource's index in the document (absent for a prune delete)."`
	Action     string               `json:"action" enum:"create,update,unchanged,delete,refused,skipped"`
	Refused    string               `json:"refused_action,omitempty" doc:"What a refused change would have done."`
	Diff       map[string]FieldDiff `json:"diff,omitempty" doc:"Per field (partitions, config.retention.ms, schema, secrets.<key>, ...): before and after; null for absent. Secret values never appear."`
	Errors     []ErrorItem          `json:"errors,omitempty"`
	Warnings   []string             `json:"warnings,omitempty"`
	Outcome    string               `json:"outcome,omitempty" enum:"applied,failed,skipped"`
	Error      *ErrorItem           `json:"error,omitempty"`
	// APIKeys are the keys an apply made, with their secrets: in this
	// answer only.
	APIKeys []CreatedAPIKey `json:"api_keys,omitempty" doc:"After an apply: the API keys it made for a service account that declares them (spec.apiKeys), each with its secret and client configuration. This answer is the only place the secrets ever appear; it is never cached."`
}

// FieldDiff is a field's value before and after; nil for absent.
type FieldDiff struct {
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// ResourceDocument declares a unit's resources in a stage, as plan and
// apply read it (in JSON or YAML).
type ResourceDocument struct {
	Prune bool           `json:"prune"`
	Force bool           `json:"force" doc:"Let an Admin's plan delete resources that live dependants still use."`
	Items []DocumentItem `json:"items" oa:"required,maxitems=500"`
}

// DocumentItem is one declared resource.
type DocumentItem struct {
	APIVersion string           `json:"apiVersion" oa:"required" enum:"portal/v1"`
	Kind       string           `json:"kind" oa:"required" enum:"Topic,Schema,Connector,ServiceAccount,IdentityPool,Grant,Policy,AlertRule"`
	Metadata   DocumentMetadata `json:"metadata" oa:"required"`
	Spec       map[string]any   `json:"spec" oa:"required"`
}

// DocumentMetadata names a declared resource.
type DocumentMetadata struct {
	Name        string            `json:"name" oa:"required"`
	Labels      map[string]string `json:"labels,omitempty"`
	Description string            `json:"description,omitempty"`
}
