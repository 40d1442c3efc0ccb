package handlers

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// topicChoices are the unit's topics (their identifiers) that forms offer
// as suggestions: the first page of the list, up to its largest size. A
// failure leaves the suggestions empty; typing still works.
func (h *Handlers) topicChoices(ctx context.Context, bu, stage string) []string {
	page, err := h.topics.List(ctx, bu, stage, portal.ListQuery{PageSize: portal.MaxPageSize})
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
// for a topic nobody created (a typo, most often).
func (h *Handlers) missingTopics(ctx context.Context, bu, stage string, names []string) []string {
	var out []string
	for _, n := range names {
		if _, err := h.topics.Get(ctx, bu, stage, n, false); portal.Is(err, portal.NotFound) {
			out = append(out, n)
		}
	}
	return out
}
