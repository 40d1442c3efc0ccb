package identity_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

const goodFilter = `claims.aud == "confluent" && claims.sub.startsWith("ci-")`

func seedIdentity(t *testing.T, w *servicetest.World, stage string) (saID, poolID string) {
	t.Helper()
	ctx := servicetest.As("scada", portal.SuperAdmin)
	sa, err := w.Accounts.Create(ctx, portal.Scope{BU: "scada", Stage: stage}, iam.NewServiceAccount{Name: "existing", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := w.Pools.Create(ctx, portal.Scope{BU: "scada", Stage: stage}, iam.NewPool{Name: "existing", Type: "consumer", Filter: goodFilter})
	if err != nil {
		t.Fatal(err)
	}
	return sa.ID, p.ID
}

func TestIdentityAccessMatrix(t *testing.T) {
	for _, role := range access.Roles {
		// One world per role: each stage's seeds and changes carry the
		// stage's names, and the checks count from before each operation.
		w := servicetest.New(t)
		for _, stage := range []string{"dev", "run"} {
			saID, poolID := seedIdentity(t, w, stage)
			ops := []servicetest.Op{
				{Name: "list accounts", Write: false, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Accounts.List(ctx, portal.Scope{BU: "scada", Stage: st}, portal.ListQuery{})
					return err
				}},
				{Name: "get account", Write: false, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Accounts.Get(ctx, portal.Scope{BU: "scada", Stage: st}, saID)
					return err
				}},
				{Name: "list pools", Write: false, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Pools.List(ctx, portal.Scope{BU: "scada", Stage: st}, portal.ListQuery{})
					return err
				}},
				{Name: "get pool", Write: false, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Pools.Get(ctx, portal.Scope{BU: "scada", Stage: st}, poolID)
					return err
				}},
				{Name: "test filter", Write: false, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Pools.TestFilter(ctx, portal.Scope{BU: "scada", Stage: st}, goodFilter, map[string]any{"aud": "confluent", "sub": "ci-1"})
					return err
				}},
				{Name: "create account", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Accounts.Create(ctx, portal.Scope{BU: "scada", Stage: st}, iam.NewServiceAccount{Name: "fresh", Type: "producer"})
					return err
				}},
				{Name: "bulk create", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := bulk(ctx, w, portal.Scope{BU: "scada", Stage: st}, []iam.NewServiceAccount{{Name: "bulk", Type: "metrics"}})
					return err
				}},
				{Name: "create pool", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Pools.Create(ctx, portal.Scope{BU: "scada", Stage: st}, iam.NewPool{Name: "fresh", Type: "producer", Filter: goodFilter})
					return err
				}},
				{Name: "update filter", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Pools.UpdateFilter(ctx, portal.Scope{BU: "scada", Stage: st}, poolID, `claims.aud == "other"`, "")
					return err
				}},
				{Name: "delete pool", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					return w.Pools.Delete(ctx, portal.Scope{BU: "scada", Stage: st}, poolID, portal.DeleteOptions{})
				}},
			}
			w.CheckOps(t, "scada", role, stage, servicetest.IdentityPolicy, ops)
		}
	}
}

func bindingSummary(bs []iam.RoleBinding) string {
	var parts []string
	for _, b := range bs {
		parts = append(parts, b.Role+" "+b.Resource+" "+b.Pattern)
	}
	return strings.Join(parts, " | ")
}

