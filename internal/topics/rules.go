package topics

import (
	"context"
	"maps"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
)

// A topic as the platform's guardrails see it.

// topicRule is a topic as policies see it.
func topicRule(call *gate.Call, full string, partitions int, config map[string]string) *rules.Topic {
	cfg := maps.Clone(config)
	if cfg == nil {
		cfg = map[string]string{}
	}
	return &rules.Topic{Name: full, Identifier: call.Scope.Identifier(full), Partitions: partitions, Config: cfg}
}

// Holder reads the unit's topics with their overrides for the
// guardrails: one list and one batched describe.
func (s *Service) Holder() gate.Holder {
	return gate.HolderOf(rules.KindTopic, func(ctx context.Context, call *gate.Call) (map[string]any, error) {
		all, err := call.Env.Topics.ListTopics(ctx)
		if err != nil {
			return nil, err
		}
		partitions := map[string]int{}
		var names []string
		for _, t := range all {
			if call.Scope.Owns(t.Name) {
				names = append(names, t.Name)
				partitions[t.Name] = t.Partitions
			}
		}
		out := map[string]any{}
		if len(names) == 0 {
			return out, nil
		}
		cfgs, err := call.Env.Topics.TopicConfigs(ctx, names)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			cfg := map[string]string{}
			for _, e := range cfgs[n] {
				if e.Override && !e.Sensitive {
					cfg[e.Name] = e.Value
				}
			}
			out[n] = topicRule(call, n, partitions[n], cfg)
		}
		return out, nil
	})
}
