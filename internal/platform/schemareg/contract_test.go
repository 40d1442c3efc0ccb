package schemareg

import (
	"context"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/registry"
	"github.com/edh-platform/rms-portal/internal/platform/contract"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestRegistryAdapterAndStandInFollowTheDocument drives the Schema
// Registry adapter against dev mode's registry with every request and
// answer checked against Confluent Cloud's published Schema Registry
// document (testdata/schema-registry-v1.yaml, with its origin in
// testdata/README.md): register, evolve, refuse an incompatible version,
// check compatibility, list (whole and latest), read by version and by id,
// delete.
func TestRegistryAdapterAndStandInFollowTheDocument(t *testing.T) {
	reg, err := registry.StartRegistry("SRKEY", "SRSECRET")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	target, _ := url.Parse(reg.URL())
	v, srv := contract.Serve(t, httputil.NewSingleHostReverseProxy(target), "testdata/schema-registry-v1.yaml")
	r, err := New(Options{Name: "contract", URL: srv.URL, APIKey: "SRKEY", APISecret: "SRSECRET", Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	ctx := context.Background()
	subject := "edh-shared-crm-dev-contract-value"

	v1, err := r.Register(ctx, subject, avro(orderV1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Register(ctx, subject, avro(orderV2)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Register(ctx, subject, avro(orderBad)); !portal.Is(err, portal.IncompatibleSchema) {
		t.Errorf("an incompatible version: %v", err)
	}
	if _, err := r.CheckCompatibility(ctx, subject, avro(orderBad)); err != nil {
		t.Errorf("a compatibility check: %v", err)
	}
	if _, err := r.Compatibility(ctx, subject); err != nil {
		t.Errorf("the subject's level: %v", err)
	}
	for _, latest := range []bool{false, true} {
		if _, err := r.ListSchemas(ctx, "edh-shared-crm-dev-", latest); err != nil {
			t.Errorf("list (latest %v): %v", latest, err)
		}
	}
	if _, err := r.GetSchema(ctx, subject, 1); err != nil {
		t.Errorf("version 1: %v", err)
	}
	if _, err := r.GetSchema(ctx, subject, -1); err != nil {
		t.Errorf("the latest: %v", err)
	}
	if _, err := r.SchemaByID(ctx, v1.ID); err != nil {
		t.Errorf("by id: %v", err)
	}
	if _, err := r.GetSchema(ctx, "edh-shared-crm-dev-nope-value", 1); !portal.Is(err, portal.NotFound) {
		t.Errorf("a missing subject: %v", err)
	}
	if err := r.DeleteVersion(ctx, subject, 2, false); err != nil {
		t.Errorf("soft delete: %v", err)
	}
	if err := r.DeleteVersion(ctx, subject, 2, true); err != nil {
		t.Errorf("hard delete: %v", err)
	}
	v.Report()
}
