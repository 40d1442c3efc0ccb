package connectors

import (
	"context"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
)

// Impact lists what depends on a connector: the topics it reads or
// writes (they stay), with the groups reading those it writes.
func (s *Service) Impact(ctx context.Context, scope portal.Scope, name string) (portal.Impact, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read connectors")
	if err != nil {
		return portal.Impact{}, err
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return portal.Impact{}, err
	}
	c, err := call.Env.Connectors.GetConnector(ctx, full)
	if err != nil {
		return portal.Impact{}, err
	}
	out := portal.Impact{Kind: "connector", Name: full}
	for _, t := range connect.ConnectorTopics(c.Config) {
		if !strings.HasPrefix(t, call.Scope.Prefix()) {
			t = call.Scope.Prefix() + t
		}
		if c.Type != "source" {
			out.Dependants = append(out.Dependants, portal.Dependant{Kind: "topic", Name: t, Unit: call.Owner(t, "").Unit, Detail: "it reads it; the topic stays"})
			continue
		}
		groups, err := catalog.Consumers(ctx, call.Env, t)
		if err != nil {
			return out, err
		}
		out.Dependants = append(out.Dependants, portal.Dependant{Kind: "topic", Name: t, Unit: call.Owner(t, "").Unit,
			Detail: "it writes it; " + strconv.Itoa(len(groups)) + " consumer groups read it and get no new records"})
	}
	return out, nil
}
