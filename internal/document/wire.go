// Package document is the file format of resources as code (plans): resources in
// the shape Kubernetes users write (apiVersion, kind, metadata, spec), as
// multi-document YAML or as JSON {"items": [...]}. It reads documents with
// every problem named by its place (items[2].spec.partitions), writes
// them, resolves what only a client can (schema files, secrets from the
// environment), and publishes a JSON Schema per kind.
package document

import "github.com/edh-platform/rms-portal/internal/portal"

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
	Partitions *int              `json:"partitions,omitempty" yaml:"partitions,omitempty"`
	Config     map[string]string `json:"config,omitempty" yaml:"config,omitempty"`
	// The catalog entry: any of these declares it whole.
	Description    *string  `json:"description,omitempty" yaml:"description,omitempty"`
	Owner          *string  `json:"owner,omitempty" yaml:"owner,omitempty"`
	Tags           []string `json:"tags,omitempty" yaml:"tags,omitempty"`
	Classification *string  `json:"classification,omitempty" yaml:"classification,omitempty"`
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
	Topic       string      `json:"topic,omitempty" yaml:"topic,omitempty"`
	SubjectType string      `json:"subjectType,omitempty" yaml:"subjectType,omitempty"`
	SchemaType  string      `json:"schemaType,omitempty" yaml:"schemaType,omitempty"`
	Schema      string      `json:"schema,omitempty" yaml:"schema,omitempty"`
	SchemaFile  string      `json:"schemaFile,omitempty" yaml:"schemaFile,omitempty"`
	References  []reference `json:"references,omitempty" yaml:"references,omitempty"`
}

type reference struct {
	Name    string `json:"name" yaml:"name"`
	Subject string `json:"subject" yaml:"subject"`
	Version int    `json:"version" yaml:"version"`
}

type connectorSpec struct {
	Class       string            `json:"class" yaml:"class"`
	Config      map[string]string `json:"config,omitempty" yaml:"config,omitempty"`
	Secrets     map[string]secret `json:"secrets,omitempty" yaml:"secrets,omitempty"`
	AutoRestart *autoRestartSpec  `json:"autoRestart,omitempty" yaml:"autoRestart,omitempty"`
}

// autoRestartSpec is a connector's auto-restart switch.
type autoRestartSpec struct {
	Enabled     bool `json:"enabled" yaml:"enabled"`
	MaxRestarts int  `json:"maxRestarts,omitempty" yaml:"maxRestarts,omitempty"`
}

// secret is a reference to an environment variable; value is what a
// client read from it, sent to the portal and never written to a file.
type secret struct {
	FromEnv string `json:"fromEnv" yaml:"fromEnv"`
	Value   string `json:"value,omitempty" yaml:"value,omitempty"`
}

type accountSpec struct {
	Type    string    `json:"type" yaml:"type"`
	APIKeys []keySpec `json:"apiKeys,omitempty" yaml:"apiKeys,omitempty"`
}

// keySpec declares that an account has an API key for a resource.
type keySpec struct {
	Resource string `json:"resource" yaml:"resource"`
}

type poolSpec struct {
	Type          string `json:"type" yaml:"type"`
	IdentityClaim string `json:"identityClaim,omitempty" yaml:"identityClaim,omitempty"`
	Filter        string `json:"filter" yaml:"filter"`
}

type policySpec struct {
	Kind          string   `json:"kind" yaml:"kind"`
	BusinessUnits []string `json:"businessUnits,omitempty" yaml:"businessUnits,omitempty"`
	Stages        []string `json:"stages,omitempty" yaml:"stages,omitempty"`
	Operations    []string `json:"operations,omitempty" yaml:"operations,omitempty"`
	Expression    string   `json:"expression" yaml:"expression"`
	Message       string   `json:"message" yaml:"message"`
	Field         string   `json:"field,omitempty" yaml:"field,omitempty"`
	Action        string   `json:"action" yaml:"action"`
}

type grantSpec struct {
	BusinessUnit string `json:"businessUnit" yaml:"businessUnit"`
	Principal    string `json:"principal" yaml:"principal"`
	Access       string `json:"access" yaml:"access"`
	Prefix       bool   `json:"prefix,omitempty" yaml:"prefix,omitempty"`
}

type alertRuleSpec struct {
	Kind      string  `json:"kind" yaml:"kind"`
	Target    string  `json:"target,omitempty" yaml:"target,omitempty"`
	Threshold float64 `json:"threshold,omitempty" yaml:"threshold,omitempty"`
	For       string  `json:"for,omitempty" yaml:"for,omitempty"`
	Enabled   *bool   `json:"enabled,omitempty" yaml:"enabled,omitempty"`
}