func TestServiceAccountCreateAppliesTemplate(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	sa, err := w.Accounts.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, iam.NewServiceAccount{Name: "Pump_Feed", Type: "producer", Description: "writes pump data"})
	if err != nil {
		t.Fatal(err)
	}
	if sa.Name != "sa-edh-shared-scada-dev-usr-pump-feed-producer" || !strings.HasPrefix(sa.ID, "sa-") || sa.Type != "producer" || sa.Identifier != "pump-feed" {
		t.Errorf("created %+v", sa)
	}
	want := "Operator cluster  | DeveloperRead topic edh-shared-scada-dev-* | DeveloperWrite topic edh-shared-scada-dev-* | " +
		"DeveloperRead group edh-shared-scada-dev-* | " +
		"DeveloperRead transactional-id edh-shared-scada-dev-* | DeveloperWrite transactional-id edh-shared-scada-dev-* | " +
		"DeveloperRead subject edh-shared-scada-dev-*"
	if got := bindingSummary(sa.RoleBindings); got != want {
		t.Errorf("bindings:\n%s\nwant\n%s", got, want)
	}
	got, err := w.Accounts.Get(servicetest.As("scada", portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, sa.ID)
	if summary := bindingSummary(got.RoleBindings); summary != want {
		t.Errorf("bindings read back:\n%s", summary)
	}
	if err != nil || len(got.RoleBindings) != 7 || !strings.HasPrefix(got.RoleBindings[1].CRN, "crn://confluent.cloud/organization=org-test/environment=env-edh-shared-dev/cloud-cluster=lkc-edh-shared-dev/kafka=") {
		t.Errorf("get: %+v %v", got, err)
	}
	if _, err := w.Accounts.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, iam.NewServiceAccount{Name: "pump feed", Type: "producer"}); !portal.Is(err, portal.AlreadyExists) {
		t.Errorf("duplicate: %v", err)
	}
	// Another unit does not see it.
	if _, err := w.Accounts.Get(servicetest.As("crm", portal.Admin), portal.Scope{BU: "crm", Stage: "dev"}, sa.ID); !portal.Is(err, portal.NotFound) {
		t.Errorf("crm reads scada's account: %v", err)
	}
	list, _ := w.Accounts.List(servicetest.As("crm", portal.Admin), portal.Scope{BU: "crm", Stage: "dev"}, portal.ListQuery{})
	if len(list.Items) != 0 {
		t.Errorf("crm lists %v", list.Items)
	}
	_, err = w.Accounts.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, iam.NewServiceAccount{Name: strings.Repeat("x", 30), Type: "stream-processor", Description: strings.Repeat("d", 129)})
	if got := servicetest.Problems(err); !strings.Contains(got, "INVALID_PARAMETER name") || !strings.Contains(got, "INVALID_PARAMETER description") {
		t.Errorf("limits: %s", got)
	}
}

// bulk runs a batch as the API does: started, then waited for.
func bulk(ctx context.Context, w *servicetest.World, scope portal.Scope, items []iam.NewServiceAccount) ([]*iam.BulkResult, error) {
	j, err := w.Accounts.StartBulk(ctx, scope, items)
	if err != nil {
		return nil, err
	}
	if j, err = w.Accounts.BulkJob(ctx, scope, j.ID, time.Minute); err != nil {
		return nil, err
	}
	if j.State != iam.JobDone {
		return j.Results, fmt.Errorf("job %s: %s", j.State, j.Error)
	}
	return j.Results, nil
}

func summarize(res []*iam.BulkResult) string {
	var summary []string
	for i, r := range res {
		switch {
		case r == nil:
			summary = append(summary, fmt.Sprintf("%d:pending", i))
		case r.Error != nil:
			summary = append(summary, fmt.Sprintf("%d:%s", r.Index, r.Error.Kind))
		default:
			summary = append(summary, fmt.Sprintf("%d:%s %d bindings", r.Index, r.Outcome, len(r.Item.RoleBindings)))
		}
	}
	return strings.Join(summary, " ")
}

