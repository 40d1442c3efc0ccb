package kafkaadmin

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHandlesOpenOnUseAndCloseWhenIdle: two environments that reach one
// cluster alike share its handles; nothing is open before the first call
// or after the idle time, and a call after that opens them again and sees
// what changed meanwhile.
func TestHandlesOpenOnUseAndCloseWhenIdle(t *testing.T) {
	ctx := context.Background()
	cluster := newCluster(t)
	links := NewLinks()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	client := func(name string) *Client {
		cl, err := New(Options{Name: name, BootstrapServers: cluster.ListenAddrs()[0], SecurityProtocol: "PLAINTEXT",
			Timeout: 3 * time.Second, CacheTTL: time.Minute, MaxStaleness: time.Minute, Logger: quiet,
			IdleAfter: 300 * time.Millisecond, Links: links})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		return cl
	}
	dev, other := client("zone-a/dev"), client("zone-b/dev")
	if n := links.Open(); n != 0 {
		t.Fatalf("%d clusters open before any call", n)
	}
	if _, err := dev.ListTopics(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := other.ListTopics(ctx); err != nil {
		t.Fatal(err)
	}
	if n := links.Open(); n != 1 {
		t.Fatalf("two environments on one cluster hold %d sets of handles", n)
	}
	waitFor(t, "the idle handles to close", func() bool { return links.Open() == 0 })

	// A topic made behind the portal's back while it was idle.
	behind := newClient(t, cluster, 0)
	if err := behind.CreateTopic(ctx, platform.TopicSpec{Name: "made-while-idle", Partitions: 1}); err != nil {
		t.Fatal(err)
	}
	behind.Close()
	list, err := dev.ListTopics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names(list), "made-while-idle/1") {
		t.Errorf("the list after the idle time is the old one: %v", names(list))
	}
	if n := links.Open(); n != 1 {
		t.Fatalf("%d clusters open after a call", n)
	}
	// A closed client answers, and lets go of its share.
	dev.Close()
	if _, err := dev.DescribeTopic(ctx, "made-while-idle"); err == nil {
		t.Error("a closed client still answers")
	}
	waitFor(t, "the handles to close", func() bool { return links.Open() == 0 })
}

// TestCallsKeepTheClientInUse: a client called more often than its idle
// time keeps its handles; the topic list's own refreshes do not keep it.
func TestCallsKeepTheClientInUse(t *testing.T) {
	ctx := context.Background()
	cluster := newCluster(t)
	links := NewLinks()
	cl, err := New(Options{Name: "zone/dev", BootstrapServers: cluster.ListenAddrs()[0], SecurityProtocol: "PLAINTEXT",
		Timeout: 3 * time.Second, CacheTTL: 20 * time.Millisecond, MaxStaleness: time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), IdleAfter: 400 * time.Millisecond, Links: links})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		if _, err := cl.DescribeTopic(ctx, "legacy-orders"); err != nil {
			t.Fatal(err)
		}
		if links.Open() != 1 {
			t.Fatal("the handles closed while the client was in use")
		}
		time.Sleep(50 * time.Millisecond) // the pace of a caller, not a wait for the client
	}
	waitFor(t, "the idle handles to close despite the list's refreshes", func() bool { return links.Open() == 0 })
}
