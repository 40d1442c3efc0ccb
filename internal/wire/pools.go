package wire

// IdentityPool is an identity pool of the unit.
type IdentityPool struct {
	ID            string        `json:"id" example:"pool-1a2b3c"`
	Name          string        `json:"name" example:"edh-shared-scada-dev-ci-consumer"`
	Identifier    string        `json:"identifier" example:"ci"`
	BusinessUnit  string        `json:"business_unit,omitempty" doc:"The unit whose prefix the name carries (whole-cluster views); absent outside every convention."`
	Outside       bool          `json:"outside_convention" doc:"The name carries no unit's prefix of any landing zone: listed in whole-cluster views of every zone, changed only by platform admins."`
	ReadOnly      bool          `json:"read_only" doc:"The caller may read but not change it, whatever its role (outside every convention)."`
	Type          string        `json:"type" enum:"producer,consumer,stream-processor,metrics"`
	Description   string        `json:"description"`
	IdentityClaim string        `json:"identity_claim" example:"claims.sub"`
	Filter        string        `json:"filter"`
	State         string        `json:"state,omitempty"`
	RoleBindings  []RoleBinding `json:"role_bindings,omitempty"`
}

// FilterTest asks whether a token's claims match an identity pool's filter.
type FilterTest struct {
	Filter string         `json:"filter" oa:"required,maxlen=300"`
	Claims map[string]any `json:"claims" oa:"required" doc:"A decoded token's claims."`
}

// FilterTestResult is a filter test's answer.
type FilterTestResult struct {
	Matches bool   `json:"matches"`
	Reason  string `json:"reason,omitempty" doc:"Why evaluation failed, such as a missing claim; the token then does not match."`
}

// IdentityPoolCreate asks for an identity pool.
type IdentityPoolCreate struct {
	Name          string `json:"name" oa:"required" doc:"Identifier."`
	Type          string `json:"type" oa:"required" enum:"producer,consumer,stream-processor,metrics"`
	Description   string `json:"description" oa:"maxlen=128"`
	IdentityClaim string `json:"identity_claim" oa:"default=claims.sub"`
	Filter        string "json:\"filter\" oa:\"required,maxlen=300\" doc:\"CEL over `claims`; must yield a boolean.\""
}

// IdentityPoolFilterUpdate replaces an identity pool's filter.
type IdentityPoolFilterUpdate struct {
	Filter *string `json:"filter,omitempty" oa:"required,maxlen=300"`
}

// IdentityPoolList is a page of IdentityPool.
type IdentityPoolList = List[IdentityPool]
