package groups_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestGroupsListAndDetail: the unit's groups only, with state, members and
// lag; a detail with per-partition positions and the member holding them.
func TestGroupsListAndDetail(t *testing.T) {
	w, topic := servicetest.NewWithGroups(t)
	page, err := w.Groups.List(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	// billing, existing-readers (the seed's), replay; not crm's group.
	if len(page.Items) != 3 || page.Items[0].Identifier != "billing" || page.Items[0].Lag != 40 || page.Items[0].Members != 1 ||
		page.Items[2].Identifier != "replay" || page.Items[2].Lag != 70 || page.Items[2].State != platform.GroupEmpty {
		t.Fatalf("groups %+v", page.Items)
	}
	d, err := w.Groups.Get(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "replay")
	if err != nil || len(d.Partitions) != 1 || d.Partitions[0].Committed != 30 || d.Partitions[0].End != 100 || d.Partitions[0].Lag != 70 {
		t.Fatalf("detail %+v %v", d, err)
	}
	if _, err := w.Groups.Get(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "edh-shared-crm-dev-other"); !portal.Is(err, portal.NotFound) {
		t.Errorf("another unit's group: %v", err)
	}
	consumers, err := w.Groups.Consumers(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, topic)
	if err != nil || len(consumers) != 3 {
		t.Errorf("consumers of %s: %+v %v", topic, consumers, err)
	}
}

// describing records the groups a page asks to describe.
type describing struct {
	platform.Groups
	asked []string
}

func (d *describing) DescribeGroups(ctx context.Context, ids []string) ([]platform.Group, error) {
	d.asked = append(d.asked, ids...)
	return d.Groups.DescribeGroups(ctx, ids)
}

// TestGroupListDescribesOnlyGroupsWithMembers: a page describes the
// groups the list says have members; those without (Empty) are shown
// with none, and their lag is measured all the same.
func TestGroupListDescribesOnlyGroupsWithMembers(t *testing.T) {
	w, _ := servicetest.NewWithGroups(t)
	env := w.Env("edh-shared", "dev")
	d := &describing{Groups: env.Groups}
	env.Groups = d
	page, err := w.Groups.List(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.asked) != 1 || d.asked[0] != "edh-shared-scada-dev-billing" {
		t.Errorf("described %v, want only the group with a member", d.asked)
	}
	if page.Items[0].Members != 1 || page.Items[2].Members != 0 || page.Items[2].Lag != 70 {
		t.Errorf("groups %+v", page.Items)
	}
}

// TestGroupAccessMatrix: resets and deletes by role and stage; refusals
// change nothing.
func TestGroupAccessMatrix(t *testing.T) {
	w, _ := servicetest.NewWithGroups(t)
	before := w.Snapshot(t)
	for _, c := range []struct {
		role  portal.Role
		stage string
		want  portal.Kind
	}{
		{portal.NoRole, "dev", portal.NotFound},
		{portal.Viewer, "dev", portal.InsufficientRole},
		{portal.Viewer, "run", portal.InsufficientRole},
		{portal.Developer, "run", portal.ReadOnlyEnvironment},
	} {
		for _, dry := range []bool{true, false} {
			_, err := w.Groups.ResetOffsets(servicetest.AsRole(c.role), portal.Scope{BU: "scada", Stage: c.stage}, "replay", group.OffsetReset{To: group.ResetEarliest, DryRun: dry})
			if !portal.Is(err, c.want) {
				t.Errorf("%s resets in %s (dry run %v): %v, want %s", c.role, c.stage, dry, err, c.want)
			}
		}
		if err := w.Groups.Delete(servicetest.AsRole(c.role), portal.Scope{BU: "scada", Stage: c.stage}, "replay"); !portal.Is(err, c.want) {
			t.Errorf("%s deletes in %s: %v, want %s", c.role, c.stage, err, c.want)
		}
	}
	if _, err := w.Groups.ResetOffsets(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, "billing", group.OffsetReset{To: group.ResetEarliest}); !portal.Is(err, portal.Conflict) ||
		!strings.Contains(err.Error(), "billing-1") {
		t.Errorf("reset with an active member: %v", err)
	}
	if err := w.Groups.Delete(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, "billing"); !portal.Is(err, portal.Conflict) {
		t.Errorf("delete with an active member: %v", err)
	}
	for _, bad := range []group.OffsetReset{{}, {To: "middle"}, {To: group.ResetTimestamp}, {To: group.ResetOffset},
		{To: group.ResetOffset, Offset: ptr(int64(500))}} {
		if _, err := w.Groups.ResetOffsets(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, "replay", bad); !portal.KindOf(err).IsValidation() {
			t.Errorf("reset %+v: %v", bad, err)
		}
	}
	if after := w.Snapshot(t); after != before {
		t.Errorf("refused resets changed something:\nbefore\n%s\nafter\n%s", before, after)
	}

	// A dry run shows the plan and changes nothing; the reset applies it
	// and is audited before and after; an Admin resets in run.
	plan, err := w.Groups.ResetOffsets(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, "replay", group.OffsetReset{To: group.ResetEarliest, DryRun: true})
	if err != nil || !plan.DryRun || len(plan.Changes) != 1 || plan.Changes[0].Before != 30 || plan.Changes[0].After != 10 {
		t.Fatalf("dry run %+v %v", plan, err)
	}
	if after := w.Snapshot(t); after != before {
		t.Error("a dry run changed something")
	}
	if _, err := w.Groups.ResetOffsets(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, "replay", group.OffsetReset{To: group.ResetOffset, Offset: ptr(int64(42))}); err != nil {
		t.Fatal(err)
	}
	var audited bool
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActConsumerGroupResetOffsets && e.Outcome == "ok" && len(e.Changes) == 1 && e.Changes[0].Before == "30" && e.Changes[0].After == "42" {
			audited = true
		}
	}
	if !audited {
		t.Error("the reset is not audited with before and after")
	}
	if _, err := w.Groups.ResetOffsets(servicetest.AsRole(portal.Admin), portal.Scope{BU: "scada", Stage: "run"}, "replay", group.OffsetReset{To: group.ResetLatest}); err != nil {
		t.Errorf("an Admin in run: %v", err)
	}
	if err := w.Groups.Delete(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, "replay"); err != nil {
		t.Errorf("delete an empty group: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
