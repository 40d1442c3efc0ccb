package sqlite

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestSpansNameTheStoreMethod: a traced store names each database span
// after the store call that made it, through the helpers that run its
// queries and the lock's release.
func TestSpansNameTheStoreMethod(t *testing.T) {
	st, _, err := Open(context.Background(), filepath.Join(t.TempDir(), "spans.db"), 5*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec := tracetest.NewSpanRecorder()
	st.SetTracer(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test"))
	ctx := context.Background()
	if _, err := st.GrantRecords(ctx, "scada", "dev", 10); err != nil {
		t.Fatal(err)
	}
	unlock, ok, err := st.TryLock(ctx, []string{"topic edh-shared/dev spans"}, "replica-a")
	if err != nil || !ok {
		t.Fatalf("lock: %v %v", ok, err)
	}
	unlock()
	if _, err := st.Deliveries(ctx, "wh-spans", 5); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range rec.Ended() {
		names = append(names, s.Name())
	}
	if want := []string{"db GrantRecords", "db TryLock", "db TryLock", "db Deliveries"}; !slices.Equal(names, want) {
		t.Errorf("spans %q, want %q", names, want)
	}
}
