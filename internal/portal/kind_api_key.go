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
	Policy: KindAPIKey, PolicyFields: "owner, owner_id, resource, description, max_age_hours",
	Verbs: []Action{ActAPIKeyCreate, ActAPIKeyUpdate, ActAPIKeyRotate, ActAPIKeyDelete, ActAPIKeyExpire},
}