func TestBulkCreate(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	if _, err := w.Accounts.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, iam.NewServiceAccount{Name: "etl-3", Type: "consumer"}); err != nil {
		t.Fatal(err)
	}
	// Any invalid item: nothing is created, each bad item is named.
	before, _ := w.Org.IAMFor(platform.IAMScope{}).ListServiceAccounts(context.Background())
	jobsBefore, _ := w.Store.CountJobs(context.Background())
	_, err := w.Accounts.StartBulk(ctx, portal.Scope{BU: "scada", Stage: "dev"}, []iam.NewServiceAccount{
		{Name: "etl-1", Type: "producer"}, {Name: "", Type: "consumer"}, {Name: "etl-2", Type: "writer"}, {Name: "ETL_1", Type: "producer"}})
	if got := servicetest.Problems(err); got != "MISSING_PARAMETER items[1].name: items[1].name is required\n"+
		"INVALID_PARAMETER items[2].type: type must be one of producer, consumer, stream-processor, metrics, not \"writer\"\n"+
		"INVALID_PARAMETER items[3].name: sa-edh-shared-scada-dev-usr-etl-1-producer is the same account as items[0]" {
		t.Errorf("invalid bulk:\n%s", got)
	}
	after, _ := w.Org.IAMFor(platform.IAMScope{}).ListServiceAccounts(context.Background())
	if len(after) != len(before) {
		t.Error("an invalid bulk request created accounts")
	}
	if jobs, _ := w.Store.CountJobs(context.Background()); fmt.Sprint(jobs) != fmt.Sprint(jobsBefore) {
		t.Errorf("an invalid bulk request was journalled: %v", jobs)
	}

	items := []iam.NewServiceAccount{{Name: "etl-1", Type: "producer"}, {Name: "etl-2", Type: "consumer"}, {Name: "etl-3", Type: "consumer"},
		{Name: "etl-4", Type: "metrics"}, {Name: "etl-5", Type: "stream-processor"}}
	res, err := bulk(ctx, w, portal.Scope{BU: "scada", Stage: "dev"}, items)
	if err != nil {
		t.Fatal(err)
	}
	if got := summarize(res); got != "0:created 7 bindings 1:created 4 bindings 2:ALREADY_EXISTS 3:created 1 bindings 4:created 9 bindings" {
		t.Errorf("bulk results: %s", got)
	}
	// Sent again, nothing is created twice.
	again, _ := bulk(ctx, w, portal.Scope{BU: "scada", Stage: "dev"}, items)
	if got := summarize(again); got != "0:ALREADY_EXISTS 1:ALREADY_EXISTS 2:ALREADY_EXISTS 3:ALREADY_EXISTS 4:ALREADY_EXISTS" {
		t.Errorf("repeat: %s", got)
	}
	// Each item is one event in the trail.
	created := 0
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActServiceAccountCreate && e.Outcome == "ok" {
			created++
		}
	}
	if created != 5 { // etl-3 alone, then four from the batch
		t.Errorf("%d accounts audited as created, want 5", created)
	}
}

// failingIAM refuses to create role bindings of one role.
type failingIAM struct {
	platform.IAM
	role string
}

func (f failingIAM) CreateRoleBinding(ctx context.Context, p string, b iam.RoleBinding) (iam.RoleBinding, error) {
	if b.Role == f.role {
		return iam.RoleBinding{}, portal.New(portal.UpstreamUnavailable, "role binding service.service unavailable")
	}
	return f.IAM.CreateRoleBinding(ctx, p, b)
}

func TestCreateRollsBackWhenBindingsFail(t *testing.T) {
	w := servicetest.New(t)
	env, _ := w.Envs.Get("edh-shared", "dev")
	env.IAM = failingIAM{IAM: env.IAM, role: "DeveloperWrite"}
	ctx := servicetest.As("scada", portal.Admin)
	_, err := w.Accounts.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, iam.NewServiceAccount{Name: "half", Type: "producer"})
	if !portal.Is(err, portal.UpstreamUnavailable) || !strings.Contains(err.Error(), "it was removed again, nothing changed") {
		t.Errorf("create with a failing binding: %v", err)
	}
	list, _ := w.Accounts.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{})
	if len(list.Items) != 0 {
		t.Errorf("a half-made account is left: %+v", list.Items)
	}
	_, err = w.Pools.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, iam.NewPool{Name: "half", Type: "producer", Filter: goodFilter})
	if !strings.Contains(fmt.Sprint(err), "removed again") {
		t.Errorf("pool with a failing binding: %v", err)
	}
	if pools, _ := w.Pools.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{}); len(pools.Items) != 0 {
		t.Errorf("a half-made pool is left: %+v", pools.Items)
	}
}

