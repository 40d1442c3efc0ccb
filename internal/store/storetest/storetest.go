// Package storetest is the contract test suite of the store: every adapter
// runs it against a real database of its kind.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Run runs the suite; open returns an empty, migrated store.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("sessions", func(t *testing.T) { testSessions(t, open(t)) })
	t.Run("jobs", func(t *testing.T) { testJobs(t, open(t)) })
	t.Run("audit", func(t *testing.T) { testAudit(t, open(t)) })
	t.Run("samples", func(t *testing.T) { testSamples(t, open(t)) })
	t.Run("notifications", func(t *testing.T) { testNotifications(t, open(t)) })
	t.Run("tenants", func(t *testing.T) { testTenants(t, open(t)) })
	t.Run("metric results", func(t *testing.T) { testMetricResults(t, open(t)) })
	t.Run("locks", func(t *testing.T) { testLocks(t, open(t)) })
	t.Run("leases", func(t *testing.T) { testLeases(t, open(t)) })
	t.Run("api keys", func(t *testing.T) { testKeyRecords(t, open(t)) })
	t.Run("guardrails", func(t *testing.T) { testGuardrails(t, open(t)) })
	t.Run("webhooks", func(t *testing.T) { testWebhooks(t, open(t)) })
	t.Run("change requests", func(t *testing.T) { testRequests(t, open(t)) })
	t.Run("grants", func(t *testing.T) { testGrants(t, open(t)) })
	t.Run("apply journals", func(t *testing.T) { testApplies(t, open(t)) })
	t.Run("rate buckets", func(t *testing.T) { testRateBuckets(t, open(t)) })
	t.Run("auto restarts", func(t *testing.T) { testAutoRestarts(t, open(t)) })
	t.Run("connector secrets", func(t *testing.T) { testConnectorSecrets(t, open(t)) })
	t.Run("alerts", func(t *testing.T) { testAlerts(t, open(t)) })
	t.Run("catalog", func(t *testing.T) { testCatalog(t, open(t)) })
	t.Run("grant expiry", func(t *testing.T) { testGrantExpiry(t, open(t)) })
	t.Run("grants naming", func(t *testing.T) { testGrantsNaming(t, open(t)) })
	t.Run("replicas", func(t *testing.T) { testReplicas(t, open(t)) })
	t.Run("usage", func(t *testing.T) { testUsage(t, open(t)) })
	t.Run("costs", func(t *testing.T) { testCosts(t, open(t)) })
}

func testMetricResults(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, _, err := s.MetricResult(ctx, "k"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing: %v", err)
	}
	for _, body := range []string{"first", "second"} {
		if err := s.PutMetricResult(ctx, "k", []byte(body), base); err != nil {
			t.Fatal(err)
		}
	}
	body, at, err := s.MetricResult(ctx, "k")
	if err != nil || string(body) != "second" || !at.Equal(base) {
		t.Errorf("result %q %v %v", body, at, err)
	}
	if n, err := s.DeleteMetricResultsBefore(ctx, base.Add(time.Second)); err != nil || n != 1 {
		t.Errorf("delete: %d %v", n, err)
	}
}

