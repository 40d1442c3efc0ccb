package api

import (
	"net/http"
	"time"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

func (a *API) getClusterMetrics(c echo.Context) error {
	m, err := a.Metrics.ClusterMetrics(c.Request().Context(), httpserver.ScopeOf(c), c.QueryParam("range"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.ClusterMetrics{ClusterID: m.ClusterID, Brokers: m.Brokers, Topics: m.Topics,
		Partitions: m.Partitions, UnitTopics: m.UnitTopics, UnitPartitions: m.UnitPartitions,
		WholeCluster: m.WholeCluster, Charts: present.Charts(m.Charts)})
}

func (a *API) getTopicMetrics(c echo.Context) error {
	m, err := a.Metrics.TopicMetrics(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), c.QueryParam("range"))
	if err != nil {
		return err
	}
	out := wire.TopicMetrics{Name: m.Topic.Name, Messages: m.Messages, Produced: m.Produced,
		Partitions: []wire.PartitionMetrics{}, Samples: []wire.Sample{}, Charts: present.Charts(m.Charts)}
	for _, p := range m.Partitions {
		out.Partitions = append(out.Partitions, wire.PartitionMetrics{Partition: p.ID, Leader: p.Leader,
			Earliest: p.Earliest, Latest: p.Latest, Messages: p.Messages()})
	}
	for _, s := range m.Samples {
		out.Samples = append(out.Samples, wire.Sample{Time: s.At.UTC().Format(time.RFC3339Nano), Produced: s.Produced})
	}
	return c.JSON(http.StatusOK, out)
}
