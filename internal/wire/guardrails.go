package wire

import "encoding/json"

// PolicyKind is a kind a policy may be about; the document lists them
// from the kind table (make docs).
type PolicyKind string

// Policy is a policy as the API reads and writes it.
type Policy struct {
	ID          string     `json:"id" oa:"required" pattern:"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$" example:"dev-partitions"`
	LandingZone string     `json:"landing_zone" oa:"required" example:"edh-shared"`
	Description string     `json:"description"`
	Kind        PolicyKind `json:"kind" oa:"required"`
	Units       []string   `json:"business_units" doc:"Empty for every unit of the zone."`
	Stages      []string   `json:"stages" doc:"Empty for every stage."`
	Operations  []string   `json:"operations" enum:"create,update,delete" doc:"Empty for create and update."`
	Expression  string     `json:"expression" oa:"required" example:"scope.stage != 'dev' || resource.partitions <= 12" doc:"CEL over resource, before, scope, principal and operation; true when a change keeps the rule."`
	Message     string     `json:"message" oa:"required" example:"at most 12 partitions in dev, not ${resource.partitions}" doc:"${expr} shows a CEL expression's value."`
	Field       string     `json:"field,omitempty" example:"partitions_count"`
	Action      string     `json:"action" oa:"required" enum:"enforce,warn,report"`
	UpdatedBy   string     `json:"updated_by,omitempty" oa:"readonly"`
	Updated     string     `json:"updated_at,omitempty" oa:"readonly" format:"date-time"`
}

// PolicyTest is a resource to try a policy on.
type PolicyTest struct {
	Policy    Policy          `json:"policy" oa:"required"`
	BU        string          `json:"business_unit" oa:"required" example:"scada"`
	Stage     string          `json:"stage" oa:"required" example:"dev"`
	Operation string          `json:"operation" oa:"default=create" enum:"create,update,delete"`
	Resource  json.RawMessage `json:"resource" schema:"{type: object}" doc:"The kind's fields as policies see them (for a Topic: name, identifier, partitions, config)."`
	Before    json.RawMessage `json:"before" oa:"nullable" schema:"{type: object}"`
}

// PolicyViolator is a resource that breaks a policy.
type PolicyViolator struct {
	BU       string `json:"business_unit"`
	Stage    string `json:"stage"`
	Kind     string `json:"kind"`
	Resource string `json:"resource"`
	Message  string `json:"message"`
}

// BudgetLine is one dimension of a budget: use and limit.
type BudgetLine struct {
	Dimension string `json:"dimension" enum:"topics,partitions,storage_bytes,connectors,connector_tasks,service_accounts,api_keys"`
	Use       int64  `json:"use"`
	Limit     *int64 `json:"limit"`
	Unbounded int    `json:"unbounded_topics,omitempty" doc:"Topics without retention.bytes, which storage does not count."`
}

// Budget is a unit's budgets in a stage.
type Budget struct {
	BU        string       `json:"business_unit"`
	Stage     string       `json:"stage"`
	Zone      string       `json:"landing_zone"`
	Lines     []BudgetLine `json:"budgets"`
	UpdatedBy string       `json:"updated_by,omitempty"`
	Updated   string       `json:"updated_at,omitempty" format:"date-time"`
	// MonthlyCost is set with limits.monthly_cost.
	MonthlyCost int64    `json:"monthly_cost,omitempty" doc:"The unit's monthly amount in the stage (USD, whole units): the month-end forecast of its costs is compared with it (the cost_forecast alert, the costs page); no write is refused for it."`
	Warnings    []string `json:"warnings"`
}

// ClusterUse is a shared cluster's partitions against its limit.
type ClusterUse struct {
	Zone       string `json:"landing_zone"`
	Stage      string `json:"stage"`
	Cluster    string `json:"cluster"`
	Partitions int64  `json:"partitions"`
	Limit      int64  `json:"partition_limit" doc:"0 when none is known."`
	Source     string `json:"limit_source,omitempty"`
	Warning    bool   `json:"warning"`
}

// PolicyTestResult is whether a policy covers and keeps a change.
type PolicyTestResult struct {
	Covers  bool   `json:"covers" doc:"Whether the policy applies to this change at all."`
	Kept    bool   `json:"kept"`
	Message string `json:"message"`
}

// PolicyReport is a policy's check of every resource it covers.
type PolicyReport struct {
	Policy     Policy           `json:"policy"`
	Checked    int              `json:"checked"`
	Violations int              `json:"violations"`
	Violators  []PolicyViolator `json:"violators"`
	Unread     []string         `json:"unread"`
}

// BudgetOverview is every unit's budgets and the shared clusters' use.
type BudgetOverview struct {
	Items    []Budget     `json:"items"`
	Clusters []ClusterUse `json:"clusters"`
}

// BudgetSet replaces a unit's budget limits in a stage.
type BudgetSet struct {
	Limits map[string]int64 `json:"limits" example:"{'partitions': 20, 'topics': 10}" doc:"Per dimension: topics, partitions, storage_bytes, connectors, connector_tasks, service_accounts, api_keys."`
}

// PolicyList is a page of Policy.
type PolicyList = List[Policy]
