package platform

import (
	"context"
	"time"
)

// Metrics of the Confluent Cloud Metrics API used by the portal
// (dataset "cloud").
const (
	MetricReceivedBytes   = "io.confluent.kafka.server/received_bytes"
	MetricSentBytes       = "io.confluent.kafka.server/sent_bytes"
	MetricReceivedRecords = "io.confluent.kafka.server/received_records"
	MetricSentRecords     = "io.confluent.kafka.server/sent_records"
	MetricRetainedBytes   = "io.confluent.kafka.server/retained_bytes"
	MetricConsumerLag     = "io.confluent.kafka.server/consumer_lag_offsets"
)

// Labels of the Metrics API.
const (
	LabelClusterID = "resource.kafka.id"
	LabelTopic     = "metric.topic"
	LabelGroup     = "metric.consumer_group_id"
)

// MetricQuery asks for one metric of one cluster over a time range.
type MetricQuery struct {
	Metric    string
	ClusterID string
	// Filters narrow by label values (metric.topic, ...), all of them.
	Filters map[string]string
	GroupBy []string
	// Granularity is an ISO-8601 duration the API accepts (PT1M, PT5M, ...).
	Granularity string
	Start, End  time.Time
	// Limit bounds the groups returned (1 to 1000).
	Limit int
	// ExpectPages is how many pages the answer is expected to take (the
	// last answer's), so that a budget of requests is asked for them at
	// once; 0 is one.
	ExpectPages int
	// Prepaid: the caller took the requests of the expected pages from
	// the budget already (with those of the queries it sends with this
	// one, so that a budget too short for all refuses them before any is
	// spent).
	Prepaid bool
	// Urgent: there is no answer to show, or only one many steps old; such
	// a query goes before the refreshes of recent answers when a budget of
	// requests is short.
	Urgent bool
}

// MetricPoint is one bucket's value, with the labels it is grouped by.
type MetricPoint struct {
	At     time.Time
	Value  float64
	Labels map[string]string
}

// CloudMetrics is the port to the Confluent Cloud Metrics API.
type CloudMetrics interface {
	// QueryMetric returns the points of a query, all pages of it.
	// Errors: RateLimited (with Retry-After), UpstreamUnavailable.
	QueryMetric(ctx context.Context, q MetricQuery) ([]MetricPoint, error)
}
