package records

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hamba/avro/v2"

	"github.com/edh-platform/rms-portal/internal/avrowire"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/masking"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Masking is which fields record reads mask, and for whom: the fields
// their schema tags with one of Tags, in stages whose masking is on, for
// readers below Unmasked.
type Masking struct {
	Tags     masking.Tags
	Unmasked portal.Role
}

// MaskWith sets what record reads mask; what m leaves unset stays as it
// was (the PII tag, for roles below Admin).
func (s *Service) MaskWith(m Masking) *Service {
	if !m.Tags.IsZero() {
		s.mask.Tags = m.Tags
	}
	if m.Unmasked != portal.NoRole {
		s.mask.Unmasked = m.Unmasked
	}
	return s
}

// readSchema is a value schema as the browser uses it, parsed once per
// environment and id: the decoder, and what of it masking looks at.
type readSchema struct {
	avro avro.Schema
	// tagged: an Avro schema tags a field to mask.
	tagged bool
	// json masks a JSON Schema's values; nil when it tags nothing.
	json *masking.JSONSchema
	// failed says why the schema cannot decode or mask values.
	failed string
}

// readSchema parses a value schema, or finds it parsed.
func (s *Service) readSchema(env *platform.Environment, id int, sv schema.SchemaVersion) *readSchema {
	key := env.Name() + "/" + fmt.Sprint(id)
	if cached, ok := s.schemas.Load(key); ok {
		return cached.(*readSchema)
	}
	rs := &readSchema{}
	switch sv.Type {
	case schema.SchemaAvro:
		parsed, err := avro.Parse(sv.Schema)
		if err != nil {
			rs.failed = "the schema does not parse: " + err.Error()
			break
		}
		rs.avro, rs.tagged = parsed, masking.AvroTagged(parsed, s.mask.Tags)
	case schema.SchemaJSON:
		j, err := masking.ParseJSONSchema(sv.Schema, s.mask.Tags)
		if err != nil {
			rs.failed = err.Error()
		}
		rs.json = j
	}
	s.schemas.Store(key, rs)
	return rs
}

// decode turns a record into text: a value in the Schema Registry wire
// format (magic byte 0, schema id) is decoded with its schema (Avro, JSON
// Schema), its tagged fields masked when mask is set; anything else is
// UTF-8 text or hex.
func (s *Service) decode(ctx context.Context, env *platform.Environment, m platform.Message, mask bool) (out record.BrowsedMessage) {
	out = record.BrowsedMessage{Partition: m.Partition, Offset: m.Offset, Timestamp: m.Timestamp, Truncated: m.Truncated,
		Headers: []record.MessageHeader{}}
	out.Key, out.KeyEncoding = plain(m.Key)
	out.Value, out.ValueEncoding = plain(m.Value)
	for _, h := range m.Headers {
		v, enc := plain(h.Value)
		out.Headers = append(out.Headers, record.MessageHeader{Key: h.Key, Value: v, Encoding: enc})
	}
	wire := len(m.Value) >= 5 && m.Value[0] == 0
	if mask && wire {
		// Until it is decoded and masked, nothing of the value shows: its
		// bytes hold the tagged fields' text.
		out.Value, out.ValueEncoding = "", record.EncodingNone
		defer func() {
			if out.DecodeError != "" && out.ValueEncoding == record.EncodingNone {
				out.DecodeError = "the value is withheld, as masking is on and it could not be masked: " + out.DecodeError
			}
		}()
	}
	if mask && !wire && len(m.Value) > 0 {
		// No schema says which of it is sensitive: none of it shows.
		out.Value, out.MaskedWhole = maskWhole(out.Value, out.ValueEncoding), true
		return out
	}
	if !wire || m.Truncated {
		if mask && wire {
			out.DecodeError = "it was cut at the read's size bound"
		}
		return out
	}
	id := int(binary.BigEndian.Uint32(m.Value[1:5]))
	sv, err := env.Schemas.SchemaByID(ctx, id)
	if err != nil {
		out.DecodeError = fmt.Sprintf("the value names schema %d, which could not be read: %s", id, portal.FirstMessage(err))
		return out
	}
	out.SchemaID = id
	payload := m.Value[5:]
	switch sv.Type {
	case schema.SchemaAvro:
		s.decodeAvro(&out, s.readSchema(env, id, sv), payload, mask)
	case schema.SchemaJSON:
		s.decodeJSON(&out, s.readSchema(env, id, sv), payload, mask)
	default:
		out.DecodeError = sv.Type + " values are shown as bytes"
	}
	return out
}

