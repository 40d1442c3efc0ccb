package worker

import (
	"context"
	"log/slog"
	"strconv"
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
		switch what {
		case "topic":
			c.applyTopic(name)
		case "topics":
			zone, stage, _ := strings.Cut(name, "/")
			if env, err := c.envs.Get(zone, stage); err == nil {
				forgetPort(env.Topics)
			}
		case "accounts":
			// Accounts are organisation-wide: every environment's view.
			for _, env := range c.envs.All() {
				forgetPort(env.IAM)
			}
		default:
			c.log.DebugContext(ctx, "an unknown cache announcement", "message", m)
		}
	}
	return nil
}

// applyTopic patches the topic list of an environment with a write
// announced as "<name> <partitions> <deleted> <zone>/<stage>".
func (c *CacheSync) applyTopic(m string) {
	f := strings.Fields(m)
	if len(f) != 4 {
		c.log.Debug("an unreadable topic announcement", "message", m)
		return
	}
	partitions, err1 := strconv.Atoi(f[1])
	deleted, err2 := strconv.ParseBool(f[2])
	zone, stage, _ := strings.Cut(f[3], "/")
	env, err := c.envs.Get(zone, stage)
	if err1 != nil || err2 != nil || err != nil {
		c.log.Debug("an unreadable topic announcement", "message", m)
		return
	}
	if p, ok := env.Topics.(platform.TopicPatcher); ok {
		p.ApplyTopicChange(platform.TopicChange{Name: f[0], Partitions: partitions, Deleted: deleted})
		return
	}
	forgetPort(env.Topics)
}

func forget(env *platform.Environment) {
	forgetPort(env.Topics)
	forgetPort(env.IAM)
}

func forgetPort(port any) {
	if f, ok := port.(platform.Forgetter); ok {
		f.Forget()
	}
}
