package confluent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/confluentinc/ccloud-sdk-go-v2/iam/v2"
	_ "github.com/confluentinc/ccloud-sdk-go-v2/identity-provider/v2"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// fakeIAM follows the published IAM v2 and identity provider v2 shapes:
// lists with metadata.next links (two items a page here, to exercise
// paging), and JSON:API error bodies.
type fakeIAM struct {
	mu       sync.Mutex
	accounts []serviceAccountJSON
	bindings []bindingJSON
	pools    []poolJSON
	seq      int
	calls    []string
	throttle int
	// quota, when set, bounds the service accounts (402 beyond it).
	quota int
}

func jsonErr(w http.ResponseWriter, status int, code, detail string) {
	writeJSON(w, status, map[string]any{"errors": []any{map[string]any{"id": "x", "status": strconv.Itoa(status), "code": code,
		"title": http.StatusText(status), "detail": detail}}})
}

func (f *fakeIAM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	if f.throttle > 0 {
		f.throttle--
		w.Header().Set("Retry-After", "1")
		jsonErr(w, 429, "too_many_requests", "Too many requests")
		return
	}
	f.seq++
	p := r.URL.Path
	switch {
	case p == "/iam/v2/service-accounts" && r.Method == http.MethodGet:
		page(w, r, len(f.accounts), func(i int) any { return f.accounts[i] })
	case p == "/iam/v2/service-accounts" && r.Method == http.MethodPost:
		var in serviceAccountJSON
		_ = json.NewDecoder(r.Body).Decode(&in)
		for _, a := range f.accounts {
			if a.DisplayName == in.DisplayName {
				jsonErr(w, 409, "resource_already_exists", "Service name is already in use.")
				return
			}
		}
		if f.quota > 0 && len(f.accounts) >= f.quota {
			jsonErr(w, 402, "quota_exceeded", fmt.Sprintf("quota service_accounts_per_org (%d) would be exceeded", f.quota))
			return
		}
		in.ID = fmt.Sprintf("sa-%05d", f.seq)
		f.accounts = append(f.accounts, in)
		writeJSON(w, 201, in)
	case strings.HasPrefix(p, "/iam/v2/service-accounts/"):
		id := strings.TrimPrefix(p, "/iam/v2/service-accounts/")
		for i, a := range f.accounts {
			if a.ID == id {
				if r.Method == http.MethodDelete {
					f.accounts = append(f.accounts[:i], f.accounts[i+1:]...)
					w.WriteHeader(204)
					return
				}
				writeJSON(w, 200, a)
				return
			}
		}
		jsonErr(w, 404, "", "")
	case p == "/iam/v2/role-bindings" && r.Method == http.MethodGet:
		// crn_pattern names one scope; with a trailing "/*" it names the
		// scopes nested in it too (what the Confluent CLI's --inclusive
		// sends).
		var keep []bindingJSON
		want := r.URL.Query().Get("crn_pattern")
		base, nested := strings.CutSuffix(want, "/*")
		for _, b := range f.bindings {
			inScope := b.CRNPattern == base || (nested && strings.HasPrefix(b.CRNPattern, base+"/"))
			if b.Principal == r.URL.Query().Get("principal") && inScope {
				keep = append(keep, b)
			}
		}
		page(w, r, len(keep), func(i int) any { return keep[i] })
	case p == "/iam/v2/role-bindings" && r.Method == http.MethodPost:
		var in bindingJSON
		_ = json.NewDecoder(r.Body).Decode(&in)
		if !strings.HasPrefix(in.CRNPattern, "crn://") || !strings.HasPrefix(in.Principal, "User:") {
			jsonErr(w, 400, "invalid_input", "bad binding")
			return
		}
		in.ID = fmt.Sprintf("rb-%05d", f.seq)
		f.bindings = append(f.bindings, in)
		writeJSON(w, 201, in)
	case strings.HasPrefix(p, "/iam/v2/role-bindings/") && r.Method == http.MethodDelete:
		id := strings.TrimPrefix(p, "/iam/v2/role-bindings/")
		for i, b := range f.bindings {
			if b.ID == id {
				f.bindings = append(f.bindings[:i], f.bindings[i+1:]...)
				w.WriteHeader(204)
				return
			}
		}
		jsonErr(w, 404, "", "")
	case p == "/iam/v2/identity-providers/op-1/identity-pools" && r.Method == http.MethodGet:
		page(w, r, len(f.pools), func(i int) any { return f.pools[i] })
	case p == "/iam/v2/identity-providers/op-1/identity-pools" && r.Method == http.MethodPost:
		var in poolJSON
		_ = json.NewDecoder(r.Body).Decode(&in)
		if len(in.Filter) > 300 {
			jsonErr(w, 422, "invalid_configuration", "filter is too long")
			return
		}
		in.ID, in.State = fmt.Sprintf("pool-%04d", f.seq), "ENABLED"
		f.pools = append(f.pools, in)
		writeJSON(w, 201, in)
	case strings.HasPrefix(p, "/iam/v2/identity-providers/op-1/identity-pools/"):
		id := strings.TrimPrefix(p, "/iam/v2/identity-providers/op-1/identity-pools/")
		for i := range f.pools {
			if f.pools[i].ID != id {
				continue
			}
			switch r.Method {
			case http.MethodGet:
				writeJSON(w, 200, f.pools[i])
			case http.MethodPatch:
				var in poolJSON
				_ = json.NewDecoder(r.Body).Decode(&in)
				f.pools[i].Filter = in.Filter
				writeJSON(w, 200, f.pools[i])
			case http.MethodDelete:
				f.pools = append(f.pools[:i], f.pools[i+1:]...)
				w.WriteHeader(204)
			}
			return
		}
		jsonErr(w, 404, "", "")
	default:
		jsonErr(w, 404, "", "")
	}
}

