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

// validating puts a check of every request and every response against a
// published OpenAPI document in front of a handler; problems are kept.
type validating struct {
	t        *testing.T
	router   routers.Router
	next     http.Handler
	mu       sync.Mutex
	problems []string
	checked  int
}

func newValidating(t *testing.T, module, file string, next http.Handler) (*validating, *httptest.Server) {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		t.Fatalf("locating %s: %v", module, err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(filepath.Join(strings.TrimSpace(string(dir)), file))
	if err != nil {
		t.Fatal(err)
	}
	v := &validating{t: t, next: next}
	srv := httptest.NewServer(v)
	t.Cleanup(srv.Close)
	doc.Servers = openapi3.Servers{{URL: srv.URL}}
	if v.router, err = legacy.NewRouter(doc); err != nil {
		t.Fatal(err)
	}
	return v, srv
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
	route, params, err := v.router.FindRoute(r)
	if err != nil {
		v.fail("%s %s is not an operation of the document: %v", r.Method, r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		v.fail("request %s %s does not follow the document: %v", r.Method, r.URL.Path, err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	v.next.ServeHTTP(rec, r)
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
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
