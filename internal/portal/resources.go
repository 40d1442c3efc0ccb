package portal

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// ResourceAPIVersion is the apiVersion of every resource of a desired-state
// document.
const ResourceAPIVersion = "portal/v1"

// Kinds of resources a desired-state document declares.
const (
	KindTopic          = "Topic"
	KindSchema         = "Schema"
	KindConnector      = "Connector"
	KindServiceAccount = "ServiceAccount"
	KindIdentityPool   = "IdentityPool"
	// KindPolicy is a guardrail policy of the scope's landing zone, which
	// only platform admins plan and apply.
	KindPolicy = "Policy"
	// KindGrant is access the scope's unit gives another unit of its zone
	// to its topics, as its exports declare it.
	KindGrant = "Grant"
	// KindAlertRule is one of the unit's alert rules in the stage.
	KindAlertRule = "AlertRule"
)

// ResourceKinds lists the kinds documents declare, in the order they are
// applied (see kinds).
func ResourceKinds() []string {
	var out []string
	for _, k := range kinds {
		if k.Document != "" {
			out = append(out, k.Document)
		}
	}
	return out
}

// ChangeKind is how plans name a document kind's changes ("IdentityPool"
// is "identity-pool"); "" for a kind documents do not declare.
func ChangeKind(kind string) string {
	for _, k := range kinds {
		if k.Document == kind {
			return k.Change
		}
	}
	return ""
}

// DocumentKind is the document kind of a planned change's kind
// ("identity-pool" is "IdentityPool"); "" for none.
func DocumentKind(change string) string {
	for _, k := range kinds {
		if k.Change == change {
			return k.Document
		}
	}
	return ""
}

// Resource is one declared resource. Name is the identifier as users write
// it (a full name of the unit in any stage works too, which is what makes
// a document portable across stages); Spec is the declaration of its Kind,
// of the type its KindInfo names (*TopicDecl for a Topic: DeclOf).
type Resource struct {
	Kind        string
	Name        string
	Labels      map[string]string
	Description string
	Spec        any
}

// DeclOf is a resource's declaration of type D (DeclOf[TopicDecl](r)),
// nil when it holds none of that type.
func DeclOf[D any](r Resource) *D {
	d, _ := r.Spec.(*D)
	return d
}

// UnmarshalJSON reads a resource as encoding/json wrote it (journals and
// change requests keep their documents so), its Spec as its kind's
// declaration. A resource written before Spec held the declaration under
// its kind's own field ("Topic": {...}): that one is read as its Spec, so
// that a change request filed before an upgrade is still applied after it.
func (r *Resource) UnmarshalJSON(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	var out Resource
	for key, dst := range map[string]any{"Kind": &out.Kind, "Name": &out.Name, "Labels": &out.Labels, "Description": &out.Description} {
		if raw, ok := fields[key]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return fmt.Errorf("resource %s: %w", key, err)
			}
			delete(fields, key)
		}
	}
	spec, ok := fields["Spec"]
	if !ok {
		for _, raw := range fields {
			if string(raw) != "null" {
				spec, ok = raw, true
			}
		}
	}
	k, known := KindNamed(out.Kind)
	if ok && string(spec) != "null" && known && k.Decl != nil {
		d := reflect.New(reflect.TypeOf(k.Decl).Elem())
		if err := json.Unmarshal(spec, d.Interface()); err != nil {
			return fmt.Errorf("resource %s %s: %w", out.Kind, out.Name, err)
		}
		out.Spec = d.Interface()
	}
	*r = out
	return nil
}

// HasSpec tells whether a resource holds a declaration of its kind's type
// (true for a kind documents do not declare: it is refused by name).
func HasSpec(r Resource) bool {
	for _, k := range kinds {
		if k.Document == r.Kind && k.Document != "" {
			return r.Spec != nil && reflect.TypeOf(r.Spec) == reflect.TypeOf(k.Decl)
		}
	}
	return true
}

// AlertRuleDecl is one of the unit's alert rules (the resource's name is
// the rule's): a rule of a platform default's name replaces it.
type AlertRuleDecl struct {
	Kind, Target string
	Threshold    float64
	// For is a duration as written ("5m"; "" for none).
	For string
	// Enabled is true when nil.
	Enabled *bool
}

// TopicDecl is a topic's desired state: Config is the full set of
// overrides of editable settings (others are reset). Nil Partitions keeps
// the current count (1 for a new topic).
type TopicDecl struct {
	Partitions *int
	Config     map[string]string
	// Catalog is what the owner says about the topic in the zone's
	// catalog, replaced whole; nil when the document says nothing of it
	// (the entry is left as it is).
	Catalog *TopicMetadata
}

// SchemaDecl is a subject's desired latest version. The subject is the
// resource's name, "{topic}-key" or "{topic}-value"; Topic and SubjectType
// may repeat it and must agree. SchemaFile is resolved by the client into
// Schema before the document is sent.
type SchemaDecl struct {
	Topic       string
	SubjectType string
	SchemaType  string
	Schema      string
	SchemaFile  string
	References  []SchemaReference
}

// SecretRef names the environment variable that holds a secret setting;
// clients fill Value from it when they send the document, and the portal
// never returns it.
type SecretRef struct {
	FromEnv string
	Value   string
}

// ConnectorDecl is a connector's desired class and configuration; secrets
// are given apart, by reference.
type ConnectorDecl struct {
	Class   string
	Config  map[string]string
	Secrets map[string]SecretRef
	// AutoRestart switches the portal's restarts of the connector; nil
	// leaves the switch as it is.
	AutoRestart *AutoRestartSpec
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

// PoolDecl is an identity pool's type, claim and filter; it is also its
// spec in documents (its tags: the document's names, and what its JSON
// Schema says), with no shape of its own there.
type PoolDecl struct {
	Type          string `json:"type" yaml:"type" doc:"Selects the role bindings, all scoped to the unit's prefix." enum:"producer,consumer,stream-processor,metrics" oa:"required"`
	IdentityClaim string `json:"identityClaim,omitempty" yaml:"identityClaim,omitempty" pattern:"^claims(\\.[A-Za-z_][A-Za-z0-9_]*)+$" oa:"default=claims.sub"`
	Filter        string `json:"filter" yaml:"filter" doc:"A CEL expression over the token's claims." oa:"required"`
}

// TopicMetadata is what an owner says about a topic (each field replaced
// whole).
type TopicMetadata struct {
	Description    string
	Contact        string
	Tags           []string
	Classification string
}

// Classification is a data classification as the platform configures
// it.
type Classification struct {
	Name      string
	MaxGrant  time.Duration
	Write     bool
	Approvals int
	Default   bool
}

// SchemaReference names a schema that another one uses.
type SchemaReference struct {
	Name    string
	Subject string
	Version int
}
