package plans_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

const ordersAvro = `{"type":"record","name":"Order","fields":[{"name":"id","type":"string"}]}`

// unitDoc declares a topic, its value schema and a source connector
// writing it.
func unitDoc(retention string) ascode.Document {
	return ascode.Document{Resources: []portal.Resource{
		{Kind: portal.KindConnector, Name: "iac-orders-gen", Spec: &portal.ConnectorDecl{Class: "DatagenSource",
			Config:  map[string]string{"kafka.topic": "iac-orders", "quickstart": "ORDERS", "output.data.format": "JSON"},
			Secrets: map[string]portal.SecretRef{"kafka.api.key": {FromEnv: "K", Value: "KEY"}, "kafka.api.secret": {FromEnv: "S", Value: "SECRET"}}}},
		{Kind: portal.KindSchema, Name: "iac-orders-value", Spec: &portal.SchemaDecl{Schema: ordersAvro}},
		{Kind: portal.KindTopic, Name: "iac-orders", Spec: &portal.TopicDecl{Partitions: intp(3), Config: map[string]string{"retention.ms": retention}}},
	}}
}

// changes renders a plan's changes as "action kind name", in order.
func changes(p ascode.Plan) string {
	var out []string
	for _, c := range p.Changes {
		line := c.Action + " " + c.Kind + " " + c.Name
		if c.Outcome != "" {
			line += " -> " + c.Outcome
		}
		for _, e := range c.Errors {
			line += fmt.Sprintf(" [%s %s]", e.Kind, e.Field)
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func TestPlanApplyIsIdempotentAndRefusesAStalePlan(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	before := w.Snapshot(t)
	plan, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("86400000"))
	if err != nil {
		t.Fatal(err)
	}
	want := "create topic edh-shared-scada-dev-iac-orders\ncreate schema edh-shared-scada-dev-iac-orders-value\ncreate connector edh-shared-scada-dev-iac-orders-gen-connector"
	if got := changes(plan); got != want {
		t.Fatalf("plan (in dependency order):\n%s\nwant\n%s", got, want)
	}
	if w.Snapshot(t) != before {
		t.Fatal("planning changed something upstream")
	}
	for _, d := range plan.Changes[2].Diff {
		if d.After != nil && strings.Contains(*d.After, "SECRET") {
			t.Errorf("the plan shows a secret: %s=%s", d.Field, *d.After)
		}
	}

	if _, err := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("86400000"), ""); !portal.Is(err, portal.MissingParameter) {
		t.Errorf("apply without a fingerprint: %v", err)
	}
	applied, err := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("86400000"), plan.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if got := changes(applied); !strings.Contains(got, "-> applied") || strings.Count(got, "-> applied") != 3 {
		t.Fatalf("apply:\n%s", got)
	}
	got, err := w.Topics.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "iac-orders", false)
	if err != nil || got.Partitions != 3 || got.Config["retention.ms"] != "86400000" {
		t.Errorf("topic after apply: %+v %v", got, err)
	}
	conn, err := w.Connectors.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "iac-orders-gen", true)
	if err != nil || conn.Config["kafka.topic"] != "edh-shared-scada-dev-iac-orders" {
		t.Errorf("connector after apply: %+v %v", conn, err)
	}

	// The same document again changes nothing.
	again, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("86400000"))
	if err != nil {
		t.Fatal(err)
	}
	if again.HasChanges() || again.Count(ascode.ActionUnchanged) != 3 {
		t.Fatalf("second plan:\n%s", changes(again))
	}
	snap := w.Snapshot(t)
	if _, err := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("86400000"), again.Fingerprint); err != nil || w.Snapshot(t) != snap {
		t.Errorf("applying an unchanged plan: %v, changed: %v", err, w.Snapshot(t) != snap)
	}

	// One retention edited: exactly that diff.
	edited, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("172800000"))
	if err != nil {
		t.Fatal(err)
	}
	c := edited.Changes[0]
	if c.Action != ascode.ActionUpdate || len(c.Diff) != 1 || c.Diff[0].Field != "config.retention.ms" ||
		*c.Diff[0].Before != "86400000" || *c.Diff[0].After != "172800000" || edited.Count(ascode.ActionUnchanged) != 2 {
		t.Fatalf("edited plan: %+v", edited.Changes)
	}

	// Someone changes the topic after the review: the plan is stale.
	if _, err := w.Topics.Patch(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "iac-orders", topic.TopicPatch{Config: map[string]*string{"retention.ms": strp("3600000")}}); err != nil {
		t.Fatal(err)
	}
	snap = w.Snapshot(t)
	_, err = w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("172800000"), edited.Fingerprint)
	if !portal.Is(err, portal.Conflict) || !strings.Contains(portal.MessageOf(err), "plan again") {
		t.Errorf("stale plan: %v", err)
	}
	if w.Snapshot(t) != snap {
		t.Error("a stale apply changed something")
	}
}

