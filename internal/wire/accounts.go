package wire

// RoleBinding is a role an account or pool holds on a resource.
type RoleBinding struct {
	Role     string `json:"role" example:"DeveloperRead"`
	Resource string `json:"resource" enum:"cluster,topic,group,transactional-id,subject"`
	Pattern  string `json:"pattern,omitempty" example:"edh-shared-scada-dev-*"`
	CRN      string `json:"crn" doc:"The binding's resource name upstream."`
}

// ServiceAccount is a service account of the unit, with its role bindings.
type ServiceAccount struct {
	ID           string        `json:"id" example:"sa-1a2b3c"`
	Name         string        `json:"name" example:"sa-edh-shared-scada-dev-usr-billing-app-producer"`
	Identifier   string        `json:"identifier" example:"billing-app"`
	BusinessUnit string        `json:"business_unit,omitempty" doc:"The unit whose prefix the name carries (whole-cluster views); absent outside every convention."`
	Outside      bool          `json:"outside_convention" doc:"The name carries no unit's prefix of any landing zone: listed in whole-cluster views of every zone, changed only by platform admins."`
	ReadOnly     bool          `json:"read_only" doc:"The caller may read but not change it, whatever its role (outside every convention)."`
	Type         string        `json:"type" enum:"producer,consumer,stream-processor,metrics"`
	Description  string        `json:"description"`
	RoleBindings []RoleBinding `json:"role_bindings,omitempty"`
	// Job is the job still making the account (a 202): its Location
	// reports the account once made, or why not.
	Job string `json:"job,omitempty" doc:"On a 202 only: the job still making the account."`
}

// ServiceAccountCreate asks for a service account.
type ServiceAccountCreate struct {
	Name        string `json:"name" oa:"required" doc:"Identifier."`
	Type        string `json:"type" oa:"required" enum:"producer,consumer,stream-processor,metrics"`
	Description string `json:"description" oa:"maxlen=128"`
}

// BulkResult is one item of a bulk create: its outcome, or why not.
type BulkResult struct {
	Index int    `json:"index" oa:"required"`
	Name  string `json:"name" oa:"required"`
	// Status is the status a single create would have had; 0 while pending.
	Status  int  `json:"status,omitempty" example:"201" doc:"The status a single create would have had; absent while pending."`
	Pending bool `json:"pending,omitempty"`
	// Outcome is created or completed (an account that existed without
	// all of its type's role bindings) for an item that succeeded.
	Outcome string          `json:"outcome,omitempty" enum:"created,completed" doc:"For an item that succeeded: created, or completed (the account existed without some of its role bindings, which were added)."`
	Item    *ServiceAccount `json:"item,omitempty"`
	Error   *ErrorItem      `json:"error,omitempty"`
}

// BulkResults is a bulk create job and its items' outcomes.
type BulkResults struct {
	ID      string       `json:"id" doc:"The job id."`
	State   string       `json:"state" enum:"running,done,failed"`
	Total   int          `json:"total"`
	Done    int          `json:"done" doc:"Items with an outcome."`
	Error   string       `json:"error,omitempty" doc:"Why a failed batch stopped."`
	Results []BulkResult `json:"results"`
}

// AccountDeletion is what deleting a service account removed.
type AccountDeletion struct {
	Deleted      ServiceAccount `json:"deleted"`
	APIKeys      []APIKey       `json:"api_keys"`
	RoleBindings []RoleBinding  `json:"role_bindings"`
}

// BulkCreate asks for many service accounts in one job.
type BulkCreate struct {
	Items []ServiceAccountCreate `json:"items" oa:"required,maxitems=250"`
}

// DescriptionUpdate replaces a service account's or an API key's
// description.
type DescriptionUpdate struct {
	Description *string `json:"description,omitempty" oa:"required,maxlen=128"`
}

// AccountUse is what uses a service account.
type AccountUse struct {
	Connectors []string `json:"connectors"`
}

// ServiceAccountList is a page of ServiceAccount.
type ServiceAccountList = List[ServiceAccount]
