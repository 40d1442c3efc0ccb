package identity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
)

// producerTemplate is the producer type's role bindings in scada/dev.
var producerTemplate = []iam.RoleBinding{
	{Role: "Operator", Resource: iam.ResourceCluster},
	{Role: "DeveloperRead", Resource: iam.ResourceTopic, Pattern: "edh-shared-scada-dev-*"},
	{Role: "DeveloperWrite", Resource: iam.ResourceTopic, Pattern: "edh-shared-scada-dev-*"},
	{Role: "DeveloperRead", Resource: iam.ResourceTransactionalID, Pattern: "edh-shared-scada-dev-*"},
	{Role: "DeveloperWrite", Resource: iam.ResourceTransactionalID, Pattern: "edh-shared-scada-dev-*"},
	{Role: "DeveloperRead", Resource: iam.ResourceGroup, Pattern: "edh-shared-scada-dev-*"},
	{Role: "DeveloperRead", Resource: iam.ResourceSubject, Pattern: "edh-shared-scada-dev-*"},
}

func saName(id string) string { return "sa-edh-shared-scada-dev-usr-" + id + "-producer" }

// TestBulkJobResumesWhereItsReplicaDied: the journal and the platform as
// a replica killed in the middle of a batch leaves them (items done, done
// but not in the trail, started with nothing, part or all made upstream,
// not started) are completed by another replica: every account once,
// with all its bindings, each item audited once (the dead replica's
// attempts settled, not repeated); accounts that existed before the job
// are completed, reported, or left alone as their bindings say.
func TestBulkJobResumesWhereItsReplicaDied(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	env, _ := w.Envs.Get("edh-shared", "dev")
	cloud := env.IAM
	account := func(id string, bindings []iam.RoleBinding) string {
		t.Helper()
		a, err := cloud.CreateServiceAccount(ctx, saName(id), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bindings {
			if _, err := cloud.CreateRoleBinding(ctx, "User:"+a.ID, b); err != nil {
				t.Fatal(err)
			}
		}
		return a.ID
	}
	const req = "req-bulk-1"
	attempt := func(id string) int64 {
		t.Helper()
		n, err := w.Store.AppendAudit(ctx, trail.AuditEvent{Time: time.Now(), Actor: "u", BU: "scada", Stage: "dev", LandingZone: "edh-shared",
			Action: portal.ActServiceAccountCreate, Resource: saName(id), Outcome: "unknown", RequestID: req})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	ids := []string{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"}
	items := make([]iam.NewServiceAccount, len(ids))
	for i, id := range ids {
		items[i] = iam.NewServiceAccount{Name: id, Type: "producer"}
	}
	// Before the job: r5 half made by hand, r6 whole, r7 with a binding
	// of its own.
	account("r5", producerTemplate[:3])
	account("r6", producerTemplate)
	account("r7", append(producerTemplate[:1:1], iam.RoleBinding{Role: "ResourceOwner", Resource: iam.ResourceTopic, Pattern: "edh-shared-scada-dev-x"}))
	// The dead replica's work: r0 done and in the trail; r1 done, its
	// outcome not in the trail; r2 made with 2 bindings; r3 journalled as
	// started, nothing else; r4 made whole, not journalled as done.
	r0 := attempt("r0")
	if err := w.Store.SettleAudit(ctx, r0, "ok", "", saName("r0")+" (sa-r0)", nil); err != nil {
		t.Fatal(err)
	}
	r1ID := account("r1", producerTemplate)
	r1 := attempt("r1")
	r2ID := account("r2", producerTemplate[:2])
	r2 := attempt("r2")
	r4ID := account("r4", producerTemplate)
	r4 := attempt("r4")
	journal := map[int]string{
		0: fmt.Sprintf(`{"state":"done","event":%d,"settled":true,"outcome":"created","item":{"ID":"sa-r0","Name":%q}}`, r0, saName("r0")),
		1: fmt.Sprintf(`{"state":"done","event":%d,"outcome":"created","item":{"ID":%q,"Name":%q}}`, r1, r1ID, saName("r1")),
		2: `{"state":"started"}`,
		3: `{"state":"started"}`,
		4: `{"state":"started"}`,
	}
	itemsJSON, _ := json.Marshal(items)
	who, _ := json.Marshal(map[string]any{"subject": "u", "username": "u", "groups": []string{"sg-scada-admins"}, "request_id": req})
	// The job's replica beats while its journal is written, then dies:
	// a job stale from the start could be taken by this world's own
	// replica before its journal is complete.
	now := time.Now()
	if err := w.Store.CreateJob(ctx, store.Job{ID: "job-1", Kind: "bulk-service-accounts", BU: "scada", Stage: "dev", Owner: "u",
		Principal: who, Items: itemsJSON, State: iam.JobRunning, Replica: "dead", Created: now, Heartbeat: now}); err != nil {
		t.Fatal(err)
	}
	for i, rec := range journal {
		if err := w.Store.SaveJobResult(ctx, "job-1", "dead", i, []byte(rec), now); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Store.ReleaseJob(ctx, "job-1", "dead"); err != nil {
		t.Fatal(err)
	}

	owner := w.AsGroups("sg-scada-admins")
	job, err := w.Accounts.BulkJob(owner, portal.Scope{BU: "scada", Stage: "dev"}, "job-1", time.Minute)
	if err != nil || job.State != iam.JobDone {
		t.Fatalf("the job after another replica took it: %+v %v", job, err)
	}
	want := "0:created 0 bindings 1:created 0 bindings 2:created 7 bindings 3:created 7 bindings 4:created 7 bindings " +
		"5:completed 7 bindings 6:ALREADY_EXISTS 7:ALREADY_EXISTS 8:created 7 bindings"
	if got := summarize(job.Results); got != want {
		t.Errorf("results\n got %s\nwant %s", got, want)
	}
	if msg := job.Results[7].Error.Message; !strings.Contains(msg, "outside its type's template; it was not changed") {
		t.Errorf("r7: %s", msg)
	}

	// Upstream: each account once, with its template.
	all, _ := cloud.ListServiceAccounts(ctx)
	count := map[string]int{}
	byName := map[string]platform.ServiceAccount{}
	for _, a := range all {
		count[a.DisplayName]++
		byName[a.DisplayName] = a
	}
	for _, id := range []string{"r1", "r2", "r3", "r4", "r5", "r6", "r8"} {
		a := byName[saName(id)]
		bs, _ := cloud.RoleBindings(ctx, "User:"+a.ID)
		if count[saName(id)] != 1 || len(bs) != 7 {
			t.Errorf("%s: %d accounts, %d bindings", id, count[saName(id)], len(bs))
		}
	}
	if bs, _ := cloud.RoleBindings(ctx, "User:"+byName[saName("r7")].ID); len(bs) != 2 {
		t.Errorf("r7 was changed: %d bindings", len(bs))
	}
	if byName[saName("r2")].ID != r2ID || byName[saName("r4")].ID != r4ID {
		t.Error("an account made by the dead replica was made again")
	}

	// The trail: one event per item, the dead replica's attempts settled.
	events := map[string][]trail.AuditEvent{}
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActServiceAccountCreate {
			name, _, _ := strings.Cut(e.Resource, " ")
			events[name] = append(events[name], e)
		}
	}
	for i, id := range ids {
		evs := events[saName(id)]
		if len(evs) != 1 {
			t.Errorf("%s: %d events, want 1: %+v", id, len(evs), evs)
			continue
		}
		e := evs[0]
		wantOutcome := "ok"
		if i == 6 || i == 7 {
			wantOutcome = "ALREADY_EXISTS"
		}
		if e.Outcome != wantOutcome || e.RequestID != req || e.Actor != "u" {
			t.Errorf("%s: %+v", id, e)
		}
	}
	for id, n := range map[string]int64{"r1": r1, "r2": r2, "r4": r4} {
		if evs := events[saName(id)]; len(evs) == 1 && evs[0].ID != n {
			t.Errorf("%s: the dead replica's attempt %d was not the one settled (%d)", id, n, evs[0].ID)
		}
	}
}

// gatedIAM holds every call until it is released, and counts them.
type gatedIAM struct {
	platform.IAM
	release chan struct{}
	mu      sync.Mutex
	calls   int
}

func (g *gatedIAM) ListServiceAccounts(ctx context.Context) ([]platform.ServiceAccount, error) {
	g.mu.Lock()
	g.calls++
	g.mu.Unlock()
	<-g.release
	return g.IAM.ListServiceAccounts(ctx)
}

// TestBulkJobIsJournalledFirst: the job is in the store, with its id,
// before the platform is asked anything; a quota refused by the platform
// is that item's 409 naming the quota, not an outage.
func TestBulkJobIsJournalledFirst(t *testing.T) {
	w := servicetest.New(t)
	env, _ := w.Envs.Get("edh-shared", "dev")
	gated := &gatedIAM{IAM: quotaIAM{IAM: env.IAM}, release: make(chan struct{})}
	env.IAM = gated
	ctx := servicetest.As("scada", portal.Admin)
	scope := portal.Scope{BU: "scada", Stage: "dev"}
	job, err := w.Accounts.StartBulk(ctx, scope, []iam.NewServiceAccount{{Name: "q1", Type: "consumer"}, {Name: "q2", Type: "producer"}})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := w.Store.Job(context.Background(), job.ID)
	if err != nil || stored.State != iam.JobRunning || len(stored.Results) != 0 {
		t.Errorf("the job as StartBulk returns: %+v %v", stored, err)
	}
	close(gated.release)
	job, err = w.Accounts.BulkJob(ctx, scope, job.ID, time.Minute)
	if err != nil || job.State != iam.JobDone {
		t.Fatalf("job: %+v %v", job, err)
	}
	if got := summarize(job.Results); got != "0:created 4 bindings 1:QUOTA_EXCEEDED" {
		t.Errorf("results: %s", got)
	}
	if e := job.Results[1].Error; e.Kind.Status() != 409 || !strings.Contains(e.Message, "role_bindings_per_org") {
		t.Errorf("quota: %d %s", e.Kind.Status(), e.Message)
	}
}

// quotaIAM refuses the DeveloperWrite bindings as over the quota.
type quotaIAM struct{ platform.IAM }

func (q quotaIAM) CreateRoleBinding(ctx context.Context, p string, b iam.RoleBinding) (iam.RoleBinding, error) {
	if b.Role == "DeveloperWrite" {
		return iam.RoleBinding{}, portal.New(portal.QuotaExceeded, "Confluent Cloud refused: quota role_bindings_per_org (1000) would be exceeded")
	}
	return q.IAM.CreateRoleBinding(ctx, p, b)
}