func TestPlanReportsEveryRefusal(t *testing.T) {
	w := servicetest.New(t)
	doc := unitDoc("86400000")
	doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindServiceAccount, Name: "iac-app", Spec: &portal.AccountDecl{Type: "producer"}})

	viewer, err := w.Plans.Plan(servicetest.As("scada", portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	if viewer.Count(ascode.ActionRefused) != 4 || viewer.Changes[0].Errors[0].Kind != portal.InsufficientRole || viewer.Changes[0].Wanted != ascode.ActionCreate {
		t.Errorf("a viewer's plan:\n%s", changes(viewer))
	}
	before := w.Snapshot(t)
	_, err = w.Plans.Apply(servicetest.As("scada", portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, doc, viewer.Fingerprint)
	if !portal.Is(err, portal.InsufficientRole) || w.Snapshot(t) != before {
		t.Errorf("a viewer's apply: %v", err)
	}
	if ev := w.AuditEvents(t); len(ev) == 0 || ev[0].Action != portal.ActResourcesApply || ev[0].Outcome != string(portal.InsufficientRole) {
		t.Errorf("the refused apply is not audited: %+v", ev)
	}

	dev, err := w.Plans.Plan(servicetest.As("scada", portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := "create topic edh-shared-scada-dev-iac-orders\ncreate schema edh-shared-scada-dev-iac-orders-value\n" +
		"create connector edh-shared-scada-dev-iac-orders-gen-connector\nrefused service-account sa-edh-shared-scada-dev-usr-iac-app-producer [INSUFFICIENT_ROLE items[3]]"
	if got := changes(dev); got != want {
		t.Errorf("a developer's plan with an account:\n%s\nwant\n%s", got, want)
	}

	run, err := w.Plans.Plan(servicetest.As("scada", portal.Developer), portal.Scope{BU: "scada", Stage: "run"}, unitDoc("86400000"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range run.Changes {
		if c.Action != ascode.ActionRefused || c.Errors[0].Kind != portal.ReadOnlyEnvironment {
			t.Errorf("in run: %s", changes(run))
		}
	}

	bad := ascode.Document{Resources: []portal.Resource{
		{Kind: portal.KindTopic, Name: "bad name!", Spec: &portal.TopicDecl{Partitions: intp(0), Config: map[string]string{"retention.ms": "soon"}}},
		{Kind: portal.KindConnector, Name: "leaky", Spec: &portal.ConnectorDecl{Class: "DatagenSource", Config: map[string]string{"kafka.api.secret": "x"}}},
		{Kind: portal.KindIdentityPool, Name: "p", Spec: &portal.PoolDecl{Type: "consumer", Filter: "claims.sub =="}},
	}}
	admin := servicetest.As("scada", portal.Admin)
	got, err := w.Plans.Plan(admin, portal.Scope{BU: "scada", Stage: "dev"}, bad)
	if err != nil {
		t.Fatal(err)
	}
	text := changes(got)
	for _, field := range []string{"items[0].metadata.name", "items[0].spec.partitions", "items[0].spec.config.retention.ms",
		"items[1].spec.config.kafka.api.secret", "items[2].spec.filter"} {
		if !strings.Contains(text, field+"]") {
			t.Errorf("no problem on %s:\n%s", field, text)
		}
	}
	if _, err := w.Plans.Apply(admin, portal.Scope{BU: "scada", Stage: "dev"}, bad, got.Fingerprint); !portal.Is(err, portal.InvalidParameter) || w.Snapshot(t) != before {
		t.Errorf("apply of an invalid document: %v", err)
	}
}

func TestPlanChecksSchemaCompatibility(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	seeded := w.Seed(t, "scada", "dev")
	doc := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindSchema, Name: "existing-value",
		Spec: &portal.SchemaDecl{Schema: `{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}`}}}}
	plan, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	c := plan.Changes[0]
	if c.Name != seeded.Subject || c.Action != ascode.ActionRefused || c.Wanted != ascode.ActionUpdate || c.Errors[0].Kind != portal.IncompatibleSchema {
		t.Errorf("incompatible schema: %s", changes(plan))
	}
}

// failingTopics fails every topic create, as a cluster that went away
// between the plan and the apply.
type failingTopics struct{ platform.Topics }

func (failingTopics) CreateTopic(context.Context, platform.TopicSpec) error {
	return portal.New(portal.UpstreamUnavailable, "the cluster is unavailable")
}

func (failingTopics) CreateTopics(context.Context, []platform.TopicSpec) ([]error, error) {
	return nil, portal.New(portal.UpstreamUnavailable, "the cluster is unavailable")
}

func TestApplySkipsWhatDependsOnAFailure(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	doc := unitDoc("86400000")
	doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindServiceAccount, Name: "iac-app", Spec: &portal.AccountDecl{Type: "producer"}})
	plan, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	env := w.Env("edh-shared", "dev")
	env.Topics = failingTopics{env.Topics}
	applied, err := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc, plan.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	want := "create topic edh-shared-scada-dev-iac-orders -> failed\ncreate schema edh-shared-scada-dev-iac-orders-value -> skipped\n" +
		"create connector edh-shared-scada-dev-iac-orders-gen-connector -> skipped\ncreate service-account sa-edh-shared-scada-dev-usr-iac-app-producer -> applied"
	if got := changes(applied); got != want {
		t.Errorf("partial apply:\n%s\nwant\n%s", got, want)
	}
	if applied.Changes[1].Error == nil || !strings.Contains(applied.Changes[1].Error.Message, "topic edh-shared-scada-dev-iac-orders failed") {
		t.Errorf("the skipped schema does not say why: %+v", applied.Changes[1].Error)
	}
	var summary bool
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActResourcesApply && e.Outcome == string(portal.Conflict) && len(e.Changes) == 5 {
			summary = true
		}
	}
	if !summary {
		t.Error("no audit event summarises the partial apply")
	}
}