func testTenants(t *testing.T, s store.Store) {
	ctx := context.Background()
	r := store.UnitRecord{ID: "billing", LandingZone: "edh-shared", Developer: []string{"sg-a", "sg-b"}, CreatedBy: "frank", Created: base}
	if err := s.CreateUnitRecord(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateUnitRecord(ctx, r); !errors.Is(err, store.ErrExists) {
		t.Errorf("second create: %v", err)
	}
	r.Admin, r.Developer, r.UpdatedBy, r.Updated = []string{"sg-x"}, nil, "erin", base.Add(time.Hour)
	if err := s.UpdateUnitRecord(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.UnitRecords(ctx)
	if err != nil || len(got) != 1 {
		t.Fatalf("records %+v %v", got, err)
	}
	g := got[0]
	if g.ID != "billing" || g.LandingZone != "edh-shared" || !slices.Equal(g.Admin, []string{"sg-x"}) || len(g.Developer) != 0 ||
		g.CreatedBy != "frank" || !g.Created.Equal(base) || g.UpdatedBy != "erin" || !g.Updated.Equal(base.Add(time.Hour)) {
		t.Errorf("record %+v", g)
	}
	if err := s.UpdateUnitRecord(ctx, store.UnitRecord{ID: "nope"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("update of an unknown unit: %v", err)
	}
	if err := s.DeleteUnitRecord(ctx, "billing"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteUnitRecord(ctx, "billing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}

	sw := store.SwitchRecord{LandingZone: "edh-shared", Stage: "qas", ReadOnly: true, Reason: "freeze", Until: base.Add(24 * time.Hour), SetBy: "frank", SetAt: base}
	if err := s.PutSwitchRecord(ctx, sw); err != nil {
		t.Fatal(err)
	}
	sw.ReadOnly, sw.Reason, sw.Until = false, "thawed", time.Time{}
	if err := s.PutSwitchRecord(ctx, sw); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSwitchRecord(ctx, store.SwitchRecord{LandingZone: "sales", Stage: "run", ReadOnly: true, SetAt: base}); err != nil {
		t.Fatal(err)
	}
	list, err := s.SwitchRecords(ctx)
	if err != nil || len(list) != 2 || list[0].LandingZone != "edh-shared" || list[0].ReadOnly || list[0].Reason != "thawed" ||
		!list[0].Until.IsZero() || !list[0].SetAt.Equal(base) || !list[1].ReadOnly {
		t.Errorf("switches %+v %v", list, err)
	}
}

var base = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func testSessions(t *testing.T, s store.Store) {
	ctx := context.Background()
	mk := func(id, subject string, age time.Duration) store.Session {
		return store.Session{ID: id, Subject: subject, Username: subject, Created: base.Add(-age), Expires: base.Add(8*time.Hour - age),
			LastSeen: base.Add(-age), UserAgent: "test", IP: "127.0.0.1", Data: []byte("sealed " + id)}
	}
	for _, x := range []store.Session{mk("a", "carol", 0), mk("b", "carol", time.Hour), mk("c", "bob", 0), mk("old", "bob", 9*time.Hour)} {
		if err := s.CreateSession(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Session(ctx, "a", base)
	if err != nil || string(got.Data) != "sealed a" || got.Subject != "carol" || !got.Created.Equal(base) || !got.Expires.Equal(base.Add(8*time.Hour)) {
		t.Fatalf("session a: %+v %v", got, err)
	}
	if _, err := s.Session(ctx, "old", base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired session: %v", err)
	}
	if _, err := s.Session(ctx, "nope", base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown session: %v", err)
	}
	if err := s.UpdateSession(ctx, "a", []byte("renewed"), base.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Session(ctx, "a", base); string(got.Data) != "renewed" || !got.LastSeen.Equal(base.Add(time.Minute)) {
		t.Errorf("after update: %+v", got)
	}
	if err := s.UpdateSession(ctx, "nope", nil, base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("update of an unknown session: %v", err)
	}
	list, err := s.SessionsOf(ctx, "carol", base)
	if err != nil || len(list) != 2 || list[0].ID != "a" || list[1].ID != "b" || list[0].Data != nil {
		t.Errorf("carol's sessions: %+v %v", list, err)
	}
	if all, _ := s.SessionsOf(ctx, "", base); len(all) != 3 {
		t.Errorf("all sessions: %d", len(all))
	}
	if n, _ := s.CountSessions(ctx, base); n != 3 {
		t.Errorf("count %d", n)
	}
	if n, err := s.DeleteExpiredSessions(ctx, base); err != nil || n != 1 {
		t.Errorf("sweep: %d %v", n, err)
	}
	if err := s.DeleteSession(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, "a", base); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted session: %v", err)
	}
}

func testJobs(t *testing.T, s store.Store) {
	ctx := context.Background()
	j := store.Job{ID: "j1", Kind: "bulk", BU: "scada", Stage: "dev", Owner: "bob", Principal: []byte(`{"sub":"bob"}`),
		Items: []byte(`[1,2,3]`), State: "running", Replica: "r1", Created: base, Heartbeat: base}
	if err := s.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateJob(ctx, j); err == nil {
		t.Error("a second job with the same id was stored")
	}
	if err := s.SaveJobResult(ctx, "j1", "r1", 2, []byte(`"third"`), base.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveJobResult(ctx, "j1", "r1", 0, []byte(`"first"`), base.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Job(ctx, "j1")
	if err != nil || got.State != "running" || string(got.Items) != "[1,2,3]" || len(got.Results) != 3 ||
		string(got.Results[0]) != `"first"` || got.Results[1] != nil || string(got.Results[2]) != `"third"` || !got.Heartbeat.Equal(base.Add(2*time.Second)) {
		t.Fatalf("job: %+v %v", got, err)
	}
	// The lease: another replica's writes are refused while r1 holds it,
	// and it cannot claim a job whose heartbeat is fresh.
	if err := s.SaveJobResult(ctx, "j1", "r2", 1, []byte(`"second"`), base.Add(3*time.Second)); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("a result from a replica without the lease: %v", err)
	}
	if ok, err := s.Heartbeat(ctx, "j1", "r2", base.Add(3*time.Second)); ok || err != nil {
		t.Errorf("a heartbeat from a replica without the lease: %v %v", ok, err)
	}
	if ok, err := s.ClaimJob(ctx, "j1", "r2", base.Add(3*time.Second), base.Add(2*time.Second)); ok || err != nil {
		t.Errorf("a fresh job was claimed: %v %v", ok, err)
	}
	if ok, err := s.Heartbeat(ctx, "j1", "r1", base.Add(4*time.Second)); !ok || err != nil {
		t.Errorf("the holder's heartbeat: %v %v", ok, err)
	}
	if stale, _ := s.StaleJobs(ctx, base.Add(time.Minute)); len(stale) != 1 || stale[0].ID != "j1" {
		t.Errorf("stale: %+v", stale)
	}
	if stale, _ := s.StaleJobs(ctx, base); len(stale) != 0 {
		t.Errorf("fresh job counted stale: %+v", stale)
	}
	// r1 goes silent: r2 claims the job once its heartbeat is stale, and
	// from then on r1's writes are refused; only one claim wins.
	if ok, err := s.ClaimJob(ctx, "j1", "r2", base.Add(time.Minute), base.Add(30*time.Second)); !ok || err != nil {
		t.Fatalf("claiming a stale job: %v %v", ok, err)
	}
	if ok, _ := s.ClaimJob(ctx, "j1", "r3", base.Add(time.Minute), base.Add(30*time.Second)); ok {
		t.Error("a job was claimed twice")
	}
	if err := s.SaveJobResult(ctx, "j1", "r1", 1, []byte(`"late"`), base.Add(time.Minute)); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("a result from the replica that lost the lease: %v", err)
	}
	if ok, _ := s.FinishJob(ctx, "j1", "r1", "done", "", base.Add(time.Minute)); ok {
		t.Error("the replica that lost the lease finished the job")
	}
	if err := s.SaveJobResult(ctx, "j1", "r2", 1, []byte(`"second"`), base.Add(61*time.Second)); err != nil {
		t.Fatal(err)
	}
	// A release hands the job over at once, whatever the heartbeat.
	if err := s.ReleaseJob(ctx, "j1", "r2"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ClaimJob(ctx, "j1", "r3", base.Add(62*time.Second), base.Add(62*time.Second)); !ok || err != nil {
		t.Fatalf("claiming a released job: %v %v", ok, err)
	}
	if got, _ := s.Job(ctx, "j1"); got.Replica != "r3" || string(got.Results[1]) != `"second"` {
		t.Errorf("after the hand-over: %+v", got)
	}
	if counts, _ := s.CountJobs(ctx); counts["running"] != 1 {
		t.Errorf("counts %v", counts)
	}
	ok, err := s.FinishJob(ctx, "j1", "r3", "done", "", base.Add(time.Hour))
	if err != nil || !ok {
		t.Fatalf("finish: %v %v", ok, err)
	}
	if ok, _ := s.FinishJob(ctx, "j1", "", "failed", "again", base.Add(time.Hour)); ok {
		t.Error("a finished job was finished again")
	}
	if ok, _ := s.ClaimJob(ctx, "j1", "r2", base.Add(2*time.Hour), base.Add(2*time.Hour)); ok {
		t.Error("a finished job was claimed")
	}
	if got, _ := s.Job(ctx, "j1"); got.State != "done" || !got.Finished.Equal(base.Add(time.Hour)) {
		t.Errorf("finished job %+v", got)
	}
	if n, err := s.DeleteFinishedJobs(ctx, base.Add(2*time.Hour)); err != nil || n != 1 {
		t.Errorf("sweep %d %v", n, err)
	}
	if _, err := s.Job(ctx, "j1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("swept job: %v", err)
	}
}

func testAudit(t *testing.T, s store.Store) {
	ctx := context.Background()
	var ids []int64
	for i := range 30 {
		e := trail.AuditEvent{Time: base.Add(time.Duration(i) * time.Minute), Actor: []string{"carol", "bob"}[i%2], ActorRole: "developer",
			Groups: []string{"sg-scada-developers"}, SourceIP: "10.0.0.1", UserAgent: "curl", RequestID: fmt.Sprint("req", i),
			BU: []string{"scada", "crm"}[i%3/2], Stage: "dev", Action: []portal.Action{portal.ActTopicCreate, portal.ActTopicDelete}[i%2],
			Resource: fmt.Sprint("t", i), Outcome: "ok", Changes: []trail.Change{{Field: "retention.ms", Before: "1", After: "2"}}}
		id, err := s.AppendAudit(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids not increasing: %v", ids)
	}
	page, err := s.ListAudit(ctx, store.AuditFilter{BU: "scada", Limit: 5})
	if err != nil || len(page) != 5 || page[0].ID != ids[28] || page[0].Resource != "t28" {
		t.Fatalf("first page: %+v %v", page, err)
	}
	e := page[0]
	if e.Actor != "bob" && e.Actor != "carol" || len(e.Groups) != 1 || len(e.Changes) != 1 || e.Changes[0].After != "2" || e.RequestID != "req28" || !e.Time.Equal(base.Add(28*time.Minute)) {
		t.Errorf("event %+v", e)
	}
	next, _ := s.ListAudit(ctx, store.AuditFilter{BU: "scada", Limit: 5, After: &store.AuditCursor{At: page[4].Time, ID: page[4].ID}})
	if len(next) != 5 || next[0].ID >= page[4].ID {
		t.Errorf("second page %+v", next)
	}
	if got, _ := s.ListAudit(ctx, store.AuditFilter{Actor: "carol", Action: "topic.create"}); len(got) != 15 {
		t.Errorf("carol's creates: %d", len(got))
	}
	if got, _ := s.ListAudit(ctx, store.AuditFilter{Since: base.Add(10 * time.Minute), Until: base.Add(20 * time.Minute)}); len(got) != 10 {
		t.Errorf("time range: %d", len(got))
	}
	if _, err := s.AppendAudit(ctx, trail.AuditEvent{Time: base.Add(time.Hour), Actor: "frank", LandingZone: "edh-shared", Stage: "qas",
		Action: portal.ActReadOnlySet, Resource: "edh-shared/qas", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ListAudit(ctx, store.AuditFilter{LandingZone: "edh-shared"}); len(got) != 1 || got[0].LandingZone != "edh-shared" || got[0].Action != portal.ActReadOnlySet {
		t.Errorf("by landing zone: %+v", got)
	}
	if got, _ := s.ListAudit(ctx, store.AuditFilter{Resource: "t7"}); len(got) != 1 || got[0].Resource != "t7" {
		t.Errorf("by resource: %+v", got)
	}
	if n, err := s.DeleteAuditBefore(ctx, base.Add(10*time.Minute)); err != nil || n != 10 {
		t.Errorf("retention: %d %v", n, err)
	}
	// An attempt recorded ahead of its write, found by its request
	// (a bulk job resumed elsewhere), then settled once.
	id, err := s.AppendAudit(ctx, trail.AuditEvent{Time: base.Add(2 * time.Hour), Actor: "bob", BU: "scada", Stage: "dev",
		Action: portal.ActServiceAccountCreate, Resource: "sa-x", Outcome: "unknown", RequestID: "req-bulk"})
	if err != nil {
		t.Fatal(err)
	}
	if found, err := s.UnsettledAttempt(ctx, "req-bulk", portal.ActServiceAccountCreate, "sa-x"); err != nil || found != id {
		t.Errorf("the request's attempt: %d %v, want %d", found, err, id)
	}
	if _, err := s.UnsettledAttempt(ctx, "req-other", portal.ActServiceAccountCreate, "sa-x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another request's attempt: %v", err)
	}
	if err := s.SettleAudit(ctx, id, "ok", "", "sa-x (sa-1)", []trail.Change{{Field: "role_binding", After: "Operator"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UnsettledAttempt(ctx, "req-bulk", portal.ActServiceAccountCreate, "sa-x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a settled attempt was found unsettled: %v", err)
	}
	// Settling again (an answer lost, retried) changes nothing.
	if err := s.SettleAudit(ctx, id, "UPSTREAM_TIMEOUT", "late", "sa-x", nil); err != nil {
		t.Errorf("settling again: %v", err)
	}
	got, _ := s.ListAudit(ctx, store.AuditFilter{Action: "service-account.create"})
	if len(got) != 1 || got[0].Outcome != "ok" || got[0].Resource != "sa-x (sa-1)" || len(got[0].Changes) != 1 || got[0].Actor != "bob" {
		t.Errorf("settled attempt: %+v", got)
	}
	if err := s.SettleAudit(ctx, id+1000, "ok", "", "", nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("settling an unknown event: %v", err)
	}
	// Readiness writes.
	for range 2 {
		if err := s.CheckWritable(ctx, "replica-1", base); err != nil {
			t.Errorf("write check: %v", err)
		}
	}
}

func testSamples(t *testing.T, s store.Store) {
	ctx := context.Background()
	for i, v := range []int64{10, 11, 20, 30} {
		at := base.Add(time.Duration(i) * 10 * time.Second)
		if i == 1 {
			at = base.Add(2 * time.Second) // too close to the first: dropped
		}
		if err := s.AddSample(ctx, "edh-shared/dev/t", at, v, 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.SamplesSince(ctx, "edh-shared/dev/t", base)
	if err != nil || len(got) != 3 || got[0].Value != 10 || got[2].Value != 30 || !got[1].At.Equal(base.Add(20*time.Second)) {
		t.Errorf("samples %+v %v", got, err)
	}
	if n, _ := s.DeleteSamplesBefore(ctx, base.Add(15*time.Second)); n != 1 {
		t.Errorf("deleted %d", n)
	}
}

func testNotifications(t *testing.T, s store.Store) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ch, err := s.Subscribe(ctx, store.ChannelCache)
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.Subscribe(ctx, store.ChannelJobs)
	if err != nil {
		t.Fatal(err)
	}
	// A subscription may take a moment to reach the database: publish
	// until the first message arrives.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for got := false; !got; {
		if err := s.Publish(ctx, store.ChannelCache, "topics edh-shared/dev"); err != nil {
			t.Fatal(err)
		}
		select {
		case m := <-ch:
			if m != "topics edh-shared/dev" {
				t.Fatalf("message %q", m)
			}
			got = true
		case <-tick.C:
		case <-ctx.Done():
			t.Fatal("no notification arrived")
		}
	}
	select {
	case m := <-other:
		t.Errorf("a message reached another channel: %q", m)
	default:
	}
}

func testLocks(t *testing.T, s store.Store) {
	ctx := context.Background()
	unlock, ok, err := s.TryLock(ctx, []string{"topic edh-shared/dev t1"}, "replica-a")
	if err != nil || !ok {
		t.Fatalf("a free lock: %v %v", ok, err)
	}
	if _, ok, err := s.TryLock(ctx, []string{"topic edh-shared/dev t1"}, "replica-b"); ok || err != nil {
		t.Errorf("a held lock was taken: %v %v", ok, err)
	}
	other, ok, err := s.TryLock(ctx, []string{"topic edh-shared/dev t2"}, "replica-b")
	if err != nil || !ok {
		t.Fatalf("another key: %v %v", ok, err)
	}
	other()
	unlock()
	again, ok, err := s.TryLock(ctx, []string{"topic edh-shared/dev t1"}, "replica-b")
	if err != nil || !ok {
		t.Fatalf("a released lock: %v %v", ok, err)
	}
	again()
	// Locks held at once do not starve the store of connections.
	var releases []func()
	for i := range 8 {
		u, ok, err := s.TryLock(ctx, []string{fmt.Sprintf("key-%d", i)}, "replica-a")
		if err != nil || !ok {
			t.Fatalf("lock %d: %v %v", i, ok, err)
		}
		releases = append(releases, u)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("the store with 8 locks held: %v", err)
	}
	for _, u := range releases {
		u()
	}

	// Many keys at once: all or none, on one connection.
	held, ok, err := s.TryLock(ctx, []string{"topic edh-shared/dev m2"}, "replica-b")
	if err != nil || !ok {
		t.Fatalf("m2: %v %v", ok, err)
	}
	if _, ok, err := s.TryLock(ctx, []string{"topic edh-shared/dev m1", "topic edh-shared/dev m2", "topic edh-shared/dev m3"}, "replica-a"); ok || err != nil {
		t.Errorf("three keys, one of them held, were taken: %v %v", ok, err)
	}
	for _, key := range []string{"topic edh-shared/dev m1", "topic edh-shared/dev m3"} {
		u, ok, err := s.TryLock(ctx, []string{key}, "replica-b")
		if err != nil || !ok {
			t.Fatalf("%s stayed taken after a refused try of three: %v %v", key, ok, err)
		}
		u()
	}
	held()
	var many []string
	for i := range 500 {
		many = append(many, fmt.Sprintf("topic edh-shared/dev many-%03d", i))
	}
	all, ok, err := s.TryLock(ctx, many, "replica-a")
	if err != nil || !ok {
		t.Fatalf("500 free keys: %v %v", ok, err)
	}
	if _, ok, err := s.TryLock(ctx, []string{many[250]}, "replica-b"); ok || err != nil {
		t.Errorf("a key among 500 held was taken: %v %v", ok, err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("the store with 500 locks held: %v", err)
	}
	all()
	if u, ok, err := s.TryLock(ctx, many[499:], "replica-b"); err != nil || !ok {
		t.Errorf("a key of 500 released: %v %v", ok, err)
	} else {
		u()
	}
}

func testLeases(t *testing.T, s store.Store) {
	ctx := context.Background()
	if ok, err := s.AcquireLease(ctx, "sweeper", "a", base.Add(time.Minute), base); !ok || err != nil {
		t.Fatalf("a free lease: %v %v", ok, err)
	}
	if ok, _ := s.AcquireLease(ctx, "sweeper", "b", base.Add(2*time.Minute), base.Add(30*time.Second)); ok {
		t.Error("b took a's running lease")
	}
	if ok, _ := s.AcquireLease(ctx, "sweeper", "a", base.Add(2*time.Minute), base.Add(30*time.Second)); !ok {
		t.Error("a could not renew its lease")
	}
	if ok, _ := s.AcquireLease(ctx, "other", "b", base.Add(time.Minute), base); !ok {
		t.Error("another lease was not free")
	}
	// a stops renewing: once its lease lapsed, b takes it.
	if ok, _ := s.AcquireLease(ctx, "sweeper", "b", base.Add(4*time.Minute), base.Add(3*time.Minute)); !ok {
		t.Error("b could not take a lapsed lease")
	}
	if ok, _ := s.AcquireLease(ctx, "sweeper", "a", base.Add(5*time.Minute), base.Add(3*time.Minute)); ok {
		t.Error("a took back b's lease")
	}
}

func testKeyRecords(t *testing.T, s store.Store) {
	ctx := context.Background()
	keys := []store.KeyRecord{
		{ID: "K1", Owner: "sa-1", Resource: "lkc-1", Zone: "edh-shared", BU: "scada", Stage: "run", CreatedBy: "bob", Created: base, Expires: base.Add(90 * 24 * time.Hour)},
		{ID: "K2", Owner: "sa-1", Resource: "lkc-1", Zone: "edh-shared", BU: "scada", Stage: "run", CreatedBy: "bob", Created: base, Expires: base.Add(time.Hour)},
		{ID: "K3", Owner: "sa-2", Resource: "lsrc-1", Zone: "edh-shared", BU: "scada", Stage: "dev", Created: base, Adopted: true},
	}
	for _, k := range keys {
		if err := s.SaveKey(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Keys(ctx, []string{"K1", "K3", "K9"})
	if err != nil || len(got) != 2 || got["K1"].CreatedBy != "bob" || !got["K1"].Expires.Equal(keys[0].Expires) || !got["K3"].Adopted || !got["K3"].Expires.IsZero() {
		t.Fatalf("keys: %+v %v", got, err)
	}
	// A rotation: K2 replaced, expiring sooner.
	k2 := keys[1]
	k2.ReplacedBy, k2.Expires = "K4", base.Add(30*time.Minute)
	if err := s.SaveKey(ctx, k2); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Keys(ctx, []string{"K2"}); got["K2"].ReplacedBy != "K4" || !got["K2"].Expires.Equal(k2.Expires) {
		t.Errorf("updated record %+v", got["K2"])
	}
	if staged, err := s.StageKeys(ctx, "edh-shared", "run"); err != nil || len(staged) != 2 || staged[0].ID != "K1" || staged[1].ID != "K2" {
		t.Errorf("the run stage's keys: %+v %v", staged, err)
	}
	expired, err := s.ExpiredKeys(ctx, base.Add(2*time.Hour), 10)
	if err != nil || len(expired) != 1 || expired[0].ID != "K2" {
		t.Errorf("expired: %+v %v", expired, err)
	}
	counts, err := s.CountExpiringKeys(ctx, base.Add(100*24*time.Hour))
	if err != nil || len(counts) != 1 || counts[0] != (store.KeyCount{Zone: "edh-shared", BU: "scada", Stage: "run", N: 2}) {
		t.Errorf("expiring: %v %v", counts, err)
	}
	if err := s.DeleteKeys(ctx, []string{"K2"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Keys(ctx, []string{"K2"}); len(got) != 0 {
		t.Error("a deleted record is still there")
	}
	testKeyReadiness(t, s)
}

// testKeyReadiness: a new key provisions with its sealed secret until it
// is settled once; a stale copy saved later keeps it settled.
func testKeyReadiness(t *testing.T, s store.Store) {
	ctx := context.Background()
	k := store.KeyRecord{ID: "K5", Owner: "sa-1", Resource: "lkc-1", Zone: "edh-shared", BU: "scada", Stage: "dev", CreatedBy: "bob", Created: base,
		State: store.KeyProvisioning, Probe: "sealed"}
	if err := s.SaveKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	if p, err := s.ProvisioningKeys(ctx, 10); err != nil || len(p) != 1 || p[0].ID != "K5" || p[0].Probe != "sealed" {
		t.Fatalf("provisioning: %+v %v", p, err)
	}
	if ok, err := s.SettleKey(ctx, "K5", store.KeyReady, base.Add(time.Minute)); !ok || err != nil {
		t.Fatalf("settle: %v %v", ok, err)
	}
	if ok, err := s.SettleKey(ctx, "K5", store.KeyUnverified, base.Add(2*time.Minute)); ok || err != nil {
		t.Fatalf("settled twice: %v %v", ok, err)
	}
	k.ReplacedBy = "K6"
	if err := s.SaveKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Keys(ctx, []string{"K5"})
	if r := got["K5"]; r.State != store.KeyReady || !r.ReadyAt.Equal(base.Add(time.Minute)) || r.Probe != "" || r.ReplacedBy != "K6" {
		t.Errorf("after a stale save: %+v", r)
	}
	if p, _ := s.ProvisioningKeys(ctx, 10); len(p) != 0 {
		t.Errorf("still provisioning: %+v", p)
	}
	_ = s.DeleteKeys(ctx, []string{"K5"})
}

func testGuardrails(t *testing.T, s store.Store) {
	ctx := context.Background()
	p := store.PolicyRecord{ID: "dev-partitions", Zone: "edh-shared", Body: []byte(`{"action":"report"}`), UpdatedBy: "frank", Updated: base}
	if err := s.PutPolicyRecord(ctx, p); err != nil {
		t.Fatal(err)
	}
	p.Body, p.Updated = []byte(`{"action":"enforce"}`), base.Add(time.Minute)
	if err := s.PutPolicyRecord(ctx, p); err != nil {
		t.Fatal(err)
	}
	got, err := s.PolicyRecords(ctx)
	if err != nil || len(got) != 1 || string(got[0].Body) != `{"action":"enforce"}` || !got[0].Updated.Equal(p.Updated) || got[0].UpdatedBy != "frank" {
		t.Fatalf("policies: %+v %v", got, err)
	}
	if err := s.DeletePolicyRecord(ctx, "dev-partitions"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePolicyRecord(ctx, "dev-partitions"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	b := store.BudgetRecord{BU: "scada", Stage: "dev", Zone: "edh-shared", Limits: []byte(`{"partitions":20}`), UpdatedBy: "frank", Updated: base}
	if err := s.PutBudgetRecord(ctx, b); err != nil {
		t.Fatal(err)
	}
	b.Limits = []byte(`{"partitions":30}`)
	if err := s.PutBudgetRecord(ctx, b); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBudgetRecord(ctx, store.BudgetRecord{BU: "scada", Stage: "run", Zone: "edh-shared", Limits: []byte(`{}`), UpdatedBy: "frank", Updated: base}); err != nil {
		t.Fatal(err)
	}
	bs, err := s.BudgetRecords(ctx)
	if err != nil || len(bs) != 2 || string(bs[0].Limits) != `{"partitions":30}` || bs[1].Stage != "run" {
		t.Fatalf("budgets: %+v %v", bs, err)
	}
	if err := s.DeleteBudgetRecord(ctx, "scada", "run"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteBudgetRecord(ctx, "scada", "run"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func testWebhooks(t *testing.T, s store.Store) {
	ctx := context.Background()
	w := store.WebhookRecord{ID: "wh-1", Zone: "edh-shared", BU: "scada", URL: "https://example.test/hook", Secret: "whsec_x", CreatedBy: "frank", Created: base}
	if err := s.CreateWebhookRecord(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWebhookRecord(ctx, w); !errors.Is(err, store.ErrExists) {
		t.Fatalf("second create: %v", err)
	}
	start, err := s.OutboxEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Two complete events and an attempt: the attempt enters the outbox
	// once it is settled, after the others; settled again with the same
	// outcome (amended), it does not enter it twice.
	var ids []int64
	for i, outcome := range []string{"ok", "unknown", "INVALID_PARAMETER"} {
		id, err := s.AppendAudit(ctx, trail.AuditEvent{Time: base.Add(time.Duration(i) * time.Second), Actor: "carol", Action: portal.ActTopicCreate, Outcome: outcome, Resource: fmt.Sprint("t", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if unknown, err := s.UnknownAttempts(ctx, time.Now(), store.Gone{}, 10); err != nil || len(unknown) != 1 || unknown[0].ID != ids[1] {
		t.Fatalf("unknown attempts: %+v %v", unknown, err)
	}
	for range 2 {
		if err := s.SettleAudit(ctx, ids[1], "ok", "", "t1 (id)", nil); err != nil {
			t.Fatal(err)
		}
	}
	out, err := s.OutboxAfter(ctx, start, 10)
	if err != nil || len(out) != 3 || out[0].Event.ID != ids[0] || out[1].Event.ID != ids[2] || out[2].Event.ID != ids[1] ||
		out[2].Event.Outcome != "ok" || out[2].Event.Resource != "t1 (id)" || !out[0].Pos.Less(out[1].Pos) || !out[1].Pos.Less(out[2].Pos) {
		t.Fatalf("outbox: %+v %v", out, err)
	}
	if more, err := s.OutboxAfter(ctx, out[0].Pos, 10); err != nil || len(more) != 2 || more[0].Event.ID != ids[2] {
		t.Fatalf("outbox after the first: %+v %v", more, err)
	}
	if end, err := s.OutboxEnd(ctx); err != nil || end != out[2].Pos {
		t.Fatalf("outbox end %+v, want %+v: %v", end, out[2].Pos, err)
	}
	// An attempt nobody can settle any more is published as it is, once.
	stale, err := s.AppendAudit(ctx, trail.AuditEvent{Time: base, Actor: "carol", Action: portal.ActTopicDelete, Outcome: "unknown", Resource: "t9"})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.PublishAudit(ctx, stale); err != nil {
			t.Fatal(err)
		}
	}
	if unknown, _ := s.UnknownAttempts(ctx, time.Now(), store.Gone{}, 10); len(unknown) != 0 {
		t.Errorf("a published attempt is still listed: %+v", unknown)
	}
	published, _ := s.OutboxAfter(ctx, out[2].Pos, 10)
	if len(published) != 1 || published[0].Event.ID != stale || published[0].Event.Outcome != "unknown" {
		t.Errorf("the published attempt: %+v", published)
	}
	// Settled after all (a job finished it): it enters again, final, and
	// its publication as unknown is not read any more.
	if err := s.SettleAudit(ctx, stale, "ok", "", "t9", nil); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.OutboxAfter(ctx, out[2].Pos, 10); len(again) != 1 || again[0].Event.ID != stale || again[0].Event.Outcome != "ok" ||
		!published[0].Pos.Less(again[0].Pos) {
		t.Errorf("the attempt settled after its publication: %+v", again)
	}
	queue := []store.Delivery{{EventID: ids[0], EventAt: base, Next: base, Body: []byte(`{"id":"1"}`), Subject: "t0"},
		{EventID: ids[2], EventAt: base, Next: base.Add(time.Hour), Subject: "t2"}}
	if err := s.QueueDeliveries(ctx, "wh-1", queue, out[1].Pos); err != nil {
		t.Fatal(err)
	}
	// Queued again (a crash before the cursor moved): nothing doubles,
	// and the cursor never goes back.
	if err := s.QueueDeliveries(ctx, "wh-1", queue, out[1].Pos); err != nil {
		t.Fatal(err)
	}
	if err := s.QueueDeliveries(ctx, "wh-1", nil, out[0].Pos); err != nil {
		t.Fatal(err)
	}
	hooks, err := s.WebhookRecords(ctx)
	if err != nil || len(hooks) != 1 || hooks[0].Cursor != out[1].Pos || hooks[0].Secret != "whsec_x" {
		t.Fatalf("webhooks: %+v %v", hooks, err)
	}
	due, err := s.PendingDeliveries(ctx, 10)
	if err != nil || len(due) != 2 || due[0].EventID != ids[0] || due[0].State != store.DeliveryPending || string(due[0].Body) != `{"id":"1"}` ||
		due[0].Subject != "t0" {
		t.Fatalf("due: %+v %v", due, err)
	}
	// One replica at a time makes a delivery's attempt: claimed, its
	// outcome saved only by its claimant; a claim that ran out is taken.
	d := due[0]
	now := base.Add(time.Minute)
	if ok, err := s.ClaimDelivery(ctx, "wh-1", d.EventID, "a", now.Add(30*time.Second), now); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if ok, _ := s.ClaimDelivery(ctx, "wh-1", d.EventID, "b", now.Add(30*time.Second), now.Add(time.Second)); ok {
		t.Error("b claimed a delivery a holds")
	}
	d.State, d.Attempts, d.LastStatus, d.Done = store.DeliveryDelivered, 1, 204, now
	if ok, err := s.SaveDelivery(ctx, d, "b"); err != nil || ok {
		t.Errorf("b saved a's delivery: %v %v", ok, err)
	}
	if ok, _ := s.ClaimDelivery(ctx, "wh-1", d.EventID, "b", now.Add(2*time.Minute), now.Add(time.Minute)); !ok {
		t.Fatal("b did not take a claim that ran out")
	}
	if ok, err := s.SaveDelivery(ctx, d, "b"); err != nil || !ok {
		t.Fatalf("b's save: %v %v", ok, err)
	}
	if ok, _ := s.ClaimDelivery(ctx, "wh-1", d.EventID, "a", now.Add(time.Hour), now.Add(time.Hour)); ok {
		t.Error("a delivered delivery was claimed again")
	}
	// Queued again as it is: still delivered; with another body (its
	// attempt settled since), pending again.
	if err := s.QueueDeliveries(ctx, "wh-1", queue[:1], out[1].Pos); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.PendingDeliveries(ctx, 10); len(due) != 1 {
		t.Errorf("an unchanged event queued again is pending: %+v", due)
	}
	settled := queue[0]
	settled.Body = []byte(`{"id":"1","outcome":"ok"}`)
	if err := s.QueueDeliveries(ctx, "wh-1", []store.Delivery{settled}, out[1].Pos); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.PendingDeliveries(ctx, 10); len(due) != 2 || due[0].EventID != ids[0] || string(due[0].Body) != string(settled.Body) || due[0].Attempts != 0 {
		t.Errorf("a settled event queued again: %+v", due)
	}
	d.Body = settled.Body
	if ok, _ := s.ClaimDelivery(ctx, "wh-1", d.EventID, "a", now.Add(time.Hour), now.Add(time.Hour)); !ok {
		t.Fatal("the event queued again was not claimed")
	}
	if ok, err := s.SaveDelivery(ctx, d, "a"); err != nil || !ok {
		t.Fatalf("a's save: %v %v", ok, err)
	}
	all, err := s.Deliveries(ctx, "wh-1", 10)
	if err != nil || len(all) != 2 || all[0].EventID != ids[2] || all[1].State != store.DeliveryDelivered || all[1].LastStatus != 204 {
		t.Fatalf("deliveries: %+v %v", all, err)
	}
	if counts, err := s.DeliveryCounts(ctx); err != nil || counts["wh-1"][store.DeliveryPending] != 1 || counts["wh-1"][store.DeliveryDelivered] != 1 {
		t.Fatalf("counts: %v %v", counts, err)
	}
	if err := s.DeleteWebhookRecord(ctx, "wh-1"); err != nil {
		t.Fatal(err)
	}
	if all, _ := s.Deliveries(ctx, "wh-1", 10); len(all) != 0 {
		t.Errorf("deliveries outlive their webhook: %+v", all)
	}
	if err := s.DeleteWebhookRecord(ctx, "wh-1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func testRequests(t *testing.T, s store.Store) {
	ctx := context.Background()
	for i, id := range []string{"cr-1", "cr-2"} {
		r := store.RequestRecord{ID: id, Zone: "edh-shared", BU: "scada", Stage: "run", Requester: "carol", RequesterSubject: "sub-carol", Reason: "more partitions",
			Document: []byte(`{"Resources":[]}`), Fingerprint: "fp", Plan: []byte(`{}`), State: "open", Created: base.Add(time.Duration(i) * time.Minute)}
		if err := s.CreateRequestRecord(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.RequestRecords(ctx, "scada", "run", "", 10)
	if err != nil || len(list) != 2 || list[0].ID != "cr-2" || list[1].Reason != "more partitions" || string(list[1].Document) != `{"Resources":[]}` {
		t.Fatalf("requests: %+v %v", list, err)
	}
	r := list[1]
	r.State, r.DecidedBy, r.Decided, r.Comment, r.Result = "applied", "bob", base.Add(time.Hour), "ok", []byte(`{"done":true}`)
	if ok, err := s.DecideRequest(ctx, r, "open"); err != nil || !ok {
		t.Fatalf("decide: %v %v", ok, err)
	}
	r.State = "rejected"
	if ok, err := s.DecideRequest(ctx, r, "open"); err != nil || ok {
		t.Fatalf("a second decision went through: %v %v", ok, err)
	}
	got, err := s.RequestRecord(ctx, "cr-1")
	if err != nil || got.State != "applied" || got.DecidedBy != "bob" || !got.Decided.Equal(base.Add(time.Hour)) || string(got.Result) != `{"done":true}` {
		t.Fatalf("request: %+v %v", got, err)
	}
	if open, err := s.OpenRequests(ctx, 10); err != nil || len(open) != 1 || open[0].ID != "cr-2" {
		t.Fatalf("open: %+v %v", open, err)
	}
	if only, _ := s.RequestRecords(ctx, "scada", "run", "applied", 10); len(only) != 1 {
		t.Errorf("by state: %+v", only)
	}
	if _, err := s.RequestRecord(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing: %v", err)
	}
}

func testGrants(t *testing.T, s store.Store) {
	ctx := context.Background()
	mk := func(id, owner, grantee string, i int) store.GrantRecord {
		return store.GrantRecord{ID: id, Zone: "edh-shared", Stage: "run", Owner: owner, Grantee: grantee, Principal: "sa-1", PrincipalName: "sa-x",
			Pattern: "lz1-scada-run-orders", Prefixed: i%2 == 1, Access: "read", State: "requested", Requester: "erin", RequesterSubject: "sub-erin",
			Reason: "reports", Created: base.Add(time.Duration(i) * time.Minute)}
	}
	for i, g := range []store.GrantRecord{mk("gr-1", "scada", "crm", 0), mk("gr-2", "scada", "crm", 1), mk("gr-3", "crm", "billing", 2)} {
		if err := s.CreateGrantRecord(ctx, g); err != nil {
			t.Fatal(i, err)
		}
	}
	if err := s.CreateGrantRecord(ctx, mk("gr-1", "scada", "crm", 0)); err == nil {
		t.Error("a second grant with the same id was stored")
	}
	scada, err := s.GrantRecords(ctx, "scada", "run", 10)
	if err != nil || len(scada) != 2 || scada[0].ID != "gr-2" || !scada[0].Prefixed || scada[1].Prefixed || scada[1].Reason != "reports" {
		t.Fatalf("owner's grants: %+v %v", scada, err)
	}
	if crm, _ := s.GrantRecords(ctx, "crm", "run", 10); len(crm) != 3 {
		t.Errorf("a unit lists what it gave and what it received: %+v", crm)
	}
	if none, _ := s.GrantRecords(ctx, "crm", "dev", 10); len(none) != 0 {
		t.Errorf("another stage's grants: %+v", none)
	}
	g := scada[1]
	g.State, g.DecidedBy, g.Decided, g.Comment, g.Bindings = "active", "bob", base.Add(time.Hour), "fine", []string{"rb-1", "rb-2"}
	if ok, err := s.UpdateGrant(ctx, g, "requested"); err != nil || !ok {
		t.Fatalf("approve: %v %v", ok, err)
	}
	g.State = "rejected"
	if ok, err := s.UpdateGrant(ctx, g, "requested"); err != nil || ok {
		t.Fatalf("a second decision went through: %v %v", ok, err)
	}
	got, err := s.GrantRecord(ctx, "gr-1")
	if err != nil || got.State != "active" || got.DecidedBy != "bob" || !got.Decided.Equal(base.Add(time.Hour)) || len(got.Bindings) != 2 || got.Bindings[1] != "rb-2" {
		t.Fatalf("grant: %+v %v", got, err)
	}
	if open, err := s.GrantsInState(ctx, "requested", 10); err != nil || len(open) != 2 || open[0].ID != "gr-2" {
		t.Fatalf("requested: %+v %v", open, err)
	}
	if _, err := s.GrantRecord(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing: %v", err)
	}
}
