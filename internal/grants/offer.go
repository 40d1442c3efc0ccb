package grants

import (
	"context"
	"sort"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// maxOffered bounds the topics a grant form lists: past it, the form
// takes a typed name or prefix.
const maxOffered = 500

// Offer lists what the caller's unit may ask access to in the stage: the
// other units of its landing zone and, for owner, the identifiers of
// that unit's topics (names only, from the cluster's one cached listing:
// what the topic holds stays behind its owner's grant).
func (s *Service) Offer(ctx context.Context, scope portal.Scope, owner string) (grant.GrantOffer, error) {
	ctx, call, err := s.enter(ctx, scope, access.ReadGrants, portal.Action{}, "")
	if err != nil {
		return grant.GrantOffer{}, err
	}
	var out grant.GrantOffer
	var ownerScope *tenancy.Scope
	for _, u := range s.guard.Tenancy().Units() {
		if u.LandingZone.ID != call.Scope.Zone().ID || u.ID == call.Scope.Unit.ID {
			continue
		}
		out.Units = append(out.Units, u.ID)
		if u.ID == owner {
			ownerScope = &tenancy.Scope{Unit: u, Stage: call.Scope.Stage}
		}
	}
	sort.Strings(out.Units)
	if ownerScope == nil {
		return out, nil
	}
	topics, err := call.Env.Topics.ListTopics(ctx)
	if err != nil {
		return out, err
	}
	prefix := ownerScope.Prefix()
	for _, t := range topics {
		if id, ok := strings.CutPrefix(t.Name, prefix); ok && id != "" {
			if len(out.Topics) == maxOffered {
				out.More = true
				break
			}
			out.Topics = append(out.Topics, id)
		}
	}
	return out, nil
}
