package topics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/metric"
	"github.com/edh-platform/rms-portal/internal/store"
)

// MetricCache answers chart queries from the Confluent Cloud Metrics API
// through the store. The API is rate-limited per organisation, so one
// answer serves every replica and every viewer until its newest bucket
// has moved on; concurrent askers on one replica share one call; and when
// the API refuses (rate limit) or is unreachable, the last answer is shown
// with its age.
type MetricCache struct {
	store store.MetricResults
	log   *slog.Logger
	now   func() time.Time
	// timeout bounds one query (all its pages), whoever waits for it.
	timeout time.Duration
	// limit is the groups a page of an answer holds (the API's most,
	// 1,000).
	limit  int
	flight singleflight.Group
}

// NewMetricCache returns a cache over s.
func NewMetricCache(s store.MetricResults, log *slog.Logger) *MetricCache {
	return &MetricCache{store: s, log: log, now: time.Now, timeout: 10 * time.Second, limit: 1000}
}

// SetClock replaces the clock, for tests.
func (m *MetricCache) SetClock(now func() time.Time) { m.now = now }

// metricAnswer is what the store keeps of one query: the window asked and
// the points answered.
type metricAnswer struct {
	Start  time.Time              `json:"start"`
	End    time.Time              `json:"end"`
	Points []platform.MetricPoint `json:"points"`
}

// answer is one query's answer as a chart needs it.
type answer struct {
	metricAnswer
	fetched time.Time
	// stale is why an older answer stands in for a fresh one.
	stale string
}

// cacheKey names a query independently of the time it is asked, so that
// an answer is found again until it is no longer fresh.
func cacheKey(env string, q platform.MetricQuery, r metric.MetricRange) string {
	var b strings.Builder
	fmt.Fprintf(&b, "v1|%s|%s|%s|%s|%s|%s", env, q.ClusterID, q.Metric, r.Name, q.Granularity, strings.Join(q.GroupBy, ","))
	for _, k := range slices.Sorted(maps.Keys(q.Filters)) {
		fmt.Fprintf(&b, "|%s=%s", k, q.Filters[k])
	}
	return b.String()
}

// window is the range ending with the bucket that holds now: the newest
// bucket is partial, and rates divide it by the time it has covered.
func window(now time.Time, r metric.MetricRange) (time.Time, time.Time) {
	end := now.UTC().Truncate(r.Step).Add(r.Step)
	return end.Add(-r.Span), end
}

// get returns the answer to q over r: the stored one while its newest
// bucket is still the current one, else a new one from the API, else the
// stored one marked stale when the API refuses or is unreachable.
func (m *MetricCache) get(ctx context.Context, env *platform.Environment, q platform.MetricQuery, r metric.MetricRange) (answer, error) {
	key := cacheKey(env.Name(), q, r)
	now := m.now()
	stored, fetched, err := m.load(ctx, key)
	switch {
	case err == nil && now.Sub(fetched) < r.Step && !now.Before(fetched):
		return answer{metricAnswer: stored, fetched: fetched}, nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		// A database fault: the API can still answer.
		m.log.WarnContext(ctx, "reading a stored metrics answer failed", "error", err)
	}
	// No answer, or one two minutes past its step, goes first.
	q.Urgent = err != nil || now.Sub(fetched) >= r.Step+2*time.Minute
	if err == nil {
		q.ExpectPages = pagesOf(stored.Points, q)
	}
	v, err, _ := m.flight.Do(key, func() (any, error) {
		// The call is shared: one asker leaving must not cancel it.
		qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.timeout)
		defer cancel()
		q.Start, q.End = window(m.now(), r)
		points, err := env.Metrics.QueryMetric(qctx, q)
		if err != nil {
			return nil, err
		}
		a := metricAnswer{Start: q.Start, End: q.End, Points: points}
		at := m.now()
		if body, err := json.Marshal(a); err == nil {
			if err := m.store.PutMetricResult(qctx, key, body, at); err != nil {
				m.log.WarnContext(qctx, "storing a metrics answer failed", "error", err)
			}
		}
		return answer{metricAnswer: a, fetched: at}, nil
	})
	if err == nil {
		return v.(answer), nil
	}
	if !fetched.IsZero() && staleWorthy(err) {
		return answer{metricAnswer: stored, fetched: fetched, stale: staleReason(err)}, nil
	}
	return answer{}, err
}

