package service

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/contract"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/search"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
)

// findPerKind is how many hits of each kind a search answers: enough to
// pick from as one types.
const findPerKind = 5

// findWait bounds each kind's search: the box answers with what came in
// time and names the kinds that did not.
const findWait = 1500 * time.Millisecond

// Finder searches a unit's resources of every kind at once, through each
// kind's own list (the same access, naming and paging rules; the topic
// list from the shared cached listing).
type Finder struct {
	guard      *gate.Guard
	topics     topic.TopicService
	connectors connect.ConnectorService
	schemas    schema.SchemaService
	accounts   iam.AccountService
	pools      iam.PoolService
	groups     group.GroupService
}

var _ search.FindService = (*Finder)(nil)

// NewFinder returns the search over the services of each kind.
func NewFinder(g *gate.Guard, s contract.Services) *Finder {
	return &Finder{guard: g, topics: s.Topics, connectors: s.Connectors, schemas: s.Schemas, accounts: s.Accounts, pools: s.Pools, groups: s.Groups}
}

// Find searches each kind side by side.
func (f *Finder) Find(ctx context.Context, scope portal.Scope, q string) (search.FindResult, error) {
	ctx, _, err := f.guard.Enter(ctx, scope, access.Read, "search")
	if err != nil {
		return search.FindResult{}, err
	}
	q = strings.TrimSpace(q)
	switch {
	case q == "":
		return search.FindResult{}, portal.Missing("q")
	case len(q) > 256:
		return search.FindResult{}, portal.Invalid("q", "a search is at most 256 characters")
	}
	lq := portal.ListQuery{Search: q, PageSize: findPerKind}
	searches := map[string]func(ctx context.Context) ([]search.FindHit, error){
		search.FindTopic: func(ctx context.Context) ([]search.FindHit, error) {
			p, err := f.topics.List(ctx, scope, lq)
			return hits(p.Items, err, func(t topic.Topic) search.FindHit { return search.FindHit{Key: t.Name, Label: t.Name} })
		},
		search.FindConsumerGroup: func(ctx context.Context) ([]search.FindHit, error) {
			p, err := f.groups.List(ctx, scope, lq)
			return hits(p.Items, err, func(g group.ConsumerGroup) search.FindHit { return search.FindHit{Key: g.ID, Label: g.ID} })
		},
		search.FindConnector: func(ctx context.Context) ([]search.FindHit, error) {
			p, err := f.connectors.List(ctx, scope, lq)
			return hits(p.Items, err, func(c connect.Connector) search.FindHit { return search.FindHit{Key: c.Name, Label: c.Name} })
		},
		search.FindSubject: func(ctx context.Context) ([]search.FindHit, error) {
			p, err := f.schemas.List(ctx, scope, true, lq)
			return hits(p.Items, err, func(v schema.SchemaVersion) search.FindHit { return search.FindHit{Key: v.Subject, Label: v.Subject} })
		},
		search.FindServiceAccount: func(ctx context.Context) ([]search.FindHit, error) {
			p, err := f.accounts.List(ctx, scope, lq)
			return hits(p.Items, err, func(a iam.ServiceAccount) search.FindHit { return search.FindHit{Key: a.ID, Label: a.Name} })
		},
		search.FindIdentityPool: func(ctx context.Context) ([]search.FindHit, error) {
			p, err := f.pools.List(ctx, scope, lq)
			return hits(p.Items, err, func(p iam.Pool) search.FindHit { return search.FindHit{Key: p.ID, Label: p.Name} })
		},
	}
	found := map[string][]search.FindHit{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for kind, search := range searches {
		wg.Go(func() {
			kctx, cancel := context.WithTimeout(ctx, findWait)
			defer cancel()
			hs, err := search(kctx)
			mu.Lock()
			defer mu.Unlock()
			switch k := portal.KindOf(err); {
			case err == nil:
			case k == portal.UpstreamUnavailable || k == portal.UpstreamTimeout || kctx.Err() != nil:
				found[kind] = nil // could not look: said so
				return
			default:
				return // not for this caller or stage (no registry, a role): nothing to find
			}
			for i := range hs {
				hs[i].Kind = kind
			}
			found[kind] = hs
		})
	}
	wg.Wait()
	var out search.FindResult
	for _, kind := range search.FindKinds() {
		hs, ok := found[kind]
		if ok && hs == nil {
			out.Unavailable = append(out.Unavailable, kind)
		}
		out.Hits = append(out.Hits, hs...)
	}
	return out, nil
}

// hits turns one kind's page into hits; an empty page is an empty, non-nil
// list (nil means the kind could not be searched).
func hits[T any](items []T, err error, hit func(T) search.FindHit) ([]search.FindHit, error) {
	if err != nil {
		return nil, err
	}
	out := make([]search.FindHit, 0, len(items))
	for _, it := range items {
		out = append(out, hit(it))
	}
	return out, nil
}