// newSpec returns an empty spec for a kind, or nil for an unknown kind.
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
	case portal.KindIdentityPool:
		return &poolSpec{}
	case portal.KindPolicy:
		return &policySpec{}
	case portal.KindGrant:
		return &grantSpec{}
	case portal.KindAlertRule:
		return &alertRuleSpec{}
	}
	return nil
}

// toResource turns a decoded resource into the contract's.
func toResource(kind string, m metadata, spec any) portal.Resource {
	r := portal.Resource{Kind: kind, Name: m.Name, Labels: m.Labels, Description: m.Description}
	switch s := spec.(type) {
	case *topicSpec:
		r.Topic = &portal.TopicDecl{Partitions: s.Partitions, Config: s.Config, Catalog: s.catalog()}
	case *schemaSpec:
		d := &portal.SchemaDecl{Topic: s.Topic, SubjectType: s.SubjectType, SchemaType: s.SchemaType, Schema: s.Schema, SchemaFile: s.SchemaFile}
		for _, ref := range s.References {
			d.References = append(d.References, portal.SchemaReference(ref))
		}
		r.Schema = d
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
		r.Connector = d
	case *alertRuleSpec:
		r.AlertRule = &portal.AlertRuleDecl{Kind: s.Kind, Target: s.Target, Threshold: s.Threshold, For: s.For, Enabled: s.Enabled}
	case *accountSpec:
		d := &portal.AccountDecl{Type: s.Type}
		for _, k := range s.APIKeys {
			d.APIKeys = append(d.APIKeys, portal.KeyDecl(k))
		}
		r.Account = d
	case *poolSpec:
		r.Pool = &portal.PoolDecl{Type: s.Type, IdentityClaim: s.IdentityClaim, Filter: s.Filter}
	case *policySpec:
		r.Policy = &portal.PolicyDecl{Kind: s.Kind, Units: s.BusinessUnits, Stages: s.Stages, Operations: s.Operations,
			Expression: s.Expression, Message: s.Message, Field: s.Field, Action: s.Action}
	case *grantSpec:
		r.Grant = &portal.GrantDecl{Unit: s.BusinessUnit, Principal: s.Principal, Access: s.Access, Prefix: s.Prefix}
	}
	return r
}

// fromResource turns a contract resource into its file shape; secret
// values are kept only when withValues (a client sending the document).
func fromResource(r portal.Resource, withValues bool) resource {
	out := resource{APIVersion: portal.ResourceAPIVersion, Kind: r.Kind,
		Metadata: metadata{Name: r.Name, Labels: r.Labels, Description: r.Description}}
	switch {
	case r.Topic != nil:
		out.Spec = topicSpecOf(r.Topic)
	case r.Schema != nil:
		s := schemaSpec{Topic: r.Schema.Topic, SubjectType: r.Schema.SubjectType, SchemaType: r.Schema.SchemaType,
			Schema: r.Schema.Schema, SchemaFile: r.Schema.SchemaFile}
		for _, ref := range r.Schema.References {
			s.References = append(s.References, reference(ref))
		}
		out.Spec = s
	case r.Connector != nil:
		s := connectorSpec{Class: r.Connector.Class, Config: r.Connector.Config}
		if a := r.Connector.AutoRestart; a != nil {
			s.AutoRestart = &autoRestartSpec{Enabled: a.Enabled, MaxRestarts: a.MaxRestarts}
		}
		if len(r.Connector.Secrets) > 0 {
			s.Secrets = map[string]secret{}
			for k, v := range r.Connector.Secrets {
				if !withValues {
					v.Value = ""
				}
				s.Secrets[k] = secret(v)
			}
		}
		out.Spec = s
	case r.Account != nil:
		s := accountSpec{Type: r.Account.Type}
		for _, k := range r.Account.APIKeys {
			s.APIKeys = append(s.APIKeys, keySpec(k))
		}
		out.Spec = s
	case r.Pool != nil:
		out.Spec = poolSpec{Type: r.Pool.Type, IdentityClaim: r.Pool.IdentityClaim, Filter: r.Pool.Filter}
	case r.Policy != nil:
		d := r.Policy
		out.Spec = policySpec{Kind: d.Kind, BusinessUnits: d.Units, Stages: d.Stages, Operations: d.Operations,
			Expression: d.Expression, Message: d.Message, Field: d.Field, Action: d.Action}
	case r.Grant != nil:
		out.Spec = grantSpec{BusinessUnit: r.Grant.Unit, Principal: r.Grant.Principal, Access: r.Grant.Access, Prefix: r.Grant.Prefix}
	case r.AlertRule != nil:
		a := r.AlertRule
		out.Spec = alertRuleSpec{Kind: a.Kind, Target: a.Target, Threshold: a.Threshold, For: a.For, Enabled: a.Enabled}
	}
	return out
}
