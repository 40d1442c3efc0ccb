package portal

// KindIdentityPool is the identity pool as documents and policies name it.
const KindIdentityPool = "IdentityPool"

// The identity pool's actions, with the past tenses that name their CloudEvents
// (identityPoolKind lists them).
var (
	ActIdentityPoolCreate = Action{"identity-pool.create", "created"}
	ActIdentityPoolFilter = Action{"identity-pool.filter", "updated"}
	ActIdentityPoolDelete = Action{"identity-pool.delete", "deleted"}
)

// identityPoolKind declares the identity pool: see KindInfo.
var identityPoolKind = KindInfo{
	Document: KindIdentityPool, Change: "identity-pool", Title: "Identity pool", Titles: "Identity pools",
	Plural: "identity-pools", Item: "identity-pool", Readable: true, Aliases: []string{"pool", "pools"},
	Columns: []string{"id", "name", "type", "filter"},
	Nav:     7, Icon: "users",
	Decl: (*PoolDecl)(nil), Policy: KindIdentityPool, PolicyView: (*IdentityPoolView)(nil),
	About: "An identity pool of the unit with its type's role bindings.",
	Verbs: []Action{ActIdentityPoolCreate, ActIdentityPoolFilter, ActIdentityPoolDelete},
}

// PoolDecl is an identity pool's type, claim and filter; it is also its
// spec in documents (its tags: the document's names, and what its JSON
// Schema says), with no shape of its own there.
type PoolDecl struct {
	Type          string `json:"type" yaml:"type" doc:"Selects the role bindings, all scoped to the unit's prefix." enum:"producer,consumer,stream-processor,metrics" oa:"required"`
	IdentityClaim string `json:"identityClaim,omitempty" yaml:"identityClaim,omitempty" pattern:"^claims(\\.[A-Za-z_][A-Za-z0-9_]*)+$" oa:"default=claims.sub"`
	Filter        string `json:"filter" yaml:"filter" doc:"A CEL expression over the token's claims." oa:"required"`
}

// IdentityPoolView is an identity pool as policies see it.
type IdentityPoolView struct {
	Name          string `cel:"name" json:"name"`
	Identifier    string `cel:"identifier" json:"identifier"`
	Description   string `cel:"description" json:"description"`
	Filter        string `cel:"filter" json:"filter"`
	IdentityClaim string `cel:"identity_claim" json:"identity_claim"`
}
