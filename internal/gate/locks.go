package gate

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

const (
	// lockWait bounds how long a change waits for another on the same
	// resource.
	lockWait = 15 * time.Second
	// maxHeld bounds the store locks one replica holds at once for
	// single changes, maxOuter those held around many (a plan's apply):
	// on PostgreSQL each holds a connection, and the changes of an apply
	// must not wait for slots its peers hold.
	maxHeld  = 8
	maxOuter = 4
)

// Locks is a lock per key within the process (a subject, a consumer
// group); keys are forgotten when unlocked by all. The zero value is
// ready.
type Locks struct {
	mu    sync.Mutex
	locks map[string]*keyedLock
}

type keyedLock struct {
	ch    chan struct{}
	users int
}

// LockContext takes the key's lock, or gives up when ctx ends.
func (k *Locks) LockContext(ctx context.Context, key string) (func(), error) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyedLock{}
	}
	l := k.locks[key]
	if l == nil {
		l = &keyedLock{ch: make(chan struct{}, 1)}
		k.locks[key] = l
	}
	l.users++
	k.mu.Unlock()
	forget := func() {
		k.mu.Lock()
		if l.users--; l.users == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
		return func() {
			<-l.ch
			forget()
		}, nil
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	}
}

// Lock serialises the changes to one resource (key) across replicas:
// first among this process's requests, then in the store (an advisory
// lock on PostgreSQL, a lock row on SQLite), so that a change applies as
// a whole with respect to every other change of that resource. It waits
// up to lockWait, then refuses with CONFLICT and Retry-After.
func (g *Guard) Lock(ctx context.Context, key string) (func(), error) {
	return g.lock(ctx, []string{key}, key, g.held)
}

// LockAll is Lock for many resources changed together (an apply's
// batch of topic updates): all or none, as one of the replica's held
// locks. what names them in the refusal.
func (g *Guard) LockAll(ctx context.Context, keys []string, what string) (func(), error) {
	keys = slices.Clone(keys)
	slices.Sort(keys)
	return g.lock(ctx, slices.Compact(keys), what, g.held)
}

// LockOuter is Lock for a lock held around other changes, which take
// their own (a plan's apply, around its steps).
func (g *Guard) LockOuter(ctx context.Context, key string) (func(), error) {
	return g.lock(ctx, []string{key}, key, g.outer)
}

// LockInner is Lock for locks taken while another is held and under
// which none is taken (a unit's budget, judged inside a change; the
// grants a delete ends): its own slots, so that holders of one never wait
// for slots they hold. Several keys are taken together, in order, as one.
func (g *Guard) LockInner(ctx context.Context, keys ...string) (func(), error) {
	keys = slices.Clone(keys)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	return g.lock(ctx, keys, strings.Join(keys, ", "), g.inner)
}

// lock takes keys (sorted: within the process every holder of many takes
// them in the same order, so two never wait for each other) locally, then
// in the store.
func (g *Guard) lock(ctx context.Context, keys []string, what string, held chan struct{}) (func(), error) {
	wctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	busy := func() error {
		e := portal.New(portal.Conflict, "another change to %s is under way; try again in a moment", what)
		e.RetryAfter = 2 * time.Second
		return e
	}
	var locals []func()
	local := func() {
		for i := len(locals) - 1; i >= 0; i-- {
			locals[i]()
		}
	}
	for _, key := range keys {
		unlock, err := g.local.LockContext(wctx, key)
		if err != nil {
			local()
			return nil, busy()
		}
		locals = append(locals, unlock)
	}
	if g.locks == nil {
		return local, nil
	}
	backoff := 10 * time.Millisecond
	for {
		select {
		case held <- struct{}{}:
		case <-wctx.Done():
			local()
			return nil, busy()
		}
		unlock, ok, err := g.locks.TryLock(wctx, keys, g.holder)
		if err == nil && ok {
			return func() {
				unlock()
				<-held
				local()
			}, nil
		}
		<-held
		if err != nil && wctx.Err() == nil {
			local()
			return nil, portal.Wrap(err, portal.UpstreamUnavailable, "the database cannot lock %s, so nothing was changed; try again shortly", what)
		}
		t := time.NewTimer(backoff)
		select {
		case <-t.C:
		case <-wctx.Done():
			t.Stop()
			local()
			return nil, busy()
		}
		backoff = min(2*backoff, 250*time.Millisecond)
	}
}

// Version is a resource's version as ETag and If-Match carry it: a keyed
// digest of what the caller can change (a keyed one, so that it tells
// nothing about secrets in it), the same on every replica.
func (g *Guard) Version(v any) string {
	raw, _ := json.Marshal(v)
	mac := hmac.New(sha256.New, g.versionKey)
	mac.Write(raw)
	return hex.EncodeToString(mac.Sum(nil)[:12])
}
