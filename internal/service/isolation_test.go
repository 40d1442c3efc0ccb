package service_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// orgResource is one organisation-wide resource of the isolation matrix:
// an account and a pool of one unit in one stage, or outside every zone's
// convention.
type orgResource struct {
	unit, stage string // unit "" is outside every convention
	account     platform.ServiceAccount
	pool        platform.IdentityPool
	// key is the account's API key on its zone's cluster in the stage
	// (edh-shared's for an account outside every convention).
	key platform.APIKey
}

func (r orgResource) String() string {
	if r.unit == "" {
		return "outside/" + r.stage
	}
	return r.unit + "/" + r.stage
}

// seedOrg creates, as a platform admin, an account and a pool for every
// unit of every zone in dev and qas, and one of each outside every
// convention per stage (made directly upstream, as another tool would).
func seedOrg(t *testing.T, w *servicetest.World) []orgResource {
	t.Helper()
	frank := w.AsGroups("platform-admins")
	var out []orgResource
	for _, stage := range []string{"dev", "qas"} {
		for _, unit := range []string{"platform", "scada", "mfg", "plant", "sales"} {
			a, err := w.Accounts.Create(frank, portal.Scope{BU: unit, Stage: stage}, iam.NewServiceAccount{Name: "iso", Type: "consumer"})
			if err != nil {
				t.Fatal(err)
			}
			p, err := w.Pools.Create(frank, portal.Scope{BU: unit, Stage: stage}, iam.NewPool{Name: "iso", Type: "consumer", Filter: goodFilter})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, orgResource{unit: unit, stage: stage, key: seedKey(t, w, zoneOf[unit], stage, a.ID),
				account: platform.ServiceAccount{ID: a.ID, DisplayName: a.Name}, pool: platform.IdentityPool{ID: p.ID, DisplayName: p.Name}})
		}
		env := w.Env("edh-shared", stage)
		a, err := env.IAM.CreateServiceAccount(context.Background(), "legacy-app-"+stage, "made elsewhere")
		if err != nil {
			t.Fatal(err)
		}
		p, err := env.Pools.CreatePool(context.Background(), platform.IdentityPool{DisplayName: "legacy-pool-" + stage, IdentityClaim: "claims.sub", Filter: goodFilter})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, orgResource{stage: stage, account: a, pool: p, key: seedKey(t, w, "edh-shared", stage, a.ID)})
	}
	return out
}

