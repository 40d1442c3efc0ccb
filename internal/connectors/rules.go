package connectors

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// A connector as the platform's guardrails see it.

// withoutSecrets masks a connector's secret settings for the guardrails,
// so that no policy message can repeat them.
func withoutSecrets(config map[string]string, secret []string) map[string]string {
	out := make(map[string]string, len(config))
	for k, v := range config {
		out[k] = v
		if v != "" && (connect.IsSensitiveKey(k) || slices.Contains(secret, k)) {
			out[k] = connect.Mask
		}
	}
	return out
}

// connectorRule is a connector as policies see it, its secrets masked.
func connectorRule(call *gate.Call, full string, config map[string]string, secret []string) *rules.Connector {
	cfg := withoutSecrets(config, secret)
	c := &rules.Connector{Name: full, Identifier: strings.TrimSuffix(call.Scope.Identifier(full), tenancy.ConnectorSuffix), Class: cfg["connector.class"], Tasks: rules.TasksOf(cfg), Config: cfg, Topics: []string{}}
	for _, key := range connect.ConnectorTopicKeys {
		for _, t := range strings.Split(cfg[key], ",") {
			if t = strings.TrimSpace(t); t != "" {
				c.Topics = append(c.Topics, t)
			}
		}
	}
	return c
}

// Holder reads the unit's connectors for the guardrails: one list.
func (s *Service) Holder() gate.Holder {
	return gate.HolderOf(rules.KindConnector, func(ctx context.Context, call *gate.Call) (map[string]any, error) {
		cs, err := call.Env.Connectors.ListConnectors(ctx)
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		for _, c := range cs {
			if o := call.Owner(c.Name, tenancy.ConnectorSuffix); !o.Outside && o.Unit == call.Scope.Unit.ID {
				out[c.Name] = connectorRule(call, c.Name, c.Config, nil)
			}
		}
		return out, nil
	})
}
