package guardrails_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// callers of the guardrail matrix, by their groups.
var callers = map[string][]string{
	"platform admin":         {"platform-admins"},
	"edh-shared super admin": {"sg-edh-shared-superadmins"},
	"mfg-shared super admin": {"sg-mfg-shared-superadmins"},
	"scada admin":            {"sg-scada-admins"},
	"scada developer":        {"sg-scada-developers"},
	"scada viewer":           {"sg-scada-viewers"},
	"no role":                {"unrelated"},
}

func devPolicy(id, zone, action string) policy.Policy {
	return policy.Policy{ID: id, Zone: zone, Kind: "Topic", Stages: []string{"dev"}, Expression: "resource.partitions <= 12",
		Message: "at most 12, not ${resource.partitions}", Field: "partitions_count", Action: action}
}

// guardrailOps are every guardrail operation with valid input (a policy
// "seeded" of edh-shared exists), so that only access decides.
var guardrailOps = []struct {
	name string
	run  func(ctx context.Context, w *servicetest.World) error
}{
	{"list policies", func(ctx context.Context, w *servicetest.World) error {
		_, err := w.Rules.Policies(ctx, "edh-shared")
		return err
	}},
	{"get policy", func(ctx context.Context, w *servicetest.World) error {
		_, err := w.Rules.Policy(ctx, "seeded")
		return err
	}},
	{"report", func(ctx context.Context, w *servicetest.World) error {
		_, err := w.Rules.Report(ctx, "seeded")
		return err
	}},
	{"test", func(ctx context.Context, w *servicetest.World) error {
		_, err := w.Rules.TestPolicy(ctx, policy.PolicyTest{Policy: devPolicy("t", "edh-shared", "enforce"), BU: "scada", Stage: "dev", Resource: []byte(`{"partitions": 3}`)})
		return err
	}},
	{"budgets", func(ctx context.Context, w *servicetest.World) error { _, err := w.Rules.Budgets(ctx); return err }},
	{"put policy", func(ctx context.Context, w *servicetest.World) error {
		_, _, err := w.Rules.PutPolicy(ctx, devPolicy("seeded", "edh-shared", "enforce"), false)
		return err
	}},
	{"delete policy", func(ctx context.Context, w *servicetest.World) error { return w.Rules.DeletePolicy(ctx, "seeded") }},
	{"set budget", func(ctx context.Context, w *servicetest.World) error {
		_, err := w.Rules.SetBudget(ctx, "scada", "dev", map[string]int64{"topics": 100})
		return err
	}},
	{"unit budget", func(ctx context.Context, w *servicetest.World) error {
		_, err := w.Rules.UnitBudget(ctx, portal.Scope{BU: "scada", Stage: "dev"}, false)
		return err
	}},
}

// guardrailMatrix: per caller, each operation's outcome ("" allowed, else
// the error kind). Platform admins do everything; a zone's Super Admins
// read their zone's policies, reports and budgets; a unit's roles read
// the unit's budget; nobody else learns the area exists.
var guardrailMatrix = map[string][9]portal.Kind{
	"platform admin":         {"", "", "", "", "", "", "", "", ""},
	"edh-shared super admin": {"", "", "", "", "", portal.NotFound, portal.NotFound, portal.NotFound, ""},
	"mfg-shared super admin": {portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, "", portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound},
	"scada admin":            {portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, ""},
	"scada developer":        {portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, ""},
	"scada viewer":           {portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, ""},
	"no role":                {portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound, portal.NotFound},
}

// TestGuardrailAccessMatrix checks every caller × guardrail operation; a
// refusal changes nothing (the policy and the budget stay as they were).
//
// One world serves each caller's row: the operations run in the table's
// order, and only a platform admin's writes succeed, after its reads and
// in an order that leaves each one what it needs (the put before the
// delete), so every refusal is judged against the world as seeded.
func TestGuardrailAccessMatrix(t *testing.T) {
	for caller, groups := range callers {
		w := servicetest.New(t)
		admin := w.AsGroups("platform-admins")
		if _, _, err := w.Rules.PutPolicy(admin, devPolicy("seeded", "edh-shared", "report"), true); err != nil {
			t.Fatal(err)
		}
		for i, op := range guardrailOps {
			err := op.run(w.AsGroups(groups...), w)
			want := guardrailMatrix[caller][i]
			switch {
			case want == "" && err != nil:
				t.Errorf("%s, %s: refused: %v", caller, op.name, err)
			case want != "" && portal.KindOf(err) != want:
				t.Errorf("%s, %s: got %v, want %s", caller, op.name, err, want)
			case want != "":
				if p, err := w.Rules.Policy(admin, "seeded"); err != nil || p.Action != "report" {
					t.Errorf("%s, %s: refused, yet the policy changed: %+v %v", caller, op.name, p, err)
				}
				if b, _ := w.Rules.UnitBudget(admin, portal.Scope{BU: "scada", Stage: "dev"}, false); b.UpdatedBy != "" {
					t.Errorf("%s, %s: refused, yet a budget was set", caller, op.name)
				}
			}
		}
	}
}