func TestExportPlansAsAPromotion(t *testing.T) {
	w := servicetest.New(t)
	admin := servicetest.As("scada", portal.Admin)
	w.Seed(t, "scada", "dev")
	doc, err := w.Plans.Export(admin, portal.Scope{BU: "scada", Stage: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range doc.Resources {
		kinds = append(kinds, r.Kind+" "+r.Name)
		if cn := portal.DeclOf[portal.ConnectorDecl](r); cn != nil {
			if _, ok := cn.Config["kafka.api.secret"]; ok || cn.Secrets["kafka.api.secret"].FromEnv != "SCADA_EXISTING_KAFKA_API_SECRET" {
				t.Errorf("exported connector: %+v", cn)
			}
			if cn.Config["kafka.topic"] != "existing" {
				t.Errorf("the connector's topic is not an identifier: %v", cn.Config)
			}
		}
	}
	if got := strings.Join(kinds, ", "); !strings.Contains(got, "Topic existing") || !strings.Contains(got, "Schema existing-value") ||
		!strings.Contains(got, "Connector existing") || !strings.Contains(got, "ServiceAccount existing") || !strings.Contains(got, "IdentityPool existing") {
		t.Fatalf("export: %s", got)
	}
	plan, err := w.Plans.Plan(admin, portal.Scope{BU: "scada", Stage: "qas"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range plan.Changes {
		if !strings.Contains(c.Name, "scada-qas-") {
			t.Errorf("not rewritten for qas: %s", c.Name)
		}
	}
	if plan.Count(ascode.ActionRefused) != 1 || !strings.Contains(changes(plan), "refused connector edh-shared-scada-qas-existing-connector") {
		t.Errorf("without secret values only the connector is refused:\n%s", changes(plan))
	}
	for i, r := range doc.Resources {
		if cn := portal.DeclOf[portal.ConnectorDecl](r); cn != nil {
			for k, ref := range cn.Secrets {
				ref.Value = "from-" + ref.FromEnv
				portal.DeclOf[portal.ConnectorDecl](doc.Resources[i]).Secrets[k] = ref
			}
		}
	}
	plan, err = w.Plans.Plan(admin, portal.Scope{BU: "scada", Stage: "qas"}, doc)
	if err != nil || plan.Count(ascode.ActionCreate) != 5 {
		t.Fatalf("promotion plan: %v\n%s", err, changes(plan))
	}
	if _, err := w.Plans.Apply(admin, portal.Scope{BU: "scada", Stage: "qas"}, doc, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	again, err := w.Plans.Plan(admin, portal.Scope{BU: "scada", Stage: "qas"}, doc)
	if err != nil || again.HasChanges() {
		t.Errorf("after promotion: %v\n%s", err, changes(again))
	}
}

func TestPruneDeletesWhatIsNotDeclared(t *testing.T) {
	w := servicetest.New(t)
	admin := servicetest.As("scada", portal.Admin)
	seeded := w.Seed(t, "scada", "dev")
	doc := unitDoc("86400000")
	doc.Prune = true
	// The seeded topic has a consumer group with records left to read: a
	// live dependant, whose delete the plan refuses unless it says force.
	plan, err := w.Plans.Plan(admin, portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := changes(plan); !strings.Contains(got, "refused topic "+seeded.Topic) {
		t.Fatalf("a prune of a topic with a live group, without force:\n%s", got)
	}
	if _, err := w.Plans.Apply(admin, portal.Scope{BU: "scada", Stage: "dev"}, doc, plan.Fingerprint); err == nil {
		t.Fatal("a plan with a refused delete applied")
	}
	doc.Force = true
	plan, err = w.Plans.Plan(admin, portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	got := changes(plan)
	conn := strings.Index(got, "delete connector "+seeded.Connector)
	topic := strings.Index(got, "delete topic "+seeded.Topic)
	if conn < 0 || topic < conn || !strings.Contains(got, "delete identity-pool ") {
		t.Fatalf("prune plan (connector deleted before its topic):\n%s", got)
	}
	if strings.Contains(got, "delete schema") || strings.Contains(got, "delete service-account") {
		t.Errorf("prune deletes schemas or accounts:\n%s", got)
	}
	if _, err := w.Plans.Apply(admin, portal.Scope{BU: "scada", Stage: "dev"}, doc, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Topics.Get(admin, portal.Scope{BU: "scada", Stage: "dev"}, seeded.Topic, false); !portal.Is(err, portal.NotFound) {
		t.Errorf("the undeclared topic is still there: %v", err)
	}
	doc.Prune = false
	if p, err := w.Plans.Plan(admin, portal.Scope{BU: "scada", Stage: "dev"}, doc); err != nil || p.HasChanges() {
		t.Errorf("after prune: %v %s", err, changes(p))
	}
}

// declarationPolicy is the expected refusal of a document's change by
// role and stage: topics follow the write rule, service accounts need an
// Admin everywhere ("" means allowed).
var declarationPolicy = map[string]map[portal.Role][2]portal.Kind{
	portal.KindTopic: {
		portal.Viewer:     {portal.InsufficientRole, portal.InsufficientRole},
		portal.Developer:  {"", portal.ReadOnlyEnvironment},
		portal.Admin:      {"", ""},
		portal.SuperAdmin: {"", ""},
	},
	portal.KindServiceAccount: {
		portal.Viewer:     {portal.InsufficientRole, portal.InsufficientRole},
		portal.Developer:  {portal.InsufficientRole, portal.InsufficientRole},
		portal.Admin:      {"", ""},
		portal.SuperAdmin: {"", ""},
	},
}

// TestDeclarationAccessMatrix checks every role × declared kind × stage
// through plan and apply. One world serves each role: the kinds' and the
// stages' declarations name different resources, so none finds another's
// change, and a refusal must leave the whole world as it was.
func TestDeclarationAccessMatrix(t *testing.T) {
	worlds := map[portal.Role]*servicetest.World{}
	docs := map[string]ascode.Document{
		portal.KindTopic:          {Resources: []portal.Resource{{Kind: portal.KindTopic, Name: "fresh", Spec: &portal.TopicDecl{Partitions: intp(2)}}}},
		portal.KindServiceAccount: {Resources: []portal.Resource{{Kind: portal.KindServiceAccount, Name: "fresh", Spec: &portal.AccountDecl{Type: "consumer"}}}},
	}
	for kind, byRole := range declarationPolicy {
		for _, role := range []portal.Role{portal.NoRole, portal.Viewer, portal.Developer, portal.Admin, portal.SuperAdmin} {
			for i, stage := range []string{"dev", "run"} {
				w := worlds[role]
				if w == nil {
					w = servicetest.New(t)
					worlds[role] = w
				}
				ctx := servicetest.As("scada", role)
				name := fmt.Sprintf("%s %s in %s", role, kind, stage)
				plan, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: stage}, docs[kind])
				if role == portal.NoRole {
					if !portal.Is(err, portal.NotFound) {
						t.Errorf("%s: plan %v", name, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: every role may plan: %v", name, err)
				}
				want := byRole[role][i]
				c := plan.Changes[0]
				switch {
				case want == "" && c.Action != ascode.ActionCreate:
					t.Errorf("%s: planned %s %v", name, c.Action, c.Errors)
				case want != "" && (c.Action != ascode.ActionRefused || c.Errors[0].Kind != want):
					t.Errorf("%s: planned %s %v, want refused %s", name, c.Action, c.Errors, want)
				}
				before := w.Snapshot(t)
				applied, err := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: stage}, docs[kind], plan.Fingerprint)
				switch {
				case want == "" && (err != nil || applied.Changes[0].Outcome != ascode.OutcomeApplied):
					t.Errorf("%s: apply %v %+v", name, err, applied.Changes)
				case want != "" && (portal.KindOf(err) != want || w.Snapshot(t) != before):
					t.Errorf("%s: apply %v, want %s and nothing changed", name, err, want)
				}
			}
		}
	}
}

func TestDeclarationsFailClosed(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	_, err1 := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("1000"))
	_, err2 := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unitDoc("1000"), "x")
	_, err3 := w.Plans.Export(ctx, portal.Scope{BU: "scada", Stage: "dev"})
	for _, err := range []error{err1, err2, err3} {
		if !portal.Is(err, portal.Unauthenticated) {
			t.Errorf("without a principal: %v", err)
		}
	}
	if n := w.Cluster("edh-shared", "dev").Calls(); n != 0 {
		t.Errorf("%d upstream calls without a principal", n)
	}
}

func TestConnectorUpdatesSendSecretsAgain(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	doc := unitDoc("86400000")
	plan, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	edited := unitDoc("86400000")
	conn := portal.DeclOf[portal.ConnectorDecl](edited.Resources[0])
	conn.Config["quickstart"] = "USERS"
	conn.Secrets = map[string]portal.SecretRef{"kafka.api.key": {FromEnv: "K"}, "kafka.api.secret": {FromEnv: "S"}}
	plan, err = w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, edited)
	if err != nil {
		t.Fatal(err)
	}
	c := plan.Changes[2]
	if c.Wanted != ascode.ActionUpdate || len(c.Errors) != 2 || !strings.Contains(c.Errors[1].Message, "set the environment variable S") ||
		c.Errors[1].Field != "items[0].spec.secrets.kafka.api.secret" {
		t.Fatalf("an update without the secrets: %s %+v", changes(plan), c.Errors)
	}
	// Unchanged, the connector needs no secret values.
	unchanged := unitDoc("86400000")
	portal.DeclOf[portal.ConnectorDecl](unchanged.Resources[0]).Secrets = conn.Secrets
	if p, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unchanged); err != nil || p.HasChanges() || p.Count(ascode.ActionRefused) != 0 {
		t.Errorf("an unchanged connector without secret values: %v\n%s", err, changes(p))
	}
	// The same secrets as sent: only the setting differs.
	conn.Secrets = map[string]portal.SecretRef{"kafka.api.key": {FromEnv: "K", Value: "KEY"}, "kafka.api.secret": {FromEnv: "S", Value: "SECRET"}}
	plan, err = w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, edited)
	if err != nil || plan.Changes[2].Action != ascode.ActionUpdate || len(plan.Changes[2].Diff) != 1 || plan.Changes[2].Diff[0].Field != "config.quickstart" {
		t.Fatalf("an update with the same secrets: %v %s %+v", err, changes(plan), plan.Changes[2].Diff)
	}
	// Another value of a secret is told by the digest of the one sent,
	// and alone makes an update.
	portal.DeclOf[portal.ConnectorDecl](unchanged.Resources[0]).Secrets = map[string]portal.SecretRef{"kafka.api.key": {FromEnv: "K", Value: "KEY"},
		"kafka.api.secret": {FromEnv: "S", Value: "ROTATED"}}
	if p, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, unchanged); err != nil || p.Changes[2].Action != ascode.ActionUpdate ||
		len(p.Changes[2].Diff) != 1 || p.Changes[2].Diff[0].Field != "secrets.kafka.api.secret" || *p.Changes[2].Diff[0].After != "(changed, from $S)" {
		t.Fatalf("a changed secret: %v %s %+v", err, changes(p), p.Changes[2].Diff)
	}
	conn.Secrets = map[string]portal.SecretRef{"kafka.api.key": {FromEnv: "K", Value: "KEY2"}, "kafka.api.secret": {FromEnv: "S", Value: "SECRET2"}}
	plan, err = w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, edited)
	if err != nil || plan.Changes[2].Action != ascode.ActionUpdate || len(plan.Changes[2].Diff) != 3 {
		t.Fatalf("an update with new secrets: %v %s %+v", err, changes(plan), plan.Changes[2].Diff)
	}
	if _, err := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, edited, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	got, err := w.Connectors.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "iac-orders-gen", true)
	if err != nil || got.Config["quickstart"] != "USERS" || got.Config["kafka.api.secret"] != connect.Mask {
		t.Errorf("after the update: %+v %v", got.Config, err)
	}
	// The digests follow what was sent: the new secrets plan unchanged.
	if p, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, edited); err != nil || p.HasChanges() {
		t.Errorf("the secrets just sent: %v\n%s", err, changes(p))
	}
}

