package main

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// postFile submits the bulk form with an uploaded CSV file.
func (w *webClient) postFile(path, field, filename, content string, header ...string) pageResponse {
	w.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("_csrf", w.csrf)
	fw, _ := mw.CreateFormFile(field, filename)
	_, _ = fw.Write([]byte(content))
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, w.base+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return w.do(req)
}

var rowStatus = regexp.MustCompile(`data-row="(\d+)" data-status="(\d+)"`)

// statuses reads the bulk outcome table as "row:status" pairs.
func statuses(body string) string {
	var out []string
	for _, m := range rowStatus.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1]+":"+m[2])
	}
	return strings.Join(out, " ")
}

// TestServiceAccountPages: bob creates accounts from a pasted list and a
// CSV file and reads each row's outcome; a list with a bad row creates
// nothing; carol sees no write controls and is refused.
func TestServiceAccountPages(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	bob := tp.webClient(t)
	bob.signIn("bob")
	list := bob.get("/scada/dev/service-accounts")
	for _, want := range []string{`data-account="sa-edh-shared-scada-dev-usr-demo-app-producer"`, `id="bulk-button"`, `id="create-button"`} {
		if !strings.Contains(list.body, want) {
			t.Errorf("the list lacks %s", want)
		}
	}

	bob.get("/scada/dev/service-accounts/bulk")
	bad := bob.post("/scada/dev/service-accounts/bulk", url.Values{"accounts": {"name,type\nok-one,consumer\n,producer\nok-two,writer"}})
	if bad.status != http.StatusUnprocessableEntity || !strings.Contains(bad.body, "Nothing was created") ||
		!strings.Contains(bad.body, `data-field="line 3 · name"`) || !strings.Contains(bad.body, `data-field="line 4 · type"`) {
		t.Errorf("bad list: %d %.600s", bad.status, bad.body)
	}
	if !strings.Contains(bad.body, "ok-two,writer") {
		t.Error("the refused list was not kept in the form")
	}

	paste := "feed-writer,producer,Writes the feed\nfeed-reader,consumer\ndemo-app,producer\nflink-join,stream-processor\ngrafana,metrics"
	// Without JavaScript the form posts, the browser is sent to the job's
	// page, and reloads it until the job is done.
	done := bob.post("/scada/dev/service-accounts/bulk", url.Values{"accounts": {paste}})
	if done.status != 200 || !strings.Contains(done.url, "/scada/dev/service-accounts/bulk/") {
		t.Fatalf("bulk: %d %s", done.status, done.url)
	}
	done = bob.untilDone(done)
	if got := statuses(done.body); got != "0:201 1:201 2:409 3:201 4:201" {
		t.Errorf("outcome %s", got)
	}
	if !strings.Contains(done.body, "sa-edh-shared-scada-dev-usr-feed-writer-producer") || !strings.Contains(done.body, "already exists") {
		t.Error("the outcome does not name the accounts")
	}

	csv := bob.untilDone(bob.postFile("/scada/dev/service-accounts/bulk", "file", "accounts.csv", "name,type,description\nfrom-csv,consumer,\"Reads, carefully\"\n"))
	if got := statuses(csv.body); csv.status != 200 || got != "0:201" {
		t.Errorf("csv: %d %s", csv.status, got)
	}
	acct := tp.call("GET", "/api/v1/scada/dev/service-accounts?search=from-csv", "bob", nil).json(t)["items"].([]any)
	if len(acct) != 1 || acct[0].(map[string]any)["description"] != "Reads, carefully" {
		t.Errorf("the CSV account: %v", acct)
	}

	detail := bob.get("/scada/dev/service-account/" + acct[0].(map[string]any)["id"].(string))
	if n := strings.Count(detail.body, `data-role="DeveloperRead"`); detail.status != 200 || n != 3 {
		t.Errorf("detail: %d, %d DeveloperRead bindings", detail.status, n)
	}

	bob.get("/scada/dev/service-accounts/new")
	one := bob.post("/scada/dev/service-accounts", url.Values{"name": {"Single One"}, "type": {"metrics"}})
	if one.status != 200 || !strings.Contains(one.body, "sa-edh-shared-scada-dev-usr-single-one-metrics") || !strings.Contains(one.body, `data-role="MetricsViewer"`) {
		t.Errorf("create: %d %s", one.status, one.url)
	}

	carol := tp.webClient(t)
	carol.signIn("carol")
	list = carol.get("/scada/dev/service-accounts")
	if strings.Contains(list.body, `id="bulk-button"`) || strings.Contains(list.body, `id="create-button"`) || !strings.Contains(list.body, "feed-writer") {
		t.Error("a developer sees write controls, or not the accounts")
	}
	refused := carol.post("/scada/dev/service-accounts/bulk", url.Values{"accounts": {"by-carol,consumer"}})
	if refused.status != http.StatusForbidden || !strings.Contains(refused.body, "admin") {
		t.Errorf("developer bulk: %d", refused.status)
	}
}

