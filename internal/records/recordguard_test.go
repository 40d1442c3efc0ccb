package records_test

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestAHostileAvroRecordIsNotDecoded: a record whose Avro data declares
// an array of 2^62 nulls (which the decoder would loop over for as long
// as the process lives, GO-2026-5046) reads back undecoded, with the
// reason, at once; the record beside it, two nulls, on which the decoder
// panics, reads back with that said, and the page is served.
func TestAHostileAvroRecordIsNotDecoded(t *testing.T) {
	w, topic := servicetest.NewWithGroups(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	v, err := w.Schemas.Create(servicetest.AsRole(portal.Developer), dev, schema.NewSchema{Topic: "hostile", SubjectType: "value",
		SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: `{"type":"record","name":"R","fields":[{"name":"xs","type":{"type":"array","items":"null"}}]}`}})
	if err != nil {
		t.Fatal(err)
	}
	wire := func(payload ...byte) []byte {
		out := []byte{0, 0, 0, 0, 0}
		binary.BigEndian.PutUint32(out[1:5], uint32(v.ID))
		return append(out, payload...)
	}
	// 2^62 items in one block (zig-zag varint), then the end of the array.
	huge := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00}
	w.Clusters["edh-shared/dev"].PutRecords(topic, []platform.Message{
		{Partition: 0, Offset: 98, Value: wire(huge...)},
		{Partition: 0, Offset: 99, Value: wire(0x04, 0x00)}, // two nulls
	})
	start := time.Now()
	page, err := w.Messages.Read(servicetest.AsRole(portal.Developer), dev, topic, record.MessageQuery{Limit: 2})
	if err != nil || len(page.Items) != 2 {
		t.Fatalf("read: %+v %v", page.Items, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("reading took %v", took)
	}
	for _, m := range page.Items {
		switch m.Offset {
		case 98:
			if !strings.Contains(m.DecodeError, "more than 1048576 items") || m.ValueEncoding == record.EncodingAvro {
				t.Errorf("the hostile record: %+v", m)
			}
		case 99:
			if !strings.Contains(m.DecodeError, "the decoder failed on it") {
				t.Errorf("the record the decoder panics on: %+v", m)
			}
		}
	}
}
