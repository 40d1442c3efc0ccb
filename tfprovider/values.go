package tfprovider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// strMap is a map attribute's values; false when it or a value is not
// known yet.
func strMap(v types.Map) (map[string]string, bool) {
	if v.IsUnknown() {
		return nil, false
	}
	out := map[string]string{}
	for k, e := range v.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			return nil, false
		}
		out[k] = s.ValueString()
	}
	return out, true
}

// mapValue is a map attribute of strings; null when empty and keepNull.
func mapValue(m map[string]string, keepNull bool) types.Map {
	if len(m) == 0 && keepNull {
		return types.MapNull(types.StringType)
	}
	elems := map[string]attr.Value{}
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, elems)
}

// strSet is a set attribute's values, sorted; false when not known yet.
func strSet(v types.Set) ([]string, bool) {
	if v.IsUnknown() {
		return nil, false
	}
	var out []string
	for _, e := range v.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			return nil, false
		}
		out = append(out, s.ValueString())
	}
	slices.Sort(out)
	return out, true
}

// setValue is a set attribute of strings.
func setValue(items []string) types.Set {
	elems := make([]attr.Value, len(items))
	for i, s := range items {
		elems[i] = types.StringValue(s)
	}
	return types.SetValueMust(types.StringType, elems)
}

// specString is a string of an exported spec ("" when absent).
func specString(spec map[string]any, key string) string {
	s, _ := spec[key].(string)
	return s
}

// specStrings is a list of strings of an exported spec.
func specStrings(spec map[string]any, key string) []string {
	raw, _ := spec[key].([]any)
	var out []string
	for _, e := range raw {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// specMap is a map of strings of an exported spec.
func specMap(spec map[string]any, key string) map[string]string {
	raw, _ := spec[key].(map[string]any)
	out := map[string]string{}
	for k, e := range raw {
		out[k] = fmt.Sprint(e)
	}
	return out
}

// specInt is a number of an exported spec (0 when absent).
func specInt(spec map[string]any, key string) int64 {
	switch n := spec[key].(type) {
	case float64:
		return int64(n)
	case int:
		return int64(n)
	}
	return 0
}

// looksQualified tells a name that carries its unit's prefix
// ("edh-shared-scada-dev-orders"), where the provider takes identifiers.
func looksQualified(name, bu, stage string) bool {
	return strings.Contains(name, "-"+bu+"-"+stage+"-")
}

// knownString is a string attribute's value, and whether it is known
// (null is known: "").
func knownString(v types.String) (string, bool) {
	return v.ValueString(), !v.IsUnknown()
}
