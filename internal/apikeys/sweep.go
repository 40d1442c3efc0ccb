package apikeys

import (
	"cmp"
	"context"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Adopt gives an expiry to the keys made outside the portal on the
// stages that have a maximum key age: from their creation, and at least a
// week from now (adoptionGrace), so that their clients are warned. Only
// keys of the units' service accounts are adopted: the platform's own
// (the portal's cluster key among them) are outside every convention. It
// also forgets the records of keys deleted outside the portal, so that
// they are not counted as expiring.
func (s *Service) Adopt(ctx context.Context) (int, error) {
	now := s.guard.Now()
	adopted := 0
	for _, env := range s.guard.Environments().All() {
		n, err := s.adoptIn(ctx, env, now)
		adopted += n
		if err != nil {
			return adopted, err
		}
	}
	return adopted, nil
}

// recordSettle is how old a record must be before a key missing upstream
// is taken for deleted: a key is recorded just after it is made, and a
// listing taken between the two must not forget it.
const recordSettle = 10 * time.Minute

func (s *Service) adoptIn(ctx context.Context, env *platform.Environment, now time.Time) (int, error) {
	ten := s.guard.Tenancy()
	st, ok := ten.Stage(env.Stage)
	if !ok {
		return 0, nil
	}
	accounts, err := env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return 0, err
	}
	owners := map[string]tenancy.Scope{}
	for _, a := range accounts {
		if sc, found := ten.OwnerOf(tenancy.OrgAccount, a.DisplayName); found && sc.Stage.Name == env.Stage && sc.Zone().ID == env.Zone {
			owners[a.ID] = sc
		}
	}
	var keys []platform.APIKey
	for _, r := range []string{env.Scope.KafkaClusterID, env.Scope.SchemaRegistryID} {
		if r == "" {
			continue
		}
		ks, err := env.APIKeys.ListAPIKeys(ctx, "", r)
		if err != nil {
			return 0, err
		}
		keys = append(keys, ks...)
	}
	recs, err := s.store.StageKeys(ctx, env.Zone, env.Stage)
	if err != nil {
		return 0, err
	}
	known := map[string]bool{}
	rotating := map[string]time.Time{} // owner+resource -> when a rotation began
	for _, r := range recs {
		known[r.ID] = true
		if began, ok := rotationBegan(r); ok {
			rotating[r.Owner+" "+r.Resource] = began
		}
	}
	upstream := map[string]bool{}
	adopted := 0
	for _, k := range keys {
		upstream[k.ID] = true
		sc, ours := owners[k.Owner]
		if known[k.ID] || !ours || st.APIKeyMaxAge <= 0 {
			continue
		}
		if began, ok := rotating[k.Owner+" "+k.Resource]; ok && !k.Created.Before(began.Add(-time.Second)) {
			continue // a rotation's new key, recorded by it or removed by endRotation
		}
		rec := store.KeyRecord{ID: k.ID, Owner: k.Owner, Resource: k.Resource, Zone: env.Zone, BU: sc.Unit.ID, Stage: env.Stage,
			Created: k.Created, Expires: adoptedExpiry(k.Created, st.APIKeyMaxAge, now), Adopted: true}
		if err := s.store.SaveKey(ctx, rec); err != nil {
			return adopted, err
		}
		adopted++
	}
	var gone []string
	for _, r := range recs {
		if !upstream[r.ID] && r.Created.Before(now.Add(-recordSettle)) {
			gone = append(gone, r.ID)
		}
	}
	if len(gone) > 0 {
		if err := s.store.DeleteKeys(ctx, gone); err != nil {
			return adopted, err
		}
	}
	return adopted, nil
}

// rotationAbandoned is how long a rotation may run, by default, before
// the sweeper takes its replica for stopped: far longer than a rotation
// takes.
const rotationAbandoned = 2 * time.Minute

// StopRotationsAfter sets how long a rotation may run before the sweeper
// takes its replica for stopped (config recovery.stopped_after).
func (s *Service) StopRotationsAfter(d time.Duration) {
	if d > 0 {
		s.rotationStopped = d
	}
}

// Expire deletes the keys whose expiry has passed, each audited as the
// portal's own action under its unit, and forgets them; it also ends the
// rotations whose replica stopped in the middle, first and again after
// each expiry: the expiries are paced by the unit's share of the Cloud's
// writes (seconds each), so a round with many of them outlasts a
// rotation's grace, and its unrecorded key would wait for the round's end.
func (s *Service) Expire(ctx context.Context) (int, error) {
	n, err := s.endAbandonedRotations(ctx)
	if err != nil {
		return n, err
	}
	expired, err := s.store.ExpiredKeys(ctx, s.guard.Now(), 100)
	if err != nil {
		return n, err
	}
	for _, rec := range expired {
		env, err := s.guard.Environments().Get(rec.Zone, rec.Stage)
		if err != nil {
			continue // a zone or stage no longer configured: kept for an operator
		}
		deleted, err := s.expire(ctx, env, rec)
		if err != nil {
			return n, err
		}
		if deleted {
			n++
		}
		m, err := s.endAbandonedRotations(ctx)
		if n += m; err != nil {
			return n, err
		}
	}
	return n, nil
}

