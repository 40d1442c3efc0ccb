package topics

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
)

// Links finds the unit's connectors whose configuration names the topic
// (kafka.topic for sources, topics for sinks) and the topic's subjects
// (TopicNameStrategy: <topic>-key, <topic>-value), with one list of
// connectors and one of subjects. A part whose upstream fails says why;
// the other is still given.
func (s *Service) Links(ctx context.Context, scope portal.Scope, name string) (topic.TopicLinks, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read topics")
	if err != nil {
		return topic.TopicLinks{}, err
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return topic.TopicLinks{}, err
	}
	var out topic.TopicLinks
	if all, err := call.Env.Connectors.ListConnectors(ctx); err != nil {
		out.ConnectorsUnavailable = portal.MessageOf(err)
	} else {
		for _, c := range all {
			if !call.WholeCluster && !call.Scope.Owns(c.Name) {
				continue
			}
			if names(c.Config, full, call.Scope.Prefix()) {
				o := call.Owner(c.Name, "-connector")
				out.Connectors = append(out.Connectors, topic.LinkedConnector{Name: c.Name, Identifier: o.Identifier, Type: c.Type, State: c.State})
			}
		}
	}
	if versions, err := call.Env.Schemas.ListSchemas(ctx, full+"-", true); err != nil {
		out.SubjectsUnavailable = portal.MessageOf(err)
	} else {
		for _, v := range versions {
			if v.Subject == full+"-key" || v.Subject == full+"-value" {
				out.Subjects = append(out.Subjects, v)
			}
		}
	}
	return out, nil
}

// names tells whether a connector's configuration names a topic, by its
// full name or by its identifier in the unit.
func names(config map[string]string, full, prefix string) bool {
	for _, t := range connect.ConnectorTopics(config) {
		if t == full || prefix+t == full {
			return true
		}
	}
	return false
}
