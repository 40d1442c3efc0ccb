package portal

// KindPolicy is how documents name a guardrail policy of the scope's
// landing zone, which only platform admins plan and apply.
const KindPolicy = "Policy"

// The policy's actions, with the past tenses that name their CloudEvents
// (policyKind lists them).
var (
	ActPolicyCreate = Action{"policy.create", "created"}
	ActPolicyUpdate = Action{"policy.update", "updated"}
	ActPolicyDelete = Action{"policy.delete", "deleted"}
)

// policyKind declares the guardrail policy: see KindInfo.
var policyKind = KindInfo{
	Document: KindPolicy, Change: "policy", Title: "Policy",
	Plural: "policies", Item: "policy",
	Decl:  (*PolicyDecl)(nil),
	About: "A guardrail of the plan's landing zone (platform admins only): a CEL rule that writes of one kind must keep. metadata.name is the policy's id.",
	Verbs: []Action{ActPolicyCreate, ActPolicyUpdate, ActPolicyDelete},
}

// PolicyDecl is a policy of the landing zone (the resource's name is its
// id, the description its description): the rule and where it applies.
type PolicyDecl struct {
	Kind       string
	Units      []string
	Stages     []string
	Operations []string
	Expression string
	Message    string
	Field      string
	Action     string
}