// seedKey makes an API key upstream for an account on a zone's cluster.
func seedKey(t *testing.T, w *servicetest.World, zone, stage, owner string) platform.APIKey {
	t.Helper()
	env := w.Env(zone, stage)
	k, err := env.APIKeys.CreateAPIKey(context.Background(), platform.NewAPIKey{Owner: owner, Resource: env.Scope.KafkaClusterID, Environment: env.Scope.EnvironmentID})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// zoneOf is the landing zone of the demo units used here.
var zoneOf = map[string]string{"platform": "edh-shared", "scada": "edh-shared", "mfg": "mfg-shared", "plant": "mfg-shared", "sales": "sales"}

// TestOrgWideIsolationAcrossZones is the access matrix with zones as a
// dimension: each zone's Super Admin (alice, grace) and a platform admin
// (frank), from each zone's whole-cluster view in each stage, against
// every account and pool of every zone and stage and those outside every
// convention, by list, by id (read, change, delete) and through a plan.
// A zone's own in its stage are visible and writable; those outside every
// convention are visible and read-only (writable by platform admins);
// everything else is invisible (404) and unchanged upstream.
func TestOrgWideIsolationAcrossZones(t *testing.T) {
	callers := []struct {
		name, main string
		groups     []string
		platform   bool
	}{
		{"alice", "platform", []string{"sg-edh-shared-superadmins"}, false},
		{"grace", "mfg", []string{"sg-mfg-shared-superadmins"}, false},
		{"frank", "platform", []string{"platform-admins"}, true},
		{"frank", "mfg", []string{"platform-admins"}, true},
	}
	cases := 0
	for _, c := range callers {
		for _, stage := range []string{"dev", "qas"} {
			w := servicetest.New(t)
			all := seedOrg(t, w)
			ctx := w.AsGroups(c.groups...)
			zone := zoneOf[c.main]
			// An account outside every convention carries no stage either:
			// accounts are the organisation's, so it shows in every stage.
			// A pool's identity provider is the stage's in dev.
			expect := func(r orgResource, account bool) (visible, writable bool) {
				switch {
				case r.unit == "" && (account || r.stage == stage):
					return true, c.platform
				case r.stage != stage || r.unit == "":
					return false, false
				}
				return zoneOf[r.unit] == zone, zoneOf[r.unit] == zone
			}
			accounts, err := w.Accounts.List(ctx, portal.Scope{BU: c.main, Stage: stage}, portal.ListQuery{PageSize: 1000})
			if err != nil {
				t.Fatal(err)
			}
			pools, err := w.Pools.List(ctx, portal.Scope{BU: c.main, Stage: stage}, portal.ListQuery{PageSize: 1000})
			if err != nil {
				t.Fatal(err)
			}
			keys, err := w.APIKeys.List(ctx, portal.Scope{BU: c.main, Stage: stage}, iam.APIKeyQuery{ListQuery: portal.ListQuery{PageSize: 1000}})
			if err != nil {
				t.Fatal(err)
			}
			// A key is its stage's, on its zone's cluster.
			expectKey := func(r orgResource) (visible, writable bool) {
				keyZone := "edh-shared"
				if r.unit != "" {
					keyZone = zoneOf[r.unit]
				}
				if r.stage != stage || keyZone != zone {
					return false, false
				}
				return true, r.unit != "" || c.platform
			}
			for _, r := range all {
				where := fmt.Sprintf("%s from %s/%s on %s", c.name, c.main, stage, r)
				visible, _ := expect(r, true)
				listed := slices.ContainsFunc(accounts.Items, func(a iam.ServiceAccount) bool {
					return a.ID == r.account.ID && a.OutsideConvention == (r.unit == "") && a.BU == r.unit
				})
				if listed != visible {
					t.Errorf("%s: account listed %v, want %v", where, listed, visible)
				}
				if _, err := w.Accounts.Get(ctx, portal.Scope{BU: c.main, Stage: stage}, r.account.ID); (err == nil) != visible || (!visible && !portal.Is(err, portal.NotFound)) {
					t.Errorf("%s: get account: %v", where, err)
				}
				visible, writable := expect(r, false)
				listed = slices.ContainsFunc(pools.Items, func(p iam.Pool) bool {
					return p.ID == r.pool.ID && p.OutsideConvention == (r.unit == "") && p.BU == r.unit
				})
				if listed != visible {
					t.Errorf("%s: pool listed %v, want %v", where, listed, visible)
				}
				if _, err := w.Pools.Get(ctx, portal.Scope{BU: c.main, Stage: stage}, r.pool.ID); (err == nil) != visible || (!visible && !portal.Is(err, portal.NotFound)) {
					t.Errorf("%s: get pool: %v", where, err)
				}
				kv, kw := expectKey(r)
				listed = slices.ContainsFunc(keys.Items, func(k iam.APIKey) bool { return k.ID == r.key.ID && k.BU == r.unit })
				if listed != kv {
					t.Errorf("%s: key listed %v, want %v", where, listed, kv)
				}
				_, err := w.APIKeys.Update(ctx, portal.Scope{BU: c.main, Stage: stage}, r.key.ID, "probed")
				checkWrite(t, where+": change key", err, kv, kw)
				before := w.Snapshot(t)
				_, err = w.Pools.UpdateFilter(ctx, portal.Scope{BU: c.main, Stage: stage}, r.pool.ID, "true", "")
				checkWrite(t, where+": change filter", err, visible, writable)
				if err := w.Pools.Delete(ctx, portal.Scope{BU: c.main, Stage: stage}, r.pool.ID, portal.DeleteOptions{}); !writable || err != nil {
					checkWrite(t, where+": delete pool", err, visible, writable)
				}
				if !writable && w.Snapshot(t) != before {
					t.Errorf("%s: a refused write changed something upstream", where)
				}
				if err := w.APIKeys.Delete(ctx, portal.Scope{BU: c.main, Stage: stage}, r.key.ID); !kw || err != nil {
					checkWrite(t, where+": delete key", err, kv, kw)
				}
				if _, err := w.APIKeys.Rotate(ctx, portal.Scope{BU: c.main, Stage: stage}, r.key.ID, time.Hour); !kv {
					checkWrite(t, where+": rotate key", err, kv, kw)
				}
				cases += 8
			}
			// By name, through a plan: another zone's full names are
			// identifiers of the caller's own unit, never the other's
			// resources; prune leaves everything but the unit's own.
			before := w.Snapshot(t)
			var doc ascode.Document
			for _, r := range all {
				if r.unit != "" && zoneOf[r.unit] != zone {
					doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindIdentityPool, Name: r.pool.DisplayName,
						Spec: &portal.PoolDecl{Type: "consumer", Filter: "true"}})
				}
			}
			doc.Prune = true
			plan, err := w.Plans.Plan(ctx, portal.Scope{BU: c.main, Stage: stage}, doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, ch := range plan.Changes {
				own := ch.Kind == "identity-pool" && strings.HasPrefix(ch.Name, scopePrefix(c.main, stage))
				if !own {
					t.Errorf("%s from %s/%s: the plan touches %s %s (%s)", c.name, c.main, stage, ch.Kind, ch.Name, ch.Action)
				}
				cases++
			}
			if w.Snapshot(t) != before {
				t.Errorf("%s from %s/%s: planning changed something", c.name, c.main, stage)
			}
		}
	}
	t.Logf("%d cross-zone cases checked", cases)
}

// scopePrefix is the demo units' name prefix in a stage.
func scopePrefix(unit, stage string) string {
	if unit == "sales" {
		return "sales-" + stage + "-"
	}
	return zoneOf[unit] + "-" + unit + "-" + stage + "-"
}

// checkWrite says what is wrong with the outcome of a write on a resource
// that is visible and writable (or not) to the caller.
func checkWrite(t *testing.T, where string, err error, visible, writable bool) {
	t.Helper()
	switch {
	case writable && err != nil:
		t.Errorf("%s: refused: %v", where, err)
	case !visible && !portal.Is(err, portal.NotFound):
		t.Errorf("%s: %v, want NOT_FOUND", where, err)
	case visible && !writable && !portal.Is(err, portal.InsufficientRole):
		t.Errorf("%s: %v, want INSUFFICIENT_ROLE", where, err)
	}
}
