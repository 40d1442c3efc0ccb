package masking

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// maxDepth bounds how deep a JSON Schema's references are followed for
// one value: a schema may refer to itself.
const maxDepth = 64

// JSONSchema is a parsed JSON Schema that masks the values it describes.
type JSONSchema struct {
	root any
	tags Tags
}

// ParseJSONSchema parses a JSON Schema for masking; nil when no property
// of it carries one of the tags, so that its values need no walk.
func ParseJSONSchema(schema string, tags Tags) (*JSONSchema, error) {
	var root any
	if err := json.Unmarshal([]byte(schema), &root); err != nil {
		return nil, fmt.Errorf("the JSON schema does not parse: %w", err)
	}
	if !jsonTagged(root, tags, 0) {
		return nil, nil
	}
	return &JSONSchema{root: root, tags: tags}, nil
}

// jsonTagged tells whether any (sub)schema carries one of the tags.
func jsonTagged(node any, tags Tags, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch n := node.(type) {
	case map[string]any:
		if tags.matches(n[TagProperty]) {
			return true
		}
		for _, sub := range n {
			if jsonTagged(sub, tags, depth+1) {
				return true
			}
		}
	case []any:
		for _, sub := range n {
			if jsonTagged(sub, tags, depth+1) {
				return true
			}
		}
	}
	return false
}

// Mask masks, in a JSON value (decoded with json.Number for numbers), the
// properties the schema tags, and returns it with their paths.
func (j *JSONSchema) Mask(v any) (any, []string) {
	f := found{}
	v = j.mask(j.root, v, "", f, 0)
	return v, f.list()
}

func (j *JSONSchema) mask(node, v any, path string, f found, depth int) any {
	n, ok := node.(map[string]any)
	if !ok || v == nil || depth > maxDepth {
		return v
	}
	if ref, ok := n["$ref"].(string); ok {
		if target := j.resolve(ref); target != nil {
			v = j.mask(target, v, path, f, depth+1)
		}
	}
	if j.tags.matches(n[TagProperty]) {
		f.add(path)
		return Value(v)
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		if subs, ok := n[key].([]any); ok {
			for _, sub := range subs {
				v = j.mask(sub, v, path, f, depth+1)
			}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := n["properties"].(map[string]any)
		for k, e := range x {
			if sub, ok := props[k]; ok {
				x[k] = j.mask(sub, e, join(path, k), f, depth+1)
			} else if extra, ok := n["additionalProperties"].(map[string]any); ok {
				x[k] = j.mask(extra, e, join(path, "*"), f, depth+1)
			}
		}
	case []any:
		j.maskItems(n, x, path, f, depth)
	}
	return v
}

// maskItems masks a list's elements with "items" (one schema for all, or
// a tuple's) and "prefixItems".
func (j *JSONSchema) maskItems(n map[string]any, list []any, path string, f found, depth int) {
	tuple, _ := n["prefixItems"].([]any)
	if t, ok := n["items"].([]any); ok {
		tuple = t
	}
	all, _ := n["items"].(map[string]any)
	for i, e := range list {
		switch {
		case i < len(tuple):
			list[i] = j.mask(tuple[i], e, path+"[]", f, depth+1)
		case all != nil:
			list[i] = j.mask(all, e, path+"[]", f, depth+1)
		}
	}
}

// resolve follows a reference within the document ("#/$defs/Address");
// references to other documents are not followed.
func (j *JSONSchema) resolve(ref string) any {
	pointer, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	node := j.root
	for _, part := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		switch x := node.(type) {
		case map[string]any:
			node = x[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			node = x[i]
		default:
			return nil
		}
	}
	return node
}
