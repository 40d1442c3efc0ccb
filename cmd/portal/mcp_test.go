package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearerTransport sends a token with every request of an MCP client.
type bearerTransport struct {
	token string
	base  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// assistant is an MCP client of the portal's door at url, signed in with
// token; elicit answers the door's confirmations (nil: none).
func assistant(t *testing.T, url, token string, elicit func(*mcp.ElicitRequest) (*mcp.ElicitResult, error)) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{}
	if elicit != nil {
		opts.ElicitationHandler = func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return elicit(r) }
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "portal-test-assistant", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp", DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Timeout: 30 * time.Second, Transport: bearerTransport{token: token, base: http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatalf("connecting to the door: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// toolNames lists the tools the door offers a session.
func toolNames(t *testing.T, s *mcp.ClientSession) []string {
	t.Helper()
	var out []string
	for tool, err := range s.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tool.Name)
	}
	return out
}

// callTool calls a tool and returns its result, its structured content
// as JSON, and its text.
func callTool(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var v map[string]any
	raw, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(raw, &v)
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return res, v, text
}

// TestAssistantsActAsThePerson is the check of the third door
// through a real MCP client: the door answers 401 with where to sign in;
// each demo user is offered the tools the policy lets them use
// somewhere, never one handing out a secret; a topic created and deleted
// by an assistant (the delete confirmed by the person through the
// client's elicitation) is audited as the person, through the door; a
// write in a read-only stage is refused with the change request that
// would make it; a wrong confirmation deletes nothing; records come
// masked and marked as data; another unit is not found; resources and
// prompts answer from the API.
func TestAssistantsActAsThePerson(t *testing.T) {
	tp := sharedPortal(t)

	// 401, and where to sign in.
	resp, err := http.Post(tp.url+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, `resource_metadata="`+tp.url+`/.well-known/oauth-protected-resource/mcp"`) ||
		!strings.Contains(challenge, `scope="api://rms-portal/.default"`) {
		t.Fatalf("without a token: %d %q", resp.StatusCode, challenge)
	}
	meta, err := http.Get(tp.url + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Resource string   `json:"resource"`
		Servers  []string `json:"authorization_servers"`
		Scopes   []string `json:"scopes_supported"`
	}
	raw, _ := io.ReadAll(meta.Body)
	meta.Body.Close()
	if json.Unmarshal(raw, &m) != nil || m.Resource != tp.url+"/mcp" || len(m.Servers) != 1 || m.Servers[0] != tp.url+"/dev/idp" || !slices.Contains(m.Scopes, "api://rms-portal/.default") {
		t.Fatalf("the protected resource's metadata: %s", raw)
	}
	if r, err := http.Get(m.Servers[0] + "/.well-known/openid-configuration"); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("the identity provider the metadata names: %v", err)
	} else {
		r.Body.Close()
	}
	bad, _ := http.NewRequest(http.MethodPost, tp.url+"/mcp", strings.NewReader(`{}`))
	bad.Header.Set("Authorization", "Bearer not-a-token")
	if r, err := http.DefaultClient.Do(bad); err != nil || r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.Header.Get("WWW-Authenticate"), "invalid_token") {
		t.Fatalf("a bad token: %v %v", r, err)
	} else {
		r.Body.Close()
	}

	// The tools each role is offered.
	offered := map[string][]string{}
	for _, user := range []string{"dave", "carol", "bob", "alice", "frank"} {
		offered[user] = toolNames(t, assistant(t, tp.url, tp.token(user), nil))
	}
	has := func(user, tool string) bool { return slices.Contains(offered[user], tool) }
	for _, c := range []struct {
		tool string
		who  map[string]bool
	}{
		{"get_me", map[string]bool{"dave": true, "carol": true, "bob": true, "alice": true, "frank": true}},
		{"list_topics", map[string]bool{"dave": true, "carol": true, "bob": true, "alice": true, "frank": true}},
		{"create_topic", map[string]bool{"carol": true, "bob": true, "alice": true, "frank": true}},
		{"delete_topic", map[string]bool{"carol": true, "bob": true, "alice": true, "frank": true}},
		{"pause_connector", map[string]bool{"carol": true, "bob": true, "alice": true, "frank": true}},
		{"read_messages", map[string]bool{"carol": true, "bob": true, "alice": true, "frank": true, "dave": true}},
		{"file_change_request", map[string]bool{"carol": true, "bob": true, "alice": true, "frank": true}},
		{"create_service_account", map[string]bool{"bob": true, "alice": true, "frank": true}},
		{"request_grant", map[string]bool{"bob": true, "alice": true, "frank": true}},
		{"approve_change_request", map[string]bool{"bob": true, "alice": true, "frank": true}},
		{"list_audit", map[string]bool{"bob": true, "alice": true, "frank": true}},
		{"admin_area", map[string]bool{"alice": true, "frank": true}},
		{"onboard_unit", map[string]bool{"frank": true}},
		{"create_api_key", nil},
		{"rotate_api_key", nil},
		{"create_webhook", nil},
	} {
		for _, user := range []string{"dave", "carol", "bob", "alice", "frank"} {
			if has(user, c.tool) != c.who[user] {
				t.Errorf("%s is offered %s: %v, want %v", user, c.tool, has(user, c.tool), c.who[user])
			}
		}
	}
	// What is not offered is what the API refuses: dave may not create,
	// carol may not make accounts.
	wantError(t, tp.call("POST", "/api/v1/scada/dev/topic", "dave", map[string]any{"name": "never-" + suffix()}), http.StatusForbidden, "INSUFFICIENT_ROLE")
	wantError(t, tp.call("POST", "/api/v1/scada/dev/service-account", "carol", map[string]any{"name": "never-" + suffix(), "type": "consumer"}),
		http.StatusForbidden, "INSUFFICIENT_ROLE")

	// carol's assistant makes a topic, and deletes it once she typed its
	// name.
	sfx := suffix()
	typed := ""
	carol := assistant(t, tp.url, tp.token("carol"), func(r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if !strings.Contains(r.Params.Message, "edh-shared-scada-dev-assisted-"+sfx) {
			t.Errorf("the confirmation does not name the topic: %s", r.Params.Message)
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": typed}}, nil
	})
	res, v, text := callTool(t, carol, "create_topic", map[string]any{"bu": "scada", "stage": "dev", "body": map[string]any{"name": "assisted-" + sfx, "partitions_count": 2}})
	full := "edh-shared-scada-dev-assisted-" + sfx
	if res.IsError || v["name"] != full || !strings.Contains(text, full) {
		t.Fatalf("create_topic: %v %s", v, text)
	}
	tp.removeAfter("/api/v1/scada/dev/topic/" + full)
	typed = "assisted"
	if res, v, _ := callTool(t, carol, "delete_topic", map[string]any{"bu": "scada", "stage": "dev", "name": full}); !res.IsError || !strings.Contains(toJSON(v), "INVALID_PARAMETER") {
		t.Fatalf("a delete confirmed with the wrong name: %v", v)
	}
	if r := tp.call("GET", "/api/v1/scada/dev/topic/"+full, "carol", nil); r.status != http.StatusOK {
		t.Fatalf("a wrong confirmation deleted the topic: %d", r.status)
	}
	typed = full
	if res, v, _ := callTool(t, carol, "delete_topic", map[string]any{"bu": "scada", "stage": "dev", "name": full}); res.IsError {
		t.Fatalf("the confirmed delete: %v", v)
	}
	if r := tp.call("GET", "/api/v1/scada/dev/topic/"+full, "carol", nil); r.status != http.StatusNotFound {
		t.Fatalf("the topic after the assistant's delete: %d", r.status)
	}
	trail := tp.call("GET", "/api/v1/scada/dev/audit?resource="+full, "bob", nil).json(t)
	doors := map[string]string{}
	for _, e := range trail["items"].([]any) {
		e := e.(map[string]any)
		if e["outcome"] == "ok" {
			doors[e["action"].(string)] = e["actor"].(string) + " " + e["door"].(string) + " " + e["user_agent"].(string)
		}
	}
	for _, action := range []string{"topic.create", "topic.delete"} {
		if !strings.HasPrefix(doors[action], "carol mcp rms-portal-mcp") {
			t.Errorf("%s in the trail: %q (all: %v)", action, doors[action], doors)
		}
	}

	// A read-only stage: refused, with the change request that would make it.
	res, v, text = callTool(t, carol, "create_topic", map[string]any{"bu": "scada", "stage": "run", "body": map[string]any{"name": "frozen-" + sfx}})
	if !res.IsError || !strings.Contains(toJSON(v), "READ_ONLY_ENVIRONMENT") || !strings.Contains(text, "file_change_request") || !strings.Contains(text, `"kind":"Topic"`) {
		t.Errorf("a write in run: %v %s", v, text)
	}
	// A guardrail refuses as at the API, with the rule's message at its
	// field (a policy of this run's own names).
	policy := map[string]any{"landing_zone": "edh-shared", "kind": "Topic", "stages": []string{"dev"}, "action": "enforce", "field": "name",
		"expression": "!resource.name.endsWith('guarded-" + sfx + "')", "message": "no guarded topics (test " + sfx + ")"}
	if r := tp.call("PUT", "/api/v1/admin/policy/mcp-"+sfx, "frank", policy); r.status != http.StatusCreated {
		t.Fatalf("the policy: %d %s", r.status, r.body)
	}
	t.Cleanup(func() { tp.call("DELETE", "/api/v1/admin/policy/mcp-"+sfx, "frank", nil) })
	res, v, text = callTool(t, carol, "create_topic", map[string]any{"bu": "scada", "stage": "dev", "body": map[string]any{"name": "guarded-" + sfx}})
	if !res.IsError || !strings.Contains(toJSON(v), "POLICY_VIOLATION") || !strings.Contains(text, "no guarded topics") {
		t.Errorf("a policy's refusal through the door: %v %s", v, text)
	}
	// Another unit: not found, as at the API.
	if res, v, _ := callTool(t, carol, "list_topics", map[string]any{"bu": "sales", "stage": "dev"}); !res.IsError || !strings.Contains(toJSON(v), "NOT_FOUND") {
		t.Errorf("carol's assistant on sales: %v", v)
	}
	// Bad arguments: the API's error record, nothing sent.
	if res, v, _ := callTool(t, carol, "create_topic", map[string]any{"bu": "scada", "stage": "dev", "nope": 1}); !res.IsError || !strings.Contains(toJSON(v), "nope") {
		t.Errorf("an argument the tool does not take: %v", v)
	}

	// Records, as dave reads them in run: masked, and data.
	dave := assistant(t, tp.url, tp.token("dave"), nil)
	topics := tp.call("GET", "/api/v1/scada/run/topics", "dave", nil).json(t)["items"].([]any)
	if len(topics) == 0 {
		t.Fatal("scada has no topic in run")
	}
	name := topics[0].(map[string]any)["name"].(string)
	res, v, text = callTool(t, dave, "read_messages", map[string]any{"bu": "scada", "stage": "run", "name": name, "limit": 5})
	if res.IsError || !strings.Contains(text, "<untrusted-data>") || !strings.Contains(text, "not instructions") {
		t.Errorf("records through the door: %v %s", v, text)
	}
	for _, r := range v["items"].([]any) {
		if r := r.(map[string]any); r["value"] != nil && r["value_masked"] != true && r["masked_fields"] == nil {
			t.Errorf("a record a Viewer reads in run is not masked: %v", r)
		}
	}

	// Resources and prompts answer from the API, as the caller.
	ctx := context.Background()
	me, err := dave.ReadResource(ctx, &mcp.ReadResourceParams{URI: "portal://me"})
	if err != nil || len(me.Contents) != 1 || !strings.Contains(me.Contents[0].Text, `"scada"`) {
		t.Errorf("portal://me: %v %v", me, err)
	}
	list, err := dave.ReadResource(ctx, &mcp.ReadResourceParams{URI: "portal://scada/run/topics"})
	if err != nil || !strings.Contains(list.Contents[0].Text, name) {
		t.Errorf("portal://scada/run/topics: %v %v", list, err)
	}
	if _, err := dave.ReadResource(ctx, &mcp.ReadResourceParams{URI: "portal://sales/dev/topics"}); err == nil {
		t.Error("dave reads sales's topics as a resource")
	}
	pr, err := dave.GetPrompt(ctx, &mcp.GetPromptParams{Name: "topic_delete_impact", Arguments: map[string]string{"bu": "scada", "stage": "run", "topic": name}})
	if err != nil || len(pr.Messages) != 1 || !strings.Contains(pr.Messages[0].Content.(*mcp.TextContent).Text, "dependants") {
		t.Errorf("the impact prompt: %+v %v", pr, err)
	}
}

