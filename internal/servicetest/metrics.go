package servicetest

import (
	"context"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// Metrics is a Metrics API over points a test puts in: it filters by the
// query's labels, keeps the points of its window and adds them up per
// timestamp and grouped label. It counts the queries it answers, and
// fails with Fail when set.
type Metrics struct {
	mu      sync.Mutex
	points  map[string][]platform.MetricPoint // by cluster id + metric
	queries int
	fail    error
}

// NewMetrics returns an empty Metrics API.
func NewMetrics() *Metrics { return &Metrics{points: map[string][]platform.MetricPoint{}} }

// Put adds a point of a metric of a cluster.
func (m *Metrics) Put(clusterID, metric string, at time.Time, v float64, labels map[string]string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := clusterID + "|" + metric
	m.points[k] = append(m.points[k], platform.MetricPoint{At: at.UTC(), Value: v, Labels: labels})
}

// Fail makes every query fail with err (nil: answer again).
func (m *Metrics) Fail(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fail = err
}

// Queries counts the queries asked so far.
func (m *Metrics) Queries() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.queries
}

// QueryMetric implements platform.CloudMetrics.
func (m *Metrics) QueryMetric(_ context.Context, q platform.MetricQuery) ([]platform.MetricPoint, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.queries++
	if m.fail != nil {
		return nil, m.fail
	}
	sums := map[string]*platform.MetricPoint{}
	var order []string
next:
	for _, p := range m.points[q.ClusterID+"|"+q.Metric] {
		if p.At.Before(q.Start) || !p.At.Before(q.End) {
			continue
		}
		for k, v := range q.Filters {
			if p.Labels[k] != v {
				continue next
			}
		}
		labels := map[string]string{}
		key := p.At.Format(time.RFC3339)
		for _, g := range q.GroupBy {
			labels[g] = p.Labels[g]
			key += "|" + p.Labels[g]
		}
		if s, ok := sums[key]; ok {
			s.Value += p.Value
			continue
		}
		sums[key] = &platform.MetricPoint{At: p.At, Value: p.Value, Labels: labels}
		order = append(order, key)
	}
	out := make([]platform.MetricPoint, 0, len(order))
	for _, k := range order {
		out = append(out, *sums[k])
	}
	return out, nil
}
