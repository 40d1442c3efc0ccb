package apikeys_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/apikeys"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
)

// TestAPIKeyAccessMatrix: every role reads the unit's keys' metadata;
// Admins and Super Admins create, rotate, change and delete them, also in
// the read-only stage; others are refused with one audit event each.
func TestAPIKeyAccessMatrix(t *testing.T) {
	for _, role := range access.Roles {
		// One world per role: each stage's seeds and changes carry the
		// stage's names, and the checks count from before each operation.
		w := servicetest.New(t)
		for _, stage := range []string{"dev", "run"} {
			admin := servicetest.As("scada", portal.SuperAdmin)
			scope := portal.Scope{BU: "scada", Stage: stage}
			sa, err := w.Accounts.Create(admin, scope, iam.NewServiceAccount{Name: "keys", Type: "producer"})
			if err != nil {
				t.Fatal(err)
			}
			k, err := w.APIKeys.Create(admin, scope, sa.ID, iam.NewAPIKey{Resource: iam.KeyForKafka})
			if err != nil {
				t.Fatal(err)
			}
			ops := []servicetest.Op{
				{Name: "list keys", Write: false, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.APIKeys.List(ctx, portal.Scope{BU: "scada", Stage: st}, iam.APIKeyQuery{})
					return err
				}},
				{Name: "create key", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.APIKeys.Create(ctx, portal.Scope{BU: "scada", Stage: st}, sa.ID, iam.NewAPIKey{Resource: iam.KeyForSchemaRegistry})
					return err
				}},
				{Name: "change key", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.APIKeys.Update(ctx, portal.Scope{BU: "scada", Stage: st}, k.ID, "changed")
					return err
				}},
				{Name: "rotate key", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.APIKeys.Rotate(ctx, portal.Scope{BU: "scada", Stage: st}, k.ID, time.Hour)
					return err
				}},
				{Name: "change account", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Accounts.Update(ctx, portal.Scope{BU: "scada", Stage: st}, sa.ID, "changed")
					return err
				}},
				{Name: "delete account", Write: true, Run: func(ctx context.Context, w *servicetest.World, st string) error {
					_, err := w.Accounts.Delete(ctx, portal.Scope{BU: "scada", Stage: st}, sa.ID, portal.DeleteOptions{WithKeys: true})
					return err
				}},
			}
			w.CheckOps(t, "scada", role, stage, servicetest.IdentityPolicy, ops)
		}
	}
}

