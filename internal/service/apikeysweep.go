package service

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// SystemActor names the portal in the audit trail, for what it does by
// itself (deleting expired keys).
const SystemActor = "portal"

// Adopt gives an expiry to the keys made outside the portal on the
// stages that have a maximum key age: from their creation, and at least a
// week from now (adoptionGrace), so that their clients are warned. Only
// keys of the units' service accounts are adopted: the platform's own
// (the portal's cluster key among them) are outside every convention. It
// also forgets the records of keys deleted outside the portal, so that
// they are not counted as expiring.
func (s *APIKeys) Adopt(ctx context.Context) (int, error) {
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

func (s *APIKeys) adoptIn(ctx context.Context, env *platform.Environment, now time.Time) (int, error) {
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
	for _, r := range recs {
		known[r.ID] = true
	}
	upstream := map[string]bool{}
	adopted := 0
	for _, k := range keys {
		upstream[k.ID] = true
		sc, ours := owners[k.Owner]
		if known[k.ID] || !ours || st.APIKeyMaxAge <= 0 {
			continue
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

// Expire deletes the keys whose expiry has passed, each audited as the
// portal's own action under its unit, and forgets them.
func (s *APIKeys) Expire(ctx context.Context) (int, error) {
	expired, err := s.store.ExpiredKeys(ctx, s.guard.Now(), 100)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, rec := range expired {
		env, err := s.guard.Environments().Get(rec.Zone, rec.Stage)
		if err != nil {
			continue // a zone or stage no longer configured: kept for an operator
		}
		if err := s.expire(ctx, env, rec); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (s *APIKeys) expire(ctx context.Context, env *platform.Environment, rec store.KeyRecord) error {
	if _, err := env.APIKeys.GetAPIKey(ctx, rec.ID); portal.Is(err, portal.NotFound) {
		// Deleted meanwhile (by a person, whose event says so): nothing
		// for the portal to do or audit but forget it.
		return s.store.DeleteKeys(ctx, []string{rec.ID})
	}
	w, err := s.guard.BeginEvent(ctx, portal.AuditEvent{Actor: SystemActor, ActorRole: "system", LandingZone: rec.Zone, BU: rec.BU, Stage: rec.Stage,
		Action: "api-key.expire", Resource: rec.ID + " (" + rec.Owner + " on " + rec.Resource + ")"})
	if err != nil {
		return err
	}
	err = env.APIKeys.DeleteAPIKey(ctx, rec.ID)
	if portal.Is(err, portal.NotFound) {
		err = nil // deleted meanwhile, elsewhere
	}
	if err == nil {
		err = s.store.DeleteKeys(ctx, []string{rec.ID})
	}
	w.Done(ctx, err, portal.Change{Field: "expires_at", Before: rec.Expires.UTC().Format(time.RFC3339)})
	return err
}
