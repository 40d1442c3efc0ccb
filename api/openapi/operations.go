package openapi

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Operation is one operation of the API document, as a door generated
// from it (the assistants' MCP tools) takes it: the same path,
// parameters and body, so that what it offers is the API itself.
type Operation struct {
	// ID is the document's operationId ("createTopic").
	ID string
	// Method and Path (under the API's base path, with {name}
	// parameters) locate it.
	Method, Path string
	Tags         []string
	Summary      string
	Description  string
	Params       []Param
	// Body is the JSON schema of its request body (refs into Schemas);
	// nil when it takes none.
	Body         map[string]any
	BodyRequired bool
	// Answer is the named schema of its JSON answer, its first 2xx's
	// ("" for none: 202, 204); Status that answer's status.
	Answer string
	Status int
	// Public operations need no token.
	Public bool
	// Need is what calling it takes (x-portal-need: operations.Need).
	Need string
}

// Param is one parameter of an operation: in path, query or header.
type Param struct {
	Name, In, Description string
	Required              bool
	Schema                map[string]any
}

// Document is the API document's operations, in path and method order,
// and its named schemas, which their bodies refer to
// ("#/components/schemas/TopicCreate").
type Document struct {
	Operations []Operation
	Schemas    map[string]any
}

// ReadDocument reads the operations and schemas of the API document.
func ReadDocument() (Document, error) {
	filled := []byte(committed)
	var raw struct {
		Paths      map[string]map[string]any `yaml:"paths"`
		Components struct {
			Schemas       map[string]any            `yaml:"schemas"`
			Parameters    map[string]map[string]any `yaml:"parameters"`
			RequestBodies map[string]map[string]any `yaml:"requestBodies"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(filled, &raw); err != nil {
		return Document{}, fmt.Errorf("the API document: %w", err)
	}
	doc := Document{Schemas: raw.Components.Schemas}
	param := func(v any) (Param, error) {
		m, _ := v.(map[string]any)
		if ref, ok := m["$ref"].(string); ok {
			name, ok := strings.CutPrefix(ref, "#/components/parameters/")
			if !ok || raw.Components.Parameters[name] == nil {
				return Param{}, fmt.Errorf("unknown parameter %s", ref)
			}
			m = raw.Components.Parameters[name]
		}
		p := Param{}
		p.Name, _ = m["name"].(string)
		p.In, _ = m["in"].(string)
		p.Description, _ = m["description"].(string)
		p.Required, _ = m["required"].(bool)
		p.Schema, _ = m["schema"].(map[string]any)
		return p, nil
	}
	for _, path := range slices.Sorted(maps.Keys(raw.Paths)) {
		item := raw.Paths[path]
		var shared []Param
		if ps, ok := item["parameters"].([]any); ok {
			for _, v := range ps {
				p, err := param(v)
				if err != nil {
					return Document{}, fmt.Errorf("%s: %w", path, err)
				}
				shared = append(shared, p)
			}
		}
		for _, method := range []string{"get", "put", "post", "patch", "delete"} {
			o, ok := item[method].(map[string]any)
			if !ok {
				continue
			}
			op := Operation{Method: strings.ToUpper(method), Path: path, Params: slices.Clone(shared)}
			op.ID, _ = o["operationId"].(string)
			op.Summary, _ = o["summary"].(string)
			op.Description, _ = o["description"].(string)
			op.Need, _ = o["x-portal-need"].(string)
			for _, t := range anyList(o["tags"]) {
				if s, ok := t.(string); ok {
					op.Tags = append(op.Tags, s)
				}
			}
			if sec, ok := o["security"].([]any); ok && len(sec) == 0 {
				op.Public = true
			}
			for _, v := range anyList(o["parameters"]) {
				p, err := param(v)
				if err != nil {
					return Document{}, fmt.Errorf("%s %s: %w", op.Method, path, err)
				}
				op.Params = append(op.Params, p)
			}
			if rb, ok := o["requestBody"].(map[string]any); ok {
				if ref, ok := rb["$ref"].(string); ok {
					name, _ := strings.CutPrefix(ref, "#/components/requestBodies/")
					if rb = raw.Components.RequestBodies[name]; rb == nil {
						return Document{}, fmt.Errorf("%s %s: unknown request body %s", op.Method, path, ref)
					}
				}
				op.BodyRequired, _ = rb["required"].(bool)
				content, _ := rb["content"].(map[string]any)
				if j, ok := content["application/json"].(map[string]any); ok {
					op.Body, _ = j["schema"].(map[string]any)
				}
			}
			op.Answer, op.Status = answerOf(o)
			if op.ID == "" {
				return Document{}, fmt.Errorf("%s %s has no operationId", op.Method, path)
			}
			doc.Operations = append(doc.Operations, op)
		}
	}
	return doc, nil
}

func anyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// answerOf is an operation's first 2xx answer with a JSON body that names
// a schema, and its status; or its first 2xx status alone.
func answerOf(o map[string]any) (string, int) {
	responses, _ := o["responses"].(map[string]any)
	var codes []string
	for code := range responses {
		if strings.HasPrefix(code, "2") {
			codes = append(codes, code)
		}
	}
	slices.Sort(codes)
	first := 0
	for _, code := range codes {
		status, _ := strconv.Atoi(code)
		if first == 0 {
			first = status
		}
		r, _ := responses[code].(map[string]any)
		content, _ := r["content"].(map[string]any)
		j, _ := content["application/json"].(map[string]any)
		s, _ := j["schema"].(map[string]any)
		if ref, ok := s["$ref"].(string); ok {
			return strings.TrimPrefix(ref, "#/components/schemas/"), status
		}
	}
	return "", first
}