// TestAPIKeyLifecycle: a key's secret is handed out once, with a client
// configuration; its expiry is the stage's maximum age, or sooner when
// asked; rotation makes a successor and has the old key expire after the
// overlap; expired keys are deleted by the portal itself, audited as its
// own; bad input changes nothing.
func TestAPIKeyLifecycle(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	run := portal.Scope{BU: "scada", Stage: "run"}
	sa, err := w.Accounts.Create(ctx, run, iam.NewServiceAccount{Name: "billing", Type: "producer"})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	k, err := w.APIKeys.Create(ctx, run, sa.ID, iam.NewAPIKey{Resource: iam.KeyForKafka, Description: "billing app"})
	if err != nil {
		t.Fatal(err)
	}
	if k.Secret == "" || !strings.Contains(k.Properties, `username="`+k.ID+`" password="`+k.Secret+`"`) ||
		!strings.Contains(k.Properties, "bootstrap.servers=pkc-edh-shared-run.example.com:9092") || !strings.Contains(k.Env, "KAFKA_SASL_PASSWORD="+k.Secret) {
		t.Errorf("created key %+v", k)
	}
	maxAge := 90 * 24 * time.Hour
	if k.Expires.Before(start.Add(maxAge)) || k.Expires.After(time.Now().Add(maxAge)) || k.CreatedBy != "tester" || k.Resource != iam.KeyForKafka {
		t.Errorf("expiry %v, created by %q", k.Expires, k.CreatedBy)
	}
	// The secret is nowhere else: not in lists, not in the trail.
	list, err := w.APIKeys.List(servicetest.As("scada", portal.Viewer), run, iam.APIKeyQuery{})
	if err != nil || len(list.Items) != 1 || list.Items[0].ID != k.ID || list.Items[0].Description != "billing app" {
		t.Fatalf("list: %+v %v", list.Items, err)
	}
	for _, e := range w.AuditEvents(t) {
		if strings.Contains(e.Resource+e.Detail+changesText(e.Changes), k.Secret) {
			t.Fatalf("the secret is in the trail: %+v", e)
		}
	}
	sr, err := w.APIKeys.Create(ctx, run, sa.ID, iam.NewAPIKey{Resource: iam.KeyForSchemaRegistry, Expires: time.Now().Add(2 * time.Hour)})
	if err != nil || !strings.Contains(sr.Properties, "basic.auth.user.info="+sr.ID+":"+sr.Secret) || sr.Expires.After(time.Now().Add(2*time.Hour)) {
		t.Errorf("registry key: %+v %v", sr, err)
	}
	// Bad input: field errors, nothing made.
	before := len(list.Items) + 1
	for _, in := range []iam.NewAPIKey{
		{Resource: "ksql"},
		{},
		{Resource: iam.KeyForKafka, Expires: time.Now().Add(-time.Hour)},
		{Resource: iam.KeyForKafka, Expires: time.Now().Add(100 * 24 * time.Hour)},
		{Resource: iam.KeyForKafka, Description: strings.Repeat("d", 129)},
	} {
		if _, err := w.APIKeys.Create(ctx, run, sa.ID, in); !portal.KindOf(err).IsValidation() {
			t.Errorf("%+v: %v", in, err)
		}
	}
	if _, err := w.APIKeys.Create(ctx, run, "sa-nobody", iam.NewAPIKey{Resource: iam.KeyForKafka}); !portal.Is(err, portal.NotFound) {
		t.Errorf("a key for no account: %v", err)
	}
	if got, _ := w.APIKeys.List(ctx, run, iam.APIKeyQuery{}); len(got.Items) != before {
		t.Errorf("bad input made keys: %d", len(got.Items))
	}

	// Rotation with a one-hour overlap: both listed, the old one expiring.
	if _, err := w.APIKeys.Rotate(ctx, run, k.ID, 100*24*time.Hour); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("an overlap beyond the maximum age: %v", err)
	}
	next, err := w.APIKeys.Rotate(ctx, run, k.ID, time.Hour)
	if err != nil || next.Secret == "" || next.ID == k.ID || next.Owner != sa.ID || next.Resource != iam.KeyForKafka || next.Description != "billing app" {
		t.Fatalf("rotate: %+v %v", next, err)
	}
	keys, _ := w.APIKeys.List(ctx, run, iam.APIKeyQuery{Account: sa.ID})
	var old iam.APIKey
	for _, x := range keys.Items {
		if x.ID == k.ID {
			old = x
		}
	}
	if old.ReplacedBy != next.ID || old.Expires.After(time.Now().Add(time.Hour)) || old.Expires.Before(time.Now().Add(59*time.Minute)) {
		t.Errorf("the rotated key: %+v", old)
	}
	soon, _ := w.APIKeys.List(ctx, run, iam.APIKeyQuery{ExpiringWithin: 3 * time.Hour})
	if len(soon.Items) != 2 { // the rotated one and the registry key
		t.Errorf("expiring within 3h: %d", len(soon.Items))
	}
	if _, err := w.APIKeys.Rotate(ctx, run, k.ID, time.Hour); !portal.Is(err, portal.Conflict) {
		t.Errorf("rotating a rotated key: %v", err)
	}

	// Time passes: the successor signs in, the old key's expiry is
	// behind; the portal deletes it.
	if _, err := w.APIKeys.CheckProvisioning(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs, _ := w.Store.Keys(context.Background(), []string{k.ID})
	rec := recs[k.ID]
	rec.Expires = time.Now().Add(-time.Second)
	if err := w.Store.SaveKey(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	if n, err := w.APIKeys.Expire(context.Background()); err != nil || n != 1 {
		t.Fatalf("expire: %d %v", n, err)
	}
	if _, err := w.Env("edh-shared", "run").APIKeys.GetAPIKey(context.Background(), k.ID); !portal.Is(err, portal.NotFound) {
		t.Errorf("the expired key is still upstream: %v", err)
	}
	var expired *trail.AuditEvent
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActAPIKeyExpire {
			expired = &e
		}
	}
	if expired == nil || expired.Actor != "portal" || expired.Outcome != "ok" || expired.BU != "scada" || !strings.HasPrefix(expired.Resource, k.ID) {
		t.Errorf("the expiry's event: %+v", expired)
	}
}

