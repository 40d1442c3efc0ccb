// Package rules holds the guardrails' rules for shared clusters as
// pure functions: policies (CEL expressions over a resource's desired and
// current state, compiled and type-checked against the resource kind's
// declared fields) and budgets (what a unit may hold in a stage, and what
// a change would use). The services feed them; nothing here calls out.
package rules

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
)

// Kinds a policy may be about, as documents name them.
const (
	KindTopic          = portal.KindTopic
	KindConnector      = portal.KindConnector
	KindSchema         = portal.KindSchema
	KindServiceAccount = portal.KindServiceAccount
	KindIdentityPool   = portal.KindIdentityPool
	KindAPIKey         = portal.KindAPIKey
)

// Kinds lists the kinds a policy may be about.
func Kinds() []string { return portal.PolicyKinds() }

// Operations a policy may check.
const (
	OpCreate = policy.OpCreate
	OpUpdate = policy.OpUpdate
	OpDelete = policy.OpDelete
)

// Topic is a topic as policies see it (resource and before).
type Topic struct {
	// Name is the full name upstream; Identifier the name within the unit.
	Name       string            `cel:"name" json:"name"`
	Identifier string            `cel:"identifier" json:"identifier"`
	Partitions int               `cel:"partitions" json:"partitions"`
	Config     map[string]string `cel:"config" json:"config"`
}

// Connector is a connector as policies see it; secret settings are
// masked ("********"), so that no message can repeat them.
type Connector struct {
	Name       string            `cel:"name" json:"name"`
	Identifier string            `cel:"identifier" json:"identifier"`
	Class      string            `cel:"class" json:"class"`
	Tasks      int               `cel:"tasks" json:"tasks"`
	Topics     []string          `cel:"topics" json:"topics"`
	Config     map[string]string `cel:"config" json:"config"`
}

// Schema is a subject's new version as policies see it.
type Schema struct {
	Subject       string `cel:"subject" json:"subject"`
	Topic         string `cel:"topic" json:"topic"`
	SubjectType   string `cel:"subject_type" json:"subject_type"`
	SchemaType    string `cel:"schema_type" json:"schema_type"`
	Compatibility string `cel:"compatibility" json:"compatibility"`
	Schema        string `cel:"schema" json:"schema"`
}

// ServiceAccount is a service account as policies see it.
type ServiceAccount struct {
	Name        string `cel:"name" json:"name"`
	Identifier  string `cel:"identifier" json:"identifier"`
	Description string `cel:"description" json:"description"`
}

// IdentityPool is an identity pool as policies see it.
type IdentityPool struct {
	Name          string `cel:"name" json:"name"`
	Identifier    string `cel:"identifier" json:"identifier"`
	Description   string `cel:"description" json:"description"`
	Filter        string `cel:"filter" json:"filter"`
	IdentityClaim string `cel:"identity_claim" json:"identity_claim"`
}

// APIKey is an API key as policies see it (never its secret).
type APIKey struct {
	Owner       string `cel:"owner" json:"owner"`
	OwnerID     string `cel:"owner_id" json:"owner_id"`
	Resource    string `cel:"resource" json:"resource"`
	Description string `cel:"description" json:"description"`
	// MaxAgeHours is the key's lifetime in hours (0: none).
	MaxAgeHours int `cel:"max_age_hours" json:"max_age_hours"`
}

// Scope is where a change is made.
type Scope struct {
	Zone   string `cel:"zone" json:"zone"`
	Unit   string `cel:"unit" json:"unit"`
	Stage  string `cel:"stage" json:"stage"`
	Prefix string `cel:"prefix" json:"prefix"`
}

// Principal is who makes a change.
type Principal struct {
	Subject       string   `cel:"subject" json:"subject"`
	Name          string   `cel:"name" json:"name"`
	Role          string   `cel:"role" json:"role"`
	Groups        []string `cel:"groups" json:"groups"`
	Service       bool     `cel:"service" json:"service"`
	PlatformAdmin bool     `cel:"platform_admin" json:"platform_admin"`
}

// Change is one write as the guardrails judge it: Resource is the desired
// state (nil for a delete), Before the current one (nil for a create),
// each a pointer to the kind's type above.
type Change struct {
	Kind      string
	Operation string
	// Name names the resource in messages and reports.
	Name      string
	Resource  any
	Before    any
	Scope     Scope
	Principal Principal
}

// Sample is a zero resource of a kind (a pointer), to declare or decode.
func Sample(kind string) (any, error) {
	switch kind {
	case KindTopic:
		return &Topic{}, nil
	case KindConnector:
		return &Connector{}, nil
	case KindSchema:
		return &Schema{}, nil
	case KindServiceAccount:
		return &ServiceAccount{}, nil
	case KindIdentityPool:
		return &IdentityPool{}, nil
	case KindAPIKey:
		return &APIKey{}, nil
	}
	return nil, fmt.Errorf("kind %q is not one of %v", kind, Kinds())
}

// KnownKind tells whether a policy may be about kind.
func KnownKind(kind string) bool { return slices.Contains(Kinds(), kind) }

// Fields names a kind's fields as policies see them, for messages.
func Fields(kind string) string {
	s, err := Sample(kind)
	if err != nil {
		return ""
	}
	t := reflect.TypeOf(s).Elem()
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = t.Field(i).Tag.Get("cel")
	}
	return strings.Join(names, ", ")
}

// NewChange is a write of a kind as the guardrails judge it: resource
// (nil for a delete) and before (nil for a create) are that kind's.
func NewChange[T any](kind, op, name string, resource, before *T) Change {
	ch := Change{Kind: kind, Operation: op, Name: name}
	if resource != nil {
		ch.Resource = resource
	}
	if before != nil {
		ch.Before = before
	}
	return ch
}
