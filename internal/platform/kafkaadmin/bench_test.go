package kafkaadmin

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
)

func benchCluster(b *testing.B) *kfake.Cluster {
	b.Helper()
	names := make([]string, 10000)
	for i := range names {
		names[i] = fmt.Sprintf("topic-%05d", i)
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, names...))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	return c
}

// BenchmarkMetadataRaw is one raw AdminClient metadata request for every
// topic of a 10,000-topic cluster: the floor for listing topics.
func BenchmarkMetadataRaw(b *testing.B) {
	cl := newClient(b, benchCluster(b), 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		md, err := cl.admin.GetMetadata(nil, true, 5000)
		if err != nil || len(md.Topics) != 10000 {
			b.Fatalf("%v %d", err, len(md.Topics))
		}
	}
}

// BenchmarkListTopicsUncached is the adapter's ListTopics without cache:
// the metadata request plus building the sorted list.
func BenchmarkListTopicsUncached(b *testing.B) {
	cl := newClient(b, benchCluster(b), 0)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ts, err := cl.ListTopics(ctx); err != nil || len(ts) != 10000 {
			b.Fatalf("%v %d", err, len(ts))
		}
	}
}

// BenchmarkListTopicsCached is ListTopics within the cache's TTL.
func BenchmarkListTopicsCached(b *testing.B) {
	cl := newClient(b, benchCluster(b), time.Hour)
	ctx := context.Background()
	_, _ = cl.ListTopics(ctx)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := cl.ListTopics(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
