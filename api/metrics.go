package api

import (
	"net/http"
	"time"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func toChartsJSON(c portal.Charts) wire.Charts {
	out := wire.Charts{Range: c.Range.Name, Granularity: c.Range.Granularity, Start: c.Start.UTC().Format(time.RFC3339),
		End: c.End.UTC().Format(time.RFC3339), Source: c.Source, Stale: c.Stale, Charts: []wire.Chart{}}
	if !c.FetchedAt.IsZero() {
		out.FetchedAt = c.FetchedAt.UTC().Format(time.RFC3339)
	}
	for _, ch := range c.Charts {
		cj := wire.Chart{ID: ch.ID, Title: ch.Title, Unit: ch.Unit, Series: []wire.Series{}, More: ch.More, Unavailable: ch.Unavailable}
		for _, s := range ch.Series {
			sj := wire.Series{Name: s.Name, Points: []wire.Point{}}
			for _, p := range s.Points {
				sj.Points = append(sj.Points, wire.Point{Time: p.At.UTC().Format(time.RFC3339), Value: p.Value})
			}
			cj.Series = append(cj.Series, sj)
		}
		out.Charts = append(out.Charts, cj)
	}
	return out
}

func (a *API) clusterMetrics(c echo.Context) error {
	m, err := a.Metrics.ClusterMetrics(c.Request().Context(), httpserver.ScopeOf(c), c.QueryParam("range"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.ClusterMetrics{ClusterID: m.ClusterID, Brokers: m.Brokers, Topics: m.Topics,
		Partitions: m.Partitions, UnitTopics: m.UnitTopics, UnitPartitions: m.UnitPartitions,
		WholeCluster: m.WholeCluster, Charts: toChartsJSON(m.Charts)})
}

func (a *API) topicMetrics(c echo.Context) error {
	m, err := a.Metrics.TopicMetrics(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), c.QueryParam("range"))
	if err != nil {
		return err
	}
	out := wire.TopicMetrics{Name: m.Topic.Name, Messages: m.Messages, Produced: m.Produced,
		Partitions: []wire.PartitionMetrics{}, Samples: []wire.Sample{}, Charts: toChartsJSON(m.Charts)}
	for _, p := range m.Partitions {
		out.Partitions = append(out.Partitions, wire.PartitionMetrics{Partition: p.ID, Leader: p.Leader,
			Earliest: p.Earliest, Latest: p.Latest, Messages: p.Messages()})
	}
	for _, s := range m.Samples {
		out.Samples = append(out.Samples, wire.Sample{Time: s.At.UTC().Format(time.RFC3339Nano), Produced: s.Produced})
	}
	return c.JSON(http.StatusOK, out)
}
