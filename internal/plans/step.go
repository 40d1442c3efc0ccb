package plans

import (
	"context"
	"maps"
	"slices"

	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// Step is one planned change with what applying it takes. The kind that
// plans it fills it in; the plan orders, authorizes and applies it.
type Step struct {
	Change ascode.PlannedChange
	// Key names the resource in the plan ("topic/<full name>").
	Key string
	// Needs are the keys of changes that must succeed before this one.
	Needs []string
	// Frees are the keys of the resources a delete stops using (a
	// connector's topics): their own deletes wait for it.
	Frees []string
	// State is the upstream state the change was planned against, for the
	// fingerprint.
	State string
	// Do makes the change through the kind's service; nil for nothing to
	// do.
	Do func(ctx context.Context) error
	// Issued are the API keys Do made, with their secrets, also when it
	// then failed: they reach the caller of the apply and nothing else.
	Issued []iam.CreatedAPIKey
	// Batch, when set, makes this step together with the plan's other
	// steps of the same batch (Item is this step's part): one request
	// upstream for many. Do stays the way to make it alone.
	Batch *Batch
	Item  any
	// Rule is the change as the platform's guardrails judge it (policies
	// and budgets); nil for a kind they do not cover.
	Rule *rules.Change
	// Impact, for a delete, reads what depends on the resource: live
	// dependants refuse the delete unless the document says force (an
	// Admin's); Force is then set for Do.
	Impact func(ctx context.Context) (portal.Impact, error)
	Force  bool
}

// Batch makes several steps of a kind at once; Run answers one error per
// item, in order (nil for those made).
type Batch struct {
	Key string
	Run func(ctx context.Context, items []any) []error
}

// Diff records a field's before and after (nil: absent), when they
// differ.
func (st *Step) Diff(field string, before, after *string) {
	if before == nil && after == nil || before != nil && after != nil && *before == *after {
		return
	}
	st.Change.Diff = append(st.Change.Diff, ascode.FieldChange{Field: field, Before: before, After: after})
}

// DiffMaps records the differences of two maps, each key as prefix+key.
func (st *Step) DiffMaps(prefix string, before, after map[string]string) {
	keys := slices.Sorted(maps.Keys(before))
	for k := range after {
		if _, ok := before[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		st.Diff(prefix+k, ptrIf(before, k), ptrIf(after, k))
	}
}

// Decide sets the action from the diff: create when the resource is new,
// update when a field differs, unchanged otherwise (nothing to do).
func (st *Step) Decide(exists bool) {
	switch {
	case !exists:
		st.Change.Action = ascode.ActionCreate
	case len(st.Change.Diff) > 0:
		st.Change.Action = ascode.ActionUpdate
	default:
		st.Change.Action = ascode.ActionUnchanged
		st.Do = nil
	}
}

// Ptr is a pointer to s, for diffs.
func Ptr(s string) *string { return &s }

func ptrIf(m map[string]string, k string) *string {
	if v, ok := m[k]; ok {
		return &v
	}
	return nil
}
