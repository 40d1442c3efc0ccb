package records_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// TestReadsMaskTaggedFieldsByRoleAndStage: every role reads a record
// whose schema tags a field PII in a stage that masks (qas here) and in
// one that does not (dev): below Admin the field is masked, in filters
// too; a record that cannot be decoded (cut at the read's bound, or
// naming a schema that cannot be read) is withheld rather than shown raw;
// each read's event says what was masked, or for whom nothing was.
func TestReadsMaskTaggedFieldsByRoleAndStage(t *testing.T) {
	w := servicetest.NewConfigured(t, func(c *config.Config) {
		for i, st := range c.Stages {
			if st.Name == "qas" {
				c.Stages[i].DataAccess, c.Stages[i].Masking = tenancy.DataViewers, tenancy.MaskingTags
			}
		}
	})
	const def = `{"type":"record","name":"Customer","fields":[{"name":"id","type":"string"},{"name":"email","type":"string","confluent:tags":["PII"]}]}`
	for _, st := range []string{"dev", "qas"} {
		scope := portal.Scope{BU: "scada", Stage: st}
		topic, err := w.Topics.Create(servicetest.AsRole(portal.Admin), scope, topic.NewTopic{Name: "customers", Partitions: ptr(1)})
		if err != nil {
			t.Fatal(err)
		}
		v, err := w.Schemas.Create(servicetest.AsRole(portal.Admin), scope, schema.NewSchema{Topic: "customers", SubjectType: "value",
			SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: def}})
		if err != nil {
			t.Fatal(err)
		}
		payload, err := avro.Marshal(avro.MustParse(def), map[string]any{"id": "c-1", "email": "ada@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		value := binary.BigEndian.AppendUint32([]byte{0}, uint32(v.ID))
		w.Clusters["edh-shared/"+st].PutRecords(topic.Name, []platform.Message{
			{Partition: 0, Offset: 97, Value: append(value, payload...)},
			{Partition: 0, Offset: 98, Value: append(value, payload[:4]...), Truncated: true},
			{Partition: 0, Offset: 99, Value: append([]byte{0, 0, 0, 0x7f, 0x7f}, payload...)},
		})
		for _, role := range []portal.Role{portal.Viewer, portal.Developer, portal.Admin, portal.SuperAdmin} {
			if st == "dev" && role == portal.Viewer {
				continue // data_access: developers
			}
			masked := st == "qas" && role < portal.Admin
			page, err := w.Messages.Read(servicetest.AsRole(role), scope, topic.Name, record.MessageQuery{Limit: 10})
			if err != nil || len(page.Items) != 3 {
				t.Fatalf("%s in %s: %v %v", role, st, page.Items, err)
			}
			for _, m := range page.Items {
				shows := strings.Contains(m.Value, "ada@")
				switch {
				case m.Offset == 97 && masked && (shows || strings.Join(m.Masked, ",") != "email" || !strings.Contains(m.Value, `"email": "****************"`)):
					t.Errorf("%s in %s: the tagged field is not masked: %+v", role, st, m)
				case m.Offset == 97 && !masked && (!shows || m.Masked != nil):
					t.Errorf("%s in %s: the field is masked: %+v", role, st, m)
				case m.Offset > 97 && masked && (m.Value != "" || !strings.Contains(m.DecodeError, "withheld")):
					t.Errorf("%s in %s: an undecodable record shows: %+v", role, st, m)
				case m.Offset > 97 && !masked && m.Value == "":
					t.Errorf("%s in %s: an undecodable record is withheld: %+v", role, st, m)
				}
			}
			probe, err := w.Messages.Read(servicetest.AsRole(role), scope, topic.Name, record.MessageQuery{Limit: 10, Filter: `value.email.startsWith("ada")`})
			if err != nil || len(probe.Items) != map[bool]int{true: 0, false: 1}[masked] {
				t.Errorf("%s in %s: a filter on the tagged field found %d: %v", role, st, len(probe.Items), err)
			}
		}
	}
	// A tail masks alike, and its one event says so.
	tail, err := w.Messages.Read(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "qas"}, "customers", record.MessageQuery{After: map[int]int64{0: 96}})
	if err != nil || len(tail.Items) == 0 || strings.Contains(tail.Items[0].Value, "ada@") {
		t.Errorf("a Viewer's tail: %+v %v", tail.Items, err)
	}
	var said []string
	tailSaid := false
	for _, e := range w.AuditEvents(t) {
		if len(e.Changes) == 2 && e.Changes[0].Field == "tail" && e.Changes[1].After == "masked email" {
			tailSaid = true
		}
		if e.Action == portal.ActTopicReadRecords && e.Stage == "qas" {
			for _, c := range e.Changes {
				if c.Field == "masking" {
					said = append(said, e.ActorRole+": "+c.After)
				}
			}
		}
		if e.Action == portal.ActTopicReadRecords && e.Stage == "dev" && len(e.Changes) > 1 {
			t.Errorf("a read in a stage that does not mask says %v", e.Changes)
		}
	}
	if !tailSaid {
		t.Error("the tail's event does not say what it masked")
	}
	got := strings.Join(said, "; ")
	for _, want := range []string{"viewer: masked email", "developer: masked email", "admin: off for role admin", "super_admin: off for role super_admin",
		"viewer: on, no tagged field read"} {
		if !strings.Contains(got, want) {
			t.Errorf("the trail does not say %q: %s", want, got)
		}
	}
}

