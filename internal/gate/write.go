package gate

import (
	"context"
	"strconv"

	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Record audits what happened to a write that never reached the upstream
// (a refusal found after entering, a read worth a trace).
func (g *Guard) Record(ctx context.Context, c *Call, event, resource string, err error, changes ...portal.Change) {
	e := c.Event(event, resource)
	e.Outcome, e.Changes = Outcome(err), changes
	if err != nil {
		e.Detail = portal.FirstMessage(err)
	}
	g.audit.Record(ctx, e)
}

// Write is a change under way whose attempt the audit trail holds.
type Write struct {
	att      *audit.Attempt
	resource string
}

// Begin records the attempt of a change before its first upstream call:
// no record, no change. When the trail cannot be written, the error
// (UpstreamUnavailable) says that nothing was changed.
func (g *Guard) Begin(ctx context.Context, c *Call, event, resource string) (*Write, error) {
	return g.BeginEvent(ctx, c.Event(event, resource))
}

// BeginEvent is Begin for an event made elsewhere (the admin area's).
func (g *Guard) BeginEvent(ctx context.Context, e portal.AuditEvent) (*Write, error) {
	att, err := g.audit.Begin(ctx, e)
	if err != nil {
		return nil, err
	}
	return &Write{att: att, resource: e.Resource}, nil
}

// Rename names the resource as it is now known (with an id learned on
// the way), for the outcome.
func (w *Write) Rename(resource string) { w.resource = resource }

// Done settles a change's attempt with its outcome and what it changed.
func (w *Write) Done(ctx context.Context, err error, changes ...portal.Change) {
	detail := ""
	if err != nil {
		detail = portal.FirstMessage(err)
	}
	w.att.Settle(ctx, Outcome(err), detail, w.resource, changes)
}

// Outcome names an operation's result in the audit trail; a write that
// timed out may still have happened, so its outcome is unknown.
func Outcome(err error) string {
	switch {
	case err == nil:
		return audit.OK
	case portal.Is(err, portal.UpstreamTimeout):
		return audit.Unknown
	}
	return string(portal.KindOf(err))
}

// TopicChanged brings every replica's topic list up to a write: when the
// write is known to have happened, the change itself is applied here and
// announced, so that no list goes cold; when it failed or its outcome is
// unknown, the replicas are told to refetch in the background.
func (g *Guard) TopicChanged(ctx context.Context, env *platform.Environment, err error, c platform.TopicChange) {
	if err != nil {
		g.Changed(ctx, env, "topics")
		return
	}
	if p, ok := env.Topics.(platform.TopicPatcher); ok {
		p.ApplyTopicChange(c)
	}
	g.Changed(ctx, env, topicAnnouncement(c))
}

// topicAnnouncement is the cache channel's message for a topic write,
// completed with the environment by Changed: "topic <name> <partitions>
// <deleted> <zone>/<stage>". Topic names hold no spaces.
func topicAnnouncement(c platform.TopicChange) string {
	return "topic " + c.Name + " " + strconv.Itoa(c.Partitions) + " " + strconv.FormatBool(c.Deleted)
}

// Changed tells every replica (this one too) that what of env changed.
func (g *Guard) Changed(ctx context.Context, env *platform.Environment, what string) {
	if err := g.notify.Publish(context.WithoutCancel(ctx), store.ChannelCache, what+" "+env.Name()); err != nil {
		// The other replicas' caches expire by themselves; say why they
		// may lag behind.
		g.log.WarnContext(ctx, "announcing a change failed", "what", what, "env", env.Name(), "error", err)
	}
}
