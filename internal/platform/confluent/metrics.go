package confluent

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// Metrics queries the Confluent Cloud Metrics API v2
// (POST /v2/metrics/cloud/query) through a client whose base URL is the
// telemetry endpoint (https://api.telemetry.confluent.cloud).
type Metrics struct {
	c     *Client
	admit func(ctx context.Context, requests int, owed, urgent bool) error
}

var _ platform.CloudMetrics = (*Metrics)(nil)

// NewMetrics returns the Metrics API adapter. admit, when not nil, is
// asked for every request (each page of a query): the API's limit is per
// source address, so every replica's requests draw on one budget. A query
// asks for the pages it expects at once (MetricQuery.ExpectPages), so that
// a budget too short for it refuses it before any is spent (the portal's
// cache then answers with what it last had); the pages past those are
// owed (taken whatever the budget holds, and waited out by the next
// queries), since a query given up halfway would have spent its pages for
// nothing. urgent passes on MetricQuery.Urgent.
func NewMetrics(c *Client, admit func(ctx context.Context, requests int, owed, urgent bool) error) *Metrics {
	return &Metrics{c: c, admit: admit}
}

// queryRequest is the API's QueryRequest (one aggregation per request,
// as the API allows).
type queryRequest struct {
	Aggregations []aggregation `json:"aggregations"`
	GroupBy      []string      `json:"group_by,omitempty"`
	Granularity  string        `json:"granularity"`
	Filter       *filter       `json:"filter,omitempty"`
	Intervals    []string      `json:"intervals"`
	Limit        int           `json:"limit,omitempty"`
	Format       string        `json:"format"`
}

type aggregation struct {
	Metric string `json:"metric"`
	Agg    string `json:"agg,omitempty"`
}

// filter is a FieldFilter (field, op EQ, value) or a CompoundFilter (op
// AND, filters).
type filter struct {
	Field   string   `json:"field,omitempty"`
	Op      string   `json:"op"`
	Value   string   `json:"value,omitempty"`
	Filters []filter `json:"filters,omitempty"`
}

// queryResponse is the FLAT response: points carry their labels.
type queryResponse struct {
	Data []map[string]any `json:"data"`
	Meta struct {
		Pagination struct {
			NextPageToken string `json:"next_page_token"`
		} `json:"pagination"`
	} `json:"meta"`
}

// maxPages bounds the pages read for one query.
const maxPages = 10

// QueryMetric sends a query and reads every page of its answer.
func (m *Metrics) QueryMetric(ctx context.Context, q platform.MetricQuery) ([]platform.MetricPoint, error) {
	f := filter{Field: platform.LabelClusterID, Op: "EQ", Value: q.ClusterID}
	if len(q.Filters) > 0 {
		all := []filter{f}
		for _, k := range slices.Sorted(maps.Keys(q.Filters)) {
			all = append(all, filter{Field: k, Op: "EQ", Value: q.Filters[k]})
		}
		f = filter{Op: "AND", Filters: all}
	}
	req := queryRequest{
		Aggregations: []aggregation{{Metric: q.Metric, Agg: "SUM"}},
		GroupBy:      q.GroupBy, Granularity: q.Granularity, Filter: &f, Format: "FLAT",
		Intervals: []string{q.Start.UTC().Format(time.RFC3339) + "/" + q.End.UTC().Format(time.RFC3339)},
		Limit:     q.Limit,
	}
	var out []platform.MetricPoint
	token := ""
	prepaid := min(max(q.ExpectPages, 1), maxPages)
	for page := range maxPages {
		var resp queryResponse
		var query url.Values
		if token != "" {
			query = url.Values{"page_token": {token}}
		}
		if m.admit != nil && !q.Prepaid && page == 0 || m.admit != nil && page >= prepaid {
			n := 1
			if page == 0 {
				n = prepaid
			}
			if err := m.admit(ctx, n, page > 0, q.Urgent); err != nil {
				return nil, err
			}
		}
		// A query changes nothing: it may be retried.
		if err := m.c.do(ctx, call{method: "POST", path: "/v2/metrics/cloud/query", query: query, body: req, out: &resp, safe: true}); err != nil {
			return nil, err
		}
		for _, d := range resp.Data {
			p, err := point(d)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		if token = resp.Meta.Pagination.NextPageToken; token == "" || len(q.GroupBy) == 0 {
			return out, nil
		}
	}
	return out, nil
}

// point reads one FLAT data point: timestamp, value, and label fields.
func point(d map[string]any) (platform.MetricPoint, error) {
	p := platform.MetricPoint{Labels: map[string]string{}}
	ts, _ := d["timestamp"].(string)
	at, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return p, fmt.Errorf("metrics API: a point's timestamp %q: %w", ts, err)
	}
	p.At = at
	v, ok := d["value"].(float64)
	if !ok {
		return p, fmt.Errorf("metrics API: a point without a number value")
	}
	p.Value = v
	for k, x := range d {
		if s, ok := x.(string); ok && strings.Contains(k, ".") {
			p.Labels[k] = s
		}
	}
	return p, nil
}
