package records_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
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
		topic, err := w.Topics.Create(servicetest.AsRole(portal.Admin), scope, portal.NewTopic{Name: "customers", Partitions: ptr(1)})
		if err != nil {
			t.Fatal(err)
		}
		v, err := w.Schemas.Create(servicetest.AsRole(portal.Admin), scope, portal.NewSchema{Topic: "customers", SubjectType: "value",
			SchemaDef: portal.SchemaDef{SchemaType: "AVRO", Schema: def}})
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
			page, err := w.Messages.Read(servicetest.AsRole(role), scope, topic.Name, portal.MessageQuery{Limit: 10})
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
			probe, err := w.Messages.Read(servicetest.AsRole(role), scope, topic.Name, portal.MessageQuery{Limit: 10, Filter: `value.email.startsWith("ada")`})
			if err != nil || len(probe.Items) != map[bool]int{true: 0, false: 1}[masked] {
				t.Errorf("%s in %s: a filter on the tagged field found %d: %v", role, st, len(probe.Items), err)
			}
		}
	}
	// A tail masks alike, and its one event says so.
	tail, err := w.Messages.Read(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "qas"}, "customers", portal.MessageQuery{After: map[int]int64{0: 96}})
	if err != nil || len(tail.Items) == 0 || strings.Contains(tail.Items[0].Value, "ada@") {
		t.Errorf("a Viewer's tail: %+v %v", tail.Items, err)
	}
	var said []string
	tailSaid := false
	for _, e := range w.AuditEvents(t) {
		if len(e.Changes) == 2 && e.Changes[0].Field == "tail" && e.Changes[1].After == "masked email" {
			tailSaid = true
		}
		if e.Action == "topic.read-records" && e.Stage == "qas" {
			for _, c := range e.Changes {
				if c.Field == "masking" {
					said = append(said, e.ActorRole+": "+c.After)
				}
			}
		}
		if e.Action == "topic.read-records" && e.Stage == "dev" && len(e.Changes) > 1 {
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
