package upstream_test

import (
	"context"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// TestCallsAddToTheRequestsWaits: a call made for a request adds its time
// to the request's waits; a call refused before it reached the upstream
// (an open circuit) adds nothing.
func TestCallsAddToTheRequestsWaits(t *testing.T) {
	r := upstream.NewRegistry(upstream.Options{Failures: 1, OpenFor: time.Hour})
	u := r.Get(upstream.SchemaRegistry, "waits-"+t.Name())
	ctx, waits := upstream.WithWaits(context.Background())
	var took time.Duration
	err := u.Call(ctx, "list_schemas", func(context.Context) error {
		start := time.Now()
		// The upstream's answer takes its time.
		<-time.After(10 * time.Millisecond)
		took = time.Since(start)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total, calls := waits.Total(time.Now()); calls != 1 || total < took {
		t.Fatalf("after a call of %v: %v in %d calls", took, total, calls)
	}
	_ = u.Call(ctx, "list_schemas", func(context.Context) error {
		return upstream.Unwell(portal.New(portal.UpstreamUnavailable, "registry down"))
	})
	if err := u.Call(ctx, "list_schemas", func(context.Context) error { return nil }); !portal.Is(err, portal.UpstreamUnavailable) {
		t.Fatalf("open circuit: %v", err)
	}
	if _, calls := waits.Total(time.Now()); calls != 2 {
		t.Fatalf("calls counted: %d, want 2 (the refused one is not)", calls)
	}
}
