package tfprovider

import (
	"context"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// readsFresh is how long a list read answers the resources of one
// refresh: a refresh reads every resource of a unit within seconds, and
// a write through this provider drops its unit's reads at once.
const readsFresh = 20 * time.Second

// reads answers a refresh through lists, not an item read per resource:
// the unit's export (every declared kind with its settings, one request
// however many topics) and the lists that hold what the export does not
// say (ids, states). Each is asked once per unit and stage while fresh,
// however many resources want it at once.
type reads struct {
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

func newReads(api *client.Client) *reads {
	return &reads{api: api, now: time.Now, entries: map[readKey]*readEntry{}}
}

// get answers what from the memo, or asks it once (others wait for the
// one ask).
func (r *reads) get(ctx context.Context, bu, stage, what string, ask func(context.Context) (any, error)) (any, error) {
	k := readKey{bu, stage, what}
	r.mu.Lock()
	e, ok := r.entries[k]
	if ok {
		select {
		case <-e.done:
			if e.err != nil || r.now().Sub(e.at) > readsFresh {
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

// forget drops a unit's reads in a stage: a write changed them.
func (r *reads) forget(bu, stage string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.entries {
		if k.bu == bu && k.stage == stage {
			delete(r.entries, k)
		}
	}
}

// item is the exported declaration of a kind's resource by name.
func (r *reads) item(ctx context.Context, bu, stage, kind, name string) (wire.DocumentItem, bool, error) {
	v, err := r.get(ctx, bu, stage, "export", func(ctx context.Context) (any, error) {
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

// all pages through a list: page asks one page after a token.
func all[T any](ctx context.Context, page func(ctx context.Context, token string) (wire.List[T], error)) ([]T, error) {
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

// listed is a list read through the memo, whole.
func listed[T any](ctx context.Context, r *reads, bu, stage, what string, page func(ctx context.Context, token string) (wire.List[T], error)) ([]T, error) {
	v, err := r.get(ctx, bu, stage, what, func(ctx context.Context) (any, error) { return all(ctx, page) })
	if err != nil {
		return nil, err
	}
	return v.([]T), nil
}

// topics are the unit's topics (for their full names).
func (r *reads) topics(ctx context.Context, bu, stage string) ([]wire.Topic, error) {
	return listed(ctx, r, bu, stage, "topics", func(ctx context.Context, token string) (wire.TopicList, error) {
		l, _, err := r.api.ListTopics(ctx, bu, stage, &client.ListTopicsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// accounts are the unit's service accounts (for their ids).
func (r *reads) accounts(ctx context.Context, bu, stage string) ([]wire.ServiceAccount, error) {
	return listed(ctx, r, bu, stage, "accounts", func(ctx context.Context, token string) (wire.ServiceAccountList, error) {
		l, _, err := r.api.ListServiceAccounts(ctx, bu, stage, &client.ListServiceAccountsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// pools are the unit's identity pools (for their ids).
func (r *reads) pools(ctx context.Context, bu, stage string) ([]wire.IdentityPool, error) {
	return listed(ctx, r, bu, stage, "pools", func(ctx context.Context, token string) (wire.IdentityPoolList, error) {
		l, _, err := r.api.ListIdentityPools(ctx, bu, stage, &client.ListIdentityPoolsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// connectors are the unit's connectors with their state and auto-restart.
func (r *reads) connectors(ctx context.Context, bu, stage string) ([]wire.Connector, error) {
	return listed(ctx, r, bu, stage, "connectors", func(ctx context.Context, token string) (wire.ConnectorList, error) {
		l, _, err := r.api.ListConnectors(ctx, bu, stage, &client.ListConnectorsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// keys are the unit's API keys.
func (r *reads) keys(ctx context.Context, bu, stage string) ([]wire.APIKey, error) {
	return listed(ctx, r, bu, stage, "keys", func(ctx context.Context, token string) (wire.APIKeyList, error) {
		l, _, err := r.api.ListAPIKeys(ctx, bu, stage, &client.ListAPIKeysParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// grants are the unit's grants, asked and given.
func (r *reads) grants(ctx context.Context, bu, stage string) ([]wire.Grant, error) {
	return listed(ctx, r, bu, stage, "grants", func(ctx context.Context, token string) (wire.GrantList, error) {
		l, _, err := r.api.ListGrants(ctx, bu, stage, &client.ListGrantsParams{PageSize: 1000, PageToken: token})
		return l, err
	})
}

// channels are the unit's alert channels.
func (r *reads) channels(ctx context.Context, bu, stage string) ([]wire.AlertChannel, error) {
	return listed(ctx, r, bu, stage, "channels", func(ctx context.Context, _ string) (wire.AlertChannelList, error) {
		l, _, err := r.api.ListAlertChannels(ctx, bu, stage)
		return l, err
	})
}
