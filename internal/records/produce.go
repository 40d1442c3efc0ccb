package records

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/recordcodec"
)

// Produce writes records to a topic by hand. Every record is encoded and
// checked before the first is sent, so that a problem in one (a value its
// schema refuses, a partition that does not exist) sends none.
func (s *Service) Produce(ctx context.Context, scope portal.Scope, topic string, req record.ProduceRequest) (_ record.ProduceResult, err error) {
	ctx, call, err := s.enterData(ctx, scope, topic, "produce records", portal.ActTopicProduce, access.CheckProduce)
	if err != nil {
		return record.ProduceResult{}, err
	}
	defer s.guard.Settle(ctx, call.Writes(portal.ActTopicProduce, topic), &err)
	if err := checkProduceShape(req); err != nil {
		return record.ProduceResult{}, err
	}
	full, err := call.Topic(ctx, topic)
	if err != nil {
		return record.ProduceResult{}, err
	}
	d, err := call.Env.Topics.DescribeTopic(ctx, full)
	if err != nil {
		return record.ProduceResult{}, err
	}
	enc, err := s.encoder(ctx, call, full, req)
	if err != nil {
		return record.ProduceResult{}, err
	}
	out, err := encodeRecords(req, enc, len(d.Partitions))
	if err != nil {
		return record.ProduceResult{}, err
	}
	if err := fitTopic(out, d); err != nil {
		return record.ProduceResult{}, err
	}
	// The trail's outcome is the records' (one not delivered fails it);
	// the answer fails only when the produce did.
	var res record.ProduceResult
	var produced error
	err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActTopicProduce, Resource: full,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			var deliveries []platform.Delivery
			deliveries, produced = call.Env.Messages.Produce(ctx, full, out)
			res = record.ProduceResult{Topic: full, SchemaID: enc.id, Records: make([]record.ProducedRecord, len(out))}
			for i, m := range out {
				r := record.ProducedRecord{Partition: m.Partition, Offset: -1, Size: recordSize(m)}
				if i < len(deliveries) {
					dl := deliveries[i]
					r.Partition, r.Offset = dl.Partition, dl.Offset
					if dl.Err != nil {
						r.Error, r.Unconfirmed = portal.FirstMessage(dl.Err), portal.Is(dl.Err, portal.UpstreamTimeout)
					}
				} else if produced != nil {
					r.Error = portal.FirstMessage(produced)
				}
				res.Records[i] = r
			}
			return []trail.Change{{Field: "records", After: describeProduce(res, req)}}, outcomeOf(res, produced)
		}})
	if res.Records == nil || produced != nil {
		if produced != nil {
			err = produced
		}
		return record.ProduceResult{}, err
	}
	return res, nil
}

// outcomeOf is the produce's outcome for the trail: a failure when any
// record was not written, unknown when one was not confirmed.
func outcomeOf(res record.ProduceResult, err error) error {
	if err != nil {
		return err
	}
	for _, r := range res.Records {
		switch {
		case r.Unconfirmed:
			return portal.New(portal.UpstreamTimeout, "%d of %d record(s) written; %s", res.Written(), len(res.Records), r.Error)
		case r.Error != "":
			return portal.New(portal.UpstreamUnavailable, "%d of %d record(s) written; %s", res.Written(), len(res.Records), r.Error)
		}
	}
	return nil
}

// describeProduce says, for the trail, where the records went and how
// large they were: never their keys, values or headers.
func describeProduce(res record.ProduceResult, req record.ProduceRequest) string {
	var b strings.Builder
	format := req.ValueFormat
	if format == "" {
		format = record.FormatText
	}
	fmt.Fprintf(&b, "%d of %d record(s) written as %s", res.Written(), len(res.Records), format)
	if res.SchemaID != 0 {
		fmt.Fprintf(&b, " (schema %d)", res.SchemaID)
	}
	b.WriteString(";")
	for i, r := range res.Records {
		if i == 20 {
			fmt.Fprintf(&b, " and %d more", len(res.Records)-i)
			break
		}
		if r.Error != "" {
			fmt.Fprintf(&b, " [%d] not written (%d B)", r.Partition, r.Size)
			continue
		}
		fmt.Fprintf(&b, " [%d]@%d (%d B)", r.Partition, r.Offset, r.Size)
	}
	return b.String()
}

// checkProduceShape checks what needs no cluster: the format, the count
// and the size.
func checkProduceShape(req record.ProduceRequest) error {
	var v portal.Validation
	switch req.ValueFormat {
	case "", record.FormatText, record.FormatJSON:
		if req.Subject != "" || req.Version != "" {
			v.Add(portal.Invalid("subject", "a subject goes with value_format schema only"))
		}
	case record.FormatSchema:
	default:
		v.Add(portal.Invalid("value_format", "must be text, json or schema, not %q", req.ValueFormat))
	}
	switch n := len(req.Records); {
	case n == 0:
		v.Add(portal.Missing("records"))
	case n > record.MaxProduceRecords:
		v.Add(portal.Invalid("records", "%d records; at most %d at once", n, record.MaxProduceRecords))
	}
	size := 0
	for _, r := range req.Records {
		size += len(deref(r.Key)) + len(deref(r.Value))
		for _, h := range r.Headers {
			size += len(h.Key) + len(h.Value)
		}
	}
	if size > record.MaxProduceBytes {
		v.Add(portal.Invalid("records", "the records hold %d bytes; at most %d (1 MiB) at once", size, record.MaxProduceBytes))
	}
	return v.Err()
}

