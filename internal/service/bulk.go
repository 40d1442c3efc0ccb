package service

import (
	"context"
	"fmt"
	"sync"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// bulkWorkers bounds the accounts created at once: each takes several
// sequential upstream calls (the account, then its role bindings), and
// Confluent Cloud throttles IAM requests.
const bulkWorkers = 4

// BulkCreate creates several service accounts and answers when all are
// done. Every item is validated first: if any is invalid nothing is
// created and the error names each bad item by index and field. Otherwise
// the items are created, a few at a time; one failing does not stop the
// others, and an account that exists already is reported, not created
// again, so the same request can be repeated. report, when not nil, is
// called with each result as it is known (one call at a time).
func (s *ServiceAccounts) BulkCreate(ctx context.Context, scope portal.Scope, items []portal.NewServiceAccount, report func(portal.BulkResult)) ([]portal.BulkResult, error) {
	b, err := s.prepareBulk(ctx, scope, items)
	if err != nil {
		return nil, err
	}
	return b.run(ctx, nil, report)
}

// bulk is a validated batch, ready to run.
type bulk struct {
	s     *ServiceAccounts
	call  *gate.Call
	items []portal.NewServiceAccount
	names []string
}

// prepareBulk authorizes and validates a batch.
func (s *ServiceAccounts) prepareBulk(ctx context.Context, scope portal.Scope, items []portal.NewServiceAccount) (*bulk, error) {
	call, err := s.guard.EnterWrite(ctx, scope, access.ManageIdentity, "create service accounts", "service-account.bulk-create", fmt.Sprintf("%d accounts", len(items)))
	if err != nil {
		return nil, err
	}
	var v portal.Validation
	switch {
	case len(items) == 0:
		v.Add(portal.Missing("items"))
	case len(items) > MaxBulk:
		v.Add(portal.Invalid("items", "at most %d items per request, not %d", MaxBulk, len(items)))
	}
	names := make([]string, len(items))
	first := map[string]int{}
	for i, in := range items {
		field := fmt.Sprintf("items[%d].", i)
		names[i] = s.check(call, in, field, &v)
		if names[i] == "" {
			continue
		}
		if j, dup := first[names[i]]; dup {
			v.Add(portal.Invalid(field+"name", "%s is the same account as items[%d]", names[i], j))
		} else {
			first[names[i]] = i
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return &bulk{s: s, call: call, items: items, names: names}, nil
}

// run creates the items not yet done (skip marks those already done by an
// earlier run of the same job), reporting each outcome.
func (b *bulk) run(ctx context.Context, skip func(int) bool, report func(portal.BulkResult)) ([]portal.BulkResult, error) {
	existing, err := b.call.Env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return nil, err
	}
	results := make([]portal.BulkResult, len(b.items))
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(bulkWorkers, len(b.items)) {
		wg.Go(func() {
			for i := range next {
				r := b.s.createItem(ctx, b.call, i, b.names[i], b.items[i], existing)
				mu.Lock()
				results[i] = r
				if report != nil {
					report(r)
				}
				mu.Unlock()
			}
		})
	}
	for i := range b.items {
		if skip != nil && skip(i) {
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return results, nil
}

// createItem creates one item of a bulk create and says how it went.
func (s *ServiceAccounts) createItem(ctx context.Context, call *gate.Call, i int, name string, in portal.NewServiceAccount, existing []platform.ServiceAccount) portal.BulkResult {
	a, err := s.create(ctx, call, name, in, existing)
	if err != nil {
		return portal.BulkResult{Index: i, Error: portal.ItemError(err)}
	}
	return portal.BulkResult{Index: i, Item: &a}
}
