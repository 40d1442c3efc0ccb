package clusters

import (
	"encoding/binary"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Telemetry records what a dev cluster really does, minute by minute, for
// the stand-in of the Confluent Cloud Metrics API: bytes and records
// written (observed in produce requests), records read (from the progress
// of committed offsets, at the topic's average record size), retained
// bytes and consumer lag (sampled).
type Telemetry struct {
	mu sync.Mutex
	// minutes holds, per series key, the values by minute (Unix minute).
	minutes map[seriesKey]map[int64]float64
	// produced counts records per partition (the end offsets: dev
	// clusters start empty and keep everything).
	produced map[partKey]int64
	bytesIn  map[string]float64
	recsIn   map[string]float64
	commits  map[groupPart]int64
	now      func() time.Time
	// names caches topic ids resolved by resolve (the worker's alone,
	// outside mu: resolving waits for the cluster's loop).
	names   map[[16]byte]string
	resolve func(id [16]byte) string
	work    chan func()
	// pasts are the topics given a past (Remember), by name.
	pasts map[string]past
}

type seriesKey struct {
	metric, topic, group string
}

type partKey struct {
	topic     string
	partition int32
}

type groupPart struct {
	group string
	partKey
}

// Series are the metric names the telemetry keeps (the Metrics API's).
const (
	seriesBytesIn    = "received_bytes"
	seriesBytesOut   = "sent_bytes"
	seriesRecordsIn  = "received_records"
	seriesRecordsOut = "sent_records"
	seriesRetained   = "retained_bytes"
	seriesLag        = "consumer_lag_offsets"
)

// keep is how long minutes are kept: the longest range the portal asks.
const keep = 7 * 24 * time.Hour

// Watch starts recording a cluster's telemetry. Requests are observed in
// the cluster's own loop and recorded by a worker: newer clients name
// topics by id (Produce v13, OffsetCommit v10), and resolving an id asks
// the cluster, which cannot answer from inside its loop.
func (c *Cluster) Watch() *Telemetry {
	t := &Telemetry{minutes: map[seriesKey]map[int64]float64{}, produced: map[partKey]int64{}, bytesIn: map[string]float64{},
		recsIn: map[string]float64{}, commits: map[groupPart]int64{}, now: time.Now, names: map[[16]byte]string{},
		pasts: map[string]past{}, work: make(chan func(), 4096), resolve: func(id [16]byte) string {
			if i := c.fake.TopicIDInfo(id); i != nil {
				return i.Topic
			}
			return ""
		}}
	go func() {
		for fn := range t.work {
			fn()
		}
	}()
	// kfake may still run a control function while the cluster closes:
	// no send after the close.
	var sending sync.Mutex
	closed := false
	c.mu.Lock()
	c.closers = append(c.closers, func() {
		sending.Lock()
		defer sending.Unlock()
		closed = true
		close(t.work)
	})
	c.telemetry = t
	c.mu.Unlock()
	observe := func(fn func()) {
		sending.Lock()
		defer sending.Unlock()
		if closed {
			return
		}
		select {
		case t.work <- fn:
		default:
			// A stand-in's telemetry may drop under a flood rather than
			// stall the cluster.
		}
	}
	// kfake reuses requests once handled: what is recorded is copied
	// out in the loop.
	c.fake.ControlKey(kmsg.Produce.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.fake.KeepControl()
		o, at := observeProduce(req.(*kmsg.ProduceRequest)), t.now()
		observe(func() { t.produce(o, at) })
		return nil, nil, false
	})
	c.fake.ControlKey(kmsg.OffsetCommit.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.fake.KeepControl()
		o, at := observeCommit(req.(*kmsg.OffsetCommitRequest)), t.now()
		observe(func() { t.commit(o, at) })
		return nil, nil, false
	})
	return t
}

// NewTelemetry returns telemetry that watches no cluster: what Record puts
// in, for tests of what is served from it.
func NewTelemetry() *Telemetry {
	return &Telemetry{minutes: map[seriesKey]map[int64]float64{}, produced: map[partKey]int64{}, bytesIn: map[string]float64{},
		recsIn: map[string]float64{}, commits: map[groupPart]int64{}, now: time.Now, names: map[[16]byte]string{}, pasts: map[string]past{}}
}

// Record adds v to a counter metric (received_bytes, ...) of a topic, or
// of a group on a topic, in the minute of at.
func (t *Telemetry) Record(metric, topic, group string, at time.Time, v float64) {
	t.add(metric, topic, group, at, v, false)
}

// topicName is the name of a topic given by name or by id.
func (t *Telemetry) topicName(name string, id [16]byte) string {
	if name != "" || id == ([16]byte{}) {
		return name
	}
	if n, ok := t.names[id]; ok {
		return n
	}
	n := t.resolve(id)
	if n != "" {
		t.names[id] = n
	}
	return n
}

func (t *Telemetry) add(metric, topic, group string, at time.Time, v float64, gauge bool) {
	k := seriesKey{metric, topic, group}
	m := t.minutes[k]
	if m == nil {
		m = map[int64]float64{}
		t.minutes[k] = m
	}
	minute := at.Unix() / 60
	if gauge {
		m[minute] = v
	} else {
		m[minute] += v
	}
	// Forget what is older than the longest range, now and then.
	if len(m) > int(keep/time.Minute)+60 {
		cut := at.Add(-keep).Unix() / 60
		for x := range m {
			if x < cut {
				delete(m, x)
			}
		}
	}
}

