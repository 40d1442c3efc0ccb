package present

import (
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/metric"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Charts is a cluster's or a topic's metrics as charts.
func Charts(c metric.Charts) wire.Charts {
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