// encodeRecords turns the request's records into what is written, with
// every problem at its record's field.
func encodeRecords(req record.ProduceRequest, enc valueEncoder, partitions int) ([]platform.OutMessage, error) {
	var v portal.Validation
	out := make([]platform.OutMessage, len(req.Records))
	for i, r := range req.Records {
		at := fmt.Sprintf("records[%d]", i)
		m := platform.OutMessage{Partition: -1}
		if r.Partition != nil {
			if *r.Partition < 0 || *r.Partition >= partitions {
				v.Add(portal.Invalid(at+".partition", "the topic has partitions 0 to %d, not %d", partitions-1, *r.Partition))
			}
			m.Partition = *r.Partition
		}
		if r.Key != nil {
			m.Key = []byte(*r.Key)
		}
		for j, h := range r.Headers {
			if strings.TrimSpace(h.Key) == "" {
				v.Add(portal.Missing(fmt.Sprintf("%s.headers[%d].key", at, j)))
			}
			m.Headers = append(m.Headers, platform.Header{Key: h.Key, Value: []byte(h.Value)})
		}
		if r.Value != nil {
			b, problems := enc.encode(*r.Value, at+".value")
			for _, p := range problems {
				v.Add(p)
			}
			m.Value = b
		}
		out[i] = m
	}
	return out, v.Err()
}

// fitTopic refuses, before anything is sent, a record larger than its
// topic takes (max.message.bytes, when the cluster says): the broker would
// refuse it anyway, and the caller learns which record and why.
func fitTopic(out []platform.OutMessage, d platform.TopicDetail) error {
	limit := 0
	for _, e := range d.Config {
		if e.Name == "max.message.bytes" {
			limit, _ = strconv.Atoi(e.Value)
		}
	}
	if limit <= 0 {
		return nil
	}
	var v portal.Validation
	for i, m := range out {
		if n := recordSize(m); n > limit {
			v.Add(portal.Invalid(fmt.Sprintf("records[%d].value", i), "the record is %d bytes; topic %s takes records of at most %d bytes (max.message.bytes)",
				n, d.Name, limit))
		}
	}
	return v.Err()
}

func recordSize(m platform.OutMessage) int {
	n := len(m.Key) + len(m.Value)
	for _, h := range m.Headers {
		n += len(h.Key) + len(h.Value)
	}
	return n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// valueEncoder turns a value as given into the bytes written.
type valueEncoder struct {
	// id is the schema id written before each value, 0 for none.
	id     int
	encode func(value, field string) ([]byte, []*portal.Error)
}

// encoder chooses how values are written: as text, as checked JSON, or
// with the subject's schema in the Schema Registry's wire format (a zero
// byte, the schema's id in four bytes, then the payload).
func (s *Service) encoder(ctx context.Context, call *gate.Call, topic string, req record.ProduceRequest) (valueEncoder, error) {
	switch req.ValueFormat {
	case "", record.FormatText:
		return valueEncoder{encode: func(v, _ string) ([]byte, []*portal.Error) { return []byte(v), nil }}, nil
	case record.FormatJSON:
		return valueEncoder{encode: func(v, field string) ([]byte, []*portal.Error) {
			if !json.Valid([]byte(v)) {
				return nil, []*portal.Error{portal.Invalid(field, "the value is not JSON")}
			}
			return []byte(v), nil
		}}, nil
	}
	if call.Env.Schemas == nil {
		return valueEncoder{}, portal.Invalid("value_format", "stage %s has no Schema Registry", call.Scope.Stage.Name)
	}
	subject := topic + "-value"
	if req.Subject != "" {
		var err error
		if subject, err = call.Subject(req.Subject); err != nil {
			return valueEncoder{}, err
		}
	}
	version, err := portal.ParseSchemaVersion(req.Version)
	if err != nil {
		return valueEncoder{}, err
	}
	sv, err := call.Env.Schemas.GetSchema(ctx, subject, version)
	if err != nil {
		if portal.Is(err, portal.NotFound) {
			e := portal.New(portal.InvalidParameter, "subject %s has no version %s to write with", subject, orLatest(req.Version))
			e.Field = "subject"
			return valueEncoder{}, e
		}
		return valueEncoder{}, err
	}
	ser, err := recordcodec.Encoder(sv)
	if err != nil {
		return valueEncoder{}, err
	}
	prefix := make([]byte, 5)
	binary.BigEndian.PutUint32(prefix[1:], uint32(sv.ID))
	return valueEncoder{id: sv.ID, encode: func(v, field string) ([]byte, []*portal.Error) {
		payload, problems := ser(v, field)
		if len(problems) > 0 {
			return nil, problems
		}
		return append(append([]byte(nil), prefix...), payload...), nil
	}}, nil
}

func orLatest(v string) string {
	if v == "" {
		return "latest"
	}
	return v
}