func TestPoolsAndFilters(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	p, err := w.Pools.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, iam.NewPool{Name: "ci_runners", Type: "consumer", Filter: goodFilter, Description: "CI"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "edh-shared-scada-dev-ci-runners-consumer" || !strings.HasPrefix(p.ID, "pool-") || p.IdentityClaim != "claims.sub" || len(p.RoleBindings) != 4 {
		t.Errorf("created %+v", p)
	}
	cases := map[string]string{
		`claims.aud ==`:          "the filter is not valid CEL: at 1:14: Syntax error",
		`claims.sub`:             "the filter must evaluate to a boolean",
		`nope == "x"`:            "undeclared reference to 'nope'",
		"":                       "filter is required",
		strings.Repeat("x", 301): "at most 300 are allowed",
	}
	for filter, want := range cases {
		_, err := w.Pools.UpdateFilter(ctx, portal.Scope{BU: "scada", Stage: "dev"}, p.ID, filter, "")
		if !strings.Contains(servicetest.Problems(err), want) {
			t.Errorf("filter %q: %s", filter, servicetest.Problems(err))
		}
	}
	got, err := w.Pools.UpdateFilter(ctx, portal.Scope{BU: "scada", Stage: "dev"}, p.ID, `"ops" in claims.groups`, "")
	if err != nil || got.Filter != `"ops" in claims.groups` {
		t.Errorf("update: %+v %v", got, err)
	}
	r, err := w.Pools.TestFilter(servicetest.As("scada", portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, `"ops" in claims.groups`, map[string]any{"groups": []any{"ops", "dev"}})
	if err != nil || !r.Matches {
		t.Errorf("matching claims: %+v %v", r, err)
	}
	r, _ = w.Pools.TestFilter(ctx, portal.Scope{BU: "scada", Stage: "dev"}, `"ops" in claims.groups`, map[string]any{"sub": "x"})
	if r.Matches || !strings.Contains(r.Reason, "no such key: groups") {
		t.Errorf("missing claim: %+v", r)
	}
	// Nested comprehensions over a 10-element list cost 10^6 steps: refused
	// by the cost limit rather than evaluated.
	l := "[0,1,2,3,4,5,6,7,8,9]"
	heavy := l + ".all(a, " + l + ".all(b, " + l + ".all(c, " + l + ".all(d, " + l + ".all(e, " + l + ".all(f, a+b+c+d+e+f >= 0))))))"
	r, _ = w.Pools.TestFilter(ctx, portal.Scope{BU: "scada", Stage: "dev"}, heavy, map[string]any{})
	if r.Matches || !strings.Contains(r.Reason, "cost limit") {
		t.Errorf("heavy filter: %+v", r)
	}
	_, err = w.Pools.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, iam.NewPool{Name: "x", Type: "consumer", Filter: goodFilter, IdentityClaim: "sub"})
	if !strings.Contains(servicetest.Problems(err), "identity_claim") {
		t.Errorf("bad claim: %s", servicetest.Problems(err))
	}
	if err := w.Pools.Delete(ctx, portal.Scope{BU: "scada", Stage: "dev"}, p.ID, portal.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Pools.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, p.ID); !portal.Is(err, portal.NotFound) {
		t.Errorf("deleted pool: %v", err)
	}
}

// downIAM answers every read with an upstream failure.
type downIAM struct{ platform.IAM }

func (downIAM) GetServiceAccount(context.Context, string) (platform.ServiceAccount, error) {
	return platform.ServiceAccount{}, portal.New(portal.UpstreamTimeout, "IAM did not answer in time")
}

// TestReadsReportUpstreamFailures: an account that cannot be read because
// IAM is down is a 504, not a 404.
func TestReadsReportUpstreamFailures(t *testing.T) {
	w := servicetest.New(t)
	saID, _ := seedIdentity(t, w, "dev")
	env, _ := w.Envs.Get("edh-shared", "dev")
	env.IAM = downIAM{env.IAM}
	if _, err := w.Accounts.Get(servicetest.As("scada", portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, saID); !portal.Is(err, portal.UpstreamTimeout) {
		t.Errorf("get with IAM down: %v", err)
	}
}
