package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/jsonbody"
	"github.com/edh-platform/rms-portal/internal/wire"
)

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
			if err := jsonbody.Decode(record, &in); err != nil {
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
			if err := jsonbody.Decode(schemaBody, &in); err != nil || len(in.Schema) < 1_000_000 {
				b.Fatal(err)
			}
		}
	})
}
