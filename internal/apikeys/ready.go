package apikeys

import (
	"context"
	"encoding/base64"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/store"
)

// KeySecrets seals a new key's secret while the key provisions, so that
// any replica can check the key and nobody can read the secret from the
// database (auth.Sealer).
type KeySecrets interface {
	Seal(plain []byte, id string) []byte
	Open(sealed []byte, id string) ([]byte, error)
}

// keyCheckGiveUp is how long the portal checks a new key before it gives
// up and calls it unverified: Confluent Cloud spreads a key within about
// two minutes.
const keyCheckGiveUp = 30 * time.Minute

// readiness is what a replica remembers of its checks: when it last
// checked each key, so that a key is tried often at first and less
// often as it stays refused.
type readiness struct {
	secrets KeySecrets
	mu      sync.Mutex
	checked map[string]time.Time
}

// CheckKeysWith lets the service keep a new key's secret sealed until a
// check with it succeeds. Without it, new keys cannot be checked and are
// recorded unverified.
func (s *Service) CheckKeysWith(secrets KeySecrets) {
	s.ready = &readiness{secrets: secrets, checked: map[string]time.Time{}}
}

// provisioning gives a new key's readiness as recorded: provisioning
// with its sealed secret when the portal can check it, else unverified.
func (s *Service) provisioning(env *platform.Environment, rec *store.KeyRecord, secret string) {
	if s.ready == nil || env.KeyCheck == nil {
		rec.State = store.KeyUnverified
		return
	}
	rec.State = store.KeyProvisioning
	rec.Probe = base64.StdEncoding.EncodeToString(s.ready.secrets.Seal([]byte(secret), rec.ID))
}

// keyState is a key's readiness as shown: a key the portal did not make
// (or made before it checked keys) is taken for ready.
func keyState(rec store.KeyRecord, recorded bool) (string, time.Time) {
	if !recorded || rec.State == "" {
		return iam.KeyReady, time.Time{}
	}
	return rec.State, rec.ReadyAt
}

// checkDue says whether a key is due for a check: every second in its
// first ten, then every tenth of its age, at most every 15 s.
func (r *readiness) checkDue(id string, created, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	every := min(max(now.Sub(created)/10, time.Second), 15*time.Second)
	if last, ok := r.checked[id]; ok && now.Sub(last) < every {
		return false
	}
	r.checked[id] = now
	return true
}

// keep forgets every key but those of recs.
func (r *readiness) keep(recs []store.KeyRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make(map[string]bool, len(recs))
	for _, rec := range recs {
		ids[rec.ID] = true
	}
	for id := range r.checked {
		if !ids[id] {
			delete(r.checked, id)
		}
	}
}

func (r *readiness) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.checked, id)
}

// CheckProvisioning checks the keys still provisioning with their
// secrets, as a client would sign in, and records each ready when it
// signs in, or unverified once the portal gives up. Any replica may run
// it: a key is settled once.
func (s *Service) CheckProvisioning(ctx context.Context) (int, error) {
	if s.ready == nil {
		return 0, nil
	}
	recs, err := s.store.ProvisioningKeys(ctx, 50)
	if err != nil {
		return 0, err
	}
	now := s.guard.Now()
	if len(recs) < 50 {
		s.ready.keep(recs) // forget the keys settled or deleted elsewhere
	}
	n := 0
	for _, rec := range recs {
		if !s.ready.checkDue(rec.ID, rec.Created, now) {
			continue
		}
		state, err := s.check(ctx, rec, now)
		if err != nil {
			return n, err
		}
		if state != store.KeyProvisioning {
			s.ready.forget(rec.ID)
			n++
		}
	}
	return n, nil
}

// check tries one provisioning key and settles it when it signs in, or
// gives up after keyCheckGiveUp; it returns the key's state.
func (s *Service) check(ctx context.Context, rec store.KeyRecord, now time.Time) (string, error) {
	env, err := s.guard.Environments().Get(rec.Zone, rec.Stage)
	state := store.KeyUnverified
	if err == nil && env.KeyCheck != nil && now.Sub(rec.Created) < keyCheckGiveUp {
		sealed, derr := base64.StdEncoding.DecodeString(rec.Probe)
		secret, oerr := s.ready.secrets.Open(sealed, rec.ID)
		if derr != nil || oerr != nil {
			// Sealed with session keys no longer configured.
			s.guard.Log().WarnContext(ctx, "a new API key's sealed secret does not open; it is recorded unverified", "key", rec.ID)
		} else {
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			cerr := env.KeyCheck.CheckKey(cctx, rec.Resource == env.Scope.SchemaRegistryID, rec.ID, string(secret))
			cancel()
			if cerr != nil {
				return store.KeyProvisioning, nil // not spread yet: tried again later
			}
			state = store.KeyReady
		}
	}
	at := now
	if state != store.KeyReady {
		at = time.Time{}
		s.guard.Log().WarnContext(ctx, "a new API key never signed in to the portal's check; it is recorded unverified", "key", rec.ID,
			"since", rec.Created)
	}
	if _, err := s.store.SettleKey(ctx, rec.ID, state, at); err != nil {
		return store.KeyProvisioning, err
	}
	return state, nil
}

// successorProvisioning says whether a rotated key's successor is still
// provisioning: the old key then stays past its expiry, so that clients
// never hold only a key that does not sign in yet.
func (s *Service) successorProvisioning(ctx context.Context, rec store.KeyRecord) (bool, error) {
	if rec.ReplacedBy == "" || strings.HasPrefix(rec.ReplacedBy, store.RotatingPrefix) {
		return false, nil
	}
	recs, err := s.store.Keys(ctx, []string{rec.ReplacedBy})
	if err != nil {
		return false, err
	}
	return recs[rec.ReplacedBy].State == store.KeyProvisioning, nil
}