// TestRecordsNoSchemaClassifiesAreMaskedWhole is the second
// seam: in a stage that masks, a record that is not in the Schema
// Registry's format (plain text, JSON without a registered schema, bytes)
// is masked whole below the unmasked role, its encoding and length class
// kept, and matches no filter on its content; an Admin reads it whole. A
// stage set to refuse such reads refuses them, with the reason; a
// tombstone (no value) reads as one.
func TestRecordsNoSchemaClassifiesAreMaskedWhole(t *testing.T) {
	w := servicetest.NewConfigured(t, func(c *config.Config) {
		for i, st := range c.Stages {
			switch st.Name {
			case "qas":
				c.Stages[i].DataAccess, c.Stages[i].Masking = tenancy.DataViewers, tenancy.MaskingTags
			case "run":
				c.Stages[i].DataAccess, c.Stages[i].Masking, c.Stages[i].MaskingUnclassified = tenancy.DataViewers, tenancy.MaskingTags, tenancy.UnclassifiedRefuse
			}
		}
	})
	records := []platform.Message{
		{Partition: 0, Offset: 96, Key: []byte("c-1"), Value: []byte("ada@example.com signed up")},
		{Partition: 0, Offset: 97, Key: []byte("c-2"), Value: []byte(`{"email":"grace@example.com","plan":"gold"}`)},
		{Partition: 0, Offset: 98, Key: []byte("c-3"), Value: []byte{0xff, 0x00, 0x10, 0x20, 0x30, 0x40}},
		{Partition: 0, Offset: 99, Key: []byte("c-4")},
	}
	for _, st := range []string{"qas", "run"} {
		scope := portal.Scope{BU: "scada", Stage: st}
		topic, err := w.Topics.Create(servicetest.AsRole(portal.SuperAdmin), scope, topic.NewTopic{Name: "signups", Partitions: ptr(1)})
		if err != nil {
			t.Fatal(err)
		}
		w.Clusters["edh-shared/"+st].PutRecords(topic.Name, records)
		for _, role := range []portal.Role{portal.Viewer, portal.Developer, portal.Admin} {
			page, err := w.Messages.Read(servicetest.AsRole(role), scope, topic.Name, record.MessageQuery{Limit: 10})
			if st == "run" && role < portal.Admin {
				if !portal.Is(err, portal.DataAccessDisabled) || !strings.Contains(err.Error(), "not in the Schema Registry's format") {
					t.Errorf("%s in a stage that refuses unclassified records: %v %+v", role, err, page.Items)
				}
				continue
			}
			if err != nil || len(page.Items) != 4 {
				t.Fatalf("%s in %s: %v %+v", role, st, err, page.Items)
			}
			for _, m := range page.Items {
				whole := records[m.Offset-96].Value
				switch {
				case m.Offset == 99 && (m.ValueEncoding != record.EncodingNone || m.MaskedWhole):
					t.Errorf("%s in %s: a tombstone: %+v", role, st, m)
				case m.Offset == 99:
				case role >= portal.Admin && (m.MaskedWhole || (m.ValueEncoding == record.EncodingText && m.Value != string(whole))):
					t.Errorf("%s in %s: the value is masked for the unmasked role: %+v", role, st, m)
				case role < portal.Admin && (!m.MaskedWhole || strings.Contains(m.Value, "example") || strings.Contains(m.Value, "ff00")):
					t.Errorf("%s in %s: an unclassified value shows: %+v", role, st, m)
				case role < portal.Admin && m.Offset == 96 && (m.ValueEncoding != record.EncodingText || m.Value != strings.Repeat("*", 32)):
					t.Errorf("%s in %s: the text's encoding or length class is lost: %+v", role, st, m)
				case role < portal.Admin && m.Offset == 98 && (m.ValueEncoding != record.EncodingHex || m.Value != strings.Repeat("00", 8)):
					t.Errorf("%s in %s: the bytes' encoding or length class is lost: %+v", role, st, m)
				}
				if m.Key != "c-"+string(rune('1'+m.Offset-96)) {
					t.Errorf("%s in %s: the key: %+v", role, st, m)
				}
			}
			for _, q := range []record.MessageQuery{{Limit: 10, Value: "ada@"}, {Limit: 10, Filter: `value.email == "grace@example.com"`}, {Limit: 10, Filter: `value.plan == "gold"`}} {
				probe, err := w.Messages.Read(servicetest.AsRole(role), scope, topic.Name, q)
				want := 0
				if role >= portal.Admin {
					want = 1
				}
				if err != nil || len(probe.Items) != want {
					t.Errorf("%s in %s: a filter on the content (%+v) found %d: %v", role, st, q, len(probe.Items), err)
				}
			}
		}
	}
	said := false
	for _, e := range w.AuditEvents(t) {
		for _, c := range e.Changes {
			said = said || e.Action == portal.ActTopicReadRecords && c.Field == "masking" && strings.Contains(c.After, "whole values")
		}
	}
	if !said {
		t.Error("no read's event says it masked whole values")
	}
}
