package alerts_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/alert"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// firedAndResolved lists the alert events of the trail as "fire rule
// subject" and "resolve rule subject", oldest first.
func firedAndResolved(t *testing.T, w *servicetest.World) []string {
	t.Helper()
	var out []string
	evs := w.AuditEvents(t)
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		if (e.Action == portal.ActAlertFire || e.Action == portal.ActAlertResolve) && e.Actor == "portal" {
			out = append(out, strings.TrimPrefix(e.Action.String(), "alert.")+" "+e.BU+"/"+e.Stage+" "+e.Resource)
		}
	}
	return out
}

// TestAlertRulesAccessAndDefaults: anyone of the unit reads its rules
// (the platform's defaults until it saves one of their names);
// Developers and up change them, not in read-only stages; bad rules
// change nothing; a unit's rule replaces the default, its deletion brings
// the default back; a silence needs a reason.
func TestAlertRulesAccessAndDefaults(t *testing.T) {
	w := servicetest.New(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	rules, err := w.Alerts.Rules(servicetest.AsRole(portal.Viewer), dev)
	if err != nil || len(rules) != 2 || !rules[0].Default || rules[0].Name != "connector-failed" || rules[1].Name != "key-expiring" {
		t.Fatalf("defaults: %+v %v", rules, err)
	}
	// The unit's lag rule; then one of a default's name replaces it.
	if _, err := w.Alerts.PutRule(servicetest.AsRole(portal.Developer), dev, alert.AlertRule{Name: "lag", Kind: "lag_time", Threshold: 900, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	lag := alert.AlertRule{Name: "lag", Kind: "lag_time", Threshold: 60, For: time.Minute, Enabled: true}
	if _, err := w.Alerts.PutRule(servicetest.AsRole(portal.Viewer), dev, lag); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a Viewer: %v", err)
	}
	if _, err := w.Alerts.PutRule(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "run"}, lag); !portal.Is(err, portal.ReadOnlyEnvironment) {
		t.Errorf("a Developer in run: %v", err)
	}
	for _, bad := range []alert.AlertRule{{Name: "x", Kind: "nope"}, {Name: "Bad Name", Kind: "lag_time", Threshold: 1},
		{Name: "k", Kind: "key_expiring", Threshold: 0}, {Name: "k", Kind: "key_expiring", Threshold: 7, Target: "orders"},
		{Name: "l", Kind: "lag_time", Threshold: 10, For: 48 * time.Hour}, {Name: "b", Kind: "budget_headroom", Threshold: 150}} {
		if _, err := w.Alerts.PutRule(servicetest.AsRole(portal.Developer), dev, bad); !portal.Is(err, portal.InvalidParameter) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	// A bad name is told once, in one voice.
	_, err = w.Alerts.PutRule(servicetest.AsRole(portal.Developer), dev, alert.AlertRule{Name: "Bad Name", Kind: "lag_time", Threshold: 1})
	if ps := portal.Problems(err); len(ps) != 1 || ps[0].Message != `a rule's name is lower-case letters, digits and dashes, beginning and ending with a letter or digit, not "Bad Name"` {
		t.Errorf("a bad name's problem: %+v", ps)
	}
	if rules, _ := w.Alerts.Rules(servicetest.AsRole(portal.Viewer), dev); len(rules) != 3 || rules[2].Threshold != 900 {
		t.Fatalf("refusals changed the rules: %+v", rules)
	}
	saved, err := w.Alerts.PutRule(servicetest.AsRole(portal.Developer), dev, lag)
	if err != nil || saved.Default || saved.Target != "*" {
		t.Fatalf("save: %+v %v", saved, err)
	}
	if rules, _ := w.Alerts.Rules(servicetest.AsRole(portal.Viewer), dev); len(rules) != 3 || rules[2].Default || rules[2].Threshold != 60 {
		t.Errorf("after the save: %+v", rules)
	}
	if _, err := w.Alerts.PutRule(servicetest.AsRole(portal.Developer), dev, alert.AlertRule{Name: "connector-failed", Kind: "connector_failed", For: time.Hour, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if rules, _ := w.Alerts.Rules(servicetest.AsRole(portal.Viewer), dev); rules[0].Default || rules[0].For != time.Hour {
		t.Errorf("a default replaced: %+v", rules[0])
	}
	if _, err := w.Alerts.Silence(servicetest.AsRole(portal.Developer), dev, "key-expiring", alert.Silence{For: time.Hour}); !strings.Contains(servicetest.Problems(err), "reason") {
		t.Errorf("a silence without a reason: %v", err)
	}
	if r, err := w.Alerts.Silence(servicetest.AsRole(portal.Developer), dev, "key-expiring", alert.Silence{For: time.Hour, Reason: "rotating all keys"}); err != nil ||
		r.SilenceReason != "rotating all keys" || r.SilencedUntil.IsZero() {
		t.Errorf("silence: %+v %v", r, err)
	}
	if err := w.Alerts.DeleteRule(servicetest.AsRole(portal.Developer), dev, "lag"); err != nil {
		t.Fatal(err)
	}
	if err := w.Alerts.DeleteRule(servicetest.AsRole(portal.Developer), dev, "connector-failed"); err != nil {
		t.Fatal(err)
	}
	if err := w.Alerts.DeleteRule(servicetest.AsRole(portal.Developer), dev, "connector-failed"); !portal.Is(err, portal.NotFound) {
		t.Errorf("deleting a default: %v", err)
	}
	if rules, _ := w.Alerts.Rules(servicetest.AsRole(portal.Viewer), dev); len(rules) != 2 || !rules[0].Default || rules[0].For != 2*time.Minute || rules[1].Default {
		t.Errorf("after the deletes (the default back; the silenced default now the unit's): %+v", rules)
	}
}

// TestAlertRulesFireAndResolveThroughTheirSources: each kind through the
// source it reads (the Connect stand-in's failures, the groups'
// positions, the topics' ends, the keys' records, the budget), on the
// world's clock: fired after its duration, once, resolved after it ends,
// in the trail as the portal's; a round reads each source once per
// cluster, whatever the number of rules.
func TestAlertRulesFireAndResolveThroughTheirSources(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	dev2 := servicetest.AsRole(portal.Developer)
	sd := w.Seed(t, "scada", "dev")
	w.Connect["edh-shared/dev"].SetTiming(0, 0)
	cfg := servicetest.DatagenConfig()
	cfg["dev.failure"] = "connector"
	if _, err := w.Connectors.Create(dev2, dev, connect.NewConnector{Name: "broken", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []alert.AlertRule{
		{Name: "connector-failed", Kind: "connector_failed", Target: "broken", For: time.Minute, Enabled: true},
		{Name: "lag", Kind: "lag_time", Threshold: 60, For: 0, Enabled: true},
		{Name: "stalled", Kind: "stalled", For: 0, Enabled: true},
		{Name: "growth", Kind: "topic_growth", Target: "existing", Threshold: 5, For: 0, Enabled: true},
		{Name: "budget", Kind: "budget_headroom", Threshold: 60, Enabled: true},
	} {
		if _, err := w.Alerts.PutRule(dev2, dev, r); err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
	}
	if _, err := w.Rules.SetBudget(w.AsGroups("platform-admins"), "scada", "dev", map[string]int64{"topics": 2}); err != nil {
		t.Fatal(err)
	}
	cl := w.Clusters["edh-shared/dev"]
	tp := platform.TopicPartition{Topic: sd.Topic, Partition: 0}
	cl.AddGroup("edh-shared-scada-dev-billing", nil, map[platform.TopicPartition]int64{tp: 100})
	round := func(advance time.Duration) {
		t.Helper()
		w.Advance(advance)
		if _, err := w.Alerts.AlertRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	produce := func(n int) {
		recs := make([]platform.OutMessage, n)
		if _, err := cl.Produce(ctx, sd.Topic, recs); err != nil {
			t.Fatal(err)
		}
	}
	calls := cl.Calls()
	round(0)
	five := cl.Calls() - calls
	produce(1000) // billing falls behind, and stops committing
	round(30 * time.Second)
	round(40 * time.Second) // the failure seen for more than a minute
	got := strings.Join(firedAndResolved(t, w), "; ")
	for _, want := range []string{
		"fire scada/dev connector-failed edh-shared-scada-dev-broken-connector",
		"fire scada/dev lag edh-shared-scada-dev-billing",
		"fire scada/dev stalled edh-shared-scada-dev-billing",
		"fire scada/dev growth edh-shared-scada-dev-existing",
		"fire scada/dev budget topics",
	} {
		if strings.Count(got, want) != 1 {
			t.Errorf("%q is not in the trail once: %s", want, got)
		}
	}
	if strings.Contains(got, "crm/") {
		t.Errorf("another unit's alert: %s", got)
	}

	// Everything gets well: the connector restarted, billing caught up,
	// nothing written, a larger budget.
	if err := w.Connectors.Restart(dev2, dev, "broken", false); err != nil {
		t.Fatal(err)
	}
	if err := cl.CommitGroupOffsets(ctx, "edh-shared-scada-dev-billing", []platform.GroupOffset{{TopicPartition: tp, Offset: 1100}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Rules.SetBudget(w.AsGroups("platform-admins"), "scada", "dev", map[string]int64{"topics": 40}); err != nil {
		t.Fatal(err)
	}
	round(30 * time.Second)
	round(61 * time.Second)
	got = strings.Join(firedAndResolved(t, w), "; ")
	for _, want := range []string{"resolve scada/dev connector-failed", "resolve scada/dev lag", "resolve scada/dev stalled", "resolve scada/dev growth",
		"resolve scada/dev budget topics"} {
		if strings.Count(got, want) != 1 {
			t.Errorf("%q is not in the trail once: %s", want, got)
		}
	}
	hist, err := w.Alerts.History(servicetest.AsRole(portal.Viewer), dev)
	if err != nil || len(hist) < 5 {
		t.Errorf("history: %+v %v", hist, err)
	}
	// More rules of the same kinds read nothing more.
	for _, r := range []alert.AlertRule{{Name: "lag-2", Kind: "lag_time", Threshold: 1, Enabled: true}, {Name: "growth-2", Kind: "topic_growth", Threshold: 1, Enabled: true},
		{Name: "stalled-2", Kind: "stalled", Target: "billing", Enabled: true}, {Name: "budget-2", Kind: "budget_headroom", Threshold: 10, Enabled: true}} {
		if _, err := w.Alerts.PutRule(dev2, dev, r); err != nil {
			t.Fatal(err)
		}
	}
	calls = cl.Calls()
	round(time.Second)
	if more := cl.Calls() - calls; more != five {
		t.Errorf("a round made %d calls with nine rules, %d with five", more, five)
	}
}

// TestKeyExpiringAlert: a key of qas (30 days at most) is announced a
// week before it expires, once, and the alert resolves when the key is
// gone.
func TestKeyExpiringAlert(t *testing.T) {
	w := servicetest.New(t)
	qas := portal.Scope{BU: "scada", Stage: "qas"}
	sd := w.Seed(t, "scada", "qas")
	ctx := context.Background()
	for _, step := range []time.Duration{0, 22 * 24 * time.Hour, 24 * time.Hour, time.Hour} {
		w.Advance(step)
		if _, err := w.Alerts.AlertRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, e := range firedAndResolved(t, w) {
		if strings.Contains(e, "key-expiring") {
			got = append(got, e)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "fire scada/qas key-expiring "+sd.KeyID) {
		t.Errorf("the trail: %v", got)
	}
	hist, _ := w.Alerts.History(servicetest.AsRole(portal.Viewer), qas)
	found := false
	for _, h := range hist {
		found = found || h.Rule == "key-expiring" && h.State == "firing" && strings.Contains(h.Value, "expires")
	}
	if !found {
		t.Errorf("history: %+v", hist)
	}
	// The key expires and the sweeper deletes it: the alert resolves.
	w.Advance(7 * 24 * time.Hour)
	if _, err := w.APIKeys.Expire(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Alerts.AlertRound(ctx); err != nil {
		t.Fatal(err)
	}
	if last := firedAndResolved(t, w); !strings.Contains(strings.Join(last, ";"), "resolve scada/qas key-expiring "+sd.KeyID) {
		t.Errorf("after the expiry: %v", last)
	}
}

// TestAlertRulesAsCode: an AlertRule document plans its fields (a bad
// duration named at spec.for), applies as the unit's rule, exports, and a
// plan with prune deletes a rule it does not declare (the default of its
// name back).
func TestAlertRulesAsCode(t *testing.T) {
	w := servicetest.New(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	ctx := servicetest.AsRole(portal.Developer)
	off := false
	doc := ascode.Document{Resources: []portal.Resource{
		{Kind: portal.KindAlertRule, Name: "lag", Spec: &portal.AlertRuleDecl{Kind: "lag_time", Threshold: 120, For: "2m"}},
		{Kind: portal.KindAlertRule, Name: "slow-sink", Spec: &portal.AlertRuleDecl{Kind: "connector_failed", Target: "sink", For: "1m", Enabled: &off}},
	}}
	bad := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindAlertRule, Name: "x", Spec: &portal.AlertRuleDecl{Kind: "lag_time", Threshold: 1, For: "soon"}}}}
	if plan, err := w.Plans.Plan(ctx, dev, bad); err != nil || len(plan.Changes) != 1 || len(plan.Changes[0].Errors) == 0 || plan.Changes[0].Errors[0].Field != "items[0].spec.for" {
		t.Errorf("a bad duration: %+v %v", plan.Changes, err)
	}
	plan, err := w.Plans.Plan(ctx, dev, doc)
	if err != nil || len(plan.Changes) != 2 || plan.Changes[0].Kind != "alert-rule" || plan.Changes[0].Action != ascode.ActionCreate {
		t.Fatalf("plan: %+v %v", plan.Changes, err)
	}
	if _, err := w.Plans.Apply(ctx, dev, doc, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	rules, _ := w.Alerts.Rules(ctx, dev)
	names := ""
	for _, r := range rules {
		names += r.Name + "=" + strconv.FormatBool(r.Default) + "/" + strconv.FormatBool(r.Enabled) + " "
	}
	if names != "connector-failed=true/true key-expiring=true/true lag=false/true slow-sink=false/false " {
		t.Errorf("after the apply: %s", names)
	}
	if again, _ := w.Plans.Plan(ctx, dev, doc); again.Changes[0].Action != ascode.ActionUnchanged || again.Changes[1].Action != ascode.ActionUnchanged {
		t.Errorf("planned again: %+v", again.Changes)
	}
	exported, err := w.Plans.Export(ctx, dev)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range exported.Resources {
		if r.Kind == portal.KindAlertRule {
			kinds = append(kinds, r.Name+" "+portal.DeclOf[portal.AlertRuleDecl](r).For)
		}
	}
	if strings.Join(kinds, ",") != "lag 2m0s,slow-sink 1m0s" {
		t.Errorf("exported: %v", kinds)
	}
	pruned := ascode.Document{Prune: true, Resources: doc.Resources[:1]}
	plan, err = w.Plans.Plan(ctx, dev, pruned)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Plans.Apply(ctx, dev, pruned, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if rules, _ := w.Alerts.Rules(ctx, dev); len(rules) != 3 {
		t.Errorf("after the prune: %+v", rules)
	}
}
