package cloud

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/clusters"
)

// metricPrefix is the Metrics API's namespace of Kafka server metrics.
const metricPrefix = "io.confluent.kafka.server/"

// granularities are the Metrics API's buckets the stand-in serves.
var granularities = map[string]time.Duration{"PT1M": time.Minute, "PT5M": 5 * time.Minute, "PT15M": 15 * time.Minute,
	"PT30M": 30 * time.Minute, "PT1H": time.Hour, "PT4H": 4 * time.Hour, "PT6H": 6 * time.Hour, "PT12H": 12 * time.Hour, "P1D": 24 * time.Hour}

// AddTelemetry serves a cluster's telemetry under its id (lkc-...).
func (c *CloudAPI) AddTelemetry(clusterID string, t *clusters.Telemetry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.telemetry == nil {
		c.telemetry = map[string]*clusters.Telemetry{}
	}
	c.telemetry[clusterID] = t
}

type metricsFilter struct {
	Field   string          `json:"field"`
	Op      string          `json:"op"`
	Value   any             `json:"value"`
	Filters []metricsFilter `json:"filters"`
}

// metricsQuery serves POST /v2/metrics/cloud/query for the portal's
// queries: one aggregation, EQ filters (alone or under AND) on the
// cluster, topic and consumer group, group_by those labels, an interval
// "start/end" or "start/duration", FLAT answers.
func (c *CloudAPI) metricsQuery(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	down := c.down["metrics"]
	c.mu.Unlock()
	if down {
		writeError(w, http.StatusServiceUnavailable, "the Metrics API is unavailable (stopped stand-in)")
		return
	}
	if wait := c.metricsLimit.take(r, time.Now()); wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		writeError(w, http.StatusTooManyRequests, "rate limit exceeded: 60 requests a minute per source address")
		return
	}
	var q struct {
		Aggregations []struct {
			Metric string `json:"metric"`
		} `json:"aggregations"`
		GroupBy     []string      `json:"group_by"`
		Granularity string        `json:"granularity"`
		Filter      metricsFilter `json:"filter"`
		Intervals   []string      `json:"intervals"`
		Limit       int           `json:"limit"`
	}
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
		writeError(w, http.StatusBadRequest, "the body is not a query: "+err.Error())
		return
	}
	if len(q.Aggregations) != 1 || !strings.HasPrefix(q.Aggregations[0].Metric, metricPrefix) {
		writeError(w, http.StatusBadRequest, "exactly one aggregation of an "+metricPrefix+" metric is supported")
		return
	}
	metric := strings.TrimPrefix(q.Aggregations[0].Metric, metricPrefix)
	step, ok := granularities[q.Granularity]
	if !ok || len(q.Intervals) != 1 {
		writeError(w, http.StatusBadRequest, "granularity and one interval are required")
		return
	}
	start, end, err := interval(q.Intervals[0])
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	// limit bounds the groups of a page: 100 unless said, at most 1,000.
	if q.Limit == 0 {
		q.Limit = 100
	}
	if q.Limit < 1 || q.Limit > 1000 {
		writeError(w, http.StatusBadRequest, "limit must be from 1 to 1000")
		return
	}
	eq := map[string]string{}
	var collect func(f metricsFilter)
	collect = func(f metricsFilter) {
		if f.Op == "EQ" {
			if s, ok := f.Value.(string); ok {
				eq[f.Field] = s
			}
		}
		for _, sub := range f.Filters {
			collect(sub)
		}
	}
	collect(q.Filter)
	c.mu.Lock()
	t := c.telemetry[eq["resource.kafka.id"]]
	c.mu.Unlock()
	data := []map[string]any{}
	if t != nil {
		groupTopic, groupGroup := false, false
		for _, g := range q.GroupBy {
			groupTopic = groupTopic || g == "metric.topic"
			groupGroup = groupGroup || g == "metric.consumer_group_id"
		}
		sums := map[string]map[string]any{}
		for _, p := range t.Query(metric, start, end, step, eq["metric.topic"], eq["metric.consumer_group_id"]) {
			key := p.At.Format(time.RFC3339)
			row := map[string]any{"timestamp": key}
			if groupTopic {
				row["metric.topic"] = p.Topic
				key += "|" + p.Topic
			}
			if groupGroup {
				row["metric.consumer_group_id"] = p.Group
				key += "|" + p.Group
			}
			if prev, ok := sums[key]; ok {
				prev["value"] = prev["value"].(float64) + p.Value
				continue
			}
			row["value"] = p.Value
			sums[key] = row
		}
		for _, row := range sums {
			data = append(data, row)
		}
		sort.Slice(data, func(i, j int) bool { return data[i]["timestamp"].(string) > data[j]["timestamp"].(string) })
	}
	page, next := groupPage(data, q.GroupBy, q.Limit, r.URL.Query().Get("page_token"))
	body := map[string]any{"data": page}
	if next != "" {
		body["meta"] = map[string]any{"pagination": map[string]any{"page_size": q.Limit, "next_page_token": next}}
	}
	writeJSON(w, http.StatusOK, body)
}

