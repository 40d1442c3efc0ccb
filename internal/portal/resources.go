package portal

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// ResourceAPIVersion is the apiVersion of every resource of a desired-state
// document.
const ResourceAPIVersion = "portal/v1"

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
