package wire

// ClusterMetrics is the unit's share of its cluster with charts.
type ClusterMetrics struct {
	ClusterID      string `json:"cluster_id"`
	Brokers        int    `json:"brokers"`
	Topics         int    `json:"topics" doc:"Topics on the whole cluster."`
	Partitions     int    `json:"partitions" doc:"Partitions on the whole cluster."`
	UnitTopics     int    `json:"unit_topics" doc:"Topics the business unit sees."`
	UnitPartitions int    `json:"unit_partitions"`
	WholeCluster   bool   `json:"whole_cluster" doc:"The caller sees the whole cluster (Super Admin on the main unit)."`
	Charts         Charts `json:"charts"`
}

// Charts is a page's charts: the range, where the numbers come from,
// how old they are and, per chart, its series or why it is unavailable.
type Charts struct {
	Range       string  `json:"range" enum:"1h,6h,24h,7d"`
	Granularity string  `json:"granularity" example:"PT1M" doc:"The buckets' size as an ISO-8601 duration."`
	Start       string  `json:"start" format:"date-time"`
	End         string  `json:"end" format:"date-time" doc:"The end of the newest bucket, which is still filling."`
	Source      string  `json:"source" example:"Confluent Cloud Metrics API"`
	FetchedAt   string  `json:"fetched_at,omitempty" format:"date-time" doc:"When the oldest answer shown was fetched from the Metrics API."`
	Stale       string  "json:\"stale,omitempty\" doc:\"Present when the Metrics API refused (rate limit) or did not answer: the values are the last ones fetched, as of `fetched_at`.\""
	Charts      []Chart `json:"charts"`
}

// Chart is one chart of metrics.
type Chart struct {
	ID          string   `json:"id" enum:"bytes,records,retained,lag"`
	Title       string   `json:"title"`
	Unit        string   `json:"unit" enum:"B/s,records/s,B,records" doc:"Rates are per second over each bucket; the newest bucket over the time it has covered."`
	Series      []Series "json:\"series\" doc:\"`in` and `out` for throughput, `retained` for storage, one per consumer group for lag (the largest eight).\""
	More        int      `json:"more_series,omitempty" doc:"Consumer groups left out of the lag chart."`
	Unavailable string   `json:"unavailable,omitempty" doc:"Why the chart could not be had (never shown as zero)."`
}

// Series is one line of a chart.
type Series struct {
	Name   string  `json:"name"`
	Points []Point `json:"points"`
}

// Point is one value of a series.
type Point struct {
	Time  string  `json:"time" format:"date-time" doc:"The start of the bucket."`
	Value float64 `json:"value"`
}

// TopicMetrics is a topic's offsets and produce rate.
type TopicMetrics struct {
	Name       string             `json:"name"`
	Messages   int64              `json:"messages" format:"int64" doc:"Records retained (latest minus earliest offsets)."`
	Produced   int64              `json:"produced" format:"int64" doc:"Records ever written (sum of latest offsets)."`
	Partitions []PartitionMetrics `json:"partitions"`
	Samples    []Sample           "json:\"samples\" doc:\"Earlier observations of `produced`, oldest first.\""
	Charts     Charts             `json:"charts"`
}

// PartitionMetrics is one partition's offsets.
type PartitionMetrics struct {
	Partition int   `json:"partition"`
	Leader    int   `json:"leader"`
	Earliest  int64 `json:"earliest_offset" format:"int64"`
	Latest    int64 `json:"latest_offset" format:"int64"`
	Messages  int64 `json:"messages" format:"int64"`
}

// Sample is records produced in a window.
type Sample struct {
	Time     string `json:"time" format:"date-time"`
	Produced int64  `json:"produced" format:"int64"`
}
