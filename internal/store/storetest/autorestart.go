package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"

	"github.com/edh-platform/rms-portal/internal/portal"
)

func testAutoRestarts(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, err := s.AutoRestartOf(ctx, "z", "dev", "c-1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an auto-restart never set: %v", err)
	}
	for _, a := range []store.AutoRestart{{Zone: "z", Stage: "dev", Connector: "c-2", BU: "crm", SetBy: "ada", SetAt: base},
		{Zone: "z", Stage: "dev", Connector: "c-1", BU: "crm", MaxRestarts: 3, SetBy: "ada", SetAt: base},
		{Zone: "z", Stage: "run", Connector: "c-1", BU: "crm"}} {
		if err := s.SetAutoRestart(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	// Where the backoff stands is saved, and a new setting starts it again.
	progress := store.AutoRestart{Zone: "z", Stage: "dev", Connector: "c-1", Attempts: 2, FailingSince: base.Add(time.Minute), LastAt: base.Add(3 * time.Minute), GivenUp: true}
	if ok, err := s.UpdateAutoRestart(ctx, progress); !ok || err != nil {
		t.Fatalf("update: %v %v", ok, err)
	}
	got, err := s.AutoRestartOf(ctx, "z", "dev", "c-1")
	if err != nil || got.Attempts != 2 || !got.LastAt.Equal(base.Add(3*time.Minute)) || !got.FailingSince.Equal(base.Add(time.Minute)) || !got.GivenUp ||
		got.MaxRestarts != 3 || got.BU != "crm" || got.SetBy != "ada" || !got.SetAt.Equal(base) {
		t.Errorf("after the update: %+v %v", got, err)
	}
	if err := s.SetAutoRestart(ctx, store.AutoRestart{Zone: "z", Stage: "dev", Connector: "c-1", BU: "crm", MaxRestarts: 5, SetBy: "bob", SetAt: base}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.AutoRestartOf(ctx, "z", "dev", "c-1"); got.Attempts != 0 || got.GivenUp || !got.LastAt.IsZero() || got.MaxRestarts != 5 || got.SetBy != "bob" {
		t.Errorf("set again: %+v", got)
	}
	dev, err := s.AutoRestartsIn(ctx, "z", "dev")
	if err != nil || len(dev) != 2 || dev[0].Connector != "c-1" || dev[1].Connector != "c-2" {
		t.Errorf("dev's: %+v %v", dev, err)
	}
	if stages, err := s.AutoRestartStages(ctx); err != nil || !slices.Equal(stages, []portal.ZoneStage{{Zone: "z", Stage: "dev"}, {Zone: "z", Stage: "run"}}) {
		t.Errorf("stages: %v %v", stages, err)
	}
	if err := s.DeleteAutoRestart(ctx, "z", "dev", "c-1"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.UpdateAutoRestart(ctx, progress); ok || err != nil {
		t.Errorf("an update after it was turned off: %v %v", ok, err)
	}
	if err := s.DeleteAutoRestart(ctx, "z", "dev", "c-1"); err != nil {
		t.Errorf("turned off twice: %v", err)
	}
}

func testConnectorSecrets(t *testing.T, s store.Store) {
	ctx := context.Background()
	if d, err := s.SecretDigests(ctx, "z", "dev", "c-1"); err != nil || len(d) != 0 {
		t.Fatalf("none kept: %v %v", d, err)
	}
	if err := s.SetSecretDigests(ctx, "z", "dev", "c-1", map[string]string{"kafka.api.secret": "d1", "kafka.api.key": "d2"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSecretDigests(ctx, "z", "qas", "c-1", map[string]string{"kafka.api.secret": "other"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSecretDigests(ctx, "z", "dev", "c-1", map[string]string{"kafka.api.secret": "d3"}); err != nil {
		t.Fatal(err)
	}
	if d, err := s.SecretDigests(ctx, "z", "dev", "c-1"); err != nil || len(d) != 1 || d["kafka.api.secret"] != "d3" {
		t.Errorf("replaced: %v %v", d, err)
	}
	if err := s.SetSecretDigests(ctx, "z", "dev", "c-1", nil); err != nil {
		t.Fatal(err)
	}
	if d, err := s.SecretDigests(ctx, "z", "dev", "c-1"); err != nil || len(d) != 0 {
		t.Errorf("removed: %v %v", d, err)
	}
	if d, _ := s.SecretDigests(ctx, "z", "qas", "c-1"); d["kafka.api.secret"] != "other" {
		t.Errorf("another stage's: %v", d)
	}
}