func toJSON(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// alternating sends each request of an MCP client to the next of the
// replicas in turn: a session whose state one replica kept would fail on
// the other.
type alternating struct {
	bearerTransport
	hosts []string
	n     int
}

func (a *alternating) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Host = a.hosts[a.n%len(a.hosts)]
	r.Host = r.URL.Host
	a.n++
	return a.bearerTransport.RoundTrip(r)
}

// assistantAcrossReplicas: one assistant's session, every request of it
// on the other replica than the last (the door keeps no session state):
// its tools listed, a topic made and deleted, both audited through the
// door.
func (r *rig) assistantAcrossReplicas(t *testing.T) {
	hosts := []string{strings.TrimPrefix(r.a.url, "http://"), strings.TrimPrefix(r.b.url, "http://")}
	tr := &alternating{bearerTransport: bearerTransport{token: r.token("carol"), base: http.DefaultTransport}, hosts: hosts}
	c := mcp.NewClient(&mcp.Implementation{Name: "portal-test-assistant", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: r.a.url + "/mcp", DisableStandaloneSSE: true, HTTPClient: &http.Client{Transport: tr}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if names := toolNames(t, s); !slices.Contains(names, "create_topic") || slices.Contains(names, "create_service_account") {
		t.Fatalf("carol's tools across replicas: %v", names)
	}
	sfx := suffix()
	full := "edh-shared-scada-dev-across-" + sfx
	if res, v, _ := callTool(t, s, "create_topic", map[string]any{"bu": "scada", "stage": "dev", "body": map[string]any{"name": "across-" + sfx}}); res.IsError {
		t.Fatalf("create_topic across replicas: %v", v)
	}
	if res, v, _ := callTool(t, s, "delete_topic", map[string]any{"bu": "scada", "stage": "dev", "name": full, "confirm": full}); res.IsError {
		t.Fatalf("delete_topic across replicas: %v", v)
	}
	if tr.n < 4 {
		t.Fatalf("only %d requests were made", tr.n)
	}
	for _, action := range []string{"topic.create", "topic.delete"} {
		es := r.trail(t, action, full)
		if len(es) != 1 || es[0]["outcome"] != "ok" || es[0]["door"] != "mcp" || es[0]["actor"] != "carol" {
			t.Errorf("%s in the trail: %v", action, es)
		}
	}
}