// pagesOf is how many pages the API took for an answer: its groups (label
// values) by the query's limit.
func pagesOf(points []platform.MetricPoint, q platform.MetricQuery) int {
	if len(q.GroupBy) == 0 || q.Limit <= 0 {
		return 1
	}
	groups := map[string]bool{}
	for _, p := range points {
		var b strings.Builder
		for _, g := range q.GroupBy {
			b.WriteString(p.Labels[g] + "|")
		}
		groups[b.String()] = true
	}
	return max(1, (len(groups)+q.Limit-1)/q.Limit)
}

func (m *MetricCache) load(ctx context.Context, key string) (metricAnswer, time.Time, error) {
	body, at, err := m.store.MetricResult(ctx, key)
	if err != nil {
		return metricAnswer{}, time.Time{}, err
	}
	var a metricAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		return metricAnswer{}, time.Time{}, fmt.Errorf("a stored metrics answer: %w", err)
	}
	return a, at, nil
}

// staleWorthy tells the refusals for which old values beat no values.
func staleWorthy(err error) bool {
	switch portal.KindOf(err) {
	case portal.RateLimited, portal.UpstreamUnavailable, portal.UpstreamTimeout:
		return true
	}
	return false
}

func staleReason(err error) string {
	if portal.KindOf(err) == portal.RateLimited {
		return "the Metrics API's rate limit for the organisation was reached"
	}
	return "the Metrics API did not answer"
}

// chartQuery is one query behind a chart series.
type chartQuery struct {
	chart, series string
	metric        string
	// rate divides counters by the seconds of their bucket.
	rate bool
	// perLabel draws one series per value of this label (consumer groups)
	// instead of one summed series.
	perLabel string
}

// chartSpec describes a chart before it has data.
type chartSpec struct{ id, title, unit string }

var chartSpecs = []chartSpec{
	{"bytes", "Bytes in and out", metric.UnitBytesPerSecond},
	{"records", "Records in and out", metric.UnitRecordsPerSecond},
	{"retained", "Retained bytes", metric.UnitBytes},
	{"lag", "Consumer lag", metric.UnitRecords},
}

var chartQueries = []chartQuery{
	{chart: "bytes", series: "in", metric: platform.MetricReceivedBytes, rate: true},
	{chart: "bytes", series: "out", metric: platform.MetricSentBytes, rate: true},
	{chart: "records", series: "in", metric: platform.MetricReceivedRecords, rate: true},
	{chart: "records", series: "out", metric: platform.MetricSentRecords, rate: true},
	{chart: "retained", series: "retained", metric: platform.MetricRetainedBytes},
	{chart: "lag", metric: platform.MetricConsumerLag, perLabel: platform.LabelGroup},
}

// maxLagSeries bounds the groups a lag chart draws: the largest lags.
const maxLagSeries = 8

// chartScope says which topics and groups a page's charts add up.
type chartScope struct {
	// topic, when set, is the one topic of a topic page.
	topic string
	// owns tells whether a topic or group counts (the unit's prefix, or
	// everything for a whole-cluster view).
	owns func(name string) bool
}

// keeps tells whether a topic's points count: the page's one topic, or
// the topics the scope owns.
func (sc chartScope) keeps(topic string) bool {
	if sc.topic != "" {
		return topic == sc.topic
	}
	return sc.owns(topic)
}

