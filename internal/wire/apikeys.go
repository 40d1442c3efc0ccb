package wire

import "time"

// KeyOwner is the account or pool an API key belongs to.
type KeyOwner struct {
	ID   string `json:"id" example:"sa-1a2b3c"`
	Name string `json:"name" example:"sa-edh-shared-scada-dev-usr-billing-producer"`
}

// APIKey is an API key without its secret.
type APIKey struct {
	ID           string   `json:"id" example:"ABCDEFGHIJKL2345"`
	Owner        KeyOwner `json:"owner"`
	BusinessUnit string   `json:"business_unit,omitempty"`
	Resource     string   `json:"resource" enum:"kafka,schema-registry"`
	ResourceID   string   `json:"resource_id" example:"lkc-abc123"`
	Description  string   `json:"description"`
	Created      string   `json:"created_at" format:"date-time"`
	CreatedBy    string   `json:"created_by" doc:"Who made it in the portal; empty for a key made outside it."`
	Adopted      bool     `json:"adopted" doc:"Made outside the portal, given an expiry from its creation (at least a week away when adopted)."`
	Expires      *string  `json:"expires_at" format:"date-time" doc:"When the portal deletes it; null for never."`
	ReplacedBy   string   `json:"replaced_by,omitempty" doc:"The key a rotation made in its place."`
	ReadOnly     bool     `json:"read_only"`
	// State says whether clients can sign in with the key yet.
	State   string `json:"state" enum:"provisioning,ready,unverified,deleted" doc:"Whether clients can sign in with the key yet (deleted: a key removed with its account, in the delete's answer). Confluent Cloud takes up to about two minutes to spread a new key: the portal tries the key as a client would (a metadata request to the cluster, or an authenticated registry call) until it signs in. A rotated key stays until its successor is ready, even past its expiry. unverified: the portal could not tell within 30 minutes."`
	ReadyAt string `json:"ready_at,omitempty" format:"date-time" doc:"When the portal's check first signed in with the key; absent for a key made outside the portal."`
}

// CreatedAPIKey is a new API key with its secret, in the one answer that hands it out.
type CreatedAPIKey struct {
	APIKey
	// Secret is in this answer only.
	Secret       string            `json:"secret"`
	ClientConfig map[string]string `json:"client_config"`
}

// APIKeyCreate asks for an API key.
type APIKeyCreate struct {
	Resource    string     `json:"resource" oa:"required" enum:"kafka,schema-registry"`
	Description string     `json:"description" oa:"maxlen=128"`
	Expires     *time.Time `json:"expires_at,omitempty" format:"date-time"`
}

// APIKeyRotate asks for a key's successor.
type APIKeyRotate struct {
	Overlap string `json:"overlap" example:"1h"`
}

// APIKeyList is a page of APIKey.
type APIKeyList = List[APIKey]
