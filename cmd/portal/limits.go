package main

import (
	"context"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform/confluent"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// clusterLimits gives each zone stage's cluster partition limit: the
// configuration's, else Confluent Cloud's Service Quotas API's, read at
// most every ten minutes (a failed read is tried again after one).
type clusterLimits struct {
	quotas     *confluent.Quotas
	configured map[portal.ZoneStage]int64
	ids        map[portal.ZoneStage][2]string // environment id, cluster id

	mu    sync.Mutex
	known map[portal.ZoneStage]knownLimit
}

type knownLimit struct {
	limit int64
	until time.Time
}

func newClusterLimits(quotas *confluent.Quotas) *clusterLimits {
	return &clusterLimits{quotas: quotas, configured: map[portal.ZoneStage]int64{}, ids: map[portal.ZoneStage][2]string{}, known: map[portal.ZoneStage]knownLimit{}}
}

// add records a zone stage's configured limit and cluster.
func (c *clusterLimits) add(zone, stage string, limit int64, environmentID, clusterID string) {
	key := portal.ZoneStage{Zone: zone, Stage: stage}
	c.configured[key] = limit
	c.ids[key] = [2]string{environmentID, clusterID}
}

// Limit is guardrails.ClusterLimit.
func (c *clusterLimits) Limit(ctx context.Context, zone, stage string) (int64, string) {
	key := portal.ZoneStage{Zone: zone, Stage: stage}
	if l := c.configured[key]; l > 0 {
		return l, "configuration"
	}
	ids := c.ids[key]
	if c.quotas == nil || ids[1] == "" {
		return 0, ""
	}
	const source = "Confluent Cloud Service Quotas API"
	c.mu.Lock()
	k, ok := c.known[key]
	c.mu.Unlock()
	if ok && time.Now().Before(k.until) {
		return k.limit, source
	}
	limit, err := c.quotas.ClusterPartitionLimit(ctx, ids[0], ids[1])
	next := knownLimit{limit: limit, until: time.Now().Add(10 * time.Minute)}
	if err != nil {
		next = knownLimit{limit: k.limit, until: time.Now().Add(time.Minute)}
	}
	c.mu.Lock()
	c.known[key] = next
	c.mu.Unlock()
	if next.limit == 0 {
		return 0, ""
	}
	return next.limit, source
}
