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

// The kinds' views, as policies see them (declared beside each kind).
type (
	Topic          = portal.TopicView
	Connector      = portal.ConnectorView
	Schema         = portal.SchemaView
	ServiceAccount = portal.ServiceAccountView
	IdentityPool   = portal.IdentityPoolView
	APIKey         = portal.APIKeyView
)

// Kinds lists the kinds a policy may be about.
func Kinds() []string { return portal.PolicyKinds() }

// Operations a policy may check.
const (
	OpCreate = policy.OpCreate
	OpUpdate = policy.OpUpdate
	OpDelete = policy.OpDelete
)

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

// Sample is a zero resource of a kind (a pointer), to declare or decode:
// of the type its declaration says policies see (KindInfo.PolicyView).
func Sample(kind string) (any, error) {
	if t := portal.PolicyView(kind); t != nil {
		return reflect.New(t).Interface(), nil
	}
	return nil, fmt.Errorf("kind %q is not one of %v", kind, Kinds())
}

// KnownKind tells whether a policy may be about kind.
func KnownKind(kind string) bool { return slices.Contains(Kinds(), kind) }

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
