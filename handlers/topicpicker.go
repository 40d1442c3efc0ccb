package handlers

import (
	"context"
	"slices"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
)

// topicChoices are the unit's topics (their identifiers) that forms offer
// as suggestions: the first page of the list, up to its largest size. A
// failure leaves the suggestions empty; typing still works.
func (h *Handlers) topicChoices(ctx context.Context, scope portal.Scope) []string {
	page, err := h.Topics.List(ctx, scope, portal.ListQuery{PageSize: portal.MaxPageSize})
	if err != nil {
		return nil
	}
	out := make([]string, len(page.Items))
	for i, t := range page.Items {
		out[i] = t.Identifier
	}
	return out
}

// missingTopics returns the named topics that do not exist in the unit's
// stage, so that a form can warn before saving a connector or a schema
// for a topic nobody created (a typo, most often). It reads the cached
// topic list, never the cluster.
func (h *Handlers) missingTopics(ctx context.Context, scope portal.Scope, names []string) []string {
	var out []string
	for _, n := range names {
		id := portal.Normalise(n)
		page, err := h.Topics.List(ctx, scope, portal.ListQuery{PageSize: portal.MaxPageSize, Search: id})
		if err != nil {
			continue // the service's own checks decide then
		}
		if !slices.ContainsFunc(page.Items, func(t topic.Topic) bool {
			return t.Name == n || t.Name == id || t.Identifier == id
		}) {
			out = append(out, n)
		}
	}
	return out
}
