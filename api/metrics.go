package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

type clusterMetricsJSON struct {
	ClusterID      string     `json:"cluster_id"`
	Brokers        int        `json:"brokers"`
	Topics         int        `json:"topics"`
	Partitions     int        `json:"partitions"`
	UnitTopics     int        `json:"unit_topics"`
	UnitPartitions int        `json:"unit_partitions"`
	WholeCluster   bool       `json:"whole_cluster"`
	Charts         chartsJSON `json:"charts"`
}

// chartsJSON is a page's charts: the range, where the numbers come from,
// how old they are and, per chart, its series or why it is unavailable.
type chartsJSON struct {
	Range       string      `json:"range"`
	Granularity string      `json:"granularity"`
	Start       string      `json:"start"`
	End         string      `json:"end"`
	Source      string      `json:"source"`
	FetchedAt   string      `json:"fetched_at,omitempty"`
	Stale       string      `json:"stale,omitempty"`
	Charts      []chartJSON `json:"charts"`
}

type chartJSON struct {
	ID          string       `json:"id"`
	Title       string       `json:"title"`
	Unit        string       `json:"unit"`
	Series      []seriesJSON `json:"series"`
	More        int          `json:"more_series,omitempty"`
	Unavailable string       `json:"unavailable,omitempty"`
}

type seriesJSON struct {
	Name   string      `json:"name"`
	Points []pointJSON `json:"points"`
}

type pointJSON struct {
	Time  string  `json:"time"`
	Value float64 `json:"value"`
}

func toChartsJSON(c portal.Charts) chartsJSON {
	out := chartsJSON{Range: c.Range.Name, Granularity: c.Range.Granularity, Start: c.Start.UTC().Format(time.RFC3339),
		End: c.End.UTC().Format(time.RFC3339), Source: c.Source, Stale: c.Stale, Charts: []chartJSON{}}
	if !c.FetchedAt.IsZero() {
		out.FetchedAt = c.FetchedAt.UTC().Format(time.RFC3339)
	}
	for _, ch := range c.Charts {
		cj := chartJSON{ID: ch.ID, Title: ch.Title, Unit: ch.Unit, Series: []seriesJSON{}, More: ch.More, Unavailable: ch.Unavailable}
		for _, s := range ch.Series {
			sj := seriesJSON{Name: s.Name, Points: []pointJSON{}}
			for _, p := range s.Points {
				sj.Points = append(sj.Points, pointJSON{Time: p.At.UTC().Format(time.RFC3339), Value: p.Value})
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
	return c.JSON(http.StatusOK, clusterMetricsJSON{ClusterID: m.ClusterID, Brokers: m.Brokers, Topics: m.Topics,
		Partitions: m.Partitions, UnitTopics: m.UnitTopics, UnitPartitions: m.UnitPartitions,
		WholeCluster: m.WholeCluster, Charts: toChartsJSON(m.Charts)})
}

type topicMetricsJSON struct {
	Name       string                 `json:"name"`
	Messages   int64                  `json:"messages"`
	Produced   int64                  `json:"produced"`
	Partitions []partitionMetricsJSON `json:"partitions"`
	Samples    []sampleJSON           `json:"samples"`
	Charts     chartsJSON             `json:"charts"`
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
	m, err := a.Metrics.TopicMetrics(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), c.QueryParam("range"))
	if err != nil {
		return err
	}
	out := topicMetricsJSON{Name: m.Topic.Name, Messages: m.Messages, Produced: m.Produced,
		Partitions: []partitionMetricsJSON{}, Samples: []sampleJSON{}, Charts: toChartsJSON(m.Charts)}
	for _, p := range m.Partitions {
		out.Partitions = append(out.Partitions, partitionMetricsJSON{Partition: p.ID, Leader: p.Leader,
			Earliest: p.Earliest, Latest: p.Latest, Messages: p.Messages()})
	}
	for _, s := range m.Samples {
		out.Samples = append(out.Samples, sampleJSON{Time: s.At.UTC().Format(time.RFC3339Nano), Produced: s.Produced})
	}
	return c.JSON(http.StatusOK, out)
}
