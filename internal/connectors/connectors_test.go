package connectors_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// seedScada gives scada, in stage, an existing connector and subject.
func seedScada(t *testing.T, w *servicetest.World, stage string) {
	t.Helper()
	ctx := servicetest.As("scada", portal.SuperAdmin)
	if _, err := w.Connectors.Create(ctx, portal.Scope{BU: "scada", Stage: stage}, connect.NewConnector{Name: "existing", Config: servicetest.DatagenConfig()}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: stage}, schema.NewSchema{Topic: "existing", SubjectType: "value",
		SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: servicetest.AvroV1}}); err != nil {
		t.Fatal(err)
	}
}

type op struct {
	name  string
	write bool
	run   func(ctx context.Context, w *servicetest.World, stage string) error
}

var connectorAndSchemaOps = []op{
	{"list connectors", false, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Connectors.List(ctx, portal.Scope{BU: "scada", Stage: st}, portal.ListQuery{})
		return err
	}},
	{"get connector", false, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Connectors.Get(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", true)
		return err
	}},
	{"connector classes", false, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Connectors.Plugins(ctx, portal.Scope{BU: "scada", Stage: st})
		return err
	}},
	{"create connector", true, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Connectors.Create(ctx, portal.Scope{BU: "scada", Stage: st}, connect.NewConnector{Name: "fresh", Config: servicetest.DatagenConfig()})
		return err
	}},
	{"update connector", true, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Connectors.Update(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", servicetest.DatagenConfig(), "")
		return err
	}},
	{"pause connector", true, func(ctx context.Context, w *servicetest.World, st string) error {
		return w.Connectors.Pause(ctx, portal.Scope{BU: "scada", Stage: st}, "existing")
	}},
	{"resume connector", true, func(ctx context.Context, w *servicetest.World, st string) error {
		return w.Connectors.Resume(ctx, portal.Scope{BU: "scada", Stage: st}, "existing")
	}},
	{"restart connector", true, func(ctx context.Context, w *servicetest.World, st string) error {
		return w.Connectors.Restart(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", false)
	}},
	{"delete connector", true, func(ctx context.Context, w *servicetest.World, st string) error {
		return w.Connectors.Delete(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", "")
	}},
	{"list schemas", false, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Schemas.List(ctx, portal.Scope{BU: "scada", Stage: st}, true, portal.ListQuery{})
		return err
	}},
	{"get schema", false, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Schemas.Get(ctx, portal.Scope{BU: "scada", Stage: st}, "existing-value", "latest")
		return err
	}},
	{"schema versions", false, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Schemas.Versions(ctx, portal.Scope{BU: "scada", Stage: st}, "existing-value")
		return err
	}},
	{"check schema", false, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Schemas.Check(ctx, portal.Scope{BU: "scada", Stage: st}, "existing-value", schema.SchemaDef{Schema: servicetest.AvroV2})
		return err
	}},
	{"create schema", true, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: st}, schema.NewSchema{Topic: "fresh", SubjectType: "key", SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: servicetest.AvroV1}})
		return err
	}},
	{"update schema", true, func(ctx context.Context, w *servicetest.World, st string) error {
		_, err := w.Schemas.Update(ctx, portal.Scope{BU: "scada", Stage: st}, "existing-value", schema.SchemaDef{Schema: servicetest.AvroV2})
		return err
	}},
	{"delete schema", true, func(ctx context.Context, w *servicetest.World, st string) error {
		return w.Schemas.Delete(ctx, portal.Scope{BU: "scada", Stage: st}, "existing-value", "1", false)
	}},
}

func TestConnectorAndSchemaAccessMatrix(t *testing.T) {
	for _, role := range access.Roles {
		// One world per role: each stage's seeds and changes carry the
		// stage's names, and the checks count from before each operation.
		w := servicetest.New(t)
		for _, stage := range []string{"dev", "run"} {
			seedScada(t, w, stage)
			for _, o := range connectorAndSchemaOps {
				want := writePolicy[role][stage][map[bool]int{false: 0, true: 1}[o.write]]
				before := len(w.AuditEvents(t))
				err := o.run(servicetest.As("scada", role), w, stage)
				switch {
				case want == "" && err != nil:
					t.Errorf("%s %s in %s: refused: %v", role, o.name, stage, err)
				case want != "" && portal.KindOf(err) != want:
					t.Errorf("%s %s in %s: got %v, want %s", role, o.name, stage, err, want)
				case want != "" && o.write && len(w.AuditEvents(t)) != before+1:
					t.Errorf("%s %s in %s: a refused write must leave one audit event", role, o.name, stage)
				case want != "" && !o.write && len(w.AuditEvents(t)) != before:
					t.Errorf("%s %s in %s: a refused read left an audit event", role, o.name, stage)
				}
			}
		}
	}
}

