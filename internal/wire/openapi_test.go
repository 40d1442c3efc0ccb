package wire

import (
	"strings"
	"testing"
)

// TestEveryWireTypeIsAComponent: a type declared here is part of the
// contract, so the document names it; one left out would be written
// inline, or not at all.
func TestEveryWireTypeIsAComponent(t *testing.T) {
	named := map[string]bool{}
	for _, c := range Components() {
		named[c.Name] = true
	}
	for name := range notes() {
		if !named[name] {
			t.Errorf("a note for %s, which is not a type of the package", name)
		}
	}
	types, err := componentTypes()
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range types {
		if !named[ts.Name.Name] {
			t.Errorf("%s is not among Components()", ts.Name.Name)
		}
	}
}

type inner struct {
	A string `json:"a" doc:"The a."`
}

type sample struct {
	inner
	Ref      inner             `json:"ref"`
	Opt      *int              `json:"opt,omitempty"`
	Null     *int              `json:"null"`
	Tags     []string          `json:"tags" enum:"x,y" pattern:"^[a-z]$" oa:"maxitems=3"`
	Count    int               `json:"count" oa:"required,min=1,max=9" example:"4"`
	Labels   map[string]string `json:"labels,omitempty"`
	Skipped  string            `json:"-"`
	Untagged string
	hidden   string
}

// TestSchemasFollowTheTypes: the rules a field's Go type and tags give
// its schema.
func TestSchemasFollowTheTypes(t *testing.T) {
	out, err := SchemasYAML([]Component{{Name: "Sample", Value: sample{hidden: "not on the wire"}}, {Name: "Inner", Value: inner{}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(out)
	for _, want := range []string{
		"required: [count]",
		"a: {type: string, description: The a.}", // embedded: flattened
		"ref: {$ref: '#/components/schemas/Inner'}",
		"opt: {type: integer}",
		"\"null\": {type: integer, nullable: true}",
		"Untagged: {type: string}", // as encoding/json writes it
		"tags: {type: array, items: {type: string, pattern: '^[a-z]$', enum: [x, y]}, maxItems: 3}",
		"count: {type: integer, minimum: 1, maximum: 9, example: 4}",
		"labels: {type: object, additionalProperties: {type: string}}",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %q in\n%s", want, doc)
		}
	}
	for _, absent := range []string{"Skipped", "skipped", "hidden"} {
		if strings.Contains(doc, absent) {
			t.Errorf("%s is not on the wire but was documented:\n%s", absent, doc)
		}
	}
	if _, err := SchemasYAML([]Component{{Name: "A", Value: inner{}}, {Name: "B", Value: inner{}}}, 0); err == nil {
		t.Error("one type under two names was accepted")
	}
}

// fileSpec is a file's part, for ClosedSchema.
type fileSpec struct {
	Name   string            `json:"name" oa:"required,minlen=1" doc:"A <name>."`
	Keys   []fileKey         `json:"keys,omitempty" oa:"unique"`
	Config map[string]string `json:"config,omitempty"`
	Value  string            `json:"value,omitempty" oa:"hidden"`
}

type fileKey struct {
	Resource string `json:"resource" enum:"a,b"`
}

func TestClosedSchemaRefusesWhatTheTypeHasNot(t *testing.T) {
	n, err := ClosedSchema(&fileSpec{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := JSON(n)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(strings.Fields(string(b)), "")
	for _, want := range []string{
		`{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1,"description":"A<name>."}`, // spaces are dropped before comparing
		`"keys":{"type":"array","items":{"type":"object","properties":{"resource":{"type":"string","enum":["a","b"]}},"additionalProperties":false},"uniqueItems":true}`,
		`"config":{"type":"object","additionalProperties":{"type":"string"}}},"additionalProperties":false}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "value") {
		t.Errorf("a hidden field was published:\n%s", got)
	}
}
