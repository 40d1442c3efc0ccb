package topics

import (
	"context"
	"strings"

	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// WithCatalog lets Topic documents declare their catalog entries, and
// exports write them.
func (s *Service) WithCatalog(c *catalog.Service) *Service {
	s.catalog = c
	return s
}

// said reads what the unit's zone says about its topics (one query); nil
// without a catalog.
func (s *Service) said(ctx context.Context, call *gate.Call) (map[string]portal.TopicMetadata, error) {
	if s.catalog == nil {
		return nil, nil
	}
	return s.catalog.Said(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name)
}

// planCatalog diffs a declared catalog entry with the current one and
// returns the write that makes it (nil when there is nothing to write).
func (k topicCode) planCatalog(call *gate.Call, st *plans.Step, obs *topicsObserved, full string, want *portal.TopicMetadata, v *portal.Validation) func(context.Context) error {
	if want == nil || k.s.catalog == nil {
		return nil
	}
	m, problems := k.s.catalog.Classes().Check(catalog.Metadata(*want))
	for _, p := range problems {
		v.Add(portal.Invalid(p.Field, "%s", p.Message))
	}
	cur := obs.said[full]
	before := st.Change.Diff
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	st.Diff("description", opt(cur.Description), opt(m.Description))
	st.Diff("owner", opt(cur.Contact), opt(m.Contact))
	st.Diff("tags", opt(strings.Join(cur.Tags, ",")), opt(strings.Join(m.Tags, ",")))
	st.Diff("classification", opt(cur.Classification), opt(m.Classification))
	if len(st.Change.Diff) == len(before) {
		return nil
	}
	scope, in := call.Named(), portal.TopicMetadata(m)
	return func(ctx context.Context) error {
		_, err := k.s.catalog.Describe(ctx, scope, full, in)
		return err
	}
}

// catalogItem is a topic of a batch with its catalog entry's write.
type catalogItem struct {
	item     any
	describe func(context.Context) error
}

// withCatalog runs a batch of topic writes, then the catalog entries of
// those made.
func withCatalog(run func(ctx context.Context, items []any) []error) func(ctx context.Context, items []any) []error {
	return func(ctx context.Context, items []any) []error {
		inner := make([]any, len(items))
		for i, it := range items {
			inner[i] = it.(catalogItem).item
		}
		errs := run(ctx, inner)
		for i, it := range items {
			if d := it.(catalogItem).describe; errs[i] == nil && d != nil {
				errs[i] = d(ctx)
			}
		}
		return errs
	}
}