// decodeAvro decodes an Avro value into out.
func (s *Service) decodeAvro(out *record.BrowsedMessage, rs *readSchema, payload []byte, mask bool) {
	if rs.failed != "" {
		out.DecodeError = rs.failed
		return
	}
	// The record is anyone's: its counts and lengths are checked before
	// the decoder trusts them.
	if err := avrowire.Check(rs.avro, payload, avrowire.DefaultLimits); err != nil {
		out.DecodeError = "the value does not match its Avro schema: " + err.Error()
		return
	}
	v, err := unmarshalAvro(rs.avro, payload)
	if err != nil {
		out.DecodeError = "the value does not match its Avro schema: " + err.Error()
		return
	}
	if mask && rs.tagged {
		v, out.Masked = masking.Avro(rs.avro, v, s.mask.Tags)
	}
	text, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		out.DecodeError = err.Error()
		return
	}
	out.Value, out.ValueEncoding = string(text), record.EncodingAvro
}

// decodeJSON shows a JSON Schema value indented, as it was written, or
// with its tagged properties masked.
func (s *Service) decodeJSON(out *record.BrowsedMessage, rs *readSchema, payload []byte, mask bool) {
	if mask && rs.failed != "" {
		// What to mask is not known: nothing of the value is shown.
		out.DecodeError = rs.failed
		return
	}
	if !mask || rs.json == nil {
		var buf bytes.Buffer
		if json.Indent(&buf, payload, "", "  ") != nil {
			out.DecodeError = "the value is not the JSON its schema describes"
			return
		}
		out.Value, out.ValueEncoding = buf.String(), record.EncodingJSON
		return
	}
	d := json.NewDecoder(bytes.NewReader(payload))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		out.DecodeError = "the value is not the JSON its schema describes"
		return
	}
	v, out.Masked = rs.json.Mask(v)
	text, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		out.DecodeError = err.Error()
		return
	}
	out.Value, out.ValueEncoding = string(text), record.EncodingJSON
}

// maskWhole masks a value shown as text or hex whole: the same encoding
// and the class of its length, never its content.
func maskWhole(value, encoding string) string {
	if encoding == record.EncodingHex {
		b, _ := masking.Value(make([]byte, len(value)/2)).([]byte)
		return hex.EncodeToString(b)
	}
	s, _ := masking.Value(value).(string)
	return s
}

// plain shows bytes as UTF-8 text when they are, else as hex.
func plain(b []byte) (string, string) {
	switch {
	case b == nil:
		return "", record.EncodingNone
	case utf8.Valid(b) && !bytes.ContainsRune(b, 0):
		return string(b), record.EncodingText
	}
	return hex.EncodeToString(b), record.EncodingHex
}

// unmarshalAvro decodes an Avro value; a panic of the decoder (it has
// some on values a schema allows, such as an array of nulls) is that
// record's decoding error, not the request's end.
func unmarshalAvro(schema avro.Schema, payload []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the decoder failed on it (%v)", r)
		}
	}()
	err = avro.Unmarshal(schema, payload, &v)
	return v, err
}

// wholeValue names, in the trail's note, the values masked whole.
const wholeValue = "whole values not in a schema's format"

// maskNote is what the trail says of a read's masking in a stage that
// masks: the fields masked in what it returned, or, for a role that sees
// them whole, that role.
type maskNote struct {
	wholeFor string
	fields   map[string]bool
}

// masked notes a read's masking; nil where the stage does not mask.
func (s *Service) masked(call *gate.Call, mask bool, items []record.BrowsedMessage) *maskNote {
	if call.Scope.Stage.Masking != tenancy.MaskingTags {
		return nil
	}
	n := &maskNote{fields: map[string]bool{}}
	if !mask {
		n.wholeFor = call.Principal.Role(call.Scope.Unit.ID).String()
	}
	for _, it := range items {
		for _, f := range it.Masked {
			n.fields[f] = true
		}
		if it.MaskedWhole {
			n.fields[wholeValue] = true
		}
	}
	return n
}

// add takes in a later read's note (a tail's next poll).
func (n *maskNote) add(later *maskNote) {
	if later != nil {
		n.wholeFor = later.wholeFor
		maps.Copy(n.fields, later.fields)
	}
}

// change is the note as the event's change.
func (n *maskNote) change() trail.Change {
	switch {
	case len(n.fields) > 0:
		return trail.Change{Field: "masking", After: "masked " + strings.Join(slices.Sorted(maps.Keys(n.fields)), ", ")}
	case n.wholeFor != "":
		return trail.Change{Field: "masking", After: "off for role " + n.wholeFor}
	}
	return trail.Change{Field: "masking", After: "on, no tagged field read"}
}