func TestConnectorNamingTopicsAndSecrets(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	cfg := servicetest.DatagenConfig()
	cfg["kafka.topic"] = "Pump_Readings"
	c, err := w.Connectors.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, connect.NewConnector{Name: "pump_source", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "edh-shared-scada-dev-pump-source-connector" || c.Identifier != "pump-source" || c.State != connect.StateProvisioning {
		t.Errorf("created %+v", c)
	}
	if c.Config["kafka.topic"] != "edh-shared-scada-dev-pump-readings" || c.Config["kafka.api.secret"] != connect.Mask || c.Config["kafka.api.key"] != connect.Mask ||
		c.Config["name"] != c.Name {
		t.Errorf("config %v", c.Config)
	}
	// Another unit's topic cannot be reached: it is qualified into scada's.
	cfg["kafka.topic"] = "edh-shared-crm-dev-orders"
	c2, err := w.Connectors.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, connect.NewConnector{Name: "sneaky", Config: cfg})
	if err != nil || c2.Config["kafka.topic"] != "edh-shared-scada-dev-edh-shared-crm-dev-orders" {
		t.Errorf("cross-tenant topic: %v %v", c2.Config, err)
	}
	cfg["topics.regex"] = ".*"
	if _, err := w.Connectors.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, connect.NewConnector{Name: "regex", Config: cfg}); !strings.Contains(servicetest.Problems(err), "config.topics.regex") {
		t.Errorf("topics.regex: %s", servicetest.Problems(err))
	}

	// Sending the masked secret back keeps the stored one.
	got, _ := w.Connectors.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "pump_source", true)
	got.Config["quickstart"] = "USERS"
	if _, err := w.Connectors.Update(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "pump-source", got.Config, ""); err != nil {
		t.Fatal(err)
	}
	stored := storedConfig(t, w, "edh-shared/dev", "edh-shared-scada-dev-pump-source-connector")
	if stored["kafka.api.secret"] != "SECRET" || stored["quickstart"] != "USERS" {
		t.Errorf("stored after update %v", stored)
	}
	got.Config["connector.class"] = "HttpSink"
	if _, err := w.Connectors.Update(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "pump-source", got.Config, ""); !strings.Contains(servicetest.Problems(err), "cannot change") {
		t.Errorf("class change: %s", servicetest.Problems(err))
	}

	_, err = w.Connectors.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, connect.NewConnector{Name: "bad", Config: map[string]string{"connector.class": "DatagenSource"}})
	if got := servicetest.Problems(err); !strings.Contains(got, "config.kafka.topic") || !strings.Contains(got, "config.quickstart") {
		t.Errorf("missing settings: %s", got)
	}
	_, err = w.Connectors.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, connect.NewConnector{Name: "", Config: nil})
	if got := servicetest.Problems(err); !strings.Contains(got, "MISSING_PARAMETER name") || !strings.Contains(got, "MISSING_PARAMETER config") {
		t.Errorf("empty create: %s", got)
	}
	if _, err := w.Connectors.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, connect.NewConnector{Name: "pump_source", Config: servicetest.DatagenConfig()}); !portal.Is(err, portal.AlreadyExists) {
		t.Errorf("duplicate: %v", err)
	}

	list, _ := w.Connectors.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{})
	if len(list.Items) != 2 || list.Items[0].Config != nil {
		t.Errorf("list %+v", list.Items)
	}
	crm, _ := w.Connectors.List(servicetest.As("crm", portal.Admin), portal.Scope{BU: "crm", Stage: "dev"}, portal.ListQuery{})
	if len(crm.Items) != 0 {
		t.Errorf("crm sees %+v", crm.Items)
	}
	if err := w.Connectors.Restart(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "nope", true); !portal.Is(err, portal.NotFound) {
		t.Errorf("restart of a missing connector: %v", err)
	}
}

// storedConfig looks inside the stand-in, which masks its output like
// Confluent Cloud does.
func storedConfig(t *testing.T, w *servicetest.World, env, name string) map[string]string {
	t.Helper()
	cfg, ok := w.Connect[env].StoredConfig(name)
	if !ok {
		t.Fatalf("no connector %s in %s", name, env)
	}
	return cfg
}
