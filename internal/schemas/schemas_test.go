package schemas_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

func TestSchemaLifecycle(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	v1, err := w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, schema.NewSchema{Topic: "Readings", SubjectType: "value",
		SchemaDef: schema.SchemaDef{SchemaType: "avro", Schema: servicetest.AvroV1}})
	if err != nil || v1.Subject != "edh-shared-scada-dev-readings-value" || v1.Version != 1 {
		t.Fatalf("create: %+v %v", v1, err)
	}
	if _, err := w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, schema.NewSchema{Topic: "readings", SubjectType: "value",
		SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: servicetest.AvroV2}}); !portal.Is(err, portal.AlreadyExists) {
		t.Errorf("second create: %v", err)
	}
	c, err := w.Schemas.Check(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "readings-value", schema.SchemaDef{Schema: servicetest.AvroV2})
	if err != nil || !c.Compatible {
		t.Errorf("check: %+v %v", c, err)
	}
	v2, err := w.Schemas.Update(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "readings-value", schema.SchemaDef{Schema: servicetest.AvroV2})
	if err != nil || v2.Version != 2 {
		t.Fatalf("update: %+v %v", v2, err)
	}
	bad := `{"type":"record","name":"Reading","fields":[{"name":"id","type":"int"}]}`
	_, err = w.Schemas.Update(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "edh-shared-scada-dev-readings-value", schema.SchemaDef{Schema: bad})
	if !portal.Is(err, portal.IncompatibleSchema) || !strings.Contains(err.Error(), "id") {
		t.Errorf("incompatible: %v", err)
	}
	latest, _ := w.Schemas.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, true, portal.ListQuery{})
	all, _ := w.Schemas.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, false, portal.ListQuery{})
	if len(latest.Items) != 1 || latest.Items[0].Version != 2 || len(all.Items) != 2 {
		t.Errorf("lists: latest %d all %d", len(latest.Items), len(all.Items))
	}
	vs, err := w.Schemas.Versions(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "readings-value")
	if err != nil || len(vs) != 2 || vs[0].Version != 1 {
		t.Errorf("versions %v %v", vs, err)
	}
	if got, err := w.Schemas.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "readings-value", "1"); err != nil || got.ID != v1.ID {
		t.Errorf("get v1: %+v %v", got, err)
	}
	if _, err := w.Schemas.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "readings-value", "first"); !strings.Contains(servicetest.Problems(err), "INVALID_PARAMETER version") {
		t.Errorf("bad version: %s", servicetest.Problems(err))
	}
	// Another unit cannot see or touch it.
	if _, err := w.Schemas.Get(servicetest.As("crm", portal.Admin), portal.Scope{BU: "crm", Stage: "dev"}, "edh-shared-scada-dev-readings-value", "latest"); !portal.Is(err, portal.NotFound) {
		t.Errorf("crm reads scada's subject: %v", err)
	}
	if err := w.Schemas.Delete(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "readings-value", "2", true); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("hard delete first: %v", err)
	}
	if err := w.Schemas.Delete(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "readings-value", "latest", false); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.Schemas.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "readings-value", "latest"); got.Version != 1 {
		t.Errorf("latest after deleting v2: %d", got.Version)
	}
}

func TestSchemaValidation(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	_, err := w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, schema.NewSchema{SubjectType: "both", SchemaDef: schema.SchemaDef{SchemaType: "PROTOBUF"}})
	want := "MISSING_PARAMETER topic: topic is required\n" +
		"INVALID_PARAMETER subject_type: subject_type must be key or value, not \"both\"\n" +
		"INVALID_PARAMETER schema_type: PROTOBUF schemas are not supported yet; use AVRO or JSON\n" +
		"MISSING_PARAMETER schema: schema is required"
	if got := servicetest.Problems(err); got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
	_, err = w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, schema.NewSchema{Topic: "t", SubjectType: "key", SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: `{"type":"recrd"}`}})
	if ps := portal.Problems(err); len(ps) != 1 || ps[0].Field != "schema" || !strings.Contains(ps[0].Message, "recrd") {
		t.Errorf("unparsable: %v", err)
	}
	_, err = w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, schema.NewSchema{Topic: "t", SubjectType: "key", SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: servicetest.AvroV1,
		References: []portal.SchemaReference{{Name: "x"}}}})
	if !strings.Contains(servicetest.Problems(err), "references[0]") {
		t.Errorf("bad reference: %s", servicetest.Problems(err))
	}
}

// TestConcurrentRegistrations: sixteen identical creates at once give one
// success and fifteen ALREADY_EXISTS; an Avro record with two fields of one
// name is refused as Avro refuses it.
func TestConcurrentRegistrations(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	in := schema.NewSchema{Topic: "racy", SubjectType: "value", SchemaDef: schema.SchemaDef{SchemaType: "AVRO",
		Schema: `{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}`}}
	var wg sync.WaitGroup
	var mu sync.Mutex
	kinds := map[portal.Kind]int{}
	for range 16 {
		wg.Go(func() {
			_, err := w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, in)
			mu.Lock()
			kinds[portal.KindOf(err)]++
			if err == nil {
				kinds["ok"]++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if kinds["ok"] != 1 || kinds[portal.AlreadyExists] != 15 {
		t.Errorf("outcomes %v", kinds)
	}
	in.Topic, in.Schema = "dupes", `{"type":"record","name":"R","fields":[{"name":"a","type":"string"},{"name":"a","type":"int"}]}`
	_, err := w.Schemas.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, in)
	if got := servicetest.Problems(err); !strings.Contains(got, "INVALID_PARAMETER schema") || !strings.Contains(got, "two fields named a") {
		t.Errorf("duplicate fields: %s", got)
	}
}
