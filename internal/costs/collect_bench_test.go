package costs

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// BenchmarkCollectorRequests measures the Metrics API requests an hour
// of collection takes once the backfill is done (a round an hour reads
// the hour of every stage): three queries a cluster, each of as many
// pages as the cluster has thousands of topics, whatever the topics.
func BenchmarkCollectorRequests(b *testing.B) {
	for _, c := range []struct{ clusters, topics int }{{1, 100}, {1, 10000}, {10, 100}, {10, 1000}} {
		b.Run(fmt.Sprintf("%dclusters_%dtopics", c.clusters, c.topics), func(b *testing.B) {
			ctx := context.Background()
			st, _, err := sqlite.Open(ctx, sqlitetest.File(b, ""), 5*time.Second, slog.New(slog.DiscardHandler))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			spec := tenancy.Spec{}
			for i := range c.clusters {
				spec.Stages = append(spec.Stages, tenancy.Stage{Name: fmt.Sprintf("s%d", i)})
			}
			spec.LandingZones = []tenancy.ZoneSpec{{ID: "z", MainBU: "a", Units: []tenancy.UnitSpec{{ID: "a"}}}}
			ten, err := tenancy.New(spec)
			if err != nil {
				b.Fatal(err)
			}
			var envs []*platform.Environment
			var fakes []*fakeMetrics
			for i := range c.clusters {
				stage := fmt.Sprintf("s%d", i)
				var names []string
				var infos []platform.TopicInfo
				for j := range c.topics {
					n := fmt.Sprintf("z-a-%s-t%05d", stage, j)
					names, infos = append(names, n), append(infos, platform.TopicInfo{Name: n, Partitions: 1})
				}
				f := &fakeMetrics{topics: names}
				fakes = append(fakes, f)
				envs = append(envs, &platform.Environment{Zone: "z", Stage: stage, Metrics: f, ClusterID: "lkc-" + stage, Topics: listed{topics: infos}})
			}
			now := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
			col := NewCollector(Options{Store: st, Tenancy: func() *tenancy.Tenancy { return ten }, Envs: func() []*platform.Environment { return envs },
				Backfill: time.Hour, StagesPerRound: c.clusters, Now: func() time.Time { return now }})
			if _, err := col.Round(ctx); err != nil { // the backfill
				b.Fatal(err)
			}
			queries := func() int {
				n := 0
				for _, f := range fakes {
					n += f.queries
				}
				return n
			}
			before := queries()
			b.ResetTimer()
			for range b.N {
				now = now.Add(time.Hour)
				if _, err := col.Round(ctx); err != nil {
					b.Fatal(err)
				}
			}
			pages := math.Ceil(float64(c.topics) / 1000)
			b.ReportMetric(float64(queries()-before)*pages/float64(b.N), "requests/hour")
		})
	}
}
