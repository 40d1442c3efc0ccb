package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// testCatalog: entries are put whole (twice is a replace), read one by
// one and by zone and stage, and forgotten.
func testCatalog(t *testing.T, s store.Store) {
	ctx := context.Background()
	e := store.CatalogEntry{Zone: "edh-shared", Stage: "dev", Topic: "edh-shared-scada-dev-orders", BU: "scada", Description: "Orders",
		Contact: "team@example.com", Tags: []string{"pii", "sales"}, Classification: "restricted", UpdatedBy: "carol", Updated: base}
	if _, err := s.CatalogEntry(ctx, e.Zone, e.Stage, e.Topic); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	if err := s.PutCatalogEntry(ctx, e); err != nil {
		t.Fatal(err)
	}
	e.Tags, e.Description, e.Updated = nil, "Orders as placed", base.Add(time.Hour)
	if err := s.PutCatalogEntry(ctx, e); err != nil {
		t.Fatal(err)
	}
	other := e
	other.Topic, other.Stage, other.Tags = "edh-shared-scada-run-orders", "run", []string{"x"}
	if err := s.PutCatalogEntry(ctx, other); err != nil {
		t.Fatal(err)
	}
	got, err := s.CatalogEntry(ctx, e.Zone, e.Stage, e.Topic)
	if err != nil || got.Description != "Orders as placed" || got.Tags != nil || got.Classification != "restricted" || !got.Updated.Equal(e.Updated) {
		t.Fatalf("replaced: %+v %v", got, err)
	}
	list, err := s.CatalogEntries(ctx, "edh-shared", "run", 10)
	if err != nil || len(list) != 1 || !slices.Equal(list[0].Tags, []string{"x"}) {
		t.Fatalf("by stage: %+v %v", list, err)
	}
	if err := s.DeleteCatalogEntry(ctx, e.Zone, e.Stage, e.Topic); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.CatalogEntries(ctx, "edh-shared", "dev", 10); len(list) != 0 {
		t.Errorf("forgotten: %+v", list)
	}
}

// testGrantExpiry: an active grant's expiry, approvals and renewal are
// kept; expiring grants are listed soonest first and warned once; an
// extension clears the warning.
func testGrantExpiry(t *testing.T, s store.Store) {
	ctx := context.Background()
	mk := func(id string, expires time.Time, state string) store.GrantRecord {
		return store.GrantRecord{ID: id, Zone: "edh-shared", Stage: "dev", Owner: "scada", Grantee: "crm", Principal: "sa-1", PrincipalName: "sa-x",
			Pattern: "edh-shared-scada-dev-" + id, Access: "read", State: state, Created: base, Duration: 7 * 24 * time.Hour, Expires: expires,
			Classification: "restricted", Approvals: []string{"sub-bob bob"}, Renews: "gr-0"}
	}
	for _, g := range []store.GrantRecord{mk("gr-late", base.Add(48*time.Hour), "active"), mk("gr-soon", base.Add(time.Hour), "active"),
		mk("gr-never", time.Time{}, "active"), mk("gr-asked", time.Time{}, "requested"), mk("gr-gone", base.Add(time.Minute), "revoked")} {
		if err := s.CreateGrantRecord(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	g, err := s.GrantRecord(ctx, "gr-soon")
	if err != nil || g.Duration != 7*24*time.Hour || !g.Expires.Equal(base.Add(time.Hour)) || g.Classification != "restricted" ||
		!slices.Equal(g.Approvals, []string{"sub-bob bob"}) || g.Renews != "gr-0" || g.Warned {
		t.Fatalf("kept: %+v %v", g, err)
	}
	ids := func(recs []store.GrantRecord, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, r.ID)
		}
		return out
	}
	if got := ids(s.ExpiringGrants(ctx, base.Add(72*time.Hour), 10)); !slices.Equal(got, []string{"gr-soon", "gr-late"}) {
		t.Errorf("expiring: %v", got)
	}
	if got := ids(s.ExpiringGrants(ctx, base.Add(2*time.Hour), 10)); !slices.Equal(got, []string{"gr-soon"}) {
		t.Errorf("expiring within 2h: %v", got)
	}
	if got := ids(s.ZoneGrants(ctx, "edh-shared", "dev", 10)); !slices.Equal(got, []string{"gr-late", "gr-never", "gr-soon"}) {
		t.Errorf("zone grants: %v", got)
	}
	if ok, err := s.MarkGrantWarned(ctx, "gr-soon"); !ok || err != nil {
		t.Fatalf("warn: %v %v", ok, err)
	}
	if ok, _ := s.MarkGrantWarned(ctx, "gr-soon"); ok {
		t.Error("warned twice")
	}
	if ok, _ := s.MarkGrantWarned(ctx, "gr-gone"); ok {
		t.Error("a revoked grant warned")
	}
	if ok, err := s.ExtendGrant(ctx, "gr-soon", base.Add(30*24*time.Hour)); !ok || err != nil {
		t.Fatalf("extend: %v %v", ok, err)
	}
	if g, _ := s.GrantRecord(ctx, "gr-soon"); g.Warned || !g.Expires.Equal(base.Add(30*24*time.Hour)) {
		t.Errorf("extended: %+v", g)
	}
	if ok, _ := s.ExtendGrant(ctx, "gr-gone", base.Add(time.Hour)); ok {
		t.Error("a revoked grant extended")
	}
}
