package service

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// CreateBatch creates many topics with one request to the cluster (an
// apply's creates): each is checked and its attempt audited first, as a
// single create is, and each gets its own outcome. The answer has one
// error per topic, nil for those made.
func (s *Topics) CreateBatch(ctx context.Context, scope portal.Scope, ins []portal.NewTopic) []error {
	out := make([]error, len(ins))
	call, err := s.guard.EnterWrite(ctx, scope, access.Write, "create topics", "topic.create", "")
	if err != nil {
		for i := range out {
			out[i] = err
		}
		return out
	}
	type pending struct {
		i    int
		w    *gate.Write
		spec platform.TopicSpec
	}
	var valid []pending
	var changes []guardrails.Change
	for i, in := range ins {
		spec, err := newTopicSpec(call, in)
		if out[i] = err; err != nil {
			continue
		}
		valid = append(valid, pending{i: i, spec: spec})
		changes = append(changes, ruleChange(guardrails.KindTopic, guardrails.OpCreate, spec.Name, topicRule(call, spec.Name, spec.Partitions, spec.Config), nil))
	}
	refused, err := s.guard.CheckAll(ctx, call, "topic.create", changes)
	var todo []pending
	for j, p := range valid {
		if err != nil {
			out[p.i] = err
			continue
		}
		if refused[j] != nil {
			out[p.i] = refused[j]
			continue
		}
		w, err := s.guard.Begin(ctx, call, "topic.create", p.spec.Name)
		if out[p.i] = err; err != nil {
			continue
		}
		p.w = w
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return out
	}
	specs := make([]platform.TopicSpec, len(todo))
	for j, p := range todo {
		specs[j] = p.spec
	}
	bctx, cancel := todo[0].w.Bound(ctx)
	errs, err := call.Env.Topics.CreateTopics(bctx, specs)
	cancel()
	for j, p := range todo {
		e := err
		if e == nil {
			e = errs[j]
		}
		e = p.w.Confirm(ctx, e, "topic "+p.spec.Name+" was created", "GET the topic to see", func(ctx context.Context) (bool, error) {
			d, err := call.Env.Topics.DescribeTopic(ctx, p.spec.Name)
			return err == nil && len(d.Partitions) == p.spec.Partitions, err
		})
		s.guard.TopicChanged(ctx, call.Env, e, platform.TopicChange{Name: p.spec.Name, Partitions: p.spec.Partitions})
		p.w.Done(ctx, e)
		out[p.i] = e
	}
	return out
}