// TestEveryDoorOfWritesIsJudged: an enforced policy and a budget refuse
// single writes of each kind, a bulk job (before anything is made, with
// the item named) and plans (the use after the plan counts every change).
func TestEveryDoorOfWritesIsJudged(t *testing.T) {
	w := servicetest.New(t)
	admin := w.AsGroups("platform-admins")
	dev := servicetest.As("scada", portal.Admin)
	scope := portal.Scope{BU: "scada", Stage: "dev"}
	for _, p := range []policy.Policy{
		{ID: "accounts-described", Zone: "edh-shared", Kind: "ServiceAccount", Expression: "resource.description != ''", Message: "describe ${resource.name}", Field: "description", Action: "enforce"},
		{ID: "pools-department", Zone: "edh-shared", Kind: "IdentityPool", Expression: "resource.filter.contains('claims.department')", Message: "name the department", Field: "filter", Action: "enforce"},
		{ID: "no-deletes", Zone: "edh-shared", Kind: "Topic", Operations: []string{"delete"}, Expression: "!before.name.endsWith('-keep')", Message: "keep ${before.identifier}", Action: "enforce"},
	} {
		if _, _, err := w.Rules.PutPolicy(admin, p, true); err != nil {
			t.Fatal(err)
		}
	}
	_, err := w.Accounts.Create(dev, scope, iam.NewServiceAccount{Name: "ingest", Type: "producer"})
	wantViolation(t, err, "accounts-described", "description")
	_, err = w.Accounts.StartBulk(dev, scope, []iam.NewServiceAccount{{Name: "a1", Type: "producer", Description: "ok"}, {Name: "a2", Type: "producer"}})
	wantViolation(t, err, "accounts-described", "items[1].description")
	_, err = w.Pools.Create(dev, scope, iam.NewPool{Name: "ops", Type: "consumer", Filter: `claims.sub == "x"`})
	wantViolation(t, err, "pools-department", "filter")
	if _, err := w.Topics.Create(dev, scope, topic.NewTopic{Name: "data-keep"}); err != nil {
		t.Fatal(err)
	}
	wantViolation(t, w.Topics.Delete(dev, scope, "data-keep", portal.DeleteOptions{}), "no-deletes", "")
	if page, err := w.Accounts.List(dev, scope, portal.ListQuery{}); err != nil || page.Total != 0 {
		t.Errorf("refused writes made accounts: %+v %v", page.Items, err)
	}

	// A budget of 3 topics: a plan of three new topics counts each.
	if _, err := w.Rules.SetBudget(admin, "scada", "dev", map[string]int64{"topics": 3}); err != nil {
		t.Fatal(err)
	}
	doc := ascode.Document{Resources: []portal.Resource{
		{Kind: portal.KindTopic, Name: "p1", Spec: &portal.TopicDecl{}}, {Kind: portal.KindTopic, Name: "p2", Spec: &portal.TopicDecl{}},
		{Kind: portal.KindTopic, Name: "p3", Spec: &portal.TopicDecl{}}}}
	plan, err := w.Plans.Plan(dev, scope, doc)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Changes[0].Action != ascode.ActionCreate || plan.Changes[1].Action != ascode.ActionCreate || plan.Changes[2].Action != ascode.ActionRefused ||
		plan.Changes[2].Errors[0].Kind != portal.BudgetExceeded || plan.Changes[2].Errors[0].Field != "items[2]" {
		t.Fatalf("the plan: %+v", plan.Changes)
	}
	if len(plan.Budget) != 1 || plan.Budget[0].Dimension != "topics" || plan.Budget[0].Use != 3 || *plan.Budget[0].Limit != 3 {
		t.Errorf("the plan's budget after it: %+v", plan.Budget)
	}
	if _, err := w.Plans.Apply(dev, scope, doc, plan.Fingerprint); !portal.Is(err, portal.BudgetExceeded) {
		t.Errorf("an apply with a refused change: %v", err)
	}
	if cl := w.Cluster("edh-shared", "dev"); cl.Has("edh-shared-scada-dev-p1") {
		t.Error("an apply with a violation made a topic")
	}
}

func wantViolation(t *testing.T, err error, rule, field string) {
	t.Helper()
	ps := portal.Problems(err)
	if len(ps) == 0 || ps[0].Kind != portal.PolicyViolation || ps[0].Rule != rule || ps[0].Field != field {
		t.Fatalf("got %v, want POLICY_VIOLATION of %s at %q", err, rule, field)
	}
}

// TestBudgetBelowUseWarnsAndFreesStillPass: a limit under today's use is
// kept with a warning; creates are refused, deletes pass.
func TestBudgetBelowUseWarnsAndFreesStillPass(t *testing.T) {
	w := servicetest.New(t, "edh-shared-scada-dev-one", "edh-shared-scada-dev-two")
	admin := w.AsGroups("platform-admins")
	dev := servicetest.As("scada", portal.Developer)
	scope := portal.Scope{BU: "scada", Stage: "dev"}
	b, err := w.Rules.SetBudget(admin, "scada", "dev", map[string]int64{"topics": 1})
	if err != nil || len(b.Warnings) != 1 || !strings.Contains(b.Warnings[0], "topics: 2 in use of a limit of 1") {
		t.Fatalf("a budget below the use: %+v %v", b, err)
	}
	if _, err := w.Topics.Create(dev, scope, topic.NewTopic{Name: "three"}); !portal.Is(err, portal.BudgetExceeded) {
		t.Errorf("a create over the budget: %v", err)
	}
	if err := w.Topics.Delete(dev, scope, "one", portal.DeleteOptions{}); err != nil {
		t.Errorf("a delete over the budget: %v", err)
	}
	if _, err := w.Rules.SetBudget(admin, "scada", "dev", map[string]int64{"lemons": 1, "topics": -1}); len(portal.Problems(err)) != 2 {
		t.Errorf("bad limits: %v", err)
	}
}
