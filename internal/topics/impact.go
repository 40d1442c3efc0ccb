package topics

import (
	"context"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// GrantEnder ends, ahead of a topic's delete that call makes, the grants
// on it (their role bindings removed, each with its own audit event
// naming the delete), and returns the delete's changes; an error stops
// the delete.
type GrantEnder func(ctx context.Context, call *gate.Call, topic, cause string) ([]trail.Change, error)

// EndGrantsWith has deletes end the grants on the topics they delete.
func (s *Service) EndGrantsWith(end GrantEnder) *Service {
	s.endGrants = end
	return s
}

// WithImpact lets deletes see the zone's grants among a topic's
// dependants.
func (s *Service) WithImpact(g store.ZoneGrants) *Service {
	s.grants = g
	return s
}

// Impact lists what depends on one of the unit's topics.
func (s *Service) Impact(ctx context.Context, scope portal.Scope, name string) (portal.Impact, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read topics")
	if err != nil {
		return portal.Impact{}, err
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return portal.Impact{}, err
	}
	if _, err := call.Env.Topics.DescribeTopic(ctx, full); err != nil {
		return portal.Impact{}, err
	}
	return s.impact(ctx, call, full)
}

// impact reads a topic's dependants: the groups that read it (one list,
// one batch of offsets and descriptions, one request for its ends), the
// zone's grants on it (one query), the connectors naming it (one list)
// and its subjects (one list).
func (s *Service) impact(ctx context.Context, call *gate.Call, full string) (portal.Impact, error) {
	out := portal.Impact{Kind: "topic", Name: full}
	groups, err := catalog.Consumers(ctx, call.Env, full)
	if err != nil {
		return out, err
	}
	for _, g := range groups {
		detail := portal.Count(g.Members, "member", "members") + ", " + portal.Count(g.Lag, "record", "records") + " behind"
		out.Dependants = append(out.Dependants, portal.Dependant{Kind: "consumer_group", Name: g.Group, Unit: call.Owner(g.Group, "").Unit, Detail: detail, Live: g.Live()})
	}
	if s.grants != nil {
		grants, err := s.grants.ZoneGrants(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name, 10_000)
		if err != nil {
			return out, err
		}
		for _, g := range grants {
			if g.Pattern == full || g.Prefixed && strings.HasPrefix(full, g.Pattern) {
				detail := g.Access + " for " + g.PrincipalName
				if !g.Expires.IsZero() {
					detail += " until " + g.Expires.UTC().Format("2006-01-02")
				}
				out.Dependants = append(out.Dependants, portal.Dependant{Kind: "grant", Name: g.ID, Unit: g.Grantee, Detail: detail, Live: true})
			}
		}
	}
	connectors, err := call.Env.Connectors.ListConnectors(ctx)
	if err != nil {
		return out, err
	}
	for _, c := range connectors {
		if names(c.Config, full, call.Scope.Prefix()) {
			out.Dependants = append(out.Dependants, portal.Dependant{Kind: "connector", Name: c.Name, Unit: call.Owner(c.Name, "-connector").Unit,
				Detail: c.Type + ", " + c.State, Live: true})
		}
	}
	versions, err := call.Env.Schemas.ListSchemas(ctx, full+"-", true)
	if err != nil {
		// The subjects stay when the topic goes: a registry that cannot
		// be read costs the list, not the delete.
		out.Dependants = append(out.Dependants, portal.Dependant{Kind: "subject", Name: full + "-*", Unit: call.Scope.Unit.ID,
			Detail: "the registry could not be read: " + portal.FirstMessage(err)})
		return out, nil
	}
	for _, v := range versions {
		if v.Subject == full+"-key" || v.Subject == full+"-value" {
			out.Dependants = append(out.Dependants, portal.Dependant{Kind: "subject", Name: v.Subject, Unit: call.Scope.Unit.ID,
				Detail: "version " + strconv.Itoa(v.Version) + " (left in the registry)"})
		}
	}
	return out, nil
}
