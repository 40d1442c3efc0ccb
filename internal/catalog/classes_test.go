package catalog

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
)

func TestClassesRefuseWhatCannotBeEnforced(t *testing.T) {
	for _, c := range []struct {
		list []Class
		def  string
		want string
	}{
		{[]Class{{Name: "Public", MaxGrant: time.Hour, Approvals: 1}}, "", "a name is lower-case"},
		{[]Class{{Name: "a", MaxGrant: time.Hour, Approvals: 1}, {Name: "a", MaxGrant: time.Hour, Approvals: 1}}, "", "named twice"},
		{[]Class{{Name: "a", MaxGrant: time.Minute, Approvals: 1}}, "", "at least 1h"},
		{[]Class{{Name: "a", MaxGrant: time.Hour, Approvals: 3}}, "", "1 or 2"},
		{nil, "secret", "not one of the classifications"},
	} {
		if _, err := NewClasses(c.list, c.def); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %q: %v, want %q", c.list, c.def, err, c.want)
		}
	}
	cs, err := NewClasses(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.Names(); !slices.Equal(got, []string{"public", "internal", "confidential", "restricted"}) || cs.Default() != "internal" {
		t.Fatalf("defaults: %v %s", got, cs.Default())
	}
	if r := cs.Of("restricted"); r.Approvals != 2 || r.Write || r.MaxGrant != 7*24*time.Hour {
		t.Errorf("restricted: %+v", r)
	}
	if cs.Of("").Name != "internal" || cs.Of("gone").Name != "internal" {
		t.Errorf("unclassified and unknown read as the default")
	}
	if cs.Stricter("public", "restricted") != "restricted" || cs.Stricter("confidential", "internal") != "confidential" || cs.Stricter("", "public") != "internal" {
		t.Errorf("stricter")
	}
}

func TestDurations(t *testing.T) {
	day := 24 * time.Hour
	for in, want := range map[string]time.Duration{"7d": 7 * day, "2w": 14 * day, "36h": 36 * time.Hour, " 1d ": day} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0d", "-1d", "30m", "d", "1y", "99999d"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("%q parsed", in)
		}
	}
	// In its largest whole unit, as people write them beside "90d".
	for d, want := range map[time.Duration]string{7 * day: "7d", 36 * time.Hour: "36h", 2 * time.Hour: "2h", 90 * time.Minute: "90m", 90 * time.Second: "1m30s"} {
		if got := FormatDuration(d); got != want {
			t.Errorf("format %v: %s, want %s", d, got, want)
		}
	}
	if FormatDuration(7*day) != "7d" {
		t.Errorf("format: %s", FormatDuration(7*day))
	}
}

func TestMetadataIsNormalisedOrRefusedByField(t *testing.T) {
	cs, _ := NewClasses(nil, "")
	m, ps := cs.Check(Metadata{Description: "  Orders as placed ", Tags: []string{"Sales", "pii", "sales", " "}, Classification: "Restricted"})
	if len(ps) != 0 || m.Description != "Orders as placed" || !slices.Equal(m.Tags, []string{"pii", "sales"}) || m.Classification != "restricted" {
		t.Fatalf("normalised: %+v %v", m, ps)
	}
	many := make([]string, 21)
	for i := range many {
		many[i] = "t" + strings.Repeat("x", i)
	}
	_, ps = cs.Check(Metadata{Description: strings.Repeat("x", 2001), Contact: "a\nb", Tags: append(many, "no spaces!"), Classification: "secret"})
	var fields []string
	for _, p := range ps {
		fields = append(fields, p.Field)
	}
	slices.Sort(fields)
	if !slices.Equal(fields, []string{"classification", "description", "owner", "tags", "tags"}) {
		t.Errorf("problems: %+v", ps)
	}
}

func TestFieldsOfEachSchemaType(t *testing.T) {
	avro := `{"type":"record","name":"Order","fields":[{"name":"orderId","type":"string"},
		{"name":"customer","type":{"type":"record","name":"Customer","fields":[{"name":"email","type":["null","string"]}]}},
		{"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[{"name":"sku","type":"string"}]}}}]}`
	if got := Fields("AVRO", avro); !slices.Equal(got, []string{"customer", "email", "lines", "orderid", "sku"}) {
		t.Errorf("avro: %v", got)
	}
	js := `{"type":"object","properties":{"meter":{"type":"string"},"reading":{"type":"object","properties":{"kwh":{"type":"number"}}}},
		"$defs":{"x":{"properties":{"unit":{}}}}}`
	if got := Fields("JSON", js); !slices.Equal(got, []string{"kwh", "meter", "reading", "unit"}) {
		t.Errorf("json: %v", got)
	}
	proto := "syntax = \"proto3\";\nmessage Reading {\n  string meter_id = 1;\n  repeated double values = 2;\n  map<string, string> labels = 3;\n}\n"
	if got := Fields("PROTOBUF", proto); !slices.Equal(got, []string{"labels", "meter_id", "values"}) {
		t.Errorf("protobuf: %v", got)
	}
	if Fields("AVRO", "{not json") != nil || Fields("AVRO", strings.Repeat(" ", maxSchemaBytes+1)) != nil {
		t.Errorf("a broken or huge schema has fields")
	}
}

func TestQueries(t *testing.T) {
	it := newItem(topiccatalog.CatalogEntry{Topic: "edh-shared-scada-dev-orders", Owner: "scada", Description: "Orders as placed", Contact: "team-orders@example.com",
		Tags: []string{"pii", "sales"}, Classification: "confidential", Fields: []string{"email", "orderid"}})
	for q, want := range map[Query]bool{
		{}: true, {Text: "placed"}: true, {Text: "email"}: true, {Text: "nothing"}: false,
		{Tag: "sales"}: true, {Tag: "sale"}: false, {Field: "email"}: true, {Field: "mail"}: false,
		{Owner: "scada"}: true, {Owner: "team-orders"}: true, {Owner: "crm"}: false,
		{Classification: "confidential"}: true, {Classification: "public"}: false,
		{Tag: "pii", Field: "email", Owner: "scada"}: true, {Tag: "pii", Field: "nope"}: false,
	} {
		if got := q.matches(&it); got != want {
			t.Errorf("%+v: %v, want %v", q, got, want)
		}
	}
}