// page answers a list request with two items a page and a next link.
func page(w http.ResponseWriter, r *http.Request, n int, item func(int) any) {
	start, _ := strconv.Atoi(r.URL.Query().Get("page_token"))
	end := min(start+2, n)
	data := []any{}
	for i := start; i < end; i++ {
		data = append(data, item(i))
	}
	meta := map[string]any{"first": "https://api.confluent.cloud" + r.URL.Path}
	if end < n {
		meta["next"] = "https://api.confluent.cloud" + r.URL.Path + "?page_size=2&page_token=" + strconv.Itoa(end)
	}
	writeJSON(w, 200, map[string]any{"api_version": "iam/v2", "kind": "List", "metadata": meta, "data": data})
}

func newIAMFake(t *testing.T) (*fakeIAM, *Client) {
	t.Helper()
	f := &fakeIAM{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c := NewClient(Options{BaseURL: srv.URL, APIKey: "KEY", APISecret: "SECRET", Timeout: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	c.backoff = func(int) time.Duration { return 10 * time.Millisecond }
	return f, c
}

func TestServiceAccountsAndBindings(t *testing.T) {
	ctx := context.Background()
	f, c := newIAMFake(t)
	ciam := NewIAM(c, platform.IAMScope{OrganizationID: "org-1", EnvironmentID: "env-1", KafkaClusterID: "lkc-1", SchemaRegistryID: "lsrc-1"})
	for i := 0; i < 5; i++ {
		if _, err := ciam.CreateServiceAccount(ctx, fmt.Sprintf("sa-app-%d", i), "d"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ciam.CreateServiceAccount(ctx, "sa-app-1", "again"); !portal.Is(err, portal.AlreadyExists) {
		t.Errorf("duplicate: %v", err)
	}
	// A quota is a 409 naming it, not an outage.
	f.mu.Lock()
	f.quota = 5
	f.mu.Unlock()
	_, err := ciam.CreateServiceAccount(ctx, "sa-app-6", "over")
	if !portal.Is(err, portal.QuotaExceeded) || portal.StatusOf(err) != 409 || !strings.Contains(portal.FirstMessage(err), "service_accounts_per_org (5)") {
		t.Errorf("over the quota: %d %v", portal.StatusOf(err), err)
	}
	f.mu.Lock()
	f.quota = 0
	f.mu.Unlock()
	f.throttle = 1
	all, err := ciam.ListServiceAccounts(ctx)
	if err != nil || len(all) != 5 {
		t.Fatalf("paged list: %d %v", len(all), err)
	}
	sa := all[0]
	if got, err := ciam.GetServiceAccount(ctx, sa.ID); err != nil || got.DisplayName != "sa-app-0" {
		t.Errorf("get: %+v %v", got, err)
	}
	if _, err := ciam.GetServiceAccount(ctx, "sa-nope"); !portal.Is(err, portal.NotFound) {
		t.Errorf("missing: %v", err)
	}
	principal := "User:" + sa.ID
	for _, b := range []iam.RoleBinding{
		{Role: "Operator", Resource: iam.ResourceCluster},
		{Role: "DeveloperRead", Resource: iam.ResourceTopic, Pattern: "edh-shared-scada-dev-*"},
		{Role: "DeveloperWrite", Resource: iam.ResourceTransactionalID, Pattern: "edh-shared-scada-dev-*"},
		{Role: "DeveloperRead", Resource: iam.ResourceSubject, Pattern: "edh-shared-scada-dev-*"},
	} {
		if _, err := ciam.CreateRoleBinding(ctx, principal, b); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ciam.RoleBindings(ctx, principal)
	if err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, b := range got {
		summary = append(summary, b.Role+" "+b.Resource+" "+b.Pattern)
	}
	sort.Strings(summary)
	if strings.Join(summary, "|") != "DeveloperRead subject edh-shared-scada-dev-*|DeveloperRead topic edh-shared-scada-dev-*|DeveloperWrite transactional-id edh-shared-scada-dev-*|Operator cluster " {
		t.Errorf("bindings %v", summary)
	}
	if got[0].CRN != "crn://confluent.cloud/organization=org-1/environment=env-1/cloud-cluster=lkc-1" {
		t.Errorf("cluster CRN %s", got[0].CRN)
	}
	if err := ciam.DeleteRoleBinding(ctx, got[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := ciam.DeleteServiceAccount(ctx, sa.ID); err != nil {
		t.Fatal(err)
	}
	checkDocumentedIAM(t, f.calls)
}

func TestIdentityPoolsAdapter(t *testing.T) {
	ctx := context.Background()
	f, c := newIAMFake(t)
	pools := NewPools(c, "op-1")
	for i := 0; i < 3; i++ {
		if _, err := pools.CreatePool(ctx, platform.IdentityPool{DisplayName: fmt.Sprintf("p%d", i), IdentityClaim: "claims.sub", Filter: "true"}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := pools.CreatePool(ctx, platform.IdentityPool{DisplayName: "long", Filter: strings.Repeat("x", 301)})
	if !portal.Is(err, portal.InvalidParameter) || !strings.Contains(err.Error(), "filter is too long") {
		t.Errorf("422: %v", err)
	}
	list, err := pools.ListPools(ctx)
	if err != nil || len(list) != 3 || list[2].State != "ENABLED" {
		t.Fatalf("list: %+v %v", list, err)
	}
	p, err := pools.UpdatePoolFilter(ctx, list[0].ID, `claims.aud == "x"`)
	if err != nil || p.Filter != `claims.aud == "x"` {
		t.Errorf("patch: %+v %v", p, err)
	}
	if err := pools.DeletePool(ctx, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := pools.GetPool(ctx, list[0].ID); !portal.Is(err, portal.NotFound) || !strings.Contains(err.Error(), "identity pool") {
		t.Errorf("get deleted: %v", err)
	}
	checkDocumentedIAM(t, f.calls)
}

// checkDocumentedIAM asserts calls match the published IAM v2 and
// identity provider v2 documents, or role bindings, which Confluent
// documents separately (the mds SDK module).
func checkDocumentedIAM(t *testing.T, calls []string) {
	t.Helper()
	var ops []documentedOp
	ops = append(ops, documentedOps(t, "github.com/confluentinc/ccloud-sdk-go-v2/iam", "v2/api/openapi.yaml")...)
	ops = append(ops, documentedOps(t, "github.com/confluentinc/ccloud-sdk-go-v2/identity-provider", "v2/api/openapi.yaml")...)
	ops = append(ops, newDocumentedOp("GET", "/iam/v2/role-bindings"), newDocumentedOp("POST", "/iam/v2/role-bindings"),
		newDocumentedOp("DELETE", "/iam/v2/role-bindings/{id}"))
	checkCalls(t, ops, calls)
}
