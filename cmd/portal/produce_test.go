package main

import (
	"crypto/rand"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProduceJourney writes records through librdkafka to a kfake cluster
// and reads them back: carol registers an Avro schema for a topic of her
// run, writes a record with it through portalctl (the value serialized in
// the Schema Registry wire format) and JSON lines from a file, and the
// records read back decoded with their headers; a record its schema
// refuses writes nothing; in run only Admins may produce.
func TestProduceJourney(t *testing.T) {
	tp := sharedPortal(t)
	base := "/api/v1/scada/dev"
	name := "produce-" + strings.ToLower(rand.Text()[:8])
	if r := tp.call("POST", base+"/topic", "carol", map[string]any{"name": name, "partitions_count": 2}); r.status != http.StatusCreated {
		t.Fatalf("topic: %d %s", r.status, r.body)
	}
	full := "edh-shared-scada-dev-" + name
	t.Cleanup(func() {
		tp.call("DELETE", base+"/schema/"+name+"-value/1?permanent=false", "carol", nil)
		tp.call("DELETE", base+"/topic/"+full, "carol", nil)
	})
	schema := `{"type":"record","name":"Reading","fields":[{"name":"sensor","type":"string"},{"name":"celsius","type":"double"},{"name":"note","type":["null","string"],"default":null}]}`
	if r := tp.call("POST", base+"/schema", "carol", map[string]any{"topic": name, "subject_type": "value", "schema_type": "AVRO", "schema": schema}); r.status != http.StatusCreated {
		t.Fatalf("schema: %d %s", r.status, r.body)
	}

	dir := t.TempDir()
	carol := ctl{t: t, bin: portalctlBinary(t), env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_BU=scada", "PORTALCTL_STAGE=dev",
		"PORTALCTL_CLIENT_ID=", "PORTALCTL_CLIENT_SECRET=", "PORTALCTL_CONFIG_DIR=" + filepath.Join(dir, "carol")}}
	signInAs(t, carol, "carol")
	code, out := carol.run("produce", name, "--format", "schema", "--key", "s-1", "--value", `{"sensor": "s-1", "celsius": 21.5}`,
		"--header", "origin=journey", "--partition", "1")
	if code != 0 || !strings.Contains(out, "partition 1 offset 0") || !strings.Contains(out, "1 of 1 record(s) written") {
		t.Fatalf("portalctl produce: exit %d\n%s", code, out)
	}
	lines := filepath.Join(dir, "records.jsonl")
	if err := os.WriteFile(lines, []byte(`{"key": "s-2", "value": {"sensor": "s-2", "celsius": 19, "note": "cold"}, "partition": 0}`+"\n"+
		`{"key": "s-3", "value": {"sensor": "s-3", "celsius": -1}, "partition": 0}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out = carol.run("produce", name, "--format", "schema", "--file", lines); code != 0 || !strings.Contains(out, "2 of 2 record(s) written") {
		t.Fatalf("portalctl produce --file: exit %d\n%s", code, out)
	}
	code, out = carol.run("produce", name, "--format", "schema", "--value", `{"sensor": "s-4", "celsius": "warm"}`)
	if code != 1 || !strings.Contains(out, "records[0].value.celsius") {
		t.Errorf("a value its schema refuses: exit %d\n%s", code, out)
	}

	msgs := tp.call("GET", base+"/topic/"+name+"/messages?limit=10", "carol", nil)
	got := items(t, msgs)
	if len(got) != 3 {
		t.Fatalf("read back %d records: %s", len(got), msgs.body)
	}
	var avro, header int
	for _, m := range got {
		if m["value_encoding"] == "avro" && strings.Contains(m["value"].(string), `"celsius"`) {
			avro++
		}
		for _, h := range m["headers"].([]any) {
			if h.(map[string]any)["key"] == "origin" && h.(map[string]any)["value"] == "journey" {
				header++
			}
		}
	}
	if avro != 3 || header != 1 {
		t.Errorf("decoded %d of 3, with the header %d: %s", avro, header, msgs.body)
	}
	// The list's stats come from the cluster: three records retained.
	list := tp.call("GET", base+"/topics?stats=true&search="+name, "carol", nil)
	if it := items(t, list); len(it) != 1 || it[0]["records"] != 3.0 || it[0]["cleanup_policy"] != "delete" || it[0]["retention_ms"] == "" {
		t.Errorf("the listed topic's stats: %s", list.body)
	}
	// In run (produce: admins in dev) a Developer may not.
	wantError(t, tp.call("POST", "/api/v1/scada/run/topic/"+strings.Replace(full, "-dev-", "-run-", 1)+"/records", "carol",
		map[string]any{"records": []any{map[string]any{"value": "x"}}}), http.StatusForbidden, "INSUFFICIENT_ROLE")
}
