// Package reads answers a Terraform refresh through the portal's lists,
// each asked once per unit and stage while fresh, rather than an item
// read per resource.
package reads

import (
	"context"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Fresh is how long a list read answers the resources of one
// refresh: a refresh reads every resource of a unit within seconds, and
// a write through this provider drops its unit's reads at once.
const Fresh = 20 * time.Second

// Reads answers a refresh through lists, not an item read per resource:
// the unit's export (every declared kind with its settings, one request
// however many topics) and the lists that hold what the export does not
// say (ids, states). Each is asked once per unit and stage while fresh,
// however many resources want it at once.
type Reads struct {
	api *client.Client
	now func() time.Time

	mu      sync.Mutex
	entries map[readKey]*readEntry
}

type readKey struct{ bu, stage, what string }

type readEntry struct {
	done chan struct{}
	at   time.Time
	val  any
	err  error
}

// New returns the reads of a provider that asks api.
func New(api *client.Client) *Reads {
	return &Reads{api: api, now: time.Now, entries: map[readKey]*readEntry{}}
}

// Get answers what from the memo, or asks it once (others wait for the
// one ask).
func (r *Reads) Get(ctx context.Context, bu, stage, what string, ask func(context.Context) (any, error)) (any, error) {
	k := readKey{bu, stage, what}
	r.mu.Lock()
	e, ok := r.entries[k]
	if ok {
		select {
		case <-e.done:
			if e.err != nil || r.now().Sub(e.at) > Fresh {
				ok = false
			}
		default:
		}
	}
	if !ok {
		e = &readEntry{done: make(chan struct{})}
		r.entries[k] = e
		r.mu.Unlock()
		e.val, e.err = ask(ctx)
		e.at = r.now()
		close(e.done)
		return e.val, e.err
	}
	r.mu.Unlock()
	select {
	case <-e.done:
		return e.val, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Forget drops a unit's reads in a stage: a write changed them.
func (r *Reads) Forget(bu, stage string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.entries {
		if k.bu == bu && k.stage == stage {
			delete(r.entries, k)
		}
	}
}

// Item is the exported declaration of a kind's resource by name.
func (r *Reads) Item(ctx context.Context, bu, stage, kind, name string) (wire.DocumentItem, bool, error) {
	v, err := r.Get(ctx, bu, stage, "export", func(ctx context.Context) (any, error) {
		doc, _, err := r.api.ExportResources(ctx, bu, stage, nil)
		if err != nil {
			return nil, err
		}
		byName := map[string]wire.DocumentItem{}
		for _, it := range doc.Items {
			byName[it.Kind+"/"+it.Metadata.Name] = it
		}
		return byName, nil
	})
	if err != nil {
		return wire.DocumentItem{}, false, err
	}
	it, ok := v.(map[string]wire.DocumentItem)[kind+"/"+name]
	return it, ok, nil
}

// All pages through a list: page asks one page after a token.
func All[T any](ctx context.Context, page func(ctx context.Context, token string) (wire.List[T], error)) ([]T, error) {
	var out []T
	token := ""
	for {
		l, err := page(ctx, token)
		if err != nil {
			return nil, err
		}
		out = append(out, l.Items...)
		if l.NextPageToken == "" || l.NextPageToken == token {
			return out, nil
		}
		token = l.NextPageToken
	}
}

// Listed is a list read through the memo, whole.
func Listed[T any](ctx context.Context, r *Reads, bu, stage, what string, page func(ctx context.Context, token string) (wire.List[T], error)) ([]T, error) {
	v, err := r.Get(ctx, bu, stage, what, func(ctx context.Context) (any, error) { return All(ctx, page) })
	if err != nil {
		return nil, err
	}
	return v.([]T), nil
}

// Topics are the unit's topics (for their full names).
func (r *Reads) Topics(ctx context.Context, bu, stage string) ([]wire.Topic, error) {
	return Listed(ctx, r, bu, stage, "topics", func(ctx context.Context, token string) (wire.TopicList, error) {
		l, _, err := r.api.ListTopics(ctx, bu, stage, &client.ListTopicsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// Accounts are the unit's service accounts (for their ids).
func (r *Reads) Accounts(ctx context.Context, bu, stage string) ([]wire.ServiceAccount, error) {
	return Listed(ctx, r, bu, stage, "accounts", func(ctx context.Context, token string) (wire.ServiceAccountList, error) {
		l, _, err := r.api.ListServiceAccounts(ctx, bu, stage, &client.ListServiceAccountsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// Pools are the unit's identity pools (for their ids).
func (r *Reads) Pools(ctx context.Context, bu, stage string) ([]wire.IdentityPool, error) {
	return Listed(ctx, r, bu, stage, "pools", func(ctx context.Context, token string) (wire.IdentityPoolList, error) {
		l, _, err := r.api.ListIdentityPools(ctx, bu, stage, &client.ListIdentityPoolsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// Connectors are the unit's connectors with their state and auto-restart.
func (r *Reads) Connectors(ctx context.Context, bu, stage string) ([]wire.Connector, error) {
	return Listed(ctx, r, bu, stage, "connectors", func(ctx context.Context, token string) (wire.ConnectorList, error) {
		l, _, err := r.api.ListConnectors(ctx, bu, stage, &client.ListConnectorsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// Keys are the unit's API keys.
func (r *Reads) Keys(ctx context.Context, bu, stage string) ([]wire.APIKey, error) {
	return Listed(ctx, r, bu, stage, "keys", func(ctx context.Context, token string) (wire.APIKeyList, error) {
		l, _, err := r.api.ListAPIKeys(ctx, bu, stage, &client.ListAPIKeysParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// Grants are the unit's grants, asked and given.
func (r *Reads) Grants(ctx context.Context, bu, stage string) ([]wire.Grant, error) {
	return Listed(ctx, r, bu, stage, "grants", func(ctx context.Context, token string) (wire.GrantList, error) {
		l, _, err := r.api.ListGrants(ctx, bu, stage, &client.ListGrantsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// Channels are the unit's alert channels.
func (r *Reads) Channels(ctx context.Context, bu, stage string) ([]wire.AlertChannel, error) {
	return Listed(ctx, r, bu, stage, "channels", func(ctx context.Context, _ string) (wire.AlertChannelList, error) {
		l, _, err := r.api.ListAlertChannels(ctx, bu, stage)
		return l, err
	})
}
