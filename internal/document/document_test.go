package document_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/document"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func problems(err error) string {
	var out []string
	for _, p := range portal.Problems(err) {
		out = append(out, fmt.Sprintf("%s %s: %s", p.Kind, p.Field, p.Message))
	}
	return strings.Join(out, "\n")
}

func TestReadsYAMLStreamsListsAndJSON(t *testing.T) {
	yamlDoc := `apiVersion: portal/v1
kind: Topic
metadata: {name: orders, labels: {team: a}}
spec:
  partitions: 3
  config: {retention.ms: 86400000}
---
items:
  - apiVersion: portal/v1
    kind: IdentityPool
    metadata: {name: ci, description: CI jobs}
    spec: {type: consumer, filter: 'claims.sub == "x"'}
  - apiVersion: portal/v1
    kind: ServiceAccount
    metadata: {name: billing}
    spec:
      type: producer
      apiKeys: [{resource: kafka}, {resource: schema-registry}]
prune: true
`
	doc, err := document.Read([]byte(yamlDoc))
	if err != nil {
		t.Fatal(problems(err))
	}
	if len(doc.Resources) != 3 || !doc.Prune {
		t.Fatalf("read %+v", doc)
	}
	topic := doc.Resources[0]
	td := portal.DeclOf[portal.TopicDecl](topic)
	if topic.Name != "orders" || *td.Partitions != 3 || td.Config["retention.ms"] != "86400000" || topic.Labels["team"] != "a" {
		t.Errorf("topic %+v %+v", topic, td)
	}
	if p := doc.Resources[1]; portal.DeclOf[portal.PoolDecl](p).Filter != `claims.sub == "x"` || p.Description != "CI jobs" {
		t.Errorf("pool %+v", p)
	}
	if a := portal.DeclOf[portal.AccountDecl](doc.Resources[2]); a == nil || len(a.APIKeys) != 2 || a.APIKeys[1].Resource != "schema-registry" {
		t.Errorf("account %+v", a)
	}

	// What JSON writes, JSON and YAML read back the same.
	out, err := document.JSON(doc, false)
	if err != nil {
		t.Fatal(err)
	}
	back, err := document.Read(out)
	if err != nil {
		t.Fatal(problems(err))
	}
	y, err := document.YAML(doc)
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := document.Read(y)
	if err != nil {
		t.Fatal(problems(err))
	}
	fromYAML.Prune = true // a YAML stream has no place for prune
	if !reflect.DeepEqual(back, doc) || !reflect.DeepEqual(fromYAML, doc) {
		t.Errorf("round trip:\n%+v\n%+v\n%+v", doc, back, fromYAML)
	}
}

func TestReadNamesEveryProblem(t *testing.T) {
	cases := map[string]string{
		"kind: Topic\nmetadata: {}\nspec: {partitions: x, config: [a], colour: red}\nextra: 1\n": "INVALID_PARAMETER items[0].apiVersion: line 1: apiVersion is required: portal/v1\n" +
			"INVALID_PARAMETER items[0].metadata.name: line 1: metadata.name is required\n" +
			"INVALID_PARAMETER items[0].spec.partitions: line 3: partitions must be a whole number\n" +
			"INVALID_PARAMETER items[0].spec.config: line 3: config must be an object of strings\n" +
			"INVALID_PARAMETER items[0].spec.colour: line 3: colour is not a field here; the fields are partitions, config, description, owner, tags, classification\n" +
			"INVALID_PARAMETER items[0].extra: line 4: extra is not a field of a resource (apiVersion, kind, metadata, spec)",
		`{"items": [{"apiVersion": "portal/v1", "kind": "Queue", "metadata": {"name": "q"}, "spec": {}}]}`: "INVALID_PARAMETER items[0].kind: kind must be one of Topic, Schema, Connector, ServiceAccount, IdentityPool, Grant, AlertRule, Policy, not \"Queue\"",
		`{"items": {}}`: "INVALID_PARAMETER items: items must be a list of resources",
		"apiVersion: portal/v1\nkind: ServiceAccount\nmetadata: {name: a}\nspec: {type: consumer, apiKeys: [{resourse: kafka}]}\n": "INVALID_PARAMETER items[0].spec.apiKeys[0].resourse: line 4: resourse is not a field here; the fields are resource",
		"- a\n- b\n": "MALFORMED_BODY : line 1: a document must be a resource or {items: [...]}, not a list",
		"{":          "MALFORMED_BODY : the document is not valid JSON: unexpected EOF",
	}
	for in, want := range cases {
		_, err := document.Read([]byte(in))
		if got := problems(err); got != want {
			t.Errorf("%q:\n%s\nwant\n%s", in, got, want)
		}
	}
}

