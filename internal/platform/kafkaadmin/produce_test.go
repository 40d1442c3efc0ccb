package kafkaadmin

import (
	"context"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/edh-platform/rms-portal/internal/cpupriority"
	"github.com/edh-platform/rms-portal/internal/platform"
)

// A broker answers one request at a time per connection, in order: a
// produce the cluster holds (an acks=all write waiting for its replicas)
// holds whatever follows it on its connection. One unit's records must
// not hold another unit's pages, so records go out on a connection of
// their own, and a topic is described while a produce to it is held.
func TestAHeldProduceHoldsNoAdministration(t *testing.T) {
	ctx := context.Background()
	c := newCluster(t)
	cl := newClient(t, c, 0)
	if err := cl.CreateTopic(ctx, platform.TopicSpec{Name: "held", Partitions: 1}); err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	c.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
		once.Do(func() {
			close(held)
			c.SleepControl(func() { <-release })
		})
		return nil, nil, false
	})
	produced := make(chan error, 1)
	go func() {
		out, err := cl.Produce(ctx, "held", []platform.OutMessage{{Partition: -1, Value: []byte("v")}})
		if err == nil && out[0].Err != nil {
			err = out[0].Err
		}
		produced <- err
	}()
	select {
	case <-held:
	case <-time.After(5 * time.Second):
		t.Fatal("the produce never reached the cluster")
	}
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	start := time.Now()
	d, err := cl.DescribeTopic(dctx, "held")
	took := time.Since(start)
	cancel()
	close(release)
	if err != nil || d.Name != "held" {
		t.Errorf("describing a topic while a produce was held: %+v, %v (after %v)", d, err, took)
	}
	if err := <-produced; err != nil {
		t.Errorf("the held produce, once released: %v", err)
	}
}

// The first produce of a large body runs at a lowered priority
// (cpupriority); the producer it opens must not keep that priority for
// every later produce: librdkafka's threads take their starter's.
func TestARecordsProducerKeepsTheNormalPriority(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("threads have no nice value of their own here")
	}
	ctx := context.Background()
	c := newCluster(t)
	cl := newClient(t, c, 0)
	if err := cl.CreateTopic(ctx, platform.TopicSpec{Name: "niced", Partitions: 1}); err != nil {
		t.Fatal(err)
	}
	err := cpupriority.Run(func() error {
		_, err := cl.Produce(ctx, "niced", []platform.OutMessage{{Partition: -1, Value: []byte("v")}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	seen := 0
	for _, task := range tasks {
		comm, _ := os.ReadFile("/proc/self/task/" + task.Name() + "/comm")
		stat, err := os.ReadFile("/proc/self/task/" + task.Name() + "/stat")
		if err != nil || !strings.HasPrefix(string(comm), "rdk:") {
			continue
		}
		seen++
		// nice is the 17th field after the command name's ')'.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
		if f[16] != "0" {
			t.Errorf("librdkafka's thread %s runs at nice %s", strings.TrimSpace(string(comm)), f[16])
		}
	}
	if seen == 0 {
		t.Skip("librdkafka's threads are not named here")
	}
}
