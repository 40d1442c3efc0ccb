package service_test

import (
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestProduceAccessAndEncoding: producing follows the stage's produce
// switch and the read-only rule; values are written as text, checked
// JSON, or Avro and JSON Schema in the wire format (read back decoded);
// one bad record refuses them all with its field; each produce is audited
// with partitions, offsets and sizes, never the data.
func TestProduceAccessAndEncoding(t *testing.T) {
	w, topic := groupWorld(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	one := func(v string) portal.ProduceRequest {
		return portal.ProduceRequest{Records: []portal.OutRecord{{Key: ptr("k"), Value: ptr(v)}}}
	}
	if _, err := w.Messages.Produce(as(portal.Viewer), dev, topic, one("x")); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a Viewer in dev: %v", err)
	}
	// run is read-only and its produce switch is off by default.
	for _, r := range []portal.Role{portal.Developer, portal.Admin} {
		if _, err := w.Messages.Produce(as(r), portal.Scope{BU: "scada", Stage: "run"}, strings.Replace(topic, "-dev-", "-run-", 1), one("x")); !portal.Is(err, portal.DataAccessDisabled) {
			t.Errorf("%s in run: %v", r, err)
		}
	}

	res, err := w.Messages.Produce(as(portal.Developer), dev, topic, portal.ProduceRequest{Records: []portal.OutRecord{
		{Key: ptr("k1"), Value: ptr("secret-text-value"), Headers: []portal.RecordHeader{{Key: "source", Value: "test"}}},
		{Value: nil, Partition: ptr(0)},
	}})
	if err != nil || res.Written() != 2 || res.Records[0].Offset != 100 || res.Records[1].Offset != 101 || res.Records[0].Size != len("k1secret-text-valuesourcetest") {
		t.Fatalf("text: %+v %v", res, err)
	}

	// Avro with the topic's value subject (the seed's record {a: string}).
	res, err = w.Messages.Produce(as(portal.Developer), dev, topic, portal.ProduceRequest{ValueFormat: portal.FormatSchema,
		Records: []portal.OutRecord{{Value: ptr(`{"a": "avro-hello"}`)}}})
	if err != nil || res.SchemaID == 0 || res.Written() != 1 {
		t.Fatalf("avro: %+v %v", res, err)
	}
	msgs, err := w.Messages.Read(as(portal.Developer), dev, topic, portal.MessageQuery{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	var decoded bool
	for _, m := range msgs {
		decoded = decoded || (m.ValueEncoding == portal.EncodingAvro && strings.Contains(m.Value, `"avro-hello"`) && m.SchemaID == res.SchemaID)
	}
	if !decoded {
		t.Errorf("the Avro record does not read back decoded: %+v", msgs)
	}

	// Problems at their fields, and nothing written.
	before := len(msgs)
	for _, c := range []struct {
		req   portal.ProduceRequest
		field string
	}{
		{portal.ProduceRequest{ValueFormat: portal.FormatSchema, Records: []portal.OutRecord{{Value: ptr(`{"a": "fine"}`)}, {Value: ptr(`{"a": 5}`)}}}, "records[1].value.a"},
		{portal.ProduceRequest{ValueFormat: portal.FormatSchema, Records: []portal.OutRecord{{Value: ptr(`{"b": "x"}`)}}}, "records[0].value.a"},
		{portal.ProduceRequest{ValueFormat: portal.FormatJSON, Records: []portal.OutRecord{{Value: ptr(`{"a": `)}}}, "records[0].value"},
		{portal.ProduceRequest{Records: []portal.OutRecord{{Value: ptr("x"), Partition: ptr(7)}}}, "records[0].partition"},
		{portal.ProduceRequest{ValueFormat: "xml", Records: []portal.OutRecord{{Value: ptr("x")}}}, "value_format"},
		{portal.ProduceRequest{ValueFormat: portal.FormatSchema, Subject: "nosuch", Records: []portal.OutRecord{{Value: ptr("{}")}}}, "subject"},
		{portal.ProduceRequest{}, "records"},
		{portal.ProduceRequest{Records: []portal.OutRecord{{Value: ptr(strings.Repeat("x", portal.MaxProduceBytes+1))}}}, "records"},
	} {
		_, err := w.Messages.Produce(as(portal.Developer), dev, topic, c.req)
		ps := portal.Problems(err)
		if len(ps) == 0 || ps[0].Field != c.field {
			t.Errorf("%+v: want a problem at %s, got %v", c.req.ValueFormat, c.field, err)
		}
	}

	// JSON Schema: a subject of the unit, validated with the field.
	if _, err := w.Schemas.Create(as(portal.Developer), dev, portal.NewSchema{Topic: "existing", SubjectType: "key",
		SchemaDef: portal.SchemaDef{SchemaType: "JSON", Schema: `{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"]}`}}); err != nil {
		t.Fatal(err)
	}
	js := func(v string) portal.ProduceRequest {
		return portal.ProduceRequest{ValueFormat: portal.FormatSchema, Subject: "existing-key", Records: []portal.OutRecord{{Value: ptr(v)}}}
	}
	if _, err := w.Messages.Produce(as(portal.Developer), dev, topic, js(`{"n": 0}`)); len(portal.Problems(err)) == 0 || portal.Problems(err)[0].Field != "records[0].value.n" {
		t.Errorf("a JSON Schema violation: %v", err)
	}
	if res, err := w.Messages.Produce(as(portal.Developer), dev, topic, js(`{"n": 3}`)); err != nil || res.SchemaID == 0 {
		t.Errorf("a JSON Schema value: %+v %v", res, err)
	}
	if msgs, _ = w.Messages.Read(as(portal.Developer), dev, topic, portal.MessageQuery{Limit: 10}); len(msgs) != before+1 {
		t.Errorf("refused requests wrote records: %d then %d", before, len(msgs))
	}

	var ok, refused int
	for _, e := range w.AuditEvents(t) {
		if e.Action != "topic.produce" {
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