// TestBulkProgress: with htmx, a slow batch answers with its progress and
// is polled to the end; the poll belongs to whoever started it.
func TestBulkProgress(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	tp.app.dev.platform.Org.SetLatency(60 * time.Millisecond)
	bob := tp.webClient(t)
	bob.signIn("bob")
	bob.get("/scada/dev/service-accounts/bulk")
	lines := []string{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		lines = append(lines, "slow-"+n+",producer")
	}
	hx := []string{"HX-Request", "true", "HX-Target", "bulk-form"}
	first := bob.post("/scada/dev/service-accounts/bulk", url.Values{"accounts": {strings.Join(lines, "\n")}}, hx...)
	poll := regexp.MustCompile(`hx-get="(/scada/dev/service-accounts/bulk/[A-Za-z0-9]+)"`).FindStringSubmatch(first.body)
	if first.status != 200 || poll == nil || !strings.Contains(first.body, "<progress") || !strings.Contains(first.body, `data-status="0"`) {
		t.Fatalf("first answer: %d %.800s", first.status, first.body)
	}

	carol := tp.webClient(t)
	carol.signIn("carol")
	if r := carol.get(poll[1], hx...); r.status != http.StatusNotFound {
		t.Errorf("someone else's progress: %d", r.status)
	}

	deadline := time.Now().Add(20 * time.Second)
	var last pageResponse
	for {
		last = bob.get(poll[1], hx...)
		if last.status != 200 {
			t.Fatalf("poll: %d", last.status)
		}
		if !strings.Contains(last.body, "<progress") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the batch did not finish")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got := statuses(last.body); got != "0:201 1:201 2:201 3:201 4:201 5:201" {
		t.Errorf("final %s", got)
	}
	if !strings.Contains(last.header.Get("HX-Trigger"), "6 of 6 service accounts created") {
		t.Errorf("toast %q", last.header.Get("HX-Trigger"))
	}
}

// TestIdentityPoolPages: bob creates a pool through the form, is refused
// a filter that does not parse, tests and saves a filter; carol may test
// but not save.
func TestIdentityPoolPages(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	bob := tp.webClient(t)
	bob.signIn("bob")
	list := bob.get("/scada/dev/identity-pools")
	if !strings.Contains(list.body, `data-pool="edh-shared-scada-dev-ci-consumer"`) || !strings.Contains(list.body, `id="create-button"`) {
		t.Error("the list lacks the seeded pool or the create button")
	}
	bob.get("/scada/dev/identity-pools/new")
	bad := bob.post("/scada/dev/identity-pools", url.Values{"name": {"deployers"}, "type": {"producer"}, "filter": {`claims.aud == "x`}})
	if bad.status != http.StatusUnprocessableEntity || !strings.Contains(bad.body, `data-field="filter"`) || !strings.Contains(bad.body, "not valid CEL") {
		t.Errorf("bad filter: %d", bad.status)
	}
	made := bob.post("/scada/dev/identity-pools", url.Values{"name": {"deployers"}, "type": {"producer"},
		"filter": {`claims.aud == "confluent"`}, "description": {"Deploy jobs"}})
	m := regexp.MustCompile(`/scada/dev/identity-pool/(pool-[a-zA-Z0-9]+)$`).FindStringSubmatch(made.url)
	if made.status != 200 || m == nil || !strings.Contains(made.body, "edh-shared-scada-dev-deployers-producer") {
		t.Fatalf("create: %d %s", made.status, made.url)
	}
	page := "/scada/dev/identity-pool/" + m[1]
	if n := strings.Count(made.body, `data-role=`); n != 7 {
		t.Errorf("the pool page shows %d role bindings", n)
	}

	test := bob.post(page+"/filter", url.Values{"op": {"test"}, "filter": {`claims.aud == "confluent" && "ops" in claims.groups`},
		"claims": {`{"sub":"x","aud":"confluent","groups":["ops"]}`}})
	if test.status != 200 || !strings.Contains(test.body, `data-matches="true"`) {
		t.Errorf("test: %d", test.status)
	}
	noJSON := bob.post(page+"/filter", url.Values{"op": {"test"}, "filter": {`claims.aud == "confluent"`}, "claims": {`{"sub":`}})
	if noJSON.status != http.StatusUnprocessableEntity || !strings.Contains(noJSON.body, "not a JSON object") {
		t.Errorf("bad claims: %d", noJSON.status)
	}
	refused := bob.post(page+"/filter", url.Values{"op": {"save"}, "filter": {`claims.aud = "x"`}})
	if refused.status != http.StatusUnprocessableEntity || !strings.Contains(refused.body, "not valid CEL") {
		t.Errorf("save bad filter: %d", refused.status)
	}
	saved := bob.post(page+"/filter", url.Values{"op": {"save"}, "filter": {`claims.aud == "deploy"`}})
	if saved.status != 200 || !strings.Contains(saved.body, "saved") {
		t.Errorf("save: %d", saved.status)
	}
	if f := tp.call("GET", "/api/v1"+page, "bob", nil).json(t)["filter"]; f != `claims.aud == "deploy"` {
		t.Errorf("stored filter %v", f)
	}

	carol := tp.webClient(t)
	carol.signIn("carol")
	view := carol.get(page)
	if !strings.Contains(view.body, `id="test-filter"`) || strings.Contains(view.body, `id="save-filter"`) || strings.Contains(view.body, `id="delete-button"`) {
		t.Error("a developer sees the wrong controls")
	}
	if r := carol.post(page+"/filter", url.Values{"op": {"save"}, "filter": {`true`}}); r.status != http.StatusForbidden {
		t.Errorf("developer save: %d", r.status)
	}

	bob.get(page + "/delete")
	gone := bob.post(page+"/delete", url.Values{"confirm": {"deployers"}})
	if gone.status != 200 || !strings.HasSuffix(gone.url, "/scada/dev/identity-pools") || strings.Contains(gone.body, `data-pool="edh-shared-scada-dev-deployers-producer"`) {
		t.Errorf("delete: %d %s", gone.status, gone.url)
	}
}