// groupPage pages a grouped answer as the Metrics API does: limit groups
// (label combinations) a page, every point of each; the token is where the
// next page starts.
func groupPage(data []map[string]any, groupBy []string, limit int, token string) ([]map[string]any, string) {
	if len(groupBy) == 0 {
		return data, ""
	}
	groupOf := func(row map[string]any) string {
		var b strings.Builder
		for _, g := range groupBy {
			b.WriteString(fmt.Sprint(row[g]) + "|")
		}
		return b.String()
	}
	seen := map[string]bool{}
	var groups []string
	for _, row := range data {
		if g := groupOf(row); !seen[g] {
			seen[g] = true
			groups = append(groups, g)
		}
	}
	sort.Strings(groups)
	from, _ := strconv.Atoi(token)
	from = min(max(from, 0), len(groups))
	to := min(from+limit, len(groups))
	keep := map[string]bool{}
	for _, g := range groups[from:to] {
		keep[g] = true
	}
	out := []map[string]any{}
	for _, row := range data {
		if keep[groupOf(row)] {
			out = append(out, row)
		}
	}
	if to < len(groups) {
		return out, strconv.Itoa(to)
	}
	return out, ""
}

// perMinute is the Metrics API's published limit: requests a minute per
// source address, over the last minute.
type perMinute struct {
	mu   sync.Mutex
	seen map[string][]time.Time
}

// take counts a request of r's source address at now, or says how long
// until the address may send again.
func (l *perMinute) take(r *http.Request, now time.Time) time.Duration {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[string][]time.Time{}
	}
	recent := l.seen[host][:0]
	for _, t := range l.seen[host] {
		if now.Sub(t) < time.Minute {
			recent = append(recent, t)
		}
	}
	if len(recent) >= metricsPerMinute {
		l.seen[host] = recent
		return recent[0].Add(time.Minute).Sub(now)
	}
	l.seen[host] = append(recent, now)
	return 0
}

// metricsPerMinute is the Metrics API's published request limit.
const metricsPerMinute = 60

// interval reads "start/end" or "start/duration" (PT1H, P1D style).
func interval(s string) (time.Time, time.Time, error) {
	a, b, _ := strings.Cut(s, "/")
	start, err := time.Parse(time.RFC3339, a)
	if err != nil {
		return start, start, err
	}
	if end, err := time.Parse(time.RFC3339, b); err == nil {
		return start, end, nil
	}
	d, err := isoDuration(b)
	return start, start.Add(d), err
}

// isoDuration reads the ISO-8601 durations intervals use (PT6H, P7D).
func isoDuration(s string) (time.Duration, error) {
	if d, ok := granularities[s]; ok {
		return d, nil
	}
	s = strings.TrimPrefix(s, "P")
	days := time.Duration(0)
	if i := strings.Index(s, "D"); i >= 0 {
		n, err := time.ParseDuration(s[:i] + "h")
		if err != nil {
			return 0, err
		}
		days, s = n*24, s[i+1:]
	}
	s = strings.TrimPrefix(s, "T")
	if s == "" {
		return days, nil
	}
	d, err := time.ParseDuration(strings.ToLower(s))
	return days + d, err
}