func TestPlanGuardsPruneAndNamesSecretsAsDeclared(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	if _, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, ascode.Document{Prune: true}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("prune with nothing declared: %v", err)
	}
	doc := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindConnector, Name: "gen", Spec: &portal.ConnectorDecl{Class: "DatagenSource",
		Config:  map[string]string{"kafka.topic": "t", "quickstart": "ORDERS", "output.data.format": "JSON", "kafka.auth.mode": "SERVICE_ACCOUNT"},
		Secrets: map[string]portal.SecretRef{"kafka.service.account.id": {FromEnv: "SA", Value: "not-an-account"}}}}}}
	plan, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	if got := changes(plan); !strings.Contains(got, "[INVALID_PARAMETER items[0].spec.secrets.kafka.service.account.id]") {
		t.Errorf("the plugin's problem on a secret: %s", got)
	}
}

// cloudConnectors reads connectors as Confluent Cloud returns them: with
// the settings it fills in from the cluster.
type cloudConnectors struct{ platform.Connectors }

func (c cloudConnectors) ListConnectors(ctx context.Context) ([]platform.Connector, error) {
	list, err := c.Connectors.ListConnectors(ctx)
	for i := range list {
		cfg := map[string]string{"cloud.environment": "prod", "cloud.provider": "aws", "kafka.endpoint": "SASL_SSL://pkc-x.aws.confluent.cloud:9092", "kafka.region": "us-west-2"}
		for k, v := range list[i].Config {
			cfg[k] = v
		}
		list[i].Config = cfg
	}
	return list, err
}

