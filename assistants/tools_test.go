package assistants

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/edh-platform/rms-portal/api/openapi"
)

// TestEveryOperationIsAToolOrWithheld: the door's tools are the API
// document's operations, each with a need (an operation added without
// one fails here), named once; each input schema is a JSON Schema that
// compiles, holds the operation's parameters and body, and takes nothing
// else; destructive tools take a confirmation and say so; the record
// read says its records are data; what hands out a secret is no tool.
func TestEveryOperationIsAToolOrWithheld(t *testing.T) {
	doc, err := openapi.ReadDocument()
	if err != nil {
		t.Fatal(err)
	}
	tools, err := toolsOf(doc)
	if err != nil {
		t.Fatal(err)
	}
	byOp := map[string]tool{}
	names := map[string]bool{}
	for _, tl := range tools {
		if names[tl.def.Name] {
			t.Errorf("two tools are named %s", tl.def.Name)
		}
		names[tl.def.Name] = true
		byOp[tl.op.ID] = tl
	}
	for _, op := range doc.Operations {
		if _, ok := needNamed[op.Need]; !ok {
			t.Errorf("%s needs %q, which the door does not know", op.ID, op.Need)
		}
	}
	// What answers a secret is never a tool, whatever its declaration says.
	for _, id := range []string{"createAPIKey", "rotateAPIKey", "createWebhook"} {
		if !slices.ContainsFunc(doc.Operations, func(o openapi.Operation) bool { return o.ID == id && o.Need == "withheld" }) {
			t.Errorf("%s hands out a secret and is not withheld", id)
		}
	}
	c := jsonschema.NewCompiler()
	for _, op := range doc.Operations {
		tl, ok := byOp[op.ID]
		if needNamed[op.Need] == withheld {
			if ok {
				t.Errorf("%s hands out a secret and is a tool", op.ID)
			}
			continue
		}
		if !ok {
			t.Errorf("%s is no tool", op.ID)
			continue
		}
		raw, _ := json.Marshal(tl.def.InputSchema)
		var doc any
		_ = json.Unmarshal(raw, &doc)
		url := "mem://" + tl.def.Name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatalf("%s: %v", tl.def.Name, err)
		}
		if _, err := c.Compile(url); err != nil {
			t.Errorf("%s's input schema does not compile: %v", tl.def.Name, err)
		}
		schema := tl.def.InputSchema.(map[string]any)
		props := schema["properties"].(map[string]any)
		for _, p := range op.Params {
			if _, ok := props[argName(p)]; !ok {
				t.Errorf("%s lacks the parameter %s", tl.def.Name, p.Name)
			}
		}
		if _, ok := props[bodyArg]; ok != (op.Body != nil) {
			t.Errorf("%s: a body argument %v, the operation takes one %v", tl.def.Name, ok, op.Body != nil)
		}
		if schema["additionalProperties"] != false {
			t.Errorf("%s takes arguments the API does not", tl.def.Name)
		}
		_, confirms := props[confirmArg]
		if d := destructive(op); confirms != d || d != (*tl.def.Annotations.DestructiveHint) || d && !strings.Contains(tl.def.Description, "Destructive") {
			t.Errorf("%s: destructive %v, confirms %v, annotated %v", tl.def.Name, d, confirms, *tl.def.Annotations.DestructiveHint)
		}
		if tl.def.Annotations.ReadOnlyHint != (op.Method == "GET" || needNamed[op.Need] == reads) {
			t.Errorf("%s: read-only hint %v", tl.def.Name, tl.def.Annotations.ReadOnlyHint)
		}
	}
	if !strings.Contains(byOp["readMessages"].def.Description, "never instructions") {
		t.Error("the record read does not say its records are data")
	}
	if byOp["deleteTopic"].confirm != "name" || byOp["resetOffsets"].confirm != "id" {
		t.Errorf("what confirmations name: %q %q", byOp["deleteTopic"].confirm, byOp["resetOffsets"].confirm)
	}
}

// TestACallIsTheAPIsRequest: a tool call's arguments make the API's
// request (path escaped, query and header parameters, the body as
// given); an argument the operation does not take, or a missing one, is
// refused by field before anything is sent.
func TestACallIsTheAPIsRequest(t *testing.T) {
	doc, _ := openapi.ReadDocument()
	tools, _ := toolsOf(doc)
	find := func(id string) tool {
		for _, tl := range tools {
			if tl.op.ID == id {
				return tl
			}
		}
		t.Fatalf("no tool %s", id)
		return tool{}
	}
	args := callArgs{"bu": json.RawMessage(`"scada"`), "stage": json.RawMessage(`"dev"`), "name": json.RawMessage(`"a b/c"`),
		"if_match": json.RawMessage(`"\"v1\""`), "body": json.RawMessage(`{"config":{"retention.ms":null}}`)}
	method, target, header, body, err := find("patchTopic").request(args)
	if err != nil || method != "PATCH" || target != "/api/v1/scada/dev/topic/a%20b%2Fc" || header.Get("If-Match") != `"v1"` ||
		string(body) != `{"config":{"retention.ms":null}}` {
		t.Errorf("patch_topic's request: %s %s %v %s %v", method, target, header, body, err)
	}
	_, target, _, _, err = find("listTopics").request(callArgs{"bu": json.RawMessage(`"scada"`), "stage": json.RawMessage(`"dev"`),
		"page_size": json.RawMessage(`50`), "search": json.RawMessage(`"pump"`)})
	if err != nil || target != "/api/v1/scada/dev/topics?page_size=50&search=pump" {
		t.Errorf("list_topics' request: %s %v", target, err)
	}
	if _, _, _, _, err := find("listTopics").request(callArgs{"bu": json.RawMessage(`"scada"`), "stage": json.RawMessage(`"dev"`), "nope": json.RawMessage(`1`)}); err == nil ||
		!strings.Contains(err.Error(), "nope") {
		t.Errorf("an unknown argument: %v", err)
	}
	if _, _, _, _, err := find("createTopic").request(callArgs{"bu": json.RawMessage(`"scada"`)}); err == nil ||
		!strings.Contains(err.Error(), "stage") || !strings.Contains(err.Error(), "body") {
		t.Errorf("missing arguments: %v", err)
	}
}
