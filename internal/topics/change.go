package topics

import (
	"context"
	"maps"
	"slices"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/topicconfig"
)

// replaceState is Replace's change: the desired overrides set, every other
// editable override reset.
func replaceState(desired map[string]string) func(current map[string]string) ([]string, map[string]string) {
	return func(current map[string]string) ([]string, map[string]string) {
		var reset []string
		for k := range current {
			if _, editable := topicconfig.LookupTopicSetting(k); editable {
				if _, keep := desired[k]; !keep {
					reset = append(reset, k)
				}
			}
		}
		return reset, desired
	}
}

// configChange is what change asks of a topic's settings, less what is
// already so: the settings to set and the overrides to reset (sorted).
func configChange(current map[string]string, change func(current map[string]string) (reset []string, set map[string]string)) platform.ConfigChange {
	reset, set := change(current)
	cc := platform.ConfigChange{Set: map[string]string{}}
	for k, v := range set {
		if current[k] != v {
			cc.Set[k] = v
		}
	}
	for _, k := range reset {
		if _, overridden := current[k]; overridden {
			cc.Reset = append(cc.Reset, k)
		}
	}
	slices.Sort(cc.Reset)
	return cc
}

// updateRule is an update of a topic as the guardrails judge it: its state
// before and after the change.
func updateRule(call *gate.Call, full string, cur topic.TopicDetail, partitions int, cc platform.ConfigChange) rules.Change {
	after := maps.Clone(cur.Config)
	maps.Copy(after, cc.Set)
	for _, k := range cc.Reset {
		delete(after, k)
	}
	return rules.NewChange(rules.KindTopic, rules.OpUpdate, full, topicRule(call, full, max(partitions, cur.Partitions), after), topicRule(call, full, cur.Partitions, cur.Config))
}

// settingsChanged tells whether a topic's settings show a change, for a
// change whose answer was lost.
func (s *Service) settingsChanged(call *gate.Call, full string, cc platform.ConfigChange) func(ctx context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		d, err := s.detail(ctx, call, full, false)
		if err != nil {
			return false, err
		}
		for k, v := range cc.Set {
			if d.Config[k] != v {
				return false, nil
			}
		}
		for _, k := range cc.Reset {
			if _, still := d.Config[k]; still {
				return false, nil
			}
		}
		return true, nil
	}
}

// partitionsAre tells whether a topic has n partitions, for a change
// whose answer was lost.
func partitionsAre(call *gate.Call, full string, n int) func(ctx context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		d, err := call.Env.Topics.DescribeTopic(ctx, full)
		return err == nil && len(d.Partitions) == n, err
	}
}
