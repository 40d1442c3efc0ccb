package schemareg

import (
	"context"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/registry"
)

// TestTheClientOpensOnUseAndClosesWhenIdle: a registry nobody uses holds
// no client (and so none of its caches); a call that needs it makes it,
// it is closed once unused for its idle time and made again by the next
// call; a closed registry refuses. Reads by id share one cache across
// registries, each keeping its own ids.
func TestTheClientOpensOnUseAndClosesWhenIdle(t *testing.T) {
	ctx := context.Background()
	reg, err := registry.StartRegistry("SRKEY", "SRSECRET")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	cache := NewCache(1 << 20)
	mk := func(name string) *Registry {
		r, err := New(Options{Name: name, URL: reg.URL(), APIKey: "SRKEY", APISecret: "SRSECRET", Timeout: 3 * time.Second,
			Cache: cache, IdleAfter: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r, other := mk("a"), mk("b")
	t.Cleanup(other.Close)
	if r.client.open() {
		t.Fatal("a registry nobody used holds a client")
	}
	v1, err := r.Register(ctx, "lazy-value", avro(orderV1))
	if err != nil {
		t.Fatal(err)
	}
	if r.client.open() {
		t.Error("a registration (a plain request) made the client")
	}
	if got, err := r.GetSchema(ctx, "lazy-value", v1.Version); err != nil || got.ID != v1.ID {
		t.Fatalf("version 1: %+v %v", got, err)
	}
	if !r.client.open() {
		t.Fatal("a read of a version did not make the client")
	}
	waitClosed := func() {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for r.client.open() {
			if time.Now().After(deadline) {
				t.Fatal("the client stayed open past its idle time")
			}
			<-tick.C
		}
	}
	waitClosed()
	if got, err := r.GetSchema(ctx, "lazy-value", v1.Version); err != nil || got.ID != v1.ID || !r.client.open() {
		t.Fatalf("a read after the client closed: %+v %v", got, err)
	}
	waitClosed()
	if _, err := r.SchemaByID(ctx, v1.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := cache.get("a", v1.ID); !ok {
		t.Error("a schema read by id is not in the shared cache")
	}
	if _, ok := cache.get("b", v1.ID); ok {
		t.Error("another registry's cache entry answers for it")
	}
	r.Close()
	if _, err := r.GetSchema(ctx, "lazy-value", v1.Version); err == nil || r.client.open() {
		t.Errorf("a closed registry made its client again: %v", err)
	}
}