// charts draws the charts of a scope over r, asking the API (or the
// cache) for every query side by side.
func (m *MetricCache) charts(ctx context.Context, env *platform.Environment, r metric.MetricRange, sc chartScope) metric.Charts {
	out := metric.Charts{Range: r, Source: "Confluent Cloud Metrics API"}
	out.Start, out.End = window(m.now(), r)
	answers := make([]answer, len(chartQueries))
	errs := make([]error, len(chartQueries))
	if env.ClusterID == "" {
		// Nothing to ask the API about: spare its rate limit.
		for i := range errs {
			errs[i] = portal.New(portal.UpstreamUnavailable, "the Confluent Cloud id of the cluster of %s is not configured (kafka_cluster_id)", env.Name())
		}
	}
	var wg sync.WaitGroup
	for i, cq := range chartQueries {
		if errs[i] != nil {
			continue
		}
		// Every page of a cluster asks the same queries, grouped by topic
		// (and by group for lag), whatever unit or topic it shows: one
		// answer a step serves all of them, and the Metrics API's budget
		// does not grow with the topics people look at.
		q := platform.MetricQuery{Metric: cq.metric, ClusterID: env.ClusterID, Granularity: r.Granularity, Limit: m.limit,
			GroupBy: []string{platform.LabelTopic}}
		if cq.perLabel != "" {
			q.GroupBy = []string{cq.perLabel, platform.LabelTopic}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], errs[i] = m.get(ctx, env, q, r)
		}()
	}
	wg.Wait()
	for _, spec := range chartSpecs {
		c := metric.Chart{ID: spec.id, Title: spec.title, Unit: spec.unit}
		for i, cq := range chartQueries {
			if cq.chart != spec.id {
				continue
			}
			if errs[i] != nil {
				c.Series, c.Unavailable = nil, unavailableReason(errs[i])
				break
			}
			a := answers[i]
			if a.stale != "" && out.Stale == "" {
				out.Stale = a.stale
			}
			if out.FetchedAt.IsZero() || a.fetched.Before(out.FetchedAt) {
				out.FetchedAt = a.fetched
			}
			if cq.perLabel != "" {
				c.Series, c.More = labelSeries(a, cq.perLabel, sc, r)
			} else {
				c.Series = append(c.Series, metric.Series{Name: cq.series, Points: sumSeries(a, sc, r, cq.rate)})
			}
		}
		out.Charts = append(out.Charts, c)
	}
	return out
}

func unavailableReason(err error) string {
	var e *portal.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "the Metrics API failed"
}

// sumSeries adds up the scope's points per bucket. Counters get every
// bucket of the window (the API leaves out empty ones); rates divide by
// the seconds each bucket covered, the newest only up to when it was
// fetched.
func sumSeries(a answer, sc chartScope, r metric.MetricRange, rate bool) []metric.Point {
	sums := map[int64]float64{}
	for _, p := range a.Points {
		if !sc.keeps(p.Labels[platform.LabelTopic]) {
			continue
		}
		sums[p.At.Unix()] += p.Value
	}
	var out []metric.Point
	if !rate {
		for _, at := range slices.Sorted(maps.Keys(sums)) {
			out = append(out, metric.Point{At: time.Unix(at, 0).UTC(), Value: sums[at]})
		}
		return out
	}
	for at := a.Start; at.Before(a.End); at = at.Add(r.Step) {
		secs := r.Step.Seconds()
		if covered := a.fetched.Sub(at).Seconds(); covered < secs {
			if covered < 1 {
				break
			}
			secs = covered
		}
		out = append(out, metric.Point{At: at, Value: sums[at.Unix()] / secs})
	}
	return out
}

// labelSeries draws one series per label value the scope owns, the
// largest (by their newest value) first, and counts the rest.
func labelSeries(a answer, label string, sc chartScope, r metric.MetricRange) ([]metric.Series, int) {
	// Points come per label value and topic: a group's lag is the sum
	// over the topics the scope keeps.
	byName := map[string]map[int64]float64{}
	for _, p := range a.Points {
		name := p.Labels[label]
		if name == "" || !sc.owns(name) || (sc.topic != "" && p.Labels[platform.LabelTopic] != sc.topic) {
			continue
		}
		if byName[name] == nil {
			byName[name] = map[int64]float64{}
		}
		byName[name][p.At.Unix()] += p.Value
	}
	var out []metric.Series
	for name, sums := range byName {
		var pts []metric.Point
		for _, at := range slices.Sorted(maps.Keys(sums)) {
			pts = append(pts, metric.Point{At: time.Unix(at, 0).UTC(), Value: sums[at]})
		}
		out = append(out, metric.Series{Name: name, Points: pts})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Last() != out[j].Last() {
			return out[i].Last() > out[j].Last()
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > maxLagSeries {
		return out[:maxLagSeries], len(out) - maxLagSeries
	}
	return out, 0
}

// scopeOf is the chart scope of a call: the unit's prefix, or everything
// but internal topics for a whole-cluster view.
func scopeOf(call *gate.Call) chartScope {
	if call.WholeCluster {
		return chartScope{owns: func(name string) bool { return !strings.HasPrefix(name, "_") }}
	}
	return chartScope{owns: call.Scope.Owns}
}
