package main

import (
	"crypto/rand"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestMaskingByTags: in run (masking: tags in dev), a field an Avro or a
// JSON schema tags PII reads masked for a Viewer (dave), in the API, the
// download and the records page, and whole for an Admin (bob); filters
// see the masked value; both reads are in the trail with what was
// masked.
func TestMaskingByTags(t *testing.T) {
	tp := sharedPortal(t)
	base := "/api/v1/scada/run"
	sfx := strings.ToLower(rand.Text()[:8])
	avroTopic, jsonTopic := "masked-avro-"+sfx, "masked-json-"+sfx
	schemas := map[string][2]string{
		avroTopic: {"AVRO", `{"type":"record","name":"Customer","fields":[{"name":"id","type":"string"},
			{"name":"email","type":"string","confluent:tags":["PII"]},
			{"name":"address","type":{"type":"record","name":"Address","fields":[{"name":"street","type":"string","confluent:tags":["PII"]},{"name":"city","type":"string"}]}}]}`},
		jsonTopic: {"JSON", `{"type":"object","properties":{"id":{"type":"string"},"email":{"type":"string","confluent:tags":["PII"]},
			"phones":{"type":"array","items":{"type":"string","confluent:tags":["PII"]}}}}`},
	}
	values := map[string]string{
		avroTopic: `{"id":"c-1","email":"ada.lovelace@example.com","address":{"street":"Bahnhofstrasse 1","city":"Zurich"}}`,
		jsonTopic: `{"id":"c-2","email":"grace.hopper@example.com","phones":["+41 44 555 01 01"]}`,
	}
	for topic, s := range schemas {
		if r := tp.call("POST", base+"/topic", "bob", map[string]any{"name": topic}); r.status != http.StatusCreated {
			t.Fatalf("topic: %d %s", r.status, r.body)
		}
		tp.removeAfter(base + "/topic/edh-shared-scada-run-" + topic)
		if r := tp.call("POST", base+"/schema", "bob", map[string]any{"topic": topic, "subject_type": "value", "schema_type": s[0], "schema": s[1]}); r.status != http.StatusCreated {
			t.Fatalf("schema: %d %s", r.status, r.body)
		}
		tp.removeAfter(base + "/schema/" + topic + "-value/1?permanent=false")
		if r := tp.call("POST", base+"/topic/"+topic+"/records", "bob", map[string]any{"value_format": "schema",
			"records": []any{map[string]any{"key": "k", "value": json.RawMessage(values[topic])}}}); r.status != http.StatusOK {
			t.Fatalf("produce: %d %s", r.status, r.body)
		}
	}
	secrets := []string{"ada.lovelace", "Bahnhofstrasse", "grace.hopper", "555"}

	for topic, wantMasked := range map[string]string{avroTopic: "address.street,email", jsonTopic: "email,phones[]"} {
		viewer := items(t, tp.call("GET", base+"/topic/"+topic+"/messages", "dave", nil))
		if len(viewer) != 1 {
			t.Fatalf("%s: the Viewer read %d records", topic, len(viewer))
		}
		v := viewer[0]["value"].(string)
		if got := joinAny(viewer[0]["masked_fields"]); got != wantMasked {
			t.Errorf("%s: masked_fields %q, want %q", topic, got, wantMasked)
		}
		for _, s := range secrets {
			if strings.Contains(v, s) {
				t.Errorf("%s: the Viewer sees %q: %s", topic, s, v)
			}
		}
		if !strings.Contains(v, `"********************************"`) || !strings.Contains(v, `"c-`) {
			t.Errorf("%s: the masked value keeps neither its length class nor the untagged fields: %s", topic, v)
		}
		admin := items(t, tp.call("GET", base+"/topic/"+topic+"/messages", "bob", nil))
		if len(admin) != 1 || admin[0]["masked_fields"] != nil || !strings.Contains(admin[0]["value"].(string), "example.com") {
			t.Errorf("%s: the Admin's read %v", topic, admin)
		}
	}

	// A filter sees what the reader sees: no probing a masked field.
	probe := tp.call("GET", base+"/topic/"+avroTopic+"/messages?filter="+
		strings.ReplaceAll(`value.email.startsWith("ada")`, " ", "%20"), "dave", nil)
	if got := items(t, probe); len(got) != 0 {
		t.Errorf("a filter on a masked field matched: %s", probe.body)
	}
	// The download and the page mask alike.
	dweb := tp.webClient(t)
	dweb.signIn("dave")
	page := dweb.get("/scada/run/topic/edh-shared-scada-run-" + avroTopic + "/records")
	if !strings.Contains(page.body, "data-masked") || strings.Contains(page.body, "ada.lovelace") {
		t.Errorf("the records page for a Viewer:\n%s", page.body)
	}
	download := dweb.get("/scada/run/topic/edh-shared-scada-run-" + avroTopic + "/records/download")
	if download.status != http.StatusOK || !strings.Contains(download.body, `"masked_fields":["address.street","email"]`) || strings.Contains(download.body, "ada.lovelace") {
		t.Errorf("the download for a Viewer: %d %s", download.status, download.body)
	}

	trail := string(tp.call("GET", base+"/audit?action=topic.read-records&resource=edh-shared-scada-run-"+avroTopic, "bob", nil).body)
	for _, want := range []string{`masked address.street, email`, `off for role admin`} {
		if !strings.Contains(trail, want) {
			t.Errorf("the trail does not say %q:\n%s", want, trail)
		}
	}
}

// joinAny joins a JSON list of strings with commas.
func joinAny(v any) string {
	list, _ := v.([]any)
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i], _ = e.(string)
	}
	return strings.Join(parts, ",")
}
