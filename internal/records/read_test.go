package records_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestRecordsAccessAndDecoding: reading records follows the stage's
// data_access switch (developers in dev, off in run by default), decodes
// Avro values with their schema, and audits each read.
func TestRecordsAccessAndDecoding(t *testing.T) {
	w, topic := servicetest.NewWithGroups(t)
	if _, err := w.Messages.Read(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, topic, record.MessageQuery{}); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a Viewer in dev: %v", err)
	}
	for _, r := range []portal.Role{portal.Developer, portal.Admin, portal.SuperAdmin} {
		if _, err := w.Messages.Read(servicetest.AsRole(r), portal.Scope{BU: "scada", Stage: "run"}, topic, record.MessageQuery{}); !portal.Is(err, portal.DataAccessDisabled) {
			t.Errorf("%s in run: %v", r, err)
		}
	}
	if _, err := w.Messages.Read(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, topic, record.MessageQuery{Limit: 101}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("limit 101: %v", err)
	}

	// An Avro value in the wire format, with the seeded subject's schema.
	v, err := w.Schemas.Get(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, topic+"-value", "latest")
	if err != nil {
		t.Fatal(err)
	}
	schema := avro.MustParse(v.Schema)
	body, err := avro.Marshal(schema, map[string]any{"a": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	wire := append([]byte{0, 0, 0, 0, 0}, body...)
	binary.BigEndian.PutUint32(wire[1:5], uint32(v.ID))
	w.Clusters["edh-shared/dev"].PutRecords(topic, []platform.Message{
		{Partition: 0, Offset: 98, Key: []byte("k1"), Value: wire},
		{Partition: 0, Offset: 99, Key: []byte{0xff, 0x01}, Value: []byte("plain text")},
	})
	page, err := w.Messages.Read(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, topic, record.MessageQuery{Limit: 2})
	msgs := page.Items
	if err != nil || len(msgs) != 2 {
		t.Fatalf("read: %+v %v", msgs, err)
	}
	var decoded, text bool
	for _, m := range msgs {
		switch m.Offset {
		case 98:
			decoded = m.ValueEncoding == record.EncodingAvro && strings.Contains(m.Value, `"a": "hello"`) && m.SchemaID == v.ID
		case 99:
			text = m.ValueEncoding == record.EncodingText && m.Value == "plain text" && m.KeyEncoding == record.EncodingHex && m.Key == "ff01"
		}
	}
	if !decoded || !text {
		t.Errorf("decoded %v, text %v: %+v", decoded, text, msgs)
	}
	var audited, refused int
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActTopicReadRecords {
			if e.Outcome == "ok" && len(e.Changes) == 1 && strings.Contains(e.Changes[0].After, "latest 2") && !strings.Contains(e.Changes[0].After, "hello") {
				audited++
			} else if e.Outcome != "ok" {
				refused++
			}
		}
	}
	if audited != 1 || refused < 4 {
		t.Errorf("audited reads %d, refusals %d", audited, refused)
	}
}
