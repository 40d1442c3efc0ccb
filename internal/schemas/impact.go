package schemas

import (
	"context"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Impact lists what depends on a subject: the latest schemas that
// reference it (live: the registry refuses to delete what is referenced)
// and the topic whose records it describes, with the groups reading it.
func (s *Service) Impact(ctx context.Context, scope portal.Scope, subject string) (portal.Impact, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read schemas")
	if err != nil {
		return portal.Impact{}, err
	}
	full, err := call.Subject(subject)
	if err != nil {
		return portal.Impact{}, err
	}
	if _, err := call.Env.Schemas.GetSchema(ctx, full, 0); err != nil {
		return portal.Impact{}, err
	}
	out := portal.Impact{Kind: "subject", Name: full}
	latest, err := call.Env.Schemas.ListSchemas(ctx, "", true)
	if err != nil {
		return out, err
	}
	for _, v := range latest {
		for _, r := range v.References {
			if r.Subject == full {
				out.Dependants = append(out.Dependants, portal.Dependant{Kind: "subject", Name: v.Subject, Unit: call.Owner(v.Subject, "").Unit,
					Detail: "references it as " + r.Name + " (version " + strconv.Itoa(r.Version) + ")", Live: true})
			}
		}
	}
	topic := strings.TrimSuffix(strings.TrimSuffix(full, "-value"), "-key")
	if topic == full {
		return out, nil
	}
	if _, err := call.Env.Topics.DescribeTopic(ctx, topic); err != nil {
		if portal.Is(err, portal.NotFound) {
			return out, nil
		}
		return out, err
	}
	groups, err := catalog.Consumers(ctx, call.Env, topic)
	if err != nil {
		return out, err
	}
	out.Dependants = append(out.Dependants, portal.Dependant{Kind: "topic", Name: topic, Unit: call.Owner(topic, "").Unit,
		Detail: "its records are written with this subject's schemas; " + strconv.Itoa(len(groups)) + " consumer groups read it"})
	for _, g := range groups {
		out.Dependants = append(out.Dependants, portal.Dependant{Kind: "consumer_group", Name: g.Group, Unit: call.Owner(g.Group, "").Unit,
			Detail: "reads " + topic + "; a consumer that looks a deleted version up by id fails"})
	}
	return out, nil
}
