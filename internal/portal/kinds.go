package portal

import "strings"

// KindInfo is one resource kind, declared once: how documents, plans and
// audit actions name it, the segments of its addresses (the same in the
// API and the pages), what portalctl calls it and what its tables show.
// Documents, plans, the CLI and the kind table test read it instead of
// lists of their own.
type KindInfo struct {
	// Document is the kind as documents declare it ("ServiceAccount");
	// "" for a kind documents do not declare.
	Document string
	// Change is how plans, actions and events name it ("service-account").
	Change string
	// Plural is its list's path segment and portalctl's type
	// ("service-accounts"); Item is one's segment ("service-account"), ""
	// when one has no address of its own.
	Plural, Item string
	// Readable: one can be read at its item address (GET); otherwise
	// the kind is listed only.
	Readable bool
	// Aliases are portalctl's other names for it ("sa").
	Aliases []string
	// Columns are what portalctl's tables show of one.
	Columns []string
	// Title is how people name one ("Service account").
	Title string
	// Nav is the kind's place in a unit's navigation (1 first; 0: not
	// there), Titles its label there ("Service accounts"), Icon the name
	// of its icon (one of the pages' icons: "topics", "queue", ...).
	Nav    int
	Titles string
	Icon   string
	// Decl is a nil declaration of the type a documented kind's
	// resources hold (Resource.Spec: (*TopicDecl)(nil)).
	Decl any
	// Policy is the kind as guardrail policies name it ("" when no
	// policy can be about it); PolicyFields the fields they see of one
	// (guardrails/rules declares them as a type; a test holds the two
	// equal).
	Policy, PolicyFields string
	// About says what one is, for a documented kind's published JSON
	// Schema ("A Kafka topic of the unit.").
	About string
	// Verbs are what the audit trail records of it: its actions
	// ("topic.create", declared beside the kind with the past tense that
	// names their CloudEvents, "portal.topic.created").
	Verbs []Action
}