func changesText(cs []trail.Change) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.Field + c.Before + c.After)
	}
	return b.String()
}

// TestAdoptingKeysMadeElsewhere: keys made outside the portal on a stage
// with a maximum age are given an expiry from their creation, at least a
// week away; keys of accounts outside every convention (the platform's own,
// such as the portal's cluster key) are never touched.
func TestAdoptingKeysMadeElsewhere(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	sa, err := w.Accounts.Create(ctx, portal.Scope{BU: "scada", Stage: "run"}, iam.NewServiceAccount{Name: "legacy", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	env := w.Env("edh-shared", "run")
	bg := context.Background()
	made, err := env.APIKeys.CreateAPIKey(bg, platform.NewAPIKey{Owner: sa.ID, Resource: env.Scope.KafkaClusterID, Environment: env.Scope.EnvironmentID})
	if err != nil {
		t.Fatal(err)
	}
	platformSA, _ := env.IAM.CreateServiceAccount(bg, "portal-cluster-access", "the platform's")
	theirs, _ := env.APIKeys.CreateAPIKey(bg, platform.NewAPIKey{Owner: platformSA.ID, Resource: env.Scope.KafkaClusterID, Environment: env.Scope.EnvironmentID})
	devKey, _ := w.Env("edh-shared", "dev").APIKeys.CreateAPIKey(bg, platform.NewAPIKey{Owner: sa.ID, Resource: "lkc-edh-shared-dev"})
	n, err := w.APIKeys.Adopt(bg)
	if err != nil || n != 1 {
		t.Fatalf("adopted %d: %v", n, err)
	}
	recs, _ := w.Store.Keys(bg, []string{made.ID, theirs.ID, devKey.ID})
	if r, ok := recs[made.ID]; !ok || !r.Adopted || r.Expires.Before(time.Now().Add(7*24*time.Hour-time.Minute)) || r.BU != "scada" {
		t.Errorf("the unit's key made elsewhere: %+v", r)
	}
	if len(recs) != 1 {
		t.Errorf("keys adopted that must not be: %+v", recs)
	}
	if n, _ := w.APIKeys.Adopt(bg); n != 0 {
		t.Errorf("adopted again: %d", n)
	}

	// Records of keys deleted outside the portal are forgotten, unless
	// so new that the key may just not be listed yet.
	stale := store.KeyRecord{ID: "GONEKEY", Owner: sa.ID, Resource: env.Scope.KafkaClusterID, Zone: "edh-shared", BU: "scada", Stage: "run",
		Created: time.Now().Add(-time.Hour), Expires: time.Now().Add(time.Hour)}
	fresh := stale
	fresh.ID, fresh.Created = "JUSTMADE", time.Now()
	for _, r := range []store.KeyRecord{stale, fresh} {
		if err := w.Store.SaveKey(bg, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.APIKeys.Adopt(bg); err != nil {
		t.Fatal(err)
	}
	recs, _ = w.Store.Keys(bg, []string{"GONEKEY", "JUSTMADE", made.ID})
	if _, kept := recs["GONEKEY"]; kept || len(recs) != 2 {
		t.Errorf("records after a key went elsewhere: %+v", recs)
	}
}

// TestAccountLifecycle: an account's description changes; deleting one
// that owns keys is refused unless its keys go too, in one audited
// action listing every key and role binding removed; connectors that use
// it are listed.
func TestAccountLifecycle(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	sa, err := w.Accounts.Create(ctx, dev, iam.NewServiceAccount{Name: "feed", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := w.Accounts.Update(ctx, dev, sa.ID, "reads the feed"); err != nil || got.Description != "reads the feed" {
		t.Errorf("update: %+v %v", got, err)
	}
	k1, _ := w.APIKeys.Create(ctx, dev, sa.ID, iam.NewAPIKey{Resource: iam.KeyForKafka})
	k2, _ := w.APIKeys.Create(ctx, dev, sa.ID, iam.NewAPIKey{Resource: iam.KeyForSchemaRegistry})
	conn := w.Connect["edh-shared/dev"]
	if _, err := conn.CreateConnector(context.Background(), "edh-shared-scada-dev-sink-connector", map[string]string{
		"name": "edh-shared-scada-dev-sink-connector", "connector.class": "DatagenSource", "kafka.auth.mode": "SERVICE_ACCOUNT",
		"kafka.service.account.id": sa.ID, "kafka.topic": "x", "quickstart": "USERS", "output.data.format": "JSON"}); err != nil {
		t.Fatal(err)
	}
	use, err := w.Accounts.Use(ctx, dev, sa.ID)
	if err != nil || len(use.Connectors) != 1 || use.Connectors[0] != "edh-shared-scada-dev-sink-connector" {
		t.Errorf("use: %+v %v", use, err)
	}
	if _, err := w.Accounts.Delete(ctx, dev, sa.ID, portal.DeleteOptions{}); !portal.Is(err, portal.Conflict) || !strings.Contains(err.Error(), k1.ID) {
		t.Errorf("deleting an account with keys: %v", err)
	}
	events := len(w.AuditEvents(t))
	gone, err := w.Accounts.Delete(ctx, dev, sa.ID, portal.DeleteOptions{WithKeys: true})
	if err != nil || len(gone.Keys) != 2 || len(gone.RoleBindings) != 4 {
		t.Fatalf("delete with keys: %+v %v", gone, err)
	}
	ev := w.AuditEvents(t)
	if len(ev) != events+1 || ev[0].Action != portal.ActServiceAccountDelete || ev[0].Outcome != "ok" || len(ev[0].Changes) != 6 {
		t.Errorf("the delete's event: %+v", ev[0])
	}
	if _, err := w.Accounts.Get(ctx, dev, sa.ID); !portal.Is(err, portal.NotFound) {
		t.Errorf("the account is still there: %v", err)
	}
	if recs, _ := w.Store.Keys(context.Background(), []string{k1.ID, k2.ID}); len(recs) != 0 {
		t.Errorf("the keys' records were kept: %+v", recs)
	}
}

// failingKeys is the real store with SaveKey failing for the keys
// that fail says, as a database that goes away mid-way would.
type failingKeys struct {
	store.Store
	fail func(store.KeyRecord) bool
}

func (f failingKeys) SaveKey(ctx context.Context, k store.KeyRecord) error {
	if f.fail(k) {
		return portal.New(portal.UpstreamUnavailable, "the portal's database is unavailable")
	}
	return f.Store.SaveKey(ctx, k)
}

// TestRotationIsAllOrNothing: when the old key's end cannot be recorded,
// the new key is deleted again and the answer says nothing changed; when
// the new key's expiry cannot be recorded, the key is not kept either.
// Either way the audit event records the failure.
func TestRotationIsAllOrNothing(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	qas := portal.Scope{BU: "scada", Stage: "qas"}
	sa, err := w.Accounts.Create(ctx, qas, iam.NewServiceAccount{Name: "rotor", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	k, err := w.APIKeys.Create(ctx, qas, sa.ID, iam.NewAPIKey{Resource: iam.KeyForKafka})
	if err != nil {
		t.Fatal(err)
	}
	env := w.Env("edh-shared", "qas")
	for name, fail := range map[string]func(store.KeyRecord) bool{
		"old key's end":    func(r store.KeyRecord) bool { return r.ID == k.ID },
		"new key's expiry": func(r store.KeyRecord) bool { return r.ID != k.ID },
	} {
		keys := apikeys.New(w.Guard, failingKeys{Store: w.Store, fail: fail})
		_, err := keys.Rotate(ctx, qas, k.ID, time.Hour)
		if !portal.Is(err, portal.UpstreamUnavailable) || !strings.Contains(err.Error(), "nothing changed") {
			t.Errorf("%s: %v", name, err)
		}
		upstream, _ := env.APIKeys.ListAPIKeys(context.Background(), sa.ID, "")
		if len(upstream) != 1 || upstream[0].ID != k.ID {
			t.Errorf("%s: keys upstream %+v", name, upstream)
		}
		if recs, _ := w.Store.Keys(context.Background(), []string{k.ID}); recs[k.ID].ReplacedBy != "" || recs[k.ID].Expires.Sub(k.Expires).Abs() > time.Millisecond {
			t.Errorf("%s: the old key's record changed: %+v", name, recs[k.ID])
		}
		if last := w.AuditEvents(t)[0]; last.Action != portal.ActAPIKeyRotate || last.Outcome != string(portal.UpstreamUnavailable) {
			t.Errorf("%s: event %+v", name, last)
		}
	}
}

// TestOneRotationAtATime: two rotations of one key at once make one new
// key; the other caller is told the key was rotated already.
func TestOneRotationAtATime(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	qas := portal.Scope{BU: "scada", Stage: "qas"}
	sa, err := w.Accounts.Create(ctx, qas, iam.NewServiceAccount{Name: "twice", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	k, err := w.APIKeys.Create(ctx, qas, sa.ID, iam.NewAPIKey{Resource: iam.KeyForKafka})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := w.APIKeys.Rotate(ctx, qas, k.ID, time.Hour)
			errs <- err
		}()
	}
	var ok, refused int
	for range 2 {
		switch err := <-errs; {
		case err == nil:
			ok++
		case portal.Is(err, portal.Conflict) && strings.Contains(err.Error(), "rotated already"):
			refused++
		default:
			t.Errorf("a rotation: %v", err)
		}
	}
	upstream, _ := w.Env("edh-shared", "qas").APIKeys.ListAPIKeys(context.Background(), sa.ID, "")
	if ok != 1 || refused != 1 || len(upstream) != 2 {
		t.Errorf("%d rotated, %d refused, %d keys upstream", ok, refused, len(upstream))
	}
}

// TestAnAbandonedRotationLeavesNoKey: a replica that stopped between
// making a rotation's new key and recording it leaves a key nobody
// holds; the key sweeper deletes it (audited as the portal's), the old
// key may be rotated again, and adoption never takes the orphan for a
// key made outside the portal.
func TestAnAbandonedRotationLeavesNoKey(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	qas := portal.Scope{BU: "scada", Stage: "qas"}
	sa, err := w.Accounts.Create(ctx, qas, iam.NewServiceAccount{Name: "halted", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	k, err := w.APIKeys.Create(ctx, qas, sa.ID, iam.NewAPIKey{Resource: iam.KeyForKafka})
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	env := w.Env("edh-shared", "qas")
	recs, _ := w.Store.Keys(bg, []string{k.ID})
	marker := store.RotationMarker(time.Now().Add(-3 * time.Minute))
	if ok, err := w.Store.MarkRotation(bg, recs[k.ID], marker); !ok || err != nil {
		t.Fatalf("mark: %v %v", ok, err)
	}
	orphan, err := env.APIKeys.CreateAPIKey(bg, platform.NewAPIKey{Owner: sa.ID, Resource: env.Scope.KafkaClusterID, Environment: env.Scope.EnvironmentID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.APIKeys.Rotate(ctx, qas, k.ID, time.Hour); !portal.Is(err, portal.Conflict) {
		t.Errorf("a rotation while one is under way: %v", err)
	}
	if n, err := w.APIKeys.Adopt(bg); n != 0 || err != nil {
		t.Errorf("adopted %d (%v): the orphan is a rotation's", n, err)
	}
	if n, err := w.APIKeys.Expire(bg); n != 1 || err != nil {
		t.Fatalf("sweeper: %d %v", n, err)
	}
	upstream, _ := env.APIKeys.ListAPIKeys(bg, sa.ID, "")
	if len(upstream) != 1 || upstream[0].ID != k.ID {
		t.Errorf("keys upstream after the sweep: %+v", upstream)
	}
	recs, _ = w.Store.Keys(bg, []string{k.ID, orphan.ID})
	if len(recs) != 1 || recs[k.ID].ReplacedBy != "" {
		t.Errorf("records after the sweep: %+v", recs)
	}
	if e := w.AuditEvents(t)[0]; e.Action != portal.ActAPIKeyDelete || e.Actor != trail.SystemActor || !strings.Contains(e.Resource, orphan.ID) {
		t.Errorf("the sweep's event: %+v", e)
	}
	if n, _ := w.APIKeys.Expire(bg); n != 0 {
		t.Errorf("swept again: %d", n)
	}
	if _, err := w.APIKeys.Rotate(ctx, qas, k.ID, time.Hour); err != nil {
		t.Errorf("rotating after the sweep: %v", err)
	}
}

// TestNewKeysProvisionUntilTheySignIn: a new key is provisioning until the
// portal's check signs in with its secret (kept sealed meanwhile, never in
// the clear); a rotated key stays past its expiry until its successor is
// ready; a key that never signs in is recorded unverified after 30
// minutes.
func TestNewKeysProvisionUntilTheySignIn(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	sa, err := w.Accounts.Create(ctx, dev, iam.NewServiceAccount{Name: "spreading", Type: "producer"})
	if err != nil {
		t.Fatal(err)
	}
	w.Keys.Refuse.Store(true) // Confluent Cloud has not spread new keys yet
	k, err := w.APIKeys.Create(ctx, dev, sa.ID, iam.NewAPIKey{Resource: iam.KeyForKafka})
	if err != nil || k.State != iam.KeyProvisioning {
		t.Fatalf("created: %+v %v", k.APIKey, err)
	}
	recs, _ := w.Store.Keys(context.Background(), []string{k.ID})
	if p := recs[k.ID].Probe; p == "" || strings.Contains(p, k.Secret) {
		t.Fatalf("the record keeps %q for a secret %q", p, k.Secret)
	}
	if n, err := w.APIKeys.CheckProvisioning(context.Background()); n != 0 || err != nil {
		t.Fatalf("a refused check settled %d: %v", n, err)
	}
	if got := w.Keys.Secret(k.ID); got != k.Secret {
		t.Fatalf("checked with %q, not the key's secret", got)
	}
	if got, err := w.APIKeys.Get(ctx, dev, k.ID); err != nil || got.State != iam.KeyProvisioning || !got.ReadyAt.IsZero() {
		t.Fatalf("while refused: %+v %v", got, err)
	}

	// Rotated at once, and the old key's time is up: it stays while its
	// successor provisions.
	next, err := w.APIKeys.Rotate(ctx, dev, k.ID, 0)
	if err != nil || next.State != iam.KeyProvisioning {
		t.Fatalf("rotate: %+v %v", next.APIKey, err)
	}
	w.Advance(2 * time.Second)
	if n, err := w.APIKeys.Expire(context.Background()); n != 0 || err != nil {
		t.Fatalf("expired %d while its successor provisions: %v", n, err)
	}
	if _, err := w.Env("edh-shared", "dev").APIKeys.GetAPIKey(context.Background(), k.ID); err != nil {
		t.Fatalf("the old key was deleted before its successor was ready: %v", err)
	}

	// Spread: the next check signs in, and the old key goes.
	w.Keys.Refuse.Store(false)
	if n, err := w.APIKeys.CheckProvisioning(context.Background()); n != 2 || err != nil {
		t.Fatalf("settled %d: %v", n, err)
	}
	got, err := w.APIKeys.Get(ctx, dev, next.ID)
	if err != nil || got.State != iam.KeyReady || got.ReadyAt.IsZero() {
		t.Fatalf("after the check: %+v %v", got, err)
	}
	if recs, _ := w.Store.Keys(context.Background(), []string{next.ID}); recs[next.ID].Probe != "" {
		t.Error("a ready key's sealed secret is kept")
	}
	if n, err := w.APIKeys.Expire(context.Background()); n != 1 || err != nil {
		t.Fatalf("expired %d once its successor is ready: %v", n, err)
	}

	// A key that never signs in is unverified after 30 minutes.
	w.Keys.Refuse.Store(true)
	never, err := w.APIKeys.Create(ctx, dev, sa.ID, iam.NewAPIKey{Resource: iam.KeyForSchemaRegistry})
	if err != nil {
		t.Fatal(err)
	}
	w.Advance(31 * time.Minute)
	if n, err := w.APIKeys.CheckProvisioning(context.Background()); n != 1 || err != nil {
		t.Fatalf("gave up on %d: %v", n, err)
	}
	if got, _ := w.APIKeys.Get(ctx, dev, never.ID); got.State != iam.KeyUnverified {
		t.Errorf("a key never signed in: %s", got.State)
	}
}
