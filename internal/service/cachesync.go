package service

import (
	"context"
	"log/slog"
	"strings"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/store"
)

// CacheSync keeps this replica's caches in step with every replica's
// writes: a write announced on the store's cache channel makes the
// environment's ports forget what they cached.
type CacheSync struct {
	envs  *platform.Environments
	store store.Notifier
	log   *slog.Logger
}

// NewCacheSync returns the cache synchroniser.
func NewCacheSync(envs *platform.Environments, s store.Notifier, log *slog.Logger) *CacheSync {
	return &CacheSync{envs: envs, store: s, log: log}
}

// Run applies announcements until ctx ends; after a lost connection to the
// store, when announcements may have been missed, it forgets everything.
func (c *CacheSync) Run(ctx context.Context) error {
	msgs, err := c.store.Subscribe(ctx, store.ChannelCache)
	if err != nil {
		return err
	}
	for m := range msgs {
		if m == store.Reconnected {
			for _, env := range c.envs.All() {
				forget(env)
			}
			continue
		}
		what, name, _ := strings.Cut(m, " ")
		zone, stage, _ := strings.Cut(name, "/")
		env, err := c.envs.Get(zone, stage)
		if err != nil || what != "topics" {
			c.log.DebugContext(ctx, "an unknown cache announcement", "message", m)
			continue
		}
		forget(env)
	}
	return nil
}

func forget(env *platform.Environment) {
	if f, ok := env.Topics.(platform.Forgetter); ok {
		f.Forget()
	}
}