func TestSettingsTheCloudFillsInAreNotChanges(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	doc := unitDoc("86400000")
	plan, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Plans.Apply(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	env := w.Env("edh-shared", "dev")
	env.Connectors = cloudConnectors{env.Connectors}
	again, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "dev"}, doc)
	if err != nil || again.HasChanges() {
		t.Errorf("the cloud's own settings show as changes: %v\n%s %+v", err, changes(again), again.Changes[2].Diff)
	}
	exported, err := w.Plans.Export(ctx, portal.Scope{BU: "scada", Stage: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range exported.Resources {
		if cn := portal.DeclOf[portal.ConnectorDecl](r); cn != nil && cn.Config["kafka.region"] != "" {
			t.Errorf("the export holds the cloud's settings: %v", cn.Config)
		}
	}
}

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }

// TestDeclaredAPIKeys: an account declaring keys plans "create key" for
// each (the secret promised at apply, never in the plan); the apply makes
// them and hands their secrets to the caller only (not the trail); the
// same document then plans nothing; an existing account without its key
// is an update; a bad declaration is refused by field; exports never
// carry keys.
func TestDeclaredAPIKeys(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	qas := portal.Scope{BU: "scada", Stage: "qas"}
	doc := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindServiceAccount, Name: "keyed", Spec: &portal.AccountDecl{Type: "consumer",
		APIKeys: []portal.KeyDecl{{Resource: iam.KeyForKafka}, {Resource: iam.KeyForSchemaRegistry}}}}}}
	plan, err := w.Plans.Plan(ctx, qas, doc)
	if err != nil {
		t.Fatal(err)
	}
	c := plan.Changes[0]
	diff := map[string]string{}
	for _, d := range c.Diff {
		diff[d.Field] = *d.After
	}
	if c.Action != ascode.ActionCreate || diff["apiKeys.kafka"] != "create key: the secret will be shown once at apply" || diff["apiKeys.schema-registry"] == "" {
		t.Fatalf("plan: %+v", c)
	}
	applied, err := w.Plans.Apply(ctx, qas, doc, plan.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	c = applied.Changes[0]
	if c.Outcome != ascode.OutcomeApplied || len(c.Issued) != 2 || c.Issued[0].Secret == "" || c.Issued[1].Secret == "" {
		t.Fatalf("apply: %+v", c)
	}
	for _, e := range w.AuditEvents(t) {
		for _, k := range c.Issued {
			if strings.Contains(fmt.Sprint(e), k.Secret) {
				t.Fatalf("a secret is in the trail: %+v", e)
			}
		}
	}
	if n := len(w.AuditEvents(t)); n < 4 {
		t.Errorf("%d audit events: the account, two keys and the apply each need one", n)
	}
	again, err := w.Plans.Plan(ctx, qas, doc)
	if err != nil || again.Changes[0].Action != ascode.ActionUnchanged {
		t.Errorf("the same document again: %+v %v", again.Changes, err)
	}

	// An existing account that lacks its declared key: an update.
	if err := w.APIKeys.Delete(ctx, qas, c.Issued[0].ID); err != nil {
		t.Fatal(err)
	}
	again, _ = w.Plans.Plan(ctx, qas, doc)
	if a := again.Changes[0]; a.Action != ascode.ActionUpdate || len(a.Diff) != 1 || a.Diff[0].Field != "apiKeys."+c.Issued[0].Resource {
		t.Errorf("a key gone: %+v", a)
	}

	bad := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindServiceAccount, Name: "badkeys", Spec: &portal.AccountDecl{Type: "consumer",
		APIKeys: []portal.KeyDecl{{Resource: "ksql"}, {Resource: iam.KeyForKafka}, {Resource: iam.KeyForKafka}}}}}}
	p, err := w.Plans.Plan(ctx, qas, bad)
	if err != nil {
		t.Fatal(err)
	}
	if got := changes(p); got != "refused service-account sa-edh-shared-scada-qas-usr-badkeys-consumer [INVALID_PARAMETER items[0].spec.apiKeys[0].resource] [INVALID_PARAMETER items[0].spec.apiKeys[2].resource]" {
		t.Errorf("bad declarations: %s", got)
	}

	exported, err := w.Plans.Export(ctx, qas)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range exported.Resources {
		if acc := portal.DeclOf[portal.AccountDecl](r); acc != nil && len(acc.APIKeys) > 0 {
			t.Errorf("an export declares keys: %+v", r)
		}
	}
}

