package schemareg

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/registry"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

const orderV1 = `{"type":"record","name":"Order","namespace":"crm","fields":[{"name":"id","type":"string"}]}`
const orderV2 = `{"type":"record","name":"Order","namespace":"crm","fields":[{"name":"id","type":"string"},{"name":"amount","type":"double","default":0}]}`
const orderBad = `{"type":"record","name":"Order","namespace":"crm","fields":[{"name":"id","type":"string"},{"name":"customer","type":"string"}]}`

func newRegistry(t *testing.T) *Registry {
	t.Helper()
	reg, err := registry.StartRegistry("SRKEY", "SRSECRET")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	r, err := New(Options{Name: "test", URL: reg.URL(), APIKey: "SRKEY", APISecret: "SRSECRET", Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func avro(s string) platform.SchemaDef {
	return platform.SchemaDef{Type: schema.SchemaAvro, Schema: s}
}

func TestRegisterEvolveAndRefuse(t *testing.T) {
	ctx := context.Background()
	r := newRegistry(t)
	v1, err := r.Register(ctx, "orders-value", avro(orderV1))
	if err != nil || v1.Version != 1 || v1.ID == 0 {
		t.Fatalf("v1: %+v %v", v1, err)
	}
	again, err := r.Register(ctx, "orders-value", avro(orderV1))
	if err != nil || again.Version != 1 || again.ID != v1.ID {
		t.Errorf("registering the same schema again: %+v %v", again, err)
	}
	c, err := r.CheckCompatibility(ctx, "orders-value", avro(orderV2))
	if err != nil || !c.Compatible || c.Level != "BACKWARD" {
		t.Errorf("check v2: %+v %v", c, err)
	}
	v2, err := r.Register(ctx, "orders-value", avro(orderV2))
	if err != nil || v2.Version != 2 {
		t.Fatalf("v2: %+v %v", v2, err)
	}
	c, err = r.CheckCompatibility(ctx, "orders-value", avro(orderBad))
	if err != nil || c.Compatible || len(c.Messages) != 1 || !strings.Contains(c.Messages[0], "customer") {
		t.Errorf("check incompatible: %+v %v", c, err)
	}
	_, err = r.Register(ctx, "orders-value", avro(orderBad))
	if !portal.Is(err, portal.IncompatibleSchema) || !strings.Contains(err.Error(), "field customer was added without a default") {
		t.Errorf("incompatible: %v", err)
	}
	latest, err := r.GetSchema(ctx, "orders-value", 0)
	if err != nil || latest.Version != 2 || latest.Type != schema.SchemaAvro || !strings.Contains(latest.Schema, "amount") {
		t.Errorf("latest: %+v %v", latest, err)
	}
	first, err := r.GetSchema(ctx, "orders-value", 1)
	if err != nil || first.ID != v1.ID {
		t.Errorf("v1 by number: %+v %v", first, err)
	}
	if _, err := r.GetSchema(ctx, "orders-value", 9); !portal.Is(err, portal.NotFound) {
		t.Errorf("missing version: %v", err)
	}
	if _, err := r.GetSchema(ctx, "nothing-value", 0); !portal.Is(err, portal.NotFound) {
		t.Errorf("missing subject: %v", err)
	}
}

func TestInvalidSchemasAndJSON(t *testing.T) {
	ctx := context.Background()
	r := newRegistry(t)
	_, err := r.Register(ctx, "x-value", avro(`{"type":"record","name":"X","fields":[{"name":"a","type":"strang"}]}`))
	ps := portal.Problems(err)
	if len(ps) != 1 || ps[0].Kind != portal.InvalidParameter || ps[0].Field != "schema" || !strings.Contains(ps[0].Message, "strang") {
		t.Errorf("invalid avro: %v", err)
	}
	js := platform.SchemaDef{Type: schema.SchemaJSON, Schema: `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`}
	if _, err := r.Register(ctx, "j-value", js); err != nil {
		t.Fatal(err)
	}
	js2 := platform.SchemaDef{Type: schema.SchemaJSON, Schema: `{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"required":["id","n"]}`}
	if _, err := r.Register(ctx, "j-value", js2); !portal.Is(err, portal.IncompatibleSchema) || !strings.Contains(err.Error(), "property n is now required") {
		t.Errorf("json incompatible: %v", err)
	}
	if _, err := r.Register(ctx, "j-value", platform.SchemaDef{Type: schema.SchemaJSON, Schema: `{"type": 12}`}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("invalid json schema: %v", err)
	}
}

func TestReferencesListAndDelete(t *testing.T) {
	ctx := context.Background()
	r := newRegistry(t)
	money := `{"type":"record","name":"Money","namespace":"crm","fields":[{"name":"cents","type":"long"}]}`
	if _, err := r.Register(ctx, "money-value", avro(money)); err != nil {
		t.Fatal(err)
	}
	withRef := platform.SchemaDef{Type: schema.SchemaAvro, Schema: `{"type":"record","name":"Invoice","namespace":"crm","fields":[{"name":"total","type":"crm.Money"}]}`,
		References: []portal.SchemaReference{{Name: "crm.Money", Subject: "money-value", Version: 1}}}
	inv, err := r.Register(ctx, "invoice-value", withRef)
	if err != nil || len(inv.References) != 1 {
		t.Fatalf("with reference: %+v %v", inv, err)
	}
	if _, err := r.Register(ctx, "a-value", avro(orderV1)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Register(ctx, "a-value", avro(orderV2)); err != nil {
		t.Fatal(err)
	}
	all, err := r.ListSchemas(ctx, "", false)
	if err != nil || summary(all) != "a-value/1 a-value/2 invoice-value/1 money-value/1" {
		t.Errorf("all versions: %s %v", summary(all), err)
	}
	latest, _ := r.ListSchemas(ctx, "a-", true)
	if summary(latest) != "a-value/2" {
		t.Errorf("latest with prefix: %s", summary(latest))
	}
	if err := r.DeleteVersion(ctx, "a-value", 2, true); !portal.Is(err, portal.InvalidParameter) || !strings.Contains(err.Error(), "not deleted first") {
		t.Errorf("hard delete first: %v", err)
	}
	if err := r.DeleteVersion(ctx, "a-value", 2, false); err != nil {
		t.Fatal(err)
	}
	if v, _ := r.GetSchema(ctx, "a-value", 0); v.Version != 1 {
		t.Errorf("latest after soft delete: %d", v.Version)
	}
	if err := r.DeleteVersion(ctx, "a-value", 2, true); err != nil {
		t.Errorf("hard delete after soft: %v", err)
	}
	latest, _ = r.ListSchemas(ctx, "a-", false)
	if summary(latest) != "a-value/1" {
		t.Errorf("after deletes: %s", summary(latest))
	}
}

func TestWrongCredentials(t *testing.T) {
	reg, err := registry.StartRegistry("SRKEY", "SRSECRET")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	r, _ := New(Options{Name: "test", URL: reg.URL(), APIKey: "SRKEY", APISecret: "nope", Timeout: 3 * time.Second})
	// The platform's configuration, named as such; never an outage.
	if _, err := r.ListSchemas(context.Background(), "", true); !portal.Is(err, portal.UpstreamPermission) || upstream.IsOutage(err) {
		t.Errorf("list: %v", err)
	}
	if _, err := r.GetSchema(context.Background(), "x", 0); !portal.Is(err, portal.UpstreamPermission) || upstream.IsOutage(err) {
		t.Errorf("get: %v", err)
	}
}

func summary(vs []schema.SchemaVersion) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, fmt.Sprintf("%s/%d", v.Subject, v.Version))
	}
	return strings.Join(parts, " ")
}

// TestListsPastTheRegistrysPage: the registry answers at most 1,000
// schemas a request (schema.search.max.limit); a registry of 1,500
// subjects lists whole, each once, in order.
func TestListsPastTheRegistrysPage(t *testing.T) {
	ctx := context.Background()
	r := newRegistry(t)
	const n = 1500
	for i := range n {
		if _, err := r.Register(ctx, fmt.Sprintf("big-%04d-value", i), avro(fmt.Sprintf(`{"type":"record","name":"R%d","fields":[{"name":"id","type":"string"}]}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	all, err := r.ListSchemas(ctx, "big-", true)
	if err != nil || len(all) != n {
		t.Fatalf("listed %d of %d: %v", len(all), n, err)
	}
	for i, v := range all {
		if want := fmt.Sprintf("big-%04d-value", i); v.Subject != want {
			t.Fatalf("item %d is %s, want %s", i, v.Subject, want)
		}
	}
}

// A registration is the registry's answer, never a remembered one: a
// version another writer (another replica, a person with the CLI)
// deleted is registered again, not reported as registered.
func TestARegistrationIsAskedOfTheRegistryEachTime(t *testing.T) {
	ctx := context.Background()
	reg, err := registry.StartRegistry("SRKEY", "SRSECRET")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	adapter := func() *Registry {
		r, err := New(Options{Name: "test", URL: reg.URL(), APIKey: "SRKEY", APISecret: "SRSECRET", Timeout: 3 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(r.Close)
		return r
	}
	ours, other := adapter(), adapter()
	if _, err := ours.Register(ctx, "orders-value", avro(orderV1)); err != nil {
		t.Fatal(err)
	}
	if _, err := ours.Register(ctx, "orders-value", avro(orderV2)); err != nil {
		t.Fatal(err)
	}
	if err := other.DeleteVersion(ctx, "orders-value", 2, false); err != nil {
		t.Fatal(err)
	}
	again, err := ours.Register(ctx, "orders-value", avro(orderV2))
	if err != nil {
		t.Fatal(err)
	}
	latest, err := other.GetSchema(ctx, "orders-value", 0)
	if err != nil || latest.Version != again.Version || !strings.Contains(latest.Schema, "amount") {
		t.Errorf("registered again as %+v, but the registry's latest is %+v (%v)", again, latest, err)
	}
}