// observed is what telemetry keeps of a produce or commit request.
type observed struct {
	group      string
	generation int32
	topics     []observedTopic
}

type observedTopic struct {
	name  string
	id    [16]byte
	parts []observedPart
}

type observedPart struct {
	partition      int32
	bytes, records float64
	offset         int64
}

// observeProduce counts a produce request's bytes and records per
// partition, from the record batches' headers.
func observeProduce(req *kmsg.ProduceRequest) observed {
	var o observed
	for _, topic := range req.Topics {
		ot := observedTopic{name: topic.Topic, id: topic.TopicID}
		for _, p := range topic.Partitions {
			op := observedPart{partition: p.Partition}
			batches := p.Records
			for len(batches) >= 61 {
				size := int(binary.BigEndian.Uint32(batches[8:12])) + 12
				if size > len(batches) || size < 61 {
					break
				}
				op.bytes += float64(size)
				op.records += float64(binary.BigEndian.Uint32(batches[57:61]))
				batches = batches[size:]
			}
			ot.parts = append(ot.parts, op)
		}
		o.topics = append(o.topics, ot)
	}
	return o
}

// observeCommit keeps a commit's offsets.
func observeCommit(req *kmsg.OffsetCommitRequest) observed {
	o := observed{group: req.Group, generation: req.Generation}
	for _, topic := range req.Topics {
		ot := observedTopic{name: topic.Topic, id: topic.TopicID}
		for _, p := range topic.Partitions {
			ot.parts = append(ot.parts, observedPart{partition: p.Partition, offset: p.Offset})
		}
		o.topics = append(o.topics, ot)
	}
	return o
}

// produce records bytes and records written.
func (t *Telemetry) produce(o observed, now time.Time) {
	for i := range o.topics {
		o.topics[i].name = t.topicName(o.topics[i].name, o.topics[i].id)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, topic := range o.topics {
		for _, p := range topic.parts {
			t.produced[partKey{topic.name, p.partition}] += int64(p.records)
			t.bytesIn[topic.name] += p.bytes
			t.recsIn[topic.name] += p.records
			t.add(seriesBytesIn, topic.name, "", now, p.bytes, false)
			t.add(seriesRecordsIn, topic.name, "", now, p.records, false)
		}
	}
}

// commit counts the records a group read since its previous commit.
func (t *Telemetry) commit(o observed, now time.Time) {
	for i := range o.topics {
		o.topics[i].name = t.topicName(o.topics[i].name, o.topics[i].id)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, topic := range o.topics {
		for _, p := range topic.parts {
			k := groupPart{o.group, partKey{topic.name, p.partition}}
			prev, seen := t.commits[k]
			t.commits[k] = p.offset
			if !seen || p.offset <= prev || o.generation < 0 {
				continue // a first commit, a rewind, or an administrator's
			}
			read := float64(p.offset - prev)
			avg := 0.0
			if t.recsIn[topic.name] > 0 {
				avg = t.bytesIn[topic.name] / t.recsIn[topic.name]
			}
			t.add(seriesRecordsOut, topic.name, "", now, read, false)
			t.add(seriesBytesOut, topic.name, "", now, read*avg, false)
		}
	}
}

// Sample records the gauges (retained bytes, consumer lag) at now.
func (t *Telemetry) Sample() {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for topic, b := range t.bytesIn {
		t.add(seriesRetained, topic, "", now, b, true)
	}
	lag := map[seriesKey]float64{}
	for k, committed := range t.commits {
		lag[seriesKey{seriesLag, k.topic, k.group}] += float64(max(0, t.produced[k.partKey]-committed))
	}
	for k, v := range lag {
		t.add(seriesLag, k.topic, k.group, now, v, true)
	}
}

// bucketKey is a bucket of a query's answer.
type bucketKey struct {
	at           int64
	topic, group string
}

// Point is one bucket of a series, for the query stand-in.
type Point struct {
	At    time.Time
	Value float64
	Topic string
	Group string
}

// Query returns a metric's buckets of size step over [start, end),
// summed per bucket (counters) or the last value in it (gauges), per topic
// and group; filters keep one topic or group.
func (t *Telemetry) Query(metric string, start, end time.Time, step time.Duration, topic, group string) []Point {
	t.mu.Lock()
	defer t.mu.Unlock()
	gauge := metric == seriesRetained || metric == seriesLag
	sums := map[bucketKey]float64{}
	lastMinute := map[bucketKey]int64{}
	for k, m := range t.minutes {
		if k.metric != metric || (topic != "" && k.topic != topic) || (group != "" && k.group != group) {
			continue
		}
		for minute, v := range m {
			at := time.Unix(minute*60, 0)
			if at.Before(start) || !at.Before(end) {
				continue
			}
			b := bucketKey{start.Add(at.Sub(start) / step * step).Unix(), k.topic, k.group}
			if gauge {
				if minute >= lastMinute[b] {
					sums[b], lastMinute[b] = v, minute
				}
			} else {
				sums[b] += v
			}
		}
	}
	t.addPasts(sums, metric, start, end, step, topic, group)
	out := make([]Point, 0, len(sums))
	for b, v := range sums {
		out = append(out, Point{At: time.Unix(b.at, 0).UTC(), Value: v, Topic: b.topic, Group: b.group})
	}
	return out
}

// Run samples the gauges every interval until done is closed.
func (t *Telemetry) Run(done <-chan struct{}, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	t.Sample()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			t.Sample()
		}
	}
}
