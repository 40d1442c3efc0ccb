package worker

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// KeyExpiry adopts the API keys made outside the portal and deletes the
// expired ones (apikeys.Service).
type KeyExpiry interface {
	Adopt(ctx context.Context) (int, error)
	Expire(ctx context.Context) (int, error)
}

// KeySweeper runs the key expiry on one replica at a time: it holds a
// lease in the store while it works, and another replica takes over when
// it dies.
type KeySweeper struct {
	keys   KeyExpiry
	leases store.Leases
	holder string
	log    *slog.Logger
	now    func() time.Time
	// busy keeps this replica's rounds one at a time (the lease keeps
	// other replicas out, not this one's second caller).
	busy sync.Mutex
	// Every is how often expired keys are looked for; adoption runs every
	// AdoptEvery (it lists the keys upstream).
	Every, AdoptEvery time.Duration
}

// NewKeySweeper returns the sweeper of one replica (holder).
func NewKeySweeper(keys KeyExpiry, leases store.Leases, holder string, log *slog.Logger) *KeySweeper {
	return &KeySweeper{keys: keys, leases: leases, holder: holder, log: log, now: time.Now, Every: 15 * time.Second, AdoptEvery: 5 * time.Minute}
}

// Sweep runs one round if this replica holds (or takes) the lease;
// adopt says whether adoption is due.
func (k *KeySweeper) Sweep(ctx context.Context, adopt bool) bool {
	if !k.busy.TryLock() {
		return false
	}
	defer k.busy.Unlock()
	// The lease is renewed while the round works and the round stops
	// when it is lost: a slow round (many keys, a slow Cloud API) is
	// never done by two replicas at once.
	held, release, ok, err := store.HoldLease(ctx, k.leases, "api-key-expiry", k.holder, max(3*k.Every, 15*time.Second), k.now)
	if err != nil || !ok {
		return false
	}
	defer release()
	ctx = held
	if adopt {
		if n, err := k.keys.Adopt(ctx); err != nil {
			k.log.WarnContext(ctx, "adopting API keys made outside the portal failed", "error", err)
		} else if n > 0 {
			k.log.InfoContext(ctx, "API keys made outside the portal were given an expiry", "count", n)
		}
	}
	if n, err := k.keys.Expire(ctx); err != nil {
		k.log.WarnContext(ctx, "deleting expired API keys failed", "error", err)
	} else if n > 0 {
		k.log.InfoContext(ctx, "expired API keys deleted", "count", n)
	}
	return true
}

// Run sweeps every Every until ctx ends.
func (k *KeySweeper) Run(ctx context.Context) {
	t := time.NewTicker(k.Every)
	defer t.Stop()
	var adopted time.Time
	for {
		due := k.now().Sub(adopted) >= k.AdoptEvery
		if k.Sweep(ctx, due) && due {
			adopted = k.now()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
