package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

type clusterMetricsJSON struct {
	ClusterID      string   `json:"cluster_id"`
	Brokers        int      `json:"brokers"`
	Topics         int      `json:"topics"`
	Partitions     int      `json:"partitions"`
	UnitTopics     int      `json:"unit_topics"`
	UnitPartitions int      `json:"unit_partitions"`
	WholeCluster   bool     `json:"whole_cluster"`
	Unavailable    []string `json:"unavailable"`
}

func (a *API) clusterMetrics(c echo.Context) error {
	m, err := a.metrics.ClusterMetrics(c.Request().Context(), c.Param("bu"), c.Param("stage"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, clusterMetricsJSON{ClusterID: m.ClusterID, Brokers: m.Brokers, Topics: m.Topics,
		Partitions: m.Partitions, UnitTopics: m.UnitTopics, UnitPartitions: m.UnitPartitions,
		WholeCluster: m.WholeCluster, Unavailable: m.Unavailable})
}

type topicMetricsJSON struct {
	Name        string                 `json:"name"`
	Messages    int64                  `json:"messages"`
	Produced    int64                  `json:"produced"`
	Partitions  []partitionMetricsJSON `json:"partitions"`
	Samples     []sampleJSON           `json:"samples"`
	Unavailable []string               `json:"unavailable"`
}

type partitionMetricsJSON struct {
	Partition int   `json:"partition"`
	Leader    int   `json:"leader"`
	Earliest  int64 `json:"earliest_offset"`
	Latest    int64 `json:"latest_offset"`
	Messages  int64 `json:"messages"`
}

type sampleJSON struct {
	Time     string `json:"time"`
	Produced int64  `json:"produced"`
}

func (a *API) topicMetrics(c echo.Context) error {
	m, err := a.metrics.TopicMetrics(c.Request().Context(), c.Param("bu"), c.Param("stage"), c.Param("name"))
	if err != nil {
		return err
	}
	out := topicMetricsJSON{Name: m.Topic.Name, Messages: m.Messages, Produced: m.Produced,
		Partitions: []partitionMetricsJSON{}, Samples: []sampleJSON{}, Unavailable: m.Unavailable}
	for _, p := range m.Partitions {
		out.Partitions = append(out.Partitions, partitionMetricsJSON{Partition: p.ID, Leader: p.Leader,
			Earliest: p.Earliest, Latest: p.Latest, Messages: p.Messages()})
	}
	for _, s := range m.Samples {
		out.Samples = append(out.Samples, sampleJSON{Time: s.At.UTC().Format(time.RFC3339Nano), Produced: s.Produced})
	}
	return c.JSON(http.StatusOK, out)
}