// kinds are the resource kinds, documented ones in the order documents
// are applied: what others depend on first (a schema needs its topic, a
// connector its topics; a grant names topics and principals).
var kinds = []KindInfo{
	{
		Document: KindTopic, Change: "topic", Title: "Topic", Titles: "Topics",
		Plural: "topics", Item: "topic", Readable: true,
		Columns: []string{"name", "partitions_count"},
		Nav:     1, Icon: "topics",
		Decl: (*TopicDecl)(nil), Policy: KindTopic, PolicyFields: "name, identifier, partitions, config",
		About: "A Kafka topic of the unit.",
		Verbs: []Action{ActTopicCreate, ActTopicUpdate, ActTopicConfig, ActTopicPartitions, ActTopicDelete, ActTopicDescribe, ActTopicProduce, ActTopicReadRecords},
	},
	{
		Document: KindSchema, Change: "schema", Title: "Schema", Titles: "Schemas",
		Plural: "schemas", Item: "schema", Readable: true, Aliases: []string{"subject", "subjects"},
		Columns: []string{"subject", "version", "id", "schema_type"},
		Nav:     4, Icon: "document",
		Decl: (*SchemaDecl)(nil), Policy: KindSchema, PolicyFields: "subject, topic, subject_type, schema_type, compatibility, schema",
		About: "A Schema Registry subject of the unit, named <topic>-key or <topic>-value; its latest version is the schema given.",
		Verbs: []Action{ActSchemaCreate, ActSchemaVersion, ActSchemaDelete},
	},
	{
		Document: KindConnector, Change: "connector", Title: "Connector", Titles: "Connectors",
		Plural: "connectors", Item: "connector", Readable: true,
		Columns: []string{"name", "type", "class", "state"},
		Nav:     3, Icon: "plug",
		Decl: (*ConnectorDecl)(nil), Policy: KindConnector, PolicyFields: "name, identifier, class, tasks, topics, config",
		About: "A fully-managed connector of the unit.",
		Verbs: []Action{ActConnectorCreate, ActConnectorUpdate, ActConnectorDelete, ActConnectorPause, ActConnectorResume, ActConnectorRestart, ActConnectorAutoRestart, ActConnectorGiveUp, ActConnectorSetAutoRestart},
	},
	{
		Document: KindServiceAccount, Change: "service-account", Title: "Service account", Titles: "Service accounts",
		Plural: "service-accounts", Item: "service-account", Readable: true, Aliases: []string{"sa"},
		Columns: []string{"id", "name", "type", "description"},
		Nav:     5, Icon: "badge",
		Decl: (*AccountDecl)(nil), Policy: KindServiceAccount, PolicyFields: "name, identifier, description",
		About: "A service account of the unit with its type's role bindings, and the resources it should have an API key for.",
		Verbs: []Action{ActServiceAccountCreate, ActServiceAccountBulkCreate, ActServiceAccountUpdate, ActServiceAccountDelete},
	},
	{
		Document: KindIdentityPool, Change: "identity-pool", Title: "Identity pool", Titles: "Identity pools",
		Plural: "identity-pools", Item: "identity-pool", Readable: true, Aliases: []string{"pool", "pools"},
		Columns: []string{"id", "name", "type", "filter"},
		Nav:     7, Icon: "users",
		Decl: (*PoolDecl)(nil), Policy: KindIdentityPool, PolicyFields: "name, identifier, description, filter, identity_claim",
		About: "An identity pool of the unit with its type's role bindings.",
		Verbs: []Action{ActIdentityPoolCreate, ActIdentityPoolFilter, ActIdentityPoolDelete},
	},
	{
		Document: KindGrant, Change: "grant", Title: "Grant", Titles: "Grants",
		Plural: "grants", Item: "grant", Readable: true,
		Columns: []string{"id", "topic", "owner", "grantee", "principal_name", "access", "state", "expires_at"},
		Nav:     13, Icon: "shield-check",
		Decl:  (*GrantDecl)(nil),
		About: "Access the plan's unit gives another unit of its landing zone to one of its topics (metadata.name, an identifier or a full name) or, with prefix, to the topics whose names begin with it: DeveloperRead on the topic and the other unit's consumer groups for read, DeveloperWrite on the topic for write.",
		Verbs: []Action{ActGrantRequest, ActGrantApprove, ActGrantReject, ActGrantWithdraw, ActGrantRevoke, ActGrantCreate, ActGrantExpire, ActGrantExpiring, ActGrantEnd},
	},
	{
		Document: KindAlertRule, Change: "alert-rule", Title: "Alert rule",
		Plural: "alert-rules", Item: "alert-rule", Aliases: []string{"rules"},
		Columns: []string{"name", "kind", "target", "threshold", "for_seconds", "enabled", "default", "silenced_until"},
		Decl:    (*AlertRuleDecl)(nil),
		About:   "One of the plan's unit's alert rules in the stage (metadata.name is the rule's name; a rule of a platform default's name replaces it): fired when its condition holds for spec.for, resolved when it has ended as long, told to the unit's channels.",
		Verbs:   []Action{ActAlertRuleUpdate, ActAlertRuleDelete, ActAlertRuleSilence},
	},
	{
		Document: KindPolicy, Change: "policy", Title: "Policy",
		Plural: "policies", Item: "policy",
		Decl:  (*PolicyDecl)(nil),
		About: "A guardrail of the plan's landing zone (platform admins only): a CEL rule that writes of one kind must keep. metadata.name is the policy's id.",
		Verbs: []Action{ActPolicyCreate, ActPolicyUpdate, ActPolicyDelete},
	},
	{
		Change: "consumer-group", Title: "Consumer group", Titles: "Consumer groups",
		Plural: "consumer-groups", Item: "consumer-group", Readable: true, Aliases: []string{"group", "groups"},
		Columns: []string{"id", "state", "members", "lag"},
		Nav:     2, Icon: "queue",
		Verbs: []Action{ActConsumerGroupDelete, ActConsumerGroupResetOffsets},
	},
	{
		Change: "api-key", Title: "API key", Titles: "API keys",
		Plural: "api-keys", Item: "api-key", Readable: true, Aliases: []string{"key", "keys"},
		Columns: []string{"id", "owner.name", "resource", "state", "description", "expires_at"},
		Nav:     6, Icon: "key",
		Policy: KindAPIKey, PolicyFields: "owner, owner_id, resource, description, max_age_hours",
		Verbs: []Action{ActAPIKeyCreate, ActAPIKeyUpdate, ActAPIKeyRotate, ActAPIKeyDelete, ActAPIKeyExpire},
	},
	{
		Change: "change-request", Title: "Change request", Titles: "Change requests",
		Plural: "change-requests", Item: "change-request", Readable: true, Aliases: []string{"requests"},
		Columns: []string{"id", "state", "requester", "reason", "expires_at"},
		Nav:     11, Icon: "clipboard-check",
		Verbs: []Action{ActChangeRequestCreate, ActChangeRequestApprove, ActChangeRequestReject, ActChangeRequestWithdraw, ActChangeRequestStale},
	},
	{
		Change: "alert", Title: "Alert", Titles: "Alerts",
		Plural:  "alerts",
		Columns: []string{"state", "rule", "subject", "value", "fired_at", "resolved_at"},
		Nav:     9, Icon: "bell",
		Verbs: []Action{ActAlertFire, ActAlertResolve},
	},
	{
		Change: "alert-channel", Title: "Alert channel",
		Plural: "alert-channels", Item: "alert-channel", Aliases: []string{"channels"},
		Columns: []string{"id", "format", "url", "created_by"},
		Verbs:   []Action{ActAlertChannelCreate, ActAlertChannelDelete},
	},
}

// KindInfos lists the resource kinds, documented ones first in the order
// documents are applied.
func KindInfos() []KindInfo { return kinds }

// KindNamed finds a kind by any of its names: documents', plans', its
// plural, its item segment or an alias (case does not matter).
func KindNamed(name string) (KindInfo, bool) {
	for _, k := range kinds {
		if strings.EqualFold(name, k.Document) || strings.EqualFold(name, k.Change) || strings.EqualFold(name, k.Plural) ||
			strings.EqualFold(name, k.Item) {
			return k, true
		}
		for _, a := range k.Aliases {
			if strings.EqualFold(name, a) {
				return k, true
			}
		}
	}
	return KindInfo{}, false
}

// KindAPIKey is the kind of API keys in policies (keys are not declared
// in documents).
const KindAPIKey = "APIKey"

// PolicyKinds lists the kinds a policy may be about.
func PolicyKinds() []string {
	var out []string
	for _, k := range kinds {
		if k.Policy != "" {
			out = append(out, k.Policy)
		}
	}
	return out
}

// PolicyFields names a kind's fields as policies see them (its
// KindInfo's PolicyFields).
func PolicyFields(kind string) string {
	for _, k := range kinds {
		if k.Policy == kind && kind != "" {
			return k.PolicyFields
		}
	}
	return ""
}