// expire deletes one expired key, under the key's lock (rotations take
// it too), if its record is still there: a round of another replica that
// took over never deletes or audits a key twice.
func (s *Service) expire(ctx context.Context, env *platform.Environment, rec store.KeyRecord) (bool, error) {
	unlock, err := s.guard.Lock(ctx, "api-key "+rec.ID)
	if err != nil {
		return false, err
	}
	defer unlock()
	recs, err := s.store.Keys(ctx, []string{rec.ID})
	if err != nil || recs[rec.ID].ID == "" {
		return false, err // expired meanwhile by another replica
	}
	if waiting, err := s.successorProvisioning(ctx, recs[rec.ID]); err != nil || waiting {
		return false, err // kept until its successor signs in
	}
	if _, err := env.APIKeys.GetAPIKey(ctx, rec.ID); portal.Is(err, portal.NotFound) {
		// Deleted meanwhile (by a person, whose event says so): nothing
		// for the portal to do or audit but forget it.
		return false, s.store.DeleteKeys(ctx, []string{rec.ID})
	}
	err = s.guard.WriteEvent(ctx, trail.AuditEvent{Actor: trail.SystemActor, ActorRole: "system", LandingZone: rec.Zone, BU: rec.BU, Stage: rec.Stage,
		Action: portal.ActAPIKeyExpire, Resource: rec.ID + " (" + rec.Owner + " on " + rec.Resource + ")"}, gate.Change{
		Do: func(ctx context.Context) error {
			if err := env.APIKeys.DeleteAPIKey(ctx, rec.ID); err != nil && !portal.Is(err, portal.NotFound) {
				return err // (one not found was deleted meanwhile, elsewhere)
			}
			return s.store.DeleteKeys(ctx, []string{rec.ID})
		},
		Changes: []trail.Change{{Field: "expires_at", Before: rec.Expires.UTC().Format(time.RFC3339)}}})
	return err == nil, err
}

// endAbandonedRotations ends the rotations whose replica stopped in the
// middle: a key made for one but never recorded (its secret reached
// nobody) is deleted again, audited as the portal's, and the old key may
// be rotated anew.
func (s *Service) endAbandonedRotations(ctx context.Context) (int, error) {
	recs, err := s.store.RotatingKeys(ctx, s.guard.Now().Add(-cmp.Or(s.rotationStopped, rotationAbandoned)))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, rec := range recs {
		m, err := s.endRotation(ctx, rec)
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// endRotation ends one abandoned rotation, under the key's lock, if it
// is still marked as it was.
func (s *Service) endRotation(ctx context.Context, rec store.KeyRecord) (int, error) {
	env, err := s.guard.Environments().Get(rec.Zone, rec.Stage)
	if err != nil {
		return 0, nil
	}
	unlock, err := s.guard.Lock(ctx, "api-key "+rec.ID)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if now, err := s.store.Keys(ctx, []string{rec.ID}); err != nil || now[rec.ID].ReplacedBy != rec.ReplacedBy {
		return 0, err // ended meanwhile
	}
	n := 0
	began, _ := rotationBegan(rec)
	keys, err := env.APIKeys.ListAPIKeys(ctx, rec.Owner, rec.Resource)
	if err != nil {
		return n, err
	}
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = k.ID
	}
	known, err := s.store.Keys(ctx, ids)
	if err != nil {
		return n, err
	}
	for _, k := range keys {
		if _, recorded := known[k.ID]; recorded || k.ID == rec.ID || k.Created.Before(began.Add(-time.Second)) {
			continue
		}
		err := s.guard.WriteEvent(ctx, trail.AuditEvent{Actor: trail.SystemActor, ActorRole: "system", LandingZone: rec.Zone, BU: rec.BU, Stage: rec.Stage,
			Action: portal.ActAPIKeyDelete, Resource: k.ID + " (" + rec.Owner + " on " + rec.Resource + ")",
			Detail: "made by a rotation of " + rec.ID + " whose replica stopped before recording it; nobody has its secret"}, gate.Change{
			Do: func(ctx context.Context) error {
				if err := env.APIKeys.DeleteAPIKey(ctx, k.ID); !portal.Is(err, portal.NotFound) {
					return err
				}
				return nil
			}})
		if err != nil {
			return n, err
		}
		n++
	}
	if err := s.store.ClearRotation(ctx, rec.ID, rec.ReplacedBy); err != nil {
		return n, err
	}
	return n, nil
}

// rotationBegan reads when the rotation of rec began, if one is under way.
func rotationBegan(rec store.KeyRecord) (time.Time, bool) {
	if !strings.HasPrefix(rec.ReplacedBy, store.RotatingPrefix) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimPrefix(rec.ReplacedBy, store.RotatingPrefix))
	return t, err == nil
}
