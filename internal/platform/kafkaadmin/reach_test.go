package kafkaadmin

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestKilledClusterCostsNothing is the outage at the depth where its
// cost lives: once a cluster's port refuses connections, every request
// handed to librdkafka made it reconnect without backoff for as long as
// the request waited (about 6,000 attempts a second). Every kind of
// request must now fail at once, and librdkafka must not be asked to
// connect more often than the reach probe's interval allows.
func TestKilledClusterCostsNothing(t *testing.T) {
	c := newCluster(t)
	cl, err := New(Options{Name: "test/dev", BootstrapServers: c.ListenAddrs()[0], SecurityProtocol: "PLAINTEXT",
		Timeout: 3 * time.Second, StatsEvery: 50 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	ctx := context.Background()
	if _, err := cl.DescribeTopic(ctx, "legacy-orders"); err != nil {
		t.Fatal(err)
	}
	var dials atomic.Int64
	dial := cl.reach.dial
	cl.reach.dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dial(ctx, network, addr)
	}
	c.Close()

	// The first request after the kill finds out, within the timeout.
	_, err = cl.DescribeTopic(ctx, "legacy-orders")
	if !outage(err) {
		t.Fatalf("describe on a killed cluster: %v", err)
	}
	// The request that found the outage may still wait in librdkafka, up
	// to the client's timeout, reconnecting meanwhile (the one request's
	// cost the reach check leaves): what follows is counted from when that
	// ended.
	before := quietConnects(t, cl, 3*time.Second+2*time.Second)

	calls := map[string]func() error{
		"list":    func() error { _, err := cl.ListTopics(ctx); return err },
		"detail":  func() error { _, err := cl.DescribeTopic(ctx, "legacy-orders"); return err },
		"offsets": func() error { _, err := cl.TopicOffsets(ctx, "legacy-orders", 1); return err },
		"create":  func() error { return cl.CreateTopic(ctx, platform.TopicSpec{Name: "x", Partitions: 1}) },
		"groups":  func() error { _, err := cl.ListGroups(ctx); return err },
		"records": func() error {
			_, err := cl.ReadMessages(ctx, "legacy-orders", []platform.ReadRange{{Partition: 0, From: 0, Count: 1}}, 1<<20)
			return err
		},
		"health": func() error { _, err := cl.ClusterInfo(ctx); return err },
	}
	const rounds = 30
	start := time.Now()
	for range rounds {
		for kind, call := range calls {
			t0 := time.Now()
			err := call()
			if !outage(err) {
				t.Fatalf("%s on a killed cluster: %v", kind, err)
			}
			if took := time.Since(t0); took > time.Second {
				t.Fatalf("%s took %v on a killed cluster; it must fail at once (%d connection attempts so far)", kind, took, settledConnects(t, cl)-before)
			}
			var pe *portal.Error
			if errors.As(err, &pe) && pe.RetryAfter <= 0 {
				t.Errorf("%s: no Retry-After on %v", kind, err)
			}
		}
	}
	elapsed := time.Since(start)
	after := settledConnects(t, cl)
	// One probe per interval, and librdkafka's own backoff in between.
	allowedProbes := int64(elapsed/ReachEvery) + 2
	if d := dials.Load(); d > allowedProbes {
		t.Errorf("%d requests dialled the cluster %d times in %v; at most %d probes", rounds*len(calls), d, elapsed, allowedProbes)
	}
	if d := after - before; d > 10 {
		t.Errorf("%d requests made librdkafka try to connect %d times in %v", rounds*len(calls), d, elapsed)
	}
	t.Logf("%d requests in %v: %d probes, %d connection attempts", rounds*len(calls), elapsed, dials.Load(), after-before)
}

func outage(err error) bool {
	k := portal.KindOf(err)
	return k == portal.UpstreamUnavailable || k == portal.UpstreamTimeout
}

// quietConnects waits until librdkafka stopped reconnecting (two
// settled counts at most one attempt apart), and returns the count.
func quietConnects(t *testing.T, cl *Client, within time.Duration) uint64 {
	t.Helper()
	deadline := time.Now().Add(within)
	last := settledConnects(t, cl)
	for {
		n := settledConnects(t, cl)
		if n-last <= 1 {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("librdkafka still reconnects %v after the outage was found (%d attempts between two reports)", within, n-last)
		}
		last = n
	}
}

// settledConnects waits for two statistics reports, so that the count
// reflects everything asked of librdkafka before the call.
func settledConnects(t *testing.T, cl *Client) uint64 {
	t.Helper()
	seen := cl.link.stats.Load()
	deadline := time.Now().Add(5 * time.Second)
	for cl.link.stats.Load() < seen+2 {
		if time.Now().After(deadline) {
			t.Fatal("librdkafka sent no statistics")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cl.ConnectAttempts()
}