// TestSkipForbidden: with SkipForbidden a Developer's plan marks the
// account it may not create as skipped, with why, and the rest applies;
// without it the plan is refused whole. Read-only refusals stay refusals.
func TestSkipForbidden(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	doc := ascode.Document{Resources: []portal.Resource{
		{Kind: portal.KindTopic, Name: "skipping", Spec: &portal.TopicDecl{Partitions: intp(1)}},
		{Kind: portal.KindServiceAccount, Name: "not-mine", Spec: &portal.AccountDecl{Type: "consumer"}},
	}}
	plan, err := w.Plans.Plan(ctx, dev, doc)
	if err != nil || plan.Count(ascode.ActionRefused) != 1 {
		t.Fatalf("without skipping: %+v %v", plan.Changes, err)
	}
	doc.SkipForbidden = true
	plan, err = w.Plans.Plan(ctx, dev, doc)
	if err != nil || plan.Count(ascode.ActionSkipped) != 1 || plan.Count(ascode.ActionCreate) != 1 {
		t.Fatalf("with skipping: %+v %v", plan.Changes, err)
	}
	for _, c := range plan.Changes {
		if c.Action == ascode.ActionSkipped && (c.Wanted != ascode.ActionCreate || len(c.Errors) != 1 || c.Errors[0].Kind != portal.InsufficientRole) {
			t.Errorf("the skipped change does not say why: %+v", c)
		}
	}
	applied, err := w.Plans.Apply(ctx, dev, doc, plan.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Topics.Get(ctx, dev, "skipping", false); err != nil {
		t.Errorf("the topic was not made: %v", err)
	}
	if list, _ := w.Accounts.List(servicetest.As("scada", portal.Admin), dev, portal.ListQuery{Search: "not-mine"}); len(list.Items) != 0 {
		t.Error("the skipped account was made")
	}
	for _, c := range applied.Changes {
		if c.Action == ascode.ActionSkipped && c.Outcome != "" {
			t.Errorf("a skipped change has an outcome: %+v", c)
		}
	}
	// In a read-only stage the topic is refused (the stage, not the role),
	// skipping or not.
	if plan, err := w.Plans.Plan(ctx, portal.Scope{BU: "scada", Stage: "run"}, doc); err != nil || plan.Count(ascode.ActionRefused) != 1 || plan.Count(ascode.ActionSkipped) != 1 {
		t.Errorf("in run: %+v %v", plan.Changes, err)
	}
}

// TestApplyCreatesTopicsInOneRequest: an apply's new topics are made with
// one request to the cluster, each audited; a topic made meanwhile by
// someone else makes the reviewed plan stale.
func TestApplyCreatesTopicsInOneRequest(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	var doc ascode.Document
	for i := 0; i < 5; i++ {
		doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindTopic, Name: fmt.Sprintf("batch-%d", i), Spec: &portal.TopicDecl{Partitions: intp(2)}})
	}
	plan, err := w.Plans.Plan(ctx, dev, doc)
	if err != nil || plan.Count(ascode.ActionCreate) != 5 {
		t.Fatalf("plan %+v %v", plan.Changes, err)
	}
	c := w.Clusters["edh-shared/dev"]
	if err := c.CreateTopic(t.Context(), platform.TopicSpec{Name: "edh-shared-scada-dev-batch-3", Partitions: 2}); err != nil {
		t.Fatal(err)
	}
	applied, err := w.Plans.Apply(ctx, dev, doc, plan.Fingerprint)
	if err == nil {
		// The topic made meanwhile changed the fingerprint: plan again.
		t.Fatalf("a stale plan applied: %+v", applied.Changes)
	}
	plan, _ = w.Plans.Plan(ctx, dev, doc)
	before := c.BatchCreates()
	applied, err = w.Plans.Apply(ctx, dev, doc, plan.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]string{}
	for _, ch := range applied.Changes {
		outcomes[ch.Identifier] = ch.Outcome
	}
	if c.BatchCreates()-before != 1 || outcomes["batch-0"] != ascode.OutcomeApplied || outcomes["batch-4"] != ascode.OutcomeApplied || outcomes["batch-3"] != "" {
		t.Errorf("%d batched requests, outcomes %v", c.BatchCreates()-before, outcomes)
	}
	created := 0
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActTopicCreate && e.Outcome == "ok" && strings.Contains(e.Resource, "batch-") {
			created++
		}
	}
	if created != 4 {
		t.Errorf("%d topic creates audited, want 4", created)
	}
}

