package service

import (
	"context"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// describeLimit bounds the topic descriptions a plan or an export has in
// flight: each topic's settings are one request.
const describeLimit = 8

// describe reads the settings of existing topics, a few at a time.
func (s *Declarations) describe(ctx context.Context, call *gate.Call, obs *observed, names []string) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(describeLimit)
	var mu sync.Mutex
	for _, name := range names {
		g.Go(func() error {
			d, err := s.topics.detail(gctx, call, name, false)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			obs.details[name] = d
			return nil
		})
	}
	return g.Wait()
}

// observed is the unit's upstream state: one list per kind the document
// needs, and the settings of the topics it declares.
type observed struct {
	details    map[string]portal.TopicDetail
	topics     []platform.TopicInfo
	schemas    map[string]portal.SchemaVersion
	connectors []platform.Connector
	accounts   []platform.ServiceAccount
	pools      []platform.IdentityPool
}

func (s *Declarations) observe(ctx context.Context, call *gate.Call, kinds map[string]bool) (*observed, error) {
	obs := &observed{schemas: map[string]portal.SchemaVersion{}, details: map[string]portal.TopicDetail{}}
	var err error
	if kinds[portal.KindTopic] || kinds[portal.KindSchema] || kinds[portal.KindConnector] {
		if obs.topics, err = call.Env.Topics.ListTopics(ctx); err != nil {
			return nil, err
		}
	}
	if kinds[portal.KindSchema] {
		latest, err := call.Env.Schemas.ListSchemas(ctx, call.Scope.Prefix(), true)
		if err != nil {
			return nil, err
		}
		for _, v := range latest {
			obs.schemas[v.Subject] = v
		}
	}
	if kinds[portal.KindConnector] {
		if obs.connectors, err = call.Env.Connectors.ListConnectors(ctx); err != nil {
			return nil, err
		}
	}
	if kinds[portal.KindServiceAccount] {
		if obs.accounts, err = call.Env.IAM.ListServiceAccounts(ctx); err != nil {
			return nil, err
		}
	}
	if kinds[portal.KindIdentityPool] {
		if obs.pools, err = call.Env.Pools.ListPools(ctx); err != nil {
			return nil, err
		}
	}
	return obs, nil
}

func (o *observed) topic(name string) (platform.TopicInfo, bool) {
	i, found := slices.BinarySearchFunc(o.topics, name, func(t platform.TopicInfo, n string) int { return strings.Compare(t.Name, n) })
	if !found {
		return platform.TopicInfo{}, false
	}
	return o.topics[i], true
}

func (o *observed) connector(name string) (platform.Connector, bool) {
	for _, c := range o.connectors {
		if c.Name == name {
			return c, true
		}
	}
	return platform.Connector{}, false
}
