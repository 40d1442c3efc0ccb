// Package records reads a topic's records for people (decoded with their
// schemas, masked by role, filtered, tailed) and produces records by hand,
// within the stage's data_access and produce switches and the shares of
// costly work.
package records

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/cpupriority"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/masking"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Bounds of one read: the bytes taken from the cluster and the time it
// may take, so that a large topic or a slow cluster cannot hold a request.
const (
	readMaxBytes  = 4 << 20
	readTimeout   = 3 * time.Second
	filterTimeout = 2 * time.Second
)

// Service reads a topic's records for people: decoded with the schema the
// value names, audited per read, allowed per stage by its data_access
// switch.
type Service struct {
	guard   *gate.Guard
	filters *recordFilters
	scans   *scanGate
	tails   *tails
	schemas sync.Map // env + schema id -> *readSchema
	mask    Masking
}

var _ record.MessageService = (*Service)(nil)

// New returns the message browser's service; filtered reads run
// within the replica's shares of costly work (ratelimit.Shares' defaults
// when nil).
func New(g *gate.Guard, costly *ratelimit.Concurrency) *Service {
	if costly == nil {
		costly = ratelimit.NewConcurrency(ratelimit.Shares{})
	}
	return &Service{guard: g, filters: newRecordFilters(), scans: &scanGate{c: costly}, tails: newTails(time.Now),
		mask: Masking{Tags: masking.NewTags("PII"), Unmasked: portal.Admin}}
}

// Read reads records: the latest q.Limit (spread over the partitions, the
// newest kept), or q.Limit from an offset, a time, or after the offsets
// of an earlier read (a tail), in one partition or all. A filtered read
// looks at up to MaxScan records and keeps the first q.Limit that match.
// No consumer group is joined or committed to.
func (s *Service) Read(ctx context.Context, scope portal.Scope, topic string, q record.MessageQuery) (record.RecordPage, error) {
	ctx, call, err := s.enterData(ctx, scope, topic, "read records", portal.ActTopicReadRecords, access.CheckData)
	if err != nil {
		return record.RecordPage{}, err
	}
	match, err := checkRecordQuery(&q, s.filters)
	if err != nil {
		return record.RecordPage{}, err
	}
	leave, err := s.scans.enter(ctx, call.Principal.Subject, call.Scope.Unit.ID)
	if err != nil {
		return record.RecordPage{}, err
	}
	defer leave()
	// A read takes one of the cluster's record readers (librdkafka's
	// threads take the priority of the thread that makes them, so readers
	// made here keep this one), fetches, decodes and judges records: one
	// unit's data work, at a lower priority than the pages other units
	// wait on.
	var page record.RecordPage
	err = cpupriority.Run(func() (err error) {
		page, err = s.read(ctx, call, topic, q, match)
		return err
	})
	return page, err
}

