package portal

// KindServiceAccount is the service account as documents and policies name it.
const KindServiceAccount = "ServiceAccount"

// The service account's actions, with the past tenses that name their CloudEvents
// (serviceAccountKind lists them).
var (
	ActServiceAccountCreate     = Action{"service-account.create", "created"}
	ActServiceAccountBulkCreate = Action{"service-account.bulk-create", "bulk-created"}
	ActServiceAccountUpdate     = Action{"service-account.update", "updated"}
	ActServiceAccountDelete     = Action{"service-account.delete", "deleted"}
)

// serviceAccountKind declares the service account: see KindInfo.
var serviceAccountKind = KindInfo{
	Document: KindServiceAccount, Change: "service-account", Title: "Service account", Titles: "Service accounts",
	Plural: "service-accounts", Item: "service-account", Readable: true, Aliases: []string{"sa"},
	Columns: []string{"id", "name", "type", "description"},
	Nav:     5, Icon: "badge",
	Decl: (*AccountDecl)(nil), Policy: KindServiceAccount, PolicyView: (*ServiceAccountView)(nil),
	About: "A service account of the unit with its type's role bindings, and the resources it should have an API key for.",
	Verbs: []Action{ActServiceAccountCreate, ActServiceAccountBulkCreate, ActServiceAccountUpdate, ActServiceAccountDelete},
}

// AccountDecl is a service account's type (which selects its role
// bindings), and the resources it should have an API key for.
type AccountDecl struct {
	Type string
	// APIKeys are resources (KeyForKafka, KeyForSchemaRegistry) the
	// account must have a key for: one is made at apply when it has none,
	// its secret handed to the caller only. Keys are never declared by an
	// export nor deleted by a plan.
	APIKeys []KeyDecl
}

// KeyDecl declares that an account has an API key for a resource.
type KeyDecl struct {
	Resource string
}

// ServiceAccountView is a service account as policies see it.
type ServiceAccountView struct {
	Name        string `cel:"name" json:"name"`
	Identifier  string `cel:"identifier" json:"identifier"`
	Description string `cel:"description" json:"description"`
}
