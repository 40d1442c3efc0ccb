package portal

import (
	"reflect"
	"strings"
)

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
	// policy can be about it); PolicyView a nil pointer of the type they
	// see of one, declared beside the kind (its cel tags name the fields:
	// (*TopicView)(nil)).
	Policy     string
	PolicyView any
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
	topicKind,
	schemaKind,
	connectorKind,
	serviceAccountKind,
	identityPoolKind,
	grantKind,
	alertRuleKind,
	policyKind,
	consumerGroupKind,
	apiKeyKind,
	changeRequestKind,
	alertKind,
	alertChannelKind,
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

// PolicyView is the type policies see of a kind (its KindInfo's
// PolicyView), nil for a kind no policy is about.
func PolicyView(kind string) reflect.Type {
	for _, k := range kinds {
		if k.Policy == kind && kind != "" && k.PolicyView != nil {
			return reflect.TypeOf(k.PolicyView).Elem()
		}
	}
	return nil
}

// PolicyFields names a kind's fields as policies see them (the cel tags
// of its PolicyView), "" for a kind no policy is about.
func PolicyFields(kind string) string {
	t := PolicyView(kind)
	if t == nil {
		return ""
	}
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = t.Field(i).Tag.Get("cel")
	}
	return strings.Join(names, ", ")
}
