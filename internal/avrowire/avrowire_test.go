package avrowire

import (
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
)

func mustParse(t *testing.T, s string) avro.Schema {
	t.Helper()
	sch, err := avro.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// zigzag writes a long as Avro does.
func zigzag(n int64) []byte {
	u := uint64(n<<1) ^ uint64(n>>63)
	var b []byte
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

const reading = `{"type":"record","name":"Reading","fields":[
	{"name":"id","type":"string"},
	{"name":"values","type":{"type":"array","items":"double"}},
	{"name":"tags","type":{"type":"map","values":["null","string"]}},
	{"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B"]}},
	{"name":"next","type":["null","Reading"]}]}`

// TestGoodRecordsPass: what the encoder writes passes, blocks with sizes
// too, and decodes.
func TestGoodRecordsPass(t *testing.T) {
	sch := mustParse(t, reading)
	v := map[string]any{"id": "r1", "values": []any{1.5, 2.5}, "tags": map[string]any{"a": "x", "b": nil}, "kind": "B",
		"next": map[string]any{"Reading": map[string]any{"id": "r2", "values": []any{}, "tags": map[string]any{}, "kind": "A", "next": nil}}}
	data, err := avro.Marshal(sch, v)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(sch, data, DefaultLimits); err != nil {
		t.Fatalf("a record the encoder wrote: %v", err)
	}
	// An array in one block with its size (a negative count).
	arr := mustParse(t, `{"type":"array","items":"long"}`)
	sized := cat(zigzag(-3), zigzag(3), zigzag(1), zigzag(2), zigzag(3), zigzag(0))
	if err := Check(arr, sized, DefaultLimits); err != nil {
		t.Errorf("a sized block: %v", err)
	}
}

// TestHostileRecordsAreRefusedQuickly: the records of GO-2026-5046, -5047
// and -5048 and their kin are refused, each in a moment.
func TestHostileRecordsAreRefusedQuickly(t *testing.T) {
	nulls := mustParse(t, `{"type":"array","items":"null"}`)
	longs := mustParse(t, `{"type":"array","items":"long"}`)
	maps := mustParse(t, `{"type":"map","values":"null"}`)
	list := mustParse(t, `{"type":"record","name":"L","fields":[{"name":"next","type":["null","L"]}]}`)
	deep := []byte{}
	for range 10000 {
		deep = append(deep, zigzag(1)...)
	}
	for name, c := range map[string]struct {
		schema avro.Schema
		data   []byte
		want   string
	}{
		"a huge count, then nothing":    {longs, zigzag(1 << 62), "more than"},
		"a count past the data":         {longs, cat(zigzag(1000), zigzag(1)), "ends inside"},
		"a huge count of nulls":         {nulls, cat(zigzag(1<<62), zigzag(0)), "more than"},
		"the least count":               {longs, cat([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), "out of range"},
		"a block size past the end":     {longs, cat(zigzag(-1), zigzag(1<<40), zigzag(7)), "bytes where"},
		"many sub-limit map blocks":     {maps, cat(bytesRepeat(cat(zigzag(1000), bytesRepeat(cat(zigzag(1), []byte("k")), 1000)), 2000), zigzag(0)), "more than"},
		"a string longer than the data": {mustParse(t, `"string"`), zigzag(1 << 50), "bytes where"},
		"a negative length":             {mustParse(t, `"bytes"`), zigzag(-5), "negative"},
		"a union branch that is not":    {list, zigzag(7), "union branch"},
		"a list nested 10,000 deep":     {list, deep, "nested deeper"},
		"an enum symbol that is not":    {mustParse(t, `{"type":"enum","name":"E","symbols":["A"]}`), zigzag(3), "enum symbol"},
		"bytes after the value":         {mustParse(t, `"long"`), cat(zigzag(1), zigzag(2)), "left after"},
		"a varint that never ends":      {mustParse(t, `"long"`), []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}, "longer than 10"},
	} {
		start := time.Now()
		err := Check(c.schema, c.data, DefaultLimits)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: took %v", name, took)
		}
	}
}

func bytesRepeat(b []byte, n int) []byte {
	out := make([]byte, 0, len(b)*n)
	for range n {
		out = append(out, b...)
	}
	return out
}
