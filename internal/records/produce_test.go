package records_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/records"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestProduceAccessAndEncoding: producing follows the stage's produce
// switch and the read-only rule; values are written as text, checked
// JSON, or Avro and JSON Schema in the wire format (read back decoded);
// one bad record refuses them all with its field; each produce is audited
// with partitions, offsets and sizes, never the data.
func TestProduceAccessAndEncoding(t *testing.T) {
	w, topic := servicetest.NewWithGroups(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	one := func(v string) record.ProduceRequest {
		return record.ProduceRequest{Records: []record.OutRecord{{Key: ptr("k"), Value: ptr(v)}}}
	}
	if _, err := w.Messages.Produce(servicetest.AsRole(portal.Viewer), dev, topic, one("x")); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a Viewer in dev: %v", err)
	}
	// run is read-only and its produce switch is off by default.
	for _, r := range []portal.Role{portal.Developer, portal.Admin} {
		if _, err := w.Messages.Produce(servicetest.AsRole(r), portal.Scope{BU: "scada", Stage: "run"}, strings.Replace(topic, "-dev-", "-run-", 1), one("x")); !portal.Is(err, portal.ProduceDisabled) {
			t.Errorf("%s in run: %v", r, err)
		}
	}

	res, err := w.Messages.Produce(servicetest.AsRole(portal.Developer), dev, topic, record.ProduceRequest{Records: []record.OutRecord{
		{Key: ptr("k1"), Value: ptr("secret-text-value"), Headers: []record.RecordHeader{{Key: "source", Value: "test"}}},
		{Value: nil, Partition: ptr(0)},
	}})
	if err != nil || res.Written() != 2 || res.Records[0].Offset != 100 || res.Records[1].Offset != 101 || res.Records[0].Size != len("k1secret-text-valuesourcetest") {
		t.Fatalf("text: %+v %v", res, err)
	}

	// Avro with the topic's value subject (the seed's record {a: string}).
	res, err = w.Messages.Produce(servicetest.AsRole(portal.Developer), dev, topic, record.ProduceRequest{ValueFormat: record.FormatSchema,
		Records: []record.OutRecord{{Value: ptr(`{"a": "avro-hello"}`)}}})
	if err != nil || res.SchemaID == 0 || res.Written() != 1 {
		t.Fatalf("avro: %+v %v", res, err)
	}
	page, err := w.Messages.Read(servicetest.AsRole(portal.Developer), dev, topic, record.MessageQuery{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	msgs := page.Items
	var decoded bool
	for _, m := range msgs {
		decoded = decoded || (m.ValueEncoding == record.EncodingAvro && strings.Contains(m.Value, `"avro-hello"`) && m.SchemaID == res.SchemaID)
	}
	if !decoded {
		t.Errorf("the Avro record does not read back decoded: %+v", msgs)
	}

	// Problems at their fields, and nothing written.
	before := len(msgs)
	for _, c := range []struct {
		req   record.ProduceRequest
		field string
	}{
		{record.ProduceRequest{ValueFormat: record.FormatSchema, Records: []record.OutRecord{{Value: ptr(`{"a": "fine"}`)}, {Value: ptr(`{"a": 5}`)}}}, "records[1].value.a"},
		{record.ProduceRequest{ValueFormat: record.FormatSchema, Records: []record.OutRecord{{Value: ptr(`{"b": "x"}`)}}}, "records[0].value.a"},
		{record.ProduceRequest{ValueFormat: record.FormatJSON, Records: []record.OutRecord{{Value: ptr(`{"a": `)}}}, "records[0].value"},
		{record.ProduceRequest{Records: []record.OutRecord{{Value: ptr("x"), Partition: ptr(7)}}}, "records[0].partition"},
		{record.ProduceRequest{ValueFormat: "xml", Records: []record.OutRecord{{Value: ptr("x")}}}, "value_format"},
		{record.ProduceRequest{ValueFormat: record.FormatSchema, Subject: "nosuch", Records: []record.OutRecord{{Value: ptr("{}")}}}, "subject"},
		{record.ProduceRequest{}, "records"},
		{record.ProduceRequest{Records: []record.OutRecord{{Value: ptr(strings.Repeat("x", record.MaxProduceBytes+1))}}}, "records"},
	} {
		_, err := w.Messages.Produce(servicetest.AsRole(portal.Developer), dev, topic, c.req)
		ps := portal.Problems(err)
		if len(ps) == 0 || ps[0].Field != c.field {
			t.Errorf("%+v: want a problem at %s, got %v", c.req.ValueFormat, c.field, err)
		}
	}

	// JSON Schema: a subject of the unit, validated with the field.
	if _, err := w.Schemas.Create(servicetest.AsRole(portal.Developer), dev, schema.NewSchema{Topic: "existing", SubjectType: "key",
		SchemaDef: schema.SchemaDef{SchemaType: "JSON", Schema: `{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`}}); err != nil {
		t.Fatal(err)
	}
	js := func(v string) record.ProduceRequest {
		return record.ProduceRequest{ValueFormat: record.FormatSchema, Subject: "existing-key", Records: []record.OutRecord{{Value: ptr(v)}}}
	}
	if _, err := w.Messages.Produce(servicetest.AsRole(portal.Developer), dev, topic, js(`{"n": 0}`)); len(portal.Problems(err)) == 0 || portal.Problems(err)[0].Field != "records[0].value.n" {
		t.Errorf("a JSON Schema violation: %v", err)
	}
	if res, err := w.Messages.Produce(servicetest.AsRole(portal.Developer), dev, topic, js(`{"n": 3}`)); err != nil || res.SchemaID == 0 {
		t.Errorf("a JSON Schema value: %+v %v", res, err)
	}
	if page, _ = w.Messages.Read(servicetest.AsRole(portal.Developer), dev, topic, record.MessageQuery{Limit: 10}); len(page.Items) != before+1 {
		t.Errorf("refused requests wrote records: %d then %d", before, len(page.Items))
	}

	var ok, refused int
	for _, e := range w.AuditEvents(t) {
		if e.Action != portal.ActTopicProduce {
			continue
		}
		for _, c := range e.Changes {
			if strings.Contains(c.After, "secret-text-value") || strings.Contains(c.After, "avro-hello") {
				t.Errorf("the trail holds record data: %s", c.After)
			}
		}
		switch {
		case e.Outcome == "ok" && len(e.Changes) == 1 && strings.Contains(e.Changes[0].After, "[0]@"):
			ok++
		case e.Outcome != "ok":
			refused++
		}
	}
	if ok != 3 || refused < 3 {
		t.Errorf("audited produces %d, refusals %d", ok, refused)
	}
}

// TestRecordFiltersAndTail: text filters on key, value and header, a CEL
// expression over the decoded record (its problems with their place), and
// a tail that reads only what came after a page's ends.
func TestRecordFiltersAndTail(t *testing.T) {
	w, topic := servicetest.NewWithGroups(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	ctx := servicetest.AsRole(portal.Developer)
	var recs []record.OutRecord
	for i, src := range []string{"meter", "pump", "meter", "valve"} {
		recs = append(recs, record.OutRecord{Key: ptr(fmt.Sprintf("dev-%d", i)), Value: ptr(fmt.Sprintf(`{"amount": %d, "site": "North"}`, i*10)),
			Headers: []record.RecordHeader{{Key: "source", Value: src}}})
	}
	if _, err := w.Messages.Produce(ctx, dev, topic, record.ProduceRequest{ValueFormat: record.FormatJSON, Records: recs}); err != nil {
		t.Fatal(err)
	}
	count := func(q record.MessageQuery) int {
		t.Helper()
		page, err := w.Messages.Read(ctx, dev, topic, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		return len(page.Items)
	}
	for want, q := range map[int]record.MessageQuery{
		1: {Key: "DEV-3"},
		4: {Value: "north"},
		2: {Header: "meter"},
		3: {Filter: `value.amount >= 10`},
		0: {Filter: `value.amount > 10 && headers["source"] == "pump"`},
	} {
		if got := count(q); got != want {
			t.Errorf("%+v: %d records, want %d", q, got, want)
		}
	}
	if got := count(record.MessageQuery{Filter: `key.matches("^dev-[0-3]$") && !key.matches("1")`}); got != 3 {
		t.Errorf("a CEL filter with patterns: %d records, want 3", got)
	}
	if got := count(record.MessageQuery{Filter: `headers.source == "meter" && value.amount == 20`}); got != 1 {
		t.Errorf("a CEL filter over headers and the value: %d", got)
	}
	for filter, want := range map[string]string{
		`value.amount >`:    "at 1:",
		`value.amount + 1`:  "must be true or false",
		`key.size() > 1 &&`: "not valid CEL",
		// A pattern that cannot match anything is refused before the scan,
		// not answered with no records.
		`key.matches("dev-(")`: "missing closing )",
	} {
		_, err := w.Messages.Read(ctx, dev, topic, record.MessageQuery{Filter: filter})
		if ps := portal.Problems(err); len(ps) != 1 || ps[0].Field != "filter" || !strings.Contains(ps[0].Message, want) {
			t.Errorf("%q: %v, want %q", filter, err, want)
		}
	}

	page, err := w.Messages.Read(ctx, dev, topic, record.MessageQuery{})
	if err != nil || len(page.Ends) != 1 {
		t.Fatalf("ends %+v %v", page.Ends, err)
	}
	if _, err := w.Messages.Produce(ctx, dev, topic, record.ProduceRequest{Records: []record.OutRecord{{Value: ptr("late-1")}, {Value: ptr("late-2")}}}); err != nil {
		t.Fatal(err)
	}
	tail, err := w.Messages.Read(ctx, dev, topic, record.MessageQuery{After: page.Ends})
	if err != nil || len(tail.Items) != 2 || tail.Items[0].Value != "late-1" || tail.Ends[0] != page.Ends[0]+2 {
		t.Errorf("tail %+v %v", tail, err)
	}
	// A tail held to one record a poll continues where it stopped.
	first, err := w.Messages.Read(ctx, dev, topic, record.MessageQuery{After: page.Ends, Limit: 1})
	if err != nil || len(first.Items) != 1 || first.Items[0].Value != "late-1" {
		t.Fatalf("first poll %+v %v", first, err)
	}
	second, err := w.Messages.Read(ctx, dev, topic, record.MessageQuery{After: first.Ends, Limit: 1})
	if err != nil || len(second.Items) != 1 || second.Items[0].Value != "late-2" {
		t.Errorf("second poll %+v %v", second, err)
	}
	for _, e := range w.AuditEvents(t) {
		for _, c := range e.Changes {
			if strings.Contains(c.After, "amount") || strings.Contains(c.After, "meter") {
				t.Errorf("the trail holds a filter's text: %s", c.After)
			}
		}
	}
}

// TestCreateBatch: many topics in one request, each checked and audited
// with its own outcome: a bad name and an existing topic fail alone.
func TestCreateBatch(t *testing.T) {
	w := servicetest.New(t)
	sd := w.Seed(t, "scada", "dev")
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	c := w.Clusters["edh-shared/dev"]
	before := c.BatchCreates()
	errs := w.Topics.CreateBatch(servicetest.AsRole(portal.Developer), dev, []topic.NewTopic{
		{Name: "made-1", Partitions: ptr(2)}, {Name: "bad name!"}, {Name: strings.TrimPrefix(sd.Topic, "edh-shared-scada-dev-")}, {Name: "made-2"},
	})
	if errs[0] != nil || !portal.Is(errs[1], portal.InvalidParameter) || !portal.Is(errs[2], portal.AlreadyExists) || errs[3] != nil || c.BatchCreates()-before != 1 {
		t.Errorf("errors %v, %d requests", errs, c.BatchCreates()-before)
	}
	seen := map[string]bool{}
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActTopicCreate {
			seen[e.Resource+" "+e.Outcome] = true
		}
	}
	if !seen["edh-shared-scada-dev-made-1 ok"] || !seen["edh-shared-scada-dev-made-2 ok"] || !seen[sd.Topic+" "+string(portal.AlreadyExists)] {
		t.Errorf("audited %v", seen)
	}
	if errs := w.Topics.CreateBatch(servicetest.AsRole(portal.Viewer), dev, []topic.NewTopic{{Name: "nope"}}); !portal.Is(errs[0], portal.InsufficientRole) {
		t.Errorf("a Viewer's batch: %v", errs)
	}
}

// TestATailIsOneAuditEvent: a records tail (reads that continue from the
// ends of the one before) writes one audit event however many polls it
// makes, its polls and records counted and amended as it goes; a tail
// that went idle and starts again is a new event.
func TestATailIsOneAuditEvent(t *testing.T) {
	w, topic := servicetest.NewWithGroups(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	ctx := servicetest.AsRole(portal.Developer)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	records.SetTailClock(w.Messages, func() time.Time { return now })
	page, err := w.Messages.Read(ctx, dev, topic, record.MessageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	tails := func() []trail.AuditEvent {
		var out []trail.AuditEvent
		for _, e := range w.AuditEvents(t) {
			if e.Action == portal.ActTopicReadRecords && len(e.Changes) == 1 && e.Changes[0].Field == "tail" {
				out = append(out, e)
			}
		}
		return out
	}
	for i := range 31 {
		now = now.Add(time.Second)
		if _, err := w.Messages.Produce(ctx, dev, topic, record.ProduceRequest{Records: []record.OutRecord{{Value: ptr(fmt.Sprint("poll-", i))}}}); err != nil {
			t.Fatal(err)
		}
		if page, err = w.Messages.Read(ctx, dev, topic, record.MessageQuery{After: page.Ends}); err != nil || len(page.Items) != 1 {
			t.Fatalf("poll %d: %+v %v", i, page, err)
		}
	}
	got := tails()
	// Amended every 15 s: after 31 polls in 31 s, all of them.
	if len(got) != 1 || !strings.HasPrefix(got[0].Changes[0].After, "31 polls, 31 records") {
		t.Fatalf("after 31 polls in 31 s: %+v", got)
	}
	now = now.Add(2 * records.TailIdle)
	if _, err := w.Messages.Read(ctx, dev, topic, record.MessageQuery{After: page.Ends}); err != nil {
		t.Fatal(err)
	}
	if got := tails(); len(got) != 2 || !strings.HasPrefix(got[0].Changes[0].After, "1 polls") && !strings.HasPrefix(got[1].Changes[0].After, "1 polls") {
		t.Errorf("a tail after an idle minute: %+v", got)
	}
}
