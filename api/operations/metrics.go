package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// metrics are the operations of the metrics tag.
func metrics() []Operation {
	return []Operation{
		{
			ID: "getClusterMetrics", Method: http.MethodGet, Path: "/{bu}/{stage}/metrics",
			Need:    NeedReads,
			Tags:    []string{"metrics"},
			Summary: "The cluster's topics and partitions, and charts of the business unit's throughput, storage and lag.",
			Doc: "Counts come from the cluster; the charts come from the Confluent\n" +
				"Cloud Metrics API, adding up the business unit's topics (and its\n" +
				"consumer groups, for lag). Answers of the Metrics API are cached and\n" +
				"shared by every replica until their newest bucket moves on; when the\n" +
				"API's rate limit is reached the last values are returned with\n" +
				"`charts.stale` and `charts.fetched_at`, not an error. A chart that\n" +
				"cannot be had says why in `unavailable`.\n",
			Params:  []Param{{Name: "range", In: "query", Doc: "The time range of the charts; each has its granularity (1h by the minute, 6h by 5 minutes, 24h by 15 minutes, 7d by the hour).", Schema: "{type: string, enum: [1h, 6h, 24h, 7d], default: 1h}"}},
			Answers: []Answer{{Status: 200, Doc: "The cluster's metrics.", Of: wire.ClusterMetrics{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "getTopicMetrics", Method: http.MethodGet, Path: "/{bu}/{stage}/topic/{name}/metrics",
			Need:    NeedReads,
			Tags:    []string{"metrics"},
			Summary: "A topic's partitions with offsets, message counts, growth samples and charts.",
			Doc: "Asking for a topic's metrics makes the portal sample its offsets for\n" +
				"the next hour, so that `samples` shows growth over time. The charts\n" +
				"(bytes and records in and out, retained bytes, lag per consumer\n" +
				"group of the unit) come from the Confluent Cloud Metrics API, cached\n" +
				"as for the cluster's metrics.\n",
			Params:  []Param{{Name: "range", In: "query", Doc: "The time range of the charts; each has its granularity (1h by the minute, 6h by 5 minutes, 24h by 15 minutes, 7d by the hour).", Schema: "{type: string, enum: [1h, 6h, 24h, 7d], default: 1h}"}},
			Answers: []Answer{{Status: 200, Doc: "The topic's metrics.", Of: wire.TopicMetrics{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
	}
}
