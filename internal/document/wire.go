// Package document is the file format of resources as code (plans): resources in
// the shape Kubernetes users write (apiVersion, kind, metadata, spec), as
// multi-document YAML or as JSON {"items": [...]}. It reads documents with
// every problem named by its place (items[2].spec.partitions), writes
// them, resolves what only a client can (schema files, secrets from the
// environment), and publishes a JSON Schema per kind.
package document

import (
	"reflect"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// resource is one resource as files hold it.
type resource struct {
	APIVersion string   `json:"apiVersion" yaml:"apiVersion"`
	Kind       string   `json:"kind" yaml:"kind"`
	Metadata   metadata `json:"metadata" yaml:"metadata"`
	Spec       any      `json:"spec" yaml:"spec"`
}

type metadata struct {
	Name        string            `json:"name" yaml:"name"`
	Labels      map[string]string `json:"labels,omitempty" yaml:"labels,omitempty"`
	Description string            `json:"description,omitempty" yaml:"description,omitempty"`
}

type topicSpec struct {
	Partitions *int              `json:"partitions,omitempty" yaml:"partitions,omitempty" doc:"Partitions only grow; omit to keep the current count (1 for a new topic)." oa:"min=1,max=100"`
	Config     map[string]string `json:"config,omitempty" yaml:"config,omitempty" doc:"Every override of an editable setting (retention.ms, cleanup.policy, ...); editable settings left out are reset."`
	// The catalog entry: any of these declares it whole.
	Description    *string  `json:"description,omitempty" yaml:"description,omitempty" doc:"The zone's catalog: what the topic holds. Any of description, owner, tags and classification declares the catalog entry whole (the others are cleared)." oa:"maxlen=2000"`
	Owner          *string  `json:"owner,omitempty" yaml:"owner,omitempty" doc:"The catalog's owner contact: a team, a mail address, a channel." oa:"maxlen=200"`
	Tags           []string `json:"tags,omitempty" yaml:"tags,omitempty" doc:"Catalog tags (lower case)." pattern:"^[a-z0-9._-]{1,40}$" oa:"maxitems=20"`
	Classification *string  `json:"classification,omitempty" yaml:"classification,omitempty" doc:"A data classification of the platform (public, internal, confidential, restricted by default): it bounds grants on the topic."`
}

// catalog is a topic spec's catalog entry, nil when it declares none.
func (s topicSpec) catalog() *portal.TopicMetadata {
	if s.Description == nil && s.Owner == nil && s.Tags == nil && s.Classification == nil {
		return nil
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	return &portal.TopicMetadata{Description: str(s.Description), Contact: str(s.Owner), Tags: s.Tags, Classification: str(s.Classification)}
}

// topicSpecOf writes a topic's declaration.
func topicSpecOf(d *portal.TopicDecl) topicSpec {
	s := topicSpec{Partitions: d.Partitions, Config: d.Config}
	if m := d.Catalog; m != nil {
		opt := func(v string) *string {
			if v == "" {
				return nil
			}
			return &v
		}
		s.Description, s.Owner, s.Classification = opt(m.Description), opt(m.Contact), opt(m.Classification)
		if len(m.Tags) > 0 {
			s.Tags = m.Tags
		}
	}
	return s
}

type schemaSpec struct {
	Topic       string      `json:"topic,omitempty" yaml:"topic,omitempty" doc:"The topic; by default the name without -key or -value."`
	SubjectType string      `json:"subjectType,omitempty" yaml:"subjectType,omitempty" doc:"By default the name's suffix." enum:"key,value"`
	SchemaType  string      `json:"schemaType,omitempty" yaml:"schemaType,omitempty" enum:"AVRO,JSON" oa:"default=AVRO"`
	Schema      string      `json:"schema,omitempty" yaml:"schema,omitempty" doc:"The schema's text."`
	SchemaFile  string      `json:"schemaFile,omitempty" yaml:"schemaFile,omitempty" doc:"A file holding the schema, relative to the document; portalctl reads it."`
	References  []reference `json:"references,omitempty" yaml:"references,omitempty"`
}

type reference struct {
	Name    string `json:"name" yaml:"name" oa:"required"`
	Subject string `json:"subject" yaml:"subject" oa:"required"`
	Version int    `json:"version" yaml:"version" oa:"required,min=1"`
}

type connectorSpec struct {
	Class       string            `json:"class" yaml:"class" doc:"The connector class (connector.class)." oa:"required"`
	Config      map[string]string `json:"config,omitempty" yaml:"config,omitempty" doc:"The configuration without secrets; topics and kafka.topic take identifiers."`
	Secrets     map[string]secret `json:"secrets,omitempty" yaml:"secrets,omitempty" doc:"Secret settings by reference: the environment variable where portalctl runs holds the value. A plan tells a value that differs from the one the portal last sent (it keeps a keyed digest of each, never the value); a secret set outside the portal is compared by presence."`
	AutoRestart *autoRestartSpec  `json:"autoRestart,omitempty" yaml:"autoRestart,omitempty" doc:"The portal restarts the connector when it fails, with backoff (a minute, doubling up to an hour), until maxRestarts restarts did not help (0 or none: no limit). Left out, a plan leaves the switch as it is."`
}

// autoRestartSpec is a connector's auto-restart switch.
type autoRestartSpec struct {
	Enabled     bool `json:"enabled" yaml:"enabled" oa:"required"`
	MaxRestarts int  `json:"maxRestarts,omitempty" yaml:"maxRestarts,omitempty" oa:"min=0,max=1000"`
}

// secret is a reference to an environment variable; value is what a
// client read from it, sent to the portal and never written to a file.
type secret struct {
	FromEnv string `json:"fromEnv" yaml:"fromEnv" pattern:"^[A-Za-z_][A-Za-z0-9_]*$" oa:"required"`
	Value   string `json:"value,omitempty" yaml:"value,omitempty" oa:"hidden"`
}

type accountSpec struct {
	Type    string    `json:"type" yaml:"type" doc:"Selects the role bindings, all scoped to the unit's prefix." enum:"producer,consumer,stream-processor,metrics" oa:"required"`
	APIKeys []keySpec `json:"apiKeys,omitempty" yaml:"apiKeys,omitempty" doc:"Resources the account should have an API key for. A key is made at apply when the account has none for the resource; its secret is in the apply's answer only. Exports never carry keys, and plans never delete them." oa:"unique"`
}

// keySpec declares that an account has an API key for a resource.
type keySpec struct {
	Resource string `json:"resource" yaml:"resource" doc:"The stage's Kafka cluster or its Schema Registry." enum:"kafka,schema-registry" oa:"required"`
}

type policySpec struct {
	Kind          string   `json:"kind" yaml:"kind" doc:"The kind of resource the rule is about." enum:"Topic,Connector,Schema,ServiceAccount,IdentityPool,APIKey" oa:"required"`
	BusinessUnits []string `json:"businessUnits,omitempty" yaml:"businessUnits,omitempty" doc:"The units it applies to; every unit of the zone when empty."`
	Stages        []string `json:"stages,omitempty" yaml:"stages,omitempty" doc:"The stages it applies to; every stage when empty."`
	Operations    []string `json:"operations,omitempty" yaml:"operations,omitempty" doc:"What it checks; create and update when empty." enum:"create,update,delete"`
	Expression    string   `json:"expression" yaml:"expression" doc:"A CEL expression over resource, before, scope, principal and operation; true when a change keeps the rule." oa:"required,maxlen=4096"`
	Message       string   `json:"message" yaml:"message" doc:"What a refusal or warning says; ${expr} shows a value." oa:"required,maxlen=1024"`
	Field         string   `json:"field,omitempty" yaml:"field,omitempty" doc:"The input a violation points at (partitions_count)."`
	Action        string   `json:"action" yaml:"action" enum:"enforce,warn,report" oa:"required"`
}

type grantSpec struct {
	BusinessUnit string `json:"businessUnit" yaml:"businessUnit" doc:"The unit of the landing zone that receives access." oa:"required"`
	Principal    string `json:"principal" yaml:"principal" doc:"One of that unit's service accounts or identity pools, by display name (of any stage) or id." oa:"required"`
	Access       string `json:"access" yaml:"access" enum:"read,write" oa:"required"`
	Prefix       bool   `json:"prefix,omitempty" yaml:"prefix,omitempty" doc:"The name is a prefix: the grant covers every topic of the unit whose name begins with it."`
}

type alertRuleSpec struct {
	Kind      string  `json:"kind" yaml:"kind" doc:"What fires: a group's lag in time, a group not consuming while records arrive, a failed connector or task, an API key about to expire, a budget limit nearly used, a topic written fast, a month-end cost forecast over the budget's monthly amount." enum:"lag_time,stalled,connector_failed,key_expiring,budget_headroom,topic_growth,cost_forecast" oa:"required"`
	Target    string  `json:"target,omitempty" yaml:"target,omitempty" doc:"A group, connector or topic identifier of the unit, or * (the default) for all; none for key_expiring and budget_headroom."`
	Threshold float64 `json:"threshold,omitempty" yaml:"threshold,omitempty" doc:"Seconds behind (lag_time), days before expiry (key_expiring), percent of a limit left (budget_headroom), records a second (topic_growth)." oa:"min=0"`
	For       string  `json:"for,omitempty" yaml:"for,omitempty" doc:"How long the condition holds before the rule fires, as a duration (\"5m\", \"1h30m\")." pattern:"^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$|^0$"`
	Enabled   *bool   `json:"enabled,omitempty" yaml:"enabled,omitempty" oa:"default=True"`
}

// newSpec returns an empty spec for a kind, or nil for an unknown kind.
// A kind whose file shape is its declaration (portal.KindInfo.Decl, with
// json and yaml tags) needs no case here: its declaration is its spec.
func newSpec(kind string) any {
	switch kind {
	case portal.KindTopic:
		return &topicSpec{}
	case portal.KindSchema:
		return &schemaSpec{}
	case portal.KindConnector:
		return &connectorSpec{}
	case portal.KindServiceAccount:
		return &accountSpec{}
	case portal.KindPolicy:
		return &policySpec{}
	case portal.KindGrant:
		return &grantSpec{}
	case portal.KindAlertRule:
		return &alertRuleSpec{}
	}
	if k, ok := portal.KindNamed(kind); ok && k.Document == kind && k.Decl != nil {
		return reflect.New(reflect.TypeOf(k.Decl).Elem()).Interface()
	}
	return nil
}

// toResource turns a decoded resource into the contract's.
func toResource(kind string, m metadata, spec any) portal.Resource {
	r := portal.Resource{Kind: kind, Name: m.Name, Labels: m.Labels, Description: m.Description}
	switch s := spec.(type) {
	case *topicSpec:
		r.Spec = &portal.TopicDecl{Partitions: s.Partitions, Config: s.Config, Catalog: s.catalog()}
	case *schemaSpec:
		d := &portal.SchemaDecl{Topic: s.Topic, SubjectType: s.SubjectType, SchemaType: s.SchemaType, Schema: s.Schema, SchemaFile: s.SchemaFile}
		for _, ref := range s.References {
			d.References = append(d.References, portal.SchemaReference(ref))
		}
		r.Spec = d
	case *connectorSpec:
		d := &portal.ConnectorDecl{Class: s.Class, Config: s.Config}
		if s.AutoRestart != nil {
			d.AutoRestart = &portal.AutoRestartSpec{Enabled: s.AutoRestart.Enabled, MaxRestarts: s.AutoRestart.MaxRestarts}
		}
		if len(s.Secrets) > 0 {
			d.Secrets = map[string]portal.SecretRef{}
			for k, v := range s.Secrets {
				d.Secrets[k] = portal.SecretRef(v)
			}
		}
		r.Spec = d
	case *alertRuleSpec:
		r.Spec = &portal.AlertRuleDecl{Kind: s.Kind, Target: s.Target, Threshold: s.Threshold, For: s.For, Enabled: s.Enabled}
	case *accountSpec:
		d := &portal.AccountDecl{Type: s.Type}
		for _, k := range s.APIKeys {
			d.APIKeys = append(d.APIKeys, portal.KeyDecl(k))
		}
		r.Spec = d
	case *policySpec:
		r.Spec = &portal.PolicyDecl{Kind: s.Kind, Units: s.BusinessUnits, Stages: s.Stages, Operations: s.Operations,
			Expression: s.Expression, Message: s.Message, Field: s.Field, Action: s.Action}
	case *grantSpec:
		r.Spec = &portal.GrantDecl{Unit: s.BusinessUnit, Principal: s.Principal, Access: s.Access, Prefix: s.Prefix}
	default:
		r.Spec = spec // a declaration that is its own spec
	}
	return r
}

// fromResource turns a contract resource into its file shape; secret
// values are kept only when withValues (a client sending the document).
func fromResource(r portal.Resource, withValues bool) resource {
	out := resource{APIVersion: portal.ResourceAPIVersion, Kind: r.Kind,
		Metadata: metadata{Name: r.Name, Labels: r.Labels, Description: r.Description}}
	switch d := r.Spec.(type) {
	case *portal.TopicDecl:
		out.Spec = topicSpecOf(d)
	case *portal.SchemaDecl:
		s := schemaSpec{Topic: d.Topic, SubjectType: d.SubjectType, SchemaType: d.SchemaType,
			Schema: d.Schema, SchemaFile: d.SchemaFile}
		for _, ref := range d.References {
			s.References = append(s.References, reference(ref))
		}
		out.Spec = s
	case *portal.ConnectorDecl:
		s := connectorSpec{Class: d.Class, Config: d.Config}
		if a := d.AutoRestart; a != nil {
			s.AutoRestart = &autoRestartSpec{Enabled: a.Enabled, MaxRestarts: a.MaxRestarts}
		}
		if len(d.Secrets) > 0 {
			s.Secrets = map[string]secret{}
			for k, v := range d.Secrets {
				if !withValues {
					v.Value = ""
				}
				s.Secrets[k] = secret(v)
			}
		}
		out.Spec = s
	case *portal.AccountDecl:
		s := accountSpec{Type: d.Type}
		for _, k := range d.APIKeys {
			s.APIKeys = append(s.APIKeys, keySpec(k))
		}
		out.Spec = s
	case *portal.PolicyDecl:
		out.Spec = policySpec{Kind: d.Kind, BusinessUnits: d.Units, Stages: d.Stages, Operations: d.Operations,
			Expression: d.Expression, Message: d.Message, Field: d.Field, Action: d.Action}
	case *portal.GrantDecl:
		out.Spec = grantSpec{BusinessUnit: d.Unit, Principal: d.Principal, Access: d.Access, Prefix: d.Prefix}
	case *portal.AlertRuleDecl:
		out.Spec = alertRuleSpec{Kind: d.Kind, Target: d.Target, Threshold: d.Threshold, For: d.For, Enabled: d.Enabled}
	default:
		out.Spec = r.Spec // a declaration that is its own spec
	}
	return out
}
