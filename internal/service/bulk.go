package service

import (
	"context"
	"fmt"
	"sync"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/fault"
	"github.com/edh-platform/rms-portal/internal/platform"
)

// BulkResult is the outcome of one item of a bulk create: the account
// created, or the error it would have had alone (ALREADY_EXISTS, ...).
type BulkResult struct {
	Index int
	Item  *ServiceAccount
	Error *fault.Error
}

// bulkWorkers bounds the accounts created at once: each takes several
// sequential upstream calls (the account, then its role bindings), and
// Confluent Cloud throttles IAM requests.
const bulkWorkers = 4

// BulkCreate creates several service accounts. Every item is validated
// first: if any is invalid nothing is created and the error names each bad
// item by index and field. Otherwise the items are created, a few at a
// time; one failing does not stop the others, and an account that exists
// already is reported, not created again, so the same request can be
// repeated. report, when not nil, is called with each result as it is
// known (one call at a time), so that a page can show progress.
func (s *ServiceAccounts) BulkCreate(ctx context.Context, bu, stage string, items []NewServiceAccount, report func(BulkResult)) ([]BulkResult, error) {
	call, err := s.guard.Enter(ctx, bu, stage, access.ManageIdentity, "create service accounts")
	if err != nil {
		return nil, err
	}
	var v fault.Validation
	switch {
	case len(items) == 0:
		v.Add(fault.Missing("items"))
	case len(items) > MaxBulk:
		v.Add(fault.Invalid("items", "at most %d items per request, not %d", MaxBulk, len(items)))
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
			v.Add(fault.Invalid(field+"name", "%s is the same account as items[%d]", names[i], j))
		} else {
			first[names[i]] = i
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	existing, err := call.Env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return nil, err
	}
	results := make([]BulkResult, len(items))
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(bulkWorkers, len(items)) {
		wg.Go(func() {
			for i := range next {
				r := s.createItem(ctx, call, i, names[i], items[i], existing)
				mu.Lock()
				results[i] = r
				if report != nil {
					report(r)
				}
				mu.Unlock()
			}
		})
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	return results, nil
}

// createItem creates one item of a bulk create and says how it went.
func (s *ServiceAccounts) createItem(ctx context.Context, call *Call, i int, name string, in NewServiceAccount, existing []platform.ServiceAccount) BulkResult {
	a, err := s.create(ctx, call, name, in, existing)
	if err != nil {
		e := &fault.Error{Kind: fault.KindOf(err), Message: firstMessage(err)}
		if e.Kind == fault.Internal {
			e.Message = "internal error"
		}
		return BulkResult{Index: i, Error: e}
	}
	return BulkResult{Index: i, Item: &a}
}
