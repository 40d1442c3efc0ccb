package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Bodies are read in place when well formed, and explained when not: the
// same answers either way.
func TestBodiesDecodeOrSayWhatIsWrong(t *testing.T) {
	type target struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	}
	for _, c := range []struct {
		body, want string
	}{
		{`{"name":"orders","count":3}`, ""},
		{" {\"name\":\"orders\"}\n", ""},
		{`null`, "must be a JSON object, not null"},
		{`{"name":"a"} {"name":"b"}`, "more than one JSON value"},
		{`{"name":"a"`, "truncated JSON"},
		{`{"name":}`, "not valid JSON"},
		{`["name"]`, "must be a JSON object, not array"},
		{`{"name":"a","colour":"red"}`, `unknown field "colour"`},
		{`{"name":"a","count":"three"}`, "count"},
		// Names are matched exactly, though encoding/json takes any case.
		{`{"Name":"orders"}`, `unknown field "Name"`},
		// A name given twice is read leniently: the last one counts.
		{`{"name":"a","name":"orders"}`, ""},
	} {
		var got target
		err := decodeBody([]byte(c.body), &got)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.want == "" && (got.Name != "orders" || (strings.Contains(c.body, "count") && got.Count != 3)):
			t.Errorf("%s decoded as %+v", c.body, got)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.body, err, c.want)
		case c.want != "" && !portal.Is(err, portal.MalformedBody) && !portal.Is(err, portal.InvalidParameter):
			t.Errorf("%s: error of kind %v", c.body, err)
		}
	}
}

// BenchmarkLargeBodies measures what reading the largest bodies people
// send allocates: a record of a mebibyte (value_format text) and an Avro
// schema of 100,000 symbols (1.2 MB). Every byte allocated brings the next
// garbage collection closer for every request the replica serves.
func BenchmarkLargeBodies(b *testing.B) {
	value, _ := json.Marshal(strings.Repeat("y", 1<<20))
	record := []byte(`{"records":[{"key":"k","value":` + string(value) + `}]}`)
	symbols := make([]string, 100_000)
	for i := range symbols {
		symbols[i] = fmt.Sprintf(`"SYMBOL_%06d"`, i)
	}
	schema, _ := json.Marshal(`{"type":"enum","name":"Huge","symbols":[` + strings.Join(symbols, ",") + `]}`)
	schemaBody := []byte(`{"topic":"orders","subject_type":"value","schema_type":"AVRO","schema":` + string(schema) + `}`)
	b.Run("record", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(record)))
		for b.Loop() {
			var in wire.Produce
			if err := decodeBody(record, &in); err != nil {
				b.Fatal(err)
			}
			if req, err := produceRequest(in); err != nil || len(*req.Records[0].Value) != 1<<20 {
				b.Fatal(err)
			}
		}
	})
	b.Run("schema", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(schemaBody)))
		for b.Loop() {
			var in wire.SchemaCreate
			if err := decodeBody(schemaBody, &in); err != nil || len(in.Schema) < 1_000_000 {
				b.Fatal(err)
			}
		}
	})
}
