package portal

// KindGrant is how documents name access the scope's unit gives another
// unit of its zone to its topics, as its exports declare it.
const KindGrant = "Grant"

// The grant's actions, with the past tenses that name their CloudEvents
// (grantKind lists them).
var (
	ActGrantRequest  = Action{"grant.request", "requested"}
	ActGrantApprove  = Action{"grant.approve", "approved"}
	ActGrantReject   = Action{"grant.reject", "rejected"}
	ActGrantWithdraw = Action{"grant.withdraw", "withdrawn"}
	ActGrantRevoke   = Action{"grant.revoke", "revoked"}
	ActGrantCreate   = Action{"grant.create", "created"}
	ActGrantExpire   = Action{"grant.expire", "expired"}
	ActGrantEnd      = Action{"grant.end", "ended"}
	ActGrantExpiring = Action{"grant.expiring", "expiring"}
)

// grantKind declares the grant: see KindInfo.
var grantKind = KindInfo{
	Document: KindGrant, Change: "grant", Title: "Grant", Titles: "Grants",
	Plural: "grants", Item: "grant", Readable: true,
	Columns: []string{"id", "topic", "owner", "grantee", "principal_name", "access", "state", "expires_at"},
	Nav:     13, Icon: "shield-check",
	Decl:  (*GrantDecl)(nil),
	About: "Access the plan's unit gives another unit of its landing zone to one of its topics (metadata.name, an identifier or a full name) or, with prefix, to the topics whose names begin with it: DeveloperRead on the topic and the other unit's consumer groups for read, DeveloperWrite on the topic for write.",
	Verbs: []Action{ActGrantRequest, ActGrantApprove, ActGrantReject, ActGrantWithdraw, ActGrantRevoke, ActGrantCreate, ActGrantExpire, ActGrantExpiring, ActGrantEnd},
}

// GrantDecl is access the unit gives to its topic (the resource's name)
// or, with Prefix, to the topics its name begins with: for Principal (a
// service account or identity pool of Unit, by display name or id), read
// or write.
type GrantDecl struct {
	Unit      string
	Principal string
	Access    string
	Prefix    bool
}