func TestReadFileResolvesWhatOnlyAClientCan(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "order.avsc"), []byte(`{"type":"string"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := `apiVersion: portal/v1
kind: Schema
metadata: {name: orders-value}
spec: {schemaFile: order.avsc}
---
apiVersion: portal/v1
kind: Connector
metadata: {name: sink}
spec:
  class: HttpSink
  secrets:
    http.password: {fromEnv: SINK_PASSWORD}
    kafka.api.secret: {fromEnv: UNSET_VARIABLE}
`
	path := filepath.Join(dir, "unit.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"SINK_PASSWORD": "hunter2"}
	got, missing, err := document.ReadFile(path, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(problems(err))
	}
	if sd := portal.DeclOf[portal.SchemaDecl](got.Resources[0]); sd.Schema != `{"type":"string"}` || sd.SchemaFile != "" {
		t.Errorf("schema file not read: %+v", sd)
	}
	if portal.DeclOf[portal.ConnectorDecl](got.Resources[1]).Secrets["http.password"].Value != "hunter2" || fmt.Sprint(missing) != "[UNSET_VARIABLE]" {
		t.Errorf("secrets %+v, missing %v", portal.DeclOf[portal.ConnectorDecl](got.Resources[1]).Secrets, missing)
	}
	// The value travels to the portal, never into a file.
	sent, _ := document.JSON(got, true)
	written, _ := document.YAML(got)
	if !bytes.Contains(sent, []byte("hunter2")) || bytes.Contains(written, []byte("hunter2")) {
		t.Errorf("sent %s\nwritten %s", sent, written)
	}

	leaky := strings.Replace(doc, "{fromEnv: SINK_PASSWORD}", "{fromEnv: SINK_PASSWORD, value: hunter2}", 1)
	if err := os.WriteFile(path, []byte(leaky), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := document.ReadFile(path, func(string) (string, bool) { return "", false }); !strings.Contains(problems(err), "items[1].spec.secrets.http.password.value: Connector sink: secrets are never written in files") {
		t.Errorf("a secret value in a file: %v", problems(err))
	}
}

// compileSchema compiles one published JSON Schema with its references.
func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	for _, n := range document.JSONSchemaNames() {
		b, _ := document.JSONSchema(n)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(n, err)
		}
		if err := c.AddResource("https://portal.test/api-docs/schemas/"+n, doc); err != nil {
			t.Fatal(n, err)
		}
	}
	s, err := c.Compile("https://portal.test/api-docs/schemas/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// yamlDocuments reads every document of a YAML stream as JSON values.
func yamlDocuments(t *testing.T, path string) []any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []any
	dec := yaml.NewDecoder(f)
	for {
		var v any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		var j any
		_ = json.Unmarshal(b, &j)
		out = append(out, j)
	}
}

func TestPublishedSchemasValidateTheExamples(t *testing.T) {
	resource := compileSchema(t, "resource.json")
	for _, file := range []string{"scada-dev.yaml", "scada-identities.yaml"} {
		path := filepath.Join("..", "..", "examples", "gitops", file)
		for i, v := range yamlDocuments(t, path) {
			if err := resource.Validate(v); err != nil {
				t.Errorf("%s document %d: %v", file, i, err)
			}
		}
		b, _ := os.ReadFile(path)
		if _, err := document.Read(b); err != nil {
			t.Errorf("%s: %s", file, problems(err))
		}
	}
	bad := map[string]any{"apiVersion": "portal/v1", "kind": "Topic", "metadata": map[string]any{"name": "t"},
		"spec": map[string]any{"partitions": 0, "colour": "red"}}
	if err := resource.Validate(bad); err == nil {
		t.Error("the schema accepts 0 partitions and an unknown field")
	}
	document := compileSchema(t, "document.json")
	if err := document.Validate(map[string]any{"items": []any{bad}}); err == nil {
		t.Error("the document schema accepts a bad item")
	}
}

func TestReadFilesJoinsFilesAndDirectories(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	topic := func(name string) string {
		return "apiVersion: portal/v1\nkind: Topic\nmetadata: {name: " + name + "}\nspec: {partitions: 1}\n"
	}
	write("b.yaml", topic("b"))
	write("a.yml", topic("a"))
	write("c.json", `{"items": [{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "c"}, "spec": {}}], "prune": true}`)
	write("notes.txt", "not a document")
	doc, _, err := document.ReadFiles([]string{dir}, func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(problems(err))
	}
	var names []string
	for _, r := range doc.Resources {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "a,b,c" || !doc.Prune {
		t.Errorf("read %v prune %v", names, doc.Prune)
	}
	write("bad.yaml", "apiVersion: portal/v1\nkind: Topic\nmetadata: {}\nspec: {}\n")
	_, _, err = document.ReadFiles([]string{dir}, func(string) (string, bool) { return "", false })
	if got := problems(err); !strings.Contains(got, filepath.Join(dir, "bad.yaml")+": line 1: metadata.name is required") {
		t.Errorf("a problem does not name its file: %s", got)
	}
	if _, _, err := document.ReadFiles([]string{t.TempDir()}, nil); err == nil || !strings.Contains(err.Error(), "holds no .yaml") {
		t.Errorf("an empty directory: %v", err)
	}
}