// read is Read's work once the caller is admitted.
func (s *Service) read(ctx context.Context, call *gate.Call, topic string, q record.MessageQuery,
	match func(context.Context, record.BrowsedMessage) bool) (record.RecordPage, error) {
	full, err := call.Topic(ctx, topic)
	if err != nil {
		return record.RecordPage{}, err
	}
	d, err := call.Env.Topics.DescribeTopic(ctx, full)
	if err != nil {
		return record.RecordPage{}, err
	}
	parts := make([]platform.TopicPartition, 0, len(d.Partitions))
	for _, p := range d.Partitions {
		_, tailed := q.After[p.ID]
		if (q.Partition == nil || *q.Partition == p.ID) && (q.After == nil || tailed) {
			parts = append(parts, platform.TopicPartition{Topic: full, Partition: p.ID})
		}
	}
	if len(parts) == 0 {
		e := portal.New(portal.InvalidParameter, "topic %s has partitions 0 to %d", full, len(d.Partitions)-1)
		e.Field = "partition"
		return record.RecordPage{}, e
	}
	count := q.Limit
	if q.Filtered() {
		count = max(q.Limit, record.MaxScan/len(parts))
	}
	ranges, ends, err := s.ranges(ctx, call, parts, q, count)
	if err != nil {
		return record.RecordPage{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	raw, err := call.Env.Messages.ReadMessages(rctx, full, ranges, readMaxBytes)
	if err != nil {
		s.guard.Record(ctx, call, portal.ActTopicReadRecords, full, err)
		return record.RecordPage{}, err
	}
	latest := q.Offset == nil && q.Timestamp.IsZero() && q.After == nil
	if latest {
		// The latest: newest first across partitions.
		slices.SortFunc(raw, func(a, b platform.Message) int { return b.Timestamp.Compare(a.Timestamp) })
	} else {
		slices.SortFunc(raw, func(a, b platform.Message) int { return a.Timestamp.Compare(b.Timestamp) })
	}
	mask := access.DecideMasking(call.Principal.Role(call.Scope.Unit.ID), call.Scope.Stage, s.mask.Unmasked)
	out := record.RecordPage{Ends: ends, Items: []record.BrowsedMessage{}}
	// Filtering has its own time bound: an expensive expression over
	// thousands of records stops there, and Scanned says how far it got.
	fctx, fcancel := context.WithTimeout(ctx, filterTimeout)
	defer fcancel()
	for _, m := range raw {
		if len(out.Items) == q.Limit || fctx.Err() != nil {
			break
		}
		out.Scanned++
		b := s.decode(ctx, call.Env, m, mask)
		if b.MaskedWhole && call.Scope.Stage.Unclassified == tenancy.UnclassifiedRefuse {
			err := portal.New(portal.DataAccessDisabled, "%s holds records that are not in the Schema Registry's format (partition %d, offset %d): "+
				"masking cannot tell what of them is sensitive, and stage %s refuses such reads below %s (stages[].masking_unclassified: refuse)",
				full, m.Partition, m.Offset, call.Scope.Stage.Name, s.mask.Unmasked)
			s.guard.Record(ctx, call, portal.ActTopicReadRecords, full, err)
			return record.RecordPage{}, err
		}
		if match != nil && !match(fctx, b) {
			continue
		}
		out.Items = append(out.Items, b)
	}
	if !latest {
		tailEnds(out.Ends, ranges, raw, out.Scanned)
	}
	if q.After != nil {
		// A tail's poll: one event for the whole tail.
		s.tails.poll(ctx, s.guard, call, full, len(out.Items), s.masked(call, mask, out.Items))
		return out, nil
	}
	changes := []trail.Change{{Field: "range", After: describeRead(ranges, q, len(out.Items))}}
	if m := s.masked(call, mask, out.Items); m != nil {
		changes = append(changes, m.change())
	}
	s.guard.Record(ctx, call, portal.ActTopicReadRecords, full, nil, changes...)
	return out, nil
}

// tailEnds moves each partition's end back to the first record not
// looked at (the answer's limit, the filter's time, the read's bytes), so
// that a tail continuing from the ends misses nothing. A read of the
// latest records keeps the ends: a tail from there wants what comes next.
func tailEnds(ends map[int]int64, ranges []platform.ReadRange, raw []platform.Message, scanned int) {
	read := map[int]int{}
	last := map[int]int64{}
	for _, m := range raw {
		read[m.Partition]++
		last[m.Partition] = max(last[m.Partition], m.Offset)
	}
	for _, r := range ranges {
		if read[r.Partition] == 0 {
			ends[r.Partition] = min(ends[r.Partition], r.From)
		} else {
			ends[r.Partition] = min(ends[r.Partition], last[r.Partition]+1)
		}
	}
	for _, m := range raw[scanned:] {
		ends[m.Partition] = min(ends[m.Partition], m.Offset)
	}
}

// enterData enters a call on a topic's records: the unit and stage, then
// the stage's switch for it (check); a refusal is audited (a rate limit is
// not, or a runaway script would fill the trail).
func (s *Service) enterData(ctx context.Context, scope portal.Scope, topic, what string, event portal.Action,
	check func(*portal.Principal, tenancy.Scope) error) (context.Context, *gate.Call, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, what)
	if err == nil {
		err = check(call.Principal, call.Scope)
	}
	if err != nil {
		if p := portal.PrincipalFrom(ctx); p != nil && !portal.Is(err, portal.RateLimited) && !portal.Is(err, portal.Unauthenticated) {
			s.guard.RecordEvent(ctx, trail.AuditEvent{Actor: p.Actor(), ActorRole: p.Role(scope.BU).String(), Groups: p.Grant(scope.BU).Groups,
				Service: p.Service, BU: scope.BU, Stage: scope.Stage, Action: event, Resource: topic, Outcome: gate.Outcome(err), Detail: portal.FirstMessage(err)})
		}
		return ctx, nil, err
	}
	return ctx, call, nil
}

// checkRecordQuery checks a read's bounds and compiles its filters into
// one test of a decoded record (nil for none).
func checkRecordQuery(q *record.MessageQuery, filters *recordFilters) (func(context.Context, record.BrowsedMessage) bool, error) {
	var v portal.Validation
	switch {
	case q.Limit == 0:
		q.Limit = 20
	case q.Limit < 0 || q.Limit > record.MaxMessages:
		v.Add(portal.Invalid("limit", "must be between 1 and %d", record.MaxMessages))
	}
	if q.Offset != nil && *q.Offset < 0 {
		v.Add(portal.Invalid("offset", "must not be negative"))
	}
	if q.Offset != nil && !q.Timestamp.IsZero() {
		v.Add(portal.Invalid("timestamp", "give an offset or a timestamp, not both"))
	}
	if q.After != nil && (q.Offset != nil || !q.Timestamp.IsZero()) {
		v.Add(portal.Invalid("after", "a tail continues after offsets; give no offset or timestamp with it"))
	}
	match, err := filters.compile(*q)
	if err != nil {
		v.Add(err)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return match, nil
}

// ranges works out where each partition's read starts and how many
// records it takes, and the partitions' end offsets.
func (s *Service) ranges(ctx context.Context, call *gate.Call, parts []platform.TopicPartition, q record.MessageQuery, count int) ([]platform.ReadRange, map[int]int64, error) {
	earliest, latest, err := platform.Retained(ctx, call.Env.Groups, parts)
	if err != nil {
		return nil, nil, err
	}
	var at map[platform.TopicPartition]int64
	if !q.Timestamp.IsZero() {
		if at, err = call.Env.Groups.Offsets(ctx, parts, platform.OffsetQuery{At: q.Timestamp}); err != nil {
			return nil, nil, err
		}
	}
	out := make([]platform.ReadRange, 0, len(parts))
	ends := make(map[int]int64, len(parts))
	for _, p := range parts {
		ends[p.Partition] = latest[p]
		from := max(earliest[p], latest[p]-int64(count))
		switch {
		case q.Offset != nil:
			from = max(earliest[p], *q.Offset)
		case at != nil:
			from = at[p]
		case q.After != nil:
			from = max(earliest[p], q.After[p.Partition])
		}
		if n := min(int64(count), latest[p]-from); n > 0 {
			out = append(out, platform.ReadRange{Partition: p.Partition, From: from, Count: int(n)})
		}
	}
	return out, ends, nil
}

// describeRead says, for the trail, what was read (never the data).
func describeRead(ranges []platform.ReadRange, q record.MessageQuery, n int) string {
	var b bytes.Buffer
	switch {
	case q.Offset != nil:
		fmt.Fprintf(&b, "from offset %d", *q.Offset)
	case !q.Timestamp.IsZero():
		fmt.Fprintf(&b, "from %s", q.Timestamp.UTC().Format(time.RFC3339))
	case q.After != nil:
		b.WriteString("tail after the last offsets read")
	default:
		fmt.Fprintf(&b, "latest %d", q.Limit)
	}
	if q.Filtered() {
		// What was looked for is the reader's business: only that a
		// filter narrowed the read.
		b.WriteString(", filtered")
	}
	fmt.Fprintf(&b, ": %d record(s);", n)
	for _, r := range ranges {
		fmt.Fprintf(&b, " [%d] %d-%d", r.Partition, r.From, r.From+int64(r.Count)-1)
	}
	return b.String()
}
