package gate_test

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// eventOf is the trail's event of resource (the newest), or fails.
func eventOf(t *testing.T, w *servicetest.World, resource string) trail.AuditEvent {
	t.Helper()
	for _, e := range w.AuditEvents(t) {
		if e.Resource == resource {
			return e
		}
	}
	t.Fatalf("no event of %s in the trail", resource)
	return trail.AuditEvent{}
}

func portalCall(t *testing.T, w *servicetest.World) (context.Context, *gate.Call) {
	t.Helper()
	ctx, call, err := w.Guard.Portal(context.Background(), "scada", "dev")
	if err != nil {
		t.Fatal(err)
	}
	return ctx, call
}

// TestAWriteOfSeveralStepsIsSettledOnce: the steps' changes, the name
// learnt on the way and the failure are the one event's; a write left
// for its resumer stays unknown; a resumed attempt is settled in place.
func TestAWriteOfSeveralStepsIsSettledOnce(t *testing.T) {
	w := servicetest.New(t)
	ctx, call := portalCall(t, w)
	name := "steps-" + strings.ToLower(rand.Text()[:8])

	var id int64
	err := w.Guard.Write(ctx, call, gate.Change{Event: portal.ActTopicConfig, Resource: name,
		Steps: func(_ context.Context, wr *gate.Write) ([]trail.Change, error) {
			id = wr.ID()
			wr.Rename(name + " (renamed)")
			wr.Note("two steps")
			return []trail.Change{{Field: "first", After: "1"}}, portal.New(portal.Conflict, "the second step failed")
		},
		Changes: []trail.Change{{Field: "declared", After: "2"}}})
	if !portal.Is(err, portal.Conflict) {
		t.Fatalf("the write's error = %v, want the step's conflict", err)
	}
	e := eventOf(t, w, name+" (renamed)")
	if e.ID != id || e.Outcome != string(portal.Conflict) || !strings.Contains(e.Detail, "two steps") || !strings.Contains(e.Detail, "the second step failed") ||
		len(e.Changes) != 2 || e.Changes[0].Field != "first" || e.Changes[1].Field != "declared" {
		t.Errorf("the event = %+v, want one settled conflict with both changes, the note and the failure", e)
	}

	left := name + "-left"
	_ = w.Guard.Write(ctx, call, gate.Change{Event: portal.ActTopicConfig, Resource: left,
		Steps: func(_ context.Context, wr *gate.Write) ([]trail.Change, error) {
			id = wr.ID()
			wr.Leave()
			return nil, errors.New("the journal is down")
		}})
	if e := eventOf(t, w, left); e.Outcome != "unknown" {
		t.Errorf("a write left for its resumer: %+v, want unknown", e)
	}
	err = w.Guard.Write(ctx, call, gate.Change{Event: portal.ActTopicConfig, Resource: left, Resume: true, Attempt: id,
		Do: func(context.Context) error { return nil }})
	if e := eventOf(t, w, left); err != nil || e.ID != id || e.Outcome != "ok" {
		t.Errorf("the resumed attempt: %v %+v, want event %d settled ok", err, e, id)
	}
}

// TestABatchHasAnAttemptAndAnOutcomeEach: one request for the batch,
// sent only for the changes whose attempts are in the trail, and each
// change settled with its own outcome.
func TestABatchHasAnAttemptAndAnOutcomeEach(t *testing.T) {
	w := servicetest.New(t)
	ctx, call := portalCall(t, w)
	sfx := strings.ToLower(rand.Text()[:8])
	names := []string{"a-" + sfx, "b-" + sfx, "c-" + sfx}
	sends := 0
	errs := w.Guard.WriteBatch(ctx, call, gate.Batch{Event: portal.ActTopicPartitions, Resources: names,
		Send: func(_ context.Context, begun []int) ([]error, error) {
			sends++
			if len(begun) != 3 {
				t.Errorf("sent %v, want all three", begun)
			}
			return []error{nil, portal.Invalid("partitions_count", "b refused"), nil}, nil
		},
		Each: func(_ context.Context, i int, _ *gate.Write, err error) ([]trail.Change, error) {
			if i == 2 {
				return nil, portal.New(portal.UpstreamTimeout, "c did not answer")
			}
			return []trail.Change{{Field: "partitions_count", After: "2"}}, err
		}})
	if sends != 1 {
		t.Errorf("%d requests, want one", sends)
	}
	if errs[0] != nil || errs[1] == nil || !portal.Is(errs[2], portal.UpstreamTimeout) {
		t.Errorf("errors = %v, want nil, b's refusal, c's timeout", errs)
	}
	for i, want := range []string{"ok", string(portal.KindOf(errs[1])), "unknown"} {
		if e := eventOf(t, w, names[i]); e.Outcome != want {
			t.Errorf("%s: outcome %q, want %q", names[i], e.Outcome, want)
		}
	}
}
