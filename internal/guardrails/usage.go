package guardrails

import (
	"context"
	"strings"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// usage reads what the call's unit holds in its stage, for the dimensions
// of limits (every dimension when limits is nil): one list per kind, and
// one batched describe of the unit's topics' settings for storage. It
// also returns the number of the unit's topics that keep data
// without a retention.bytes bound (left out of the storage use), and the
// names of the resources it counted (so that a reservation of one that
// shows already is not counted twice).
func (gr *Service) usage(ctx context.Context, call *gate.Call, limits rules.Usage) (rules.Usage, int, map[string]bool, error) {
	want := func(dims ...string) bool {
		if limits == nil {
			return true
		}
		for _, d := range dims {
			if _, ok := limits[d]; ok {
				return true
			}
		}
		return false
	}
	use := rules.Usage{}
	counted := map[string]bool{}
	unbounded := 0
	unit, prefix := call.Scope.Unit.ID, call.Scope.Prefix()
	if want(rules.Topics, rules.Partitions, rules.StorageBytes) {
		all, err := call.Env.Topics.ListTopics(ctx)
		if err != nil {
			return nil, 0, nil, err
		}
		partitions := map[string]int{}
		for _, t := range all {
			if strings.HasPrefix(t.Name, prefix) && call.Owner(t.Name, "").Unit == unit {
				counted[t.Name] = true
				use[rules.Topics]++
				use[rules.Partitions] += int64(t.Partitions)
				partitions[t.Name] = t.Partitions
			}
		}
		if want(rules.StorageBytes) && len(partitions) > 0 {
			names := make([]string, 0, len(partitions))
			for n := range partitions {
				names = append(names, n)
			}
			cfgs, err := call.Env.Topics.TopicConfigs(ctx, names)
			if err != nil {
				return nil, 0, nil, err
			}
			for n, p := range partitions {
				cfg := map[string]string{}
				for _, e := range cfgs[n] {
					if e.Name == "retention.bytes" {
						cfg[e.Name] = e.Value
					}
				}
				if s := rules.TopicStorage(p, cfg); s > 0 {
					use[rules.StorageBytes] += s
				} else {
					unbounded++
				}
			}
		}
	}
	if want(rules.Connectors, rules.ConnectorTasks) {
		cs, err := call.Env.Connectors.ListConnectors(ctx)
		if err != nil {
			return nil, 0, nil, err
		}
		for _, c := range cs {
			if o := call.Owner(c.Name, tenancy.ConnectorSuffix); !o.Outside && o.Unit == unit {
				counted[c.Name] = true
				use[rules.Connectors]++
				use[rules.ConnectorTasks] += int64(rules.TasksOf(c.Config))
			}
		}
	}
	if want(rules.ServiceAccounts) {
		as, err := call.Env.IAM.ListServiceAccounts(ctx)
		if err != nil {
			return nil, 0, nil, err
		}
		for _, a := range as {
			if o, ok := call.OrgOwner(tenancy.OrgAccount, a.DisplayName); ok && o.Unit() == unit {
				counted[a.DisplayName] = true
				use[rules.ServiceAccounts]++
			}
		}
	}
	if want(rules.APIKeys) {
		keys, err := gr.o.Store.StageKeys(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name)
		if err != nil {
			return nil, 0, nil, err
		}
		for _, k := range keys {
			if k.BU == unit {
				counted[k.ID] = true
				use[rules.APIKeys]++
			}
		}
	}
	return use, unbounded, counted, nil
}
