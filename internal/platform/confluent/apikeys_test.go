package confluent

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	_ "github.com/confluentinc/ccloud-sdk-go-v2/apikeys/v2"

	"github.com/edh-platform/rms-portal/internal/dev/cloud"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// validating puts a check of every request and every response against
// published OpenAPI documents in front of a handler; problems are kept.
type validating struct {
	t        *testing.T
	routers  []routers.Router
	next     http.Handler
	mu       sync.Mutex
	problems []string
	checked  int
}

func newValidating(t *testing.T, module, file string, next http.Handler) (*validating, *httptest.Server) {
	t.Helper()
	return newContract(t, next, moduleDoc(t, module, file))
}

// moduleDoc is the path of a document shipped in a Go module of go.mod.
func moduleDoc(t *testing.T, module, file string) string {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		t.Fatalf("locating %s: %v", module, err)
	}
	return filepath.Join(strings.TrimSpace(string(dir)), file)
}

// newContract serves next behind a check against the documents at paths:
// each exchange is checked against the document that has its operation.
func newContract(t *testing.T, next http.Handler, paths ...string) (*validating, *httptest.Server) {
	t.Helper()
	// Each problem in a line or two, not the whole schema.
	openapi3.SchemaErrorDetailsDisabled = true
	v := &validating{t: t, next: next}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	for _, path := range paths {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc.Servers = openapi3.Servers{{URL: srv.URL}}
		// Published examples are not always valid; the schemas are what counts.
		router, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation(),
			// Connect v1 gives one response both a $ref and content.
			openapi3.AllowExtraSiblingFields("content"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		v.routers = append(v.routers, router)
	}
	return v, srv
}

// route finds the operation of r in the documents.
func (v *validating) route(r *http.Request) (*routers.Route, map[string]string, error) {
	var first error
	for _, router := range v.routers {
		route, params, err := router.FindRoute(r)
		if err == nil {
			return route, params, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, nil, first
}

func (v *validating) fail(format string, args ...any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.problems = append(v.problems, fmt.Sprintf(format, args...))
}

func (v *validating) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	// A server's request carries no scheme and host; the router matches
	// them against the document's server.
	r.URL.Scheme, r.URL.Host = "http", r.Host
	route, params, err := v.route(r)
	if err != nil {
		if why := undocumented(r); why != "" {
			v.t.Logf("%s %s is not in the published document (%s): passed through unchecked", r.Method, r.URL.Path, why)
			r.Body = io.NopCloser(bytes.NewReader(body))
			v.next.ServeHTTP(w, r)
			return
		}
		v.fail("%s %s is not an operation of the document: %v", r.Method, r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	// Connect v1 documents its expanded list as a path of its own, with the
	// query in the path's name and its examples (expand=info,status,id),
	// though its parameter's schema takes one value: the request is held
	// to the path's name, the answer to that operation.
	checked := r
	if q := r.URL.Query(); q.Has("expand") {
		if item := route.Spec.Paths.Value(route.Path + "?expand=" + q.Get("expand")); item != nil && item.GetOperation(r.Method) != nil {
			expanded := *route
			expanded.Operation = item.GetOperation(r.Method)
			route = &expanded
			q.Del("expand")
			checked = r.Clone(r.Context())
			checked.URL.RawQuery = q.Encode()
		}
	}
	in := &openapi3filter.RequestValidationInput{Request: checked, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		v.fail("request %s %s does not follow the document: %v", r.Method, r.URL.Path, err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	v.next.ServeHTTP(rec, r)
	status := rec.Code
	// A refusal the document does not list (Connect's 409 for a duplicate)
	// must still have the operation's error shape.
	if status >= 400 && status < 500 && route.Operation.Responses.Status(status) == nil && route.Operation.Responses.Status(400) != nil {
		status = 400
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: rec.Header(),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(rec.Body.Bytes())
	if err := openapi3filter.ValidateResponse(r.Context(), out); err != nil {
		v.fail("response %d to %s %s does not follow the document: %v\n%s", rec.Code, r.Method, r.URL.Path, err, rec.Body.String())
	}
	v.mu.Lock()
	v.checked++
	v.mu.Unlock()
	for k, vals := range rec.Header() {
		w.Header()[k] = vals
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// undocumented says why an operation the portal calls is missing from the
// published documents, or "" when it must be there.
func undocumented(r *http.Request) string {
	if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/connect/v1/") && strings.HasSuffix(r.URL.Path, "/restart") {
		return "Confluent Cloud restarts a managed connector as Kafka Connect does, but ccloud-sdk-go-v2's Connect v1 document, " +
			"in the module and at its latest commit, has no restart operation"
	}
	return ""
}

func (v *validating) report() {
	v.t.Helper()
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, p := range v.problems {
		v.t.Error(p)
	}
	if v.checked == 0 {
		v.t.Error("no exchange was checked")
	}
}

// TestAPIKeysAdapterFollowsTheDocument drives the API keys adapter against
// the dev stand-in through a check of every request and response against
// Confluent's published document (ccloud-sdk-go-v2/apikeys,
// v2/api/openapi.yaml): create (with its secret, once), list by owner
// and by resource across pages, read, update, delete, and the errors.
func TestAPIKeysAdapterFollowsTheDocument(t *testing.T) {
	org := cloud.NewOrg()
	api := cloud.NewCloudAPI(org, "KEY", "SECRET")
	v, srv := newValidating(t, "github.com/confluentinc/ccloud-sdk-go-v2/apikeys", "v2/api/openapi.yaml", api)
	c := NewClient(Options{BaseURL: srv.URL, APIKey: "KEY", APISecret: "SECRET"})
	keys := NewAPIKeys(c)
	ctx := context.Background()
	iam := org.IAMFor(platform.IAMScope{})
	sa, err := iam.CreateServiceAccount(ctx, "sa-edh-shared-scada-dev-usr-app-producer", "")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := iam.CreateServiceAccount(ctx, "sa-edh-shared-crm-dev-usr-app-producer", "")

	k, err := keys.CreateAPIKey(ctx, platform.NewAPIKey{Owner: sa.ID, Resource: "lkc-dev", Environment: "env-dev",
		DisplayName: "app", Description: "the app's key"})
	if err != nil {
		t.Fatal(err)
	}
	if len(k.ID) != 16 || len(k.Secret) < 32 || k.Owner != sa.ID || k.Resource != "lkc-dev" || k.Created.IsZero() {
		t.Errorf("created %+v", k)
	}
	got, err := keys.GetAPIKey(ctx, k.ID)
	if err != nil || got.Secret != "" || got.Description != "the app's key" {
		t.Errorf("read: %+v %v (the secret must not come back)", got, err)
	}
	for i := range 104 {
		owner := other.ID
		if i%2 == 0 {
			owner = sa.ID
		}
		if _, err := keys.CreateAPIKey(ctx, platform.NewAPIKey{Owner: owner, Resource: "lsrc-dev", Environment: "env-dev"}); err != nil {
			t.Fatal(err)
		}
	}
	mine, err := keys.ListAPIKeys(ctx, sa.ID, "")
	if err != nil || len(mine) != 53 {
		t.Errorf("by owner: %d %v", len(mine), err)
	}
	registry, err := keys.ListAPIKeys(ctx, "", "lsrc-dev")
	if err != nil || len(registry) != 104 {
		t.Errorf("by resource, over two pages: %d %v", len(registry), err)
	}
	for _, x := range registry {
		if x.Secret != "" {
			t.Fatal("a listed key carries its secret")
		}
	}
	if u, err := keys.UpdateAPIKey(ctx, k.ID, "rotated soon"); err != nil || u.Description != "rotated soon" {
		t.Errorf("update: %+v %v", u, err)
	}
	if err := keys.DeleteAPIKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.GetAPIKey(ctx, k.ID); !portal.Is(err, portal.NotFound) {
		t.Errorf("a deleted key: %v", err)
	}
	if _, err := keys.CreateAPIKey(ctx, platform.NewAPIKey{Owner: "sa-nobody", Resource: "lkc-dev", Environment: "env-dev"}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("a key for no account: %v", err)
	}
	v.report()
}
