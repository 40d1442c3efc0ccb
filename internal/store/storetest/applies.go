package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// testApplies: a journal is found applying until it is finished, once;
// finished ones are forgotten after a while, applying ones never.
func testApplies(t *testing.T, s store.Store) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	a := store.ApplyRecord{ID: "ap-1", BU: "scada", Stage: "dev", Actor: "bob", Document: []byte(`{"items":[]}`), Plan: []byte(`{"changes":[]}`),
		State: "applying", Event: 42, Started: now}
	b := a
	b.ID, b.Started = "ap-2", now.Add(time.Second)
	for _, r := range []store.ApplyRecord{a, b} {
		if err := s.CreateApply(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateApply(ctx, a); err == nil {
		t.Error("a journal stored twice")
	}
	got, err := s.AppliesInState(ctx, "applying", 10)
	if err != nil || len(got) != 2 || got[0].ID != "ap-1" || got[0].Event != 42 || string(got[0].Document) != `{"items":[]}` || !got[0].Started.Equal(now) {
		t.Fatalf("applying: %+v %v", got, err)
	}
	a.State, a.Finished, a.Result = "applied", now.Add(time.Minute), []byte(`{"changes":[{"outcome":"applied"}]}`)
	if ok, err := s.FinishApply(ctx, a); !ok || err != nil {
		t.Fatalf("finish: %v %v", ok, err)
	}
	if ok, _ := s.FinishApply(ctx, a); ok {
		t.Error("finished twice")
	}
	one, err := s.ApplyRecord(ctx, "ap-1")
	if err != nil || one.State != "applied" || string(one.Result) != string(a.Result) {
		t.Errorf("the finished journal: %+v %v", one, err)
	}
	if _, err := s.ApplyRecord(ctx, "ap-none"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no journal: %v", err)
	}
	if n, err := s.ForgetApplies(ctx, now.Add(2*time.Minute)); n != 1 || err != nil {
		t.Errorf("forgot %d: %v", n, err)
	}
	if left, _ := s.AppliesInState(ctx, "applying", 10); len(left) != 1 || left[0].ID != "ap-2" {
		t.Errorf("left applying: %+v", left)
	}
}
