package kafkaadmin

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// Links shares librdkafka handles between the clients of environments
// that reach one cluster with the same credentials (several environments
// may name one cluster), and opens them only while one of those clients is
// in use: a replica configured for hundreds of environments holds handles,
// threads and pollers for the ones people use, not for every one it knows.
// It is safe for concurrent use; the zero value is not: use NewLinks.
type Links struct {
	mu sync.Mutex
	m  map[string]*link
}

// NewLinks returns an empty set of shared handles.
func NewLinks() *Links { return &Links{m: map[string]*link{}} }

// get returns the link for a connection, made on first use.
func (ls *Links) get(key, name string, open func() (*handles, error)) *link {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if l, ok := ls.m[key]; ok {
		return l
	}
	l := &link{name: name, open: open, clients: map[*Client]int{}}
	ls.m[key] = l
	return l
}

// Open is how many clusters have handles open now.
func (ls *Links) Open() int {
	ls.mu.Lock()
	links := make([]*link, 0, len(ls.m))
	for _, l := range ls.m {
		links = append(links, l)
	}
	ls.mu.Unlock()
	n := 0
	for _, l := range links {
		l.mu.Lock()
		if l.h != nil {
			n++
		}
		l.mu.Unlock()
	}
	return n
}

// linkKey identifies a connection: handles are shared only between
// clients that would open identical ones.
func linkKey(o Options) string {
	return fmt.Sprintf("%q %q %q %q %q %d %d", o.BootstrapServers, o.SecurityProtocol, o.SASLMechanism, o.APIKey, o.APISecret,
		o.Timeout, o.StatsEvery)
}

// link is one cluster's handles, open while at least one client uses them.
type link struct {
	name string
	open func() (*handles, error)

	mu      sync.Mutex
	h       *handles
	clients map[*Client]int
	// connects, listConnects and recordConnects are librdkafka's counts
	// of connection attempts of the open handles; closed carries those of
	// handles closed before, so that the sum only grows.
	connects, listConnects, recordConnects, closed atomic.Uint64
	// stats counts librdkafka's statistics reports.
	stats atomic.Uint64
}

// join opens the handles unless open, and counts the client as a user.
func (l *link) join(c *Client) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h == nil {
		h, err := l.open()
		if err != nil {
			return err
		}
		l.h = h
		h.pumps.Add(3)
		go h.pumpLogs(c.log)
		go l.pumpEvents(h, h.producer.Events(), &l.connects)
		go l.pumpEvents(h, h.listerProducer.Events(), &l.listConnects)
	}
	for other := range l.clients {
		if other != c {
			c.cache.seed(other.cache)
			break
		}
	}
	l.clients[c]++
	return nil
}

// leave counts the client out, and closes the handles when it was the
// last user.
func (l *link) leave(c *Client) {
	l.mu.Lock()
	if l.clients[c]--; l.clients[c] <= 0 {
		delete(l.clients, c)
	}
	var h *handles
	if len(l.clients) == 0 {
		h, l.h = l.h, nil
	}
	l.mu.Unlock()
	if h != nil {
		h.close()
		l.closed.Add(l.connects.Swap(0) + l.listConnects.Swap(0) + l.recordConnects.Swap(0))
	}
}

// current returns the open handles; a caller holds a client that joined.
func (l *link) current() *handles {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.h
}

// connectAttempts is every connection attempt of the link's handles.
func (l *link) connectAttempts() uint64 {
	return l.closed.Load() + l.connects.Load() + l.listConnects.Load() + l.recordConnects.Load()
}

// pumpEvents reads a handle's events: errors that say every broker is
// down mark the cluster down for each client of the link.
func (l *link) pumpEvents(h *handles, events chan kafka.Event, connects *atomic.Uint64) {
	defer h.pumps.Done()
	for ev := range events {
		switch e := ev.(type) {
		case kafka.Error:
			if e.Code() == kafka.ErrAllBrokersDown {
				l.mu.Lock()
				clients := make([]*Client, 0, len(l.clients))
				for c := range l.clients {
					clients = append(clients, c)
				}
				l.mu.Unlock()
				for _, c := range clients {
					c.brokersDown()
				}
			}
		case *kafka.Stats:
			if n, ok := connectAttempts(e.String()); ok {
				connects.Store(n)
			}
			l.stats.Add(1)
		}
	}
}

// handles are the librdkafka handles of one cluster: a producer hosting
// the admin client, a second pair for the topic list, and once someone
// produced, a producer for their records.
type handles struct {
	producer *kafka.Producer
	admin    *kafka.AdminClient
	// records writes the records people produce (recordsProducer);
	// newRecords opens it.
	recordsMu  sync.Mutex
	records    *kafka.Producer
	closed     bool
	newRecords func() (*kafka.Producer, error)
	// lister asks for the topic list, on a handle of its own.
	lister         *kafka.AdminClient
	listerProducer *kafka.Producer
	// readers read records for the message browser.
	readers *readers
	// logs carries librdkafka's log lines to slog.
	logs  chan kafka.LogEvent
	pumps sync.WaitGroup
}

// close releases the handles; the four librdkafka handles are closed
// side by side, as each waits for its threads to end.
func (h *handles) close() {
	h.readers.close()
	h.recordsMu.Lock()
	h.closed = true
	closers := []func(){h.producer.Close, h.listerProducer.Close}
	if h.records != nil {
		closers = append(closers, h.records.Close)
	}
	h.recordsMu.Unlock()
	var wg sync.WaitGroup
	for _, f := range []func(){h.admin.Close, h.lister.Close} {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
	for _, f := range closers {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
	// The library closes only a logs channel of its own making; once the
	// producers are closed nothing writes to this one.
	close(h.logs)
	h.pumps.Wait()
}

// background marks the topic list's own refreshes, which keep a client's
// list fresh while it is in use but are not a use themselves.
type background struct{}

func isBackground(ctx context.Context) bool { return ctx.Value(background{}) != nil }
