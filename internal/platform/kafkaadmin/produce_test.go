package kafkaadmin

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

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