// TestApplyUpdatesTopicsInOneRequest: an apply's changes to existing
// topics are made with one request for their settings and one for the
// partitions that grow, each change audited with its before and after;
// a topic the cluster refuses fails alone (and keeps its partitions),
// an unchanged one is not touched.
func TestApplyUpdatesTopicsInOneRequest(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	c := w.Clusters["edh-shared/dev"]
	var doc ascode.Document
	for i := 0; i < 5; i++ {
		name := fmt.Sprintf("edh-shared-scada-dev-upd-%d", i)
		if err := c.CreateTopic(t.Context(), platform.TopicSpec{Name: name, Partitions: 2, Config: map[string]string{"cleanup.policy": "compact"}}); err != nil {
			t.Fatal(err)
		}
		decl := &portal.TopicDecl{Partitions: intp(2), Config: map[string]string{"retention.ms": "3600000"}}
		switch i {
		case 1, 2:
			decl.Partitions = intp(4) // grows, and its settings change
		case 4:
			decl.Config = map[string]string{"cleanup.policy": "compact"} // as it is
		}
		doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindTopic, Name: fmt.Sprintf("upd-%d", i), Spec: decl})
	}
	plan, err := w.Plans.Plan(ctx, dev, doc)
	if err != nil || plan.Count(ascode.ActionUpdate) != 4 || plan.Count(ascode.ActionUnchanged) != 1 {
		t.Fatalf("plan %+v %v", plan.Changes, err)
	}
	c.Refuse("edh-shared-scada-dev-upd-2", portal.New(portal.InvalidParameter, "the cluster refuses retention.ms for this topic"))
	before, writes := c.BatchUpdates(), c.Writes()
	applied, err := w.Plans.Apply(ctx, dev, doc, plan.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]string{}
	for _, ch := range applied.Changes {
		outcomes[ch.Identifier] = ch.Outcome
	}
	if got := fmt.Sprint(outcomes); got != "map[upd-0:applied upd-1:applied upd-2:failed upd-3:applied upd-4:]" {
		t.Errorf("outcomes %s", got)
	}
	if n, m := c.BatchUpdates()-before, c.Writes()-writes; n != 2 || m != 2 {
		t.Errorf("%d batched requests and %d writes for 4 updates, want 2 and 2 (settings, partitions)", n, m)
	}
	got := map[string]int{}
	for i := 0; i < 5; i++ {
		d, err := c.DescribeTopic(t.Context(), fmt.Sprintf("edh-shared-scada-dev-upd-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		got[fmt.Sprint(i)] = len(d.Partitions)
		for _, e := range d.Config {
			if e.Name == "cleanup.policy" && e.Override != (i == 2 || i == 4) {
				t.Errorf("upd-%d: cleanup.policy override %v (reset unless refused or declared)", i, e.Override)
			}
		}
	}
	if fmt.Sprint(got) != "map[0:2 1:4 2:2 3:2 4:2]" {
		t.Errorf("partitions %v: upd-1 grows, upd-2 (refused) keeps 2", got)
	}
	audited := map[string]string{}
	for _, e := range w.AuditEvents(t) {
		if (e.Action == portal.ActTopicConfig || e.Action == portal.ActTopicPartitions) && strings.Contains(e.Resource, "upd-") {
			audited[e.Action.String()+" "+e.Resource[strings.LastIndex(e.Resource, "-")+1:]] = e.Outcome
		}
	}
	if fmt.Sprint(audited) != "map[topic.config 0:ok topic.config 1:ok topic.config 2:INVALID_PARAMETER topic.config 3:ok topic.partitions 1:ok]" {
		t.Errorf("audited %v", audited)
	}
}
