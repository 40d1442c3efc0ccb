package portal

// KindAPIKey is the kind of API keys in policies (keys are not declared
// in documents).
const KindAPIKey = "APIKey"

// The API key's actions, with the past tenses that name their CloudEvents
// (apiKeyKind lists them).
var (
	ActAPIKeyCreate = Action{"api-key.create", "created"}
	ActAPIKeyUpdate = Action{"api-key.update", "updated"}
	ActAPIKeyRotate = Action{"api-key.rotate", "rotated"}
	ActAPIKeyDelete = Action{"api-key.delete", "deleted"}
	ActAPIKeyExpire = Action{"api-key.expire", "expired"}
)

// apiKeyKind declares the API key: see KindInfo.
var apiKeyKind = KindInfo{
	Change: "api-key", Title: "API key", Titles: "API keys",
	Plural: "api-keys", Item: "api-key", Readable: true, Aliases: []string{"key", "keys"},
	Columns: []string{"id", "owner.name", "resource", "state", "description", "expires_at"},
	Nav:     6, Icon: "key",
	Policy: KindAPIKey, PolicyView: (*APIKeyView)(nil),
	Verbs: []Action{ActAPIKeyCreate, ActAPIKeyUpdate, ActAPIKeyRotate, ActAPIKeyDelete, ActAPIKeyExpire},
}

// APIKeyView is an API key as policies see it (never its secret).
type APIKeyView struct {
	Owner       string `cel:"owner" json:"owner"`
	OwnerID     string `cel:"owner_id" json:"owner_id"`
	Resource    string `cel:"resource" json:"resource"`
	Description string `cel:"description" json:"description"`
	// MaxAgeHours is the key's lifetime in hours (0: none).
	MaxAgeHours int `cel:"max_age_hours" json:"max_age_hours"`
}
