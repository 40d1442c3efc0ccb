package kafkaadmin

import (
	"crypto/rand"
	"encoding/hex"
	"sync"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// keptReaders is how many idle record readers a cluster's handles keep.
const keptReaders = 4

// readFetchBytes is what a reader fetches at most at once, in all and
// from one partition: a read stops at its own byte bound, however large
// the fetches.
const readFetchBytes = 4 << 20

// readers are the record browser's consumers, kept between reads. A
// consumer made for each read would cost the cluster a connection, a
// handshake (SASL on Confluent Cloud) and metadata requests, and the
// portal a handful of threads, on every poll of every person tailing a
// topic; Confluent Cloud also bounds how many connections a cluster
// accepts a second, and one unit's tails would spend that for all.
type readers struct {
	conn   kafka.ConfigMap
	mu     sync.Mutex
	idle   []*kafka.Consumer
	closed bool
}

// get returns an idle reader, or a new one.
func (r *readers) get() (*kafka.Consumer, error) {
	r.mu.Lock()
	if n := len(r.idle); n > 0 {
		c := r.idle[n-1]
		r.idle = r.idle[:n-1]
		r.mu.Unlock()
		return c, nil
	}
	r.mu.Unlock()
	cm := kafka.ConfigMap{}
	for k, v := range r.conn {
		cm[k] = v
	}
	id := make([]byte, 6)
	_, _ = rand.Read(id)
	// librdkafka wants a group id even for assign(); this one is never
	// joined nor committed to.
	cm["group.id"] = "rms-portal-browse-" + hex.EncodeToString(id)
	cm["enable.auto.commit"] = false
	cm["enable.auto.offset.store"] = false
	cm["enable.partition.eof"] = true
	cm["log_level"] = 3 // errors only
	cm["log.connection.close"] = false
	// A fetch that finds nothing new waits at the broker for at most this
	// long, and the next read of a reader waits for its last fetch: the
	// default half second would be every read's.
	cm["fetch.wait.max.ms"] = 1
	cm["fetch.max.bytes"] = readFetchBytes
	cm["max.partition.fetch.bytes"] = readFetchBytes
	return kafka.NewConsumer(&cm)
}

// put takes a reader back after a read: unassigned (what it fetched for
// that read is dropped with its assignment) and kept if few are idle;
// one that failed, or one too many, is closed.
func (r *readers) put(c *kafka.Consumer, healthy bool) {
	if healthy && c.Unassign() == nil {
		r.mu.Lock()
		if !r.closed && len(r.idle) < keptReaders {
			r.idle = append(r.idle, c)
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
	}
	_ = c.Close()
}

// close closes the idle readers, side by side; readers given back later
// are closed then.
func (r *readers) close() {
	r.mu.Lock()
	idle := r.idle
	r.idle, r.closed = nil, true
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range idle {
		wg.Go(func() { _ = c.Close() })
	}
	wg.Wait()
}
