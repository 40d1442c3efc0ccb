package config

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// unknownKeys lists the keys of a configuration document that no field of
// t takes, as "path (line N)". A release ignores the keys of a later one
// rather than refusing to start, so that rolling back to it works with the
// configuration already written for the next.
func unknownKeys(n *yaml.Node, t reflect.Type) []string {
	var out []string
	var walk func(n *yaml.Node, t reflect.Type, path string)
	walk = func(n *yaml.Node, t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if n.Kind == yaml.DocumentNode {
			for _, c := range n.Content {
				walk(c, t, path)
			}
			return
		}
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch {
		case t == reflect.TypeFor[time.Duration]():
		case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
			fields := yamlFields(t)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "<<" { // a merge key: its mapping's keys count as this one's
					walk(v, t, path)
					continue
				}
				ft, ok := fields[k.Value]
				if !ok {
					out = append(out, fmt.Sprintf("%s (line %d)", join(path, k.Value), k.Line))
					continue
				}
				walk(v, ft, join(path, k.Value))
			}
		case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value))
			}
		case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	walk(n, t, "")
	return out
}

// yamlFields maps the YAML keys of a struct to their field types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			for k, v := range yamlFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
