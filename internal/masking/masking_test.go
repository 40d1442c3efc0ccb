package masking

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
)

var pii = NewTags("PII", "secret")

const customerAvro = `{"type":"record","name":"Customer","namespace":"crm","fields":[
 {"name":"id","type":"long"},
 {"name":"email","type":"string","confluent:tags":["PII"]},
 {"name":"phone","type":{"type":"string","confluent:tags":["pii"]}},
 {"name":"address","type":{"type":"record","name":"Address","fields":[
   {"name":"street","type":"string","confluent:tags":["PII"]},
   {"name":"city","type":"string"}]}},
 {"name":"contacts","type":{"type":"array","items":{"type":"record","name":"Contact","fields":[
   {"name":"name","type":"string","confluent:tags":["PII"]},
   {"name":"kind","type":"string"}]}}},
 {"name":"notes","type":{"type":"map","values":{"type":"string","confluent:tags":["secret"]}}},
 {"name":"backup","type":["null","Address"],"default":null},
 {"name":"score","type":"double","confluent:tags":["PII"]},
 {"name":"vip","type":["null","boolean"],"default":null,"confluent:tags":["PII"]},
 {"name":"tagged_elsewhere","type":"string","confluent:tags":["internal"]}
]}`

// decodeAvro encodes a JSON-like value with the schema and decodes it
// generically, as the records browser does.
func decodeAvro(t *testing.T, s avro.Schema, v any) any {
	t.Helper()
	b, err := avro.Marshal(s, v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := avro.Unmarshal(s, b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAvroMasksTaggedFieldsAtAnyDepth(t *testing.T) {
	s := avro.MustParse(customerAvro)
	if !AvroTagged(s, pii) {
		t.Fatal("the schema's tags were not seen")
	}
	in := map[string]any{"id": int64(7), "email": "ada@example.com", "phone": "+41 44 123",
		"address":  map[string]any{"street": "Bahnhofstrasse 1", "city": "Zurich"},
		"contacts": []any{map[string]any{"name": "Grace", "kind": "work"}, map[string]any{"name": "Alan Mathison", "kind": "home"}},
		"notes":    map[string]any{"a": "door code 1234"},
		"backup":   map[string]any{"crm.Address": map[string]any{"street": "Seestrasse 99", "city": "Bern"}},
		"score":    0.93, "vip": true, "tagged_elsewhere": "kept"}
	v, paths := Avro(s, decodeAvro(t, s, in), pii)
	got, _ := json.Marshal(v)
	want := `{"address":{"city":"Zurich","street":"****************"},"backup":{"crm.Address":{"city":"Bern","street":"****************"}},` +
		`"contacts":[{"kind":"work","name":"********"},{"kind":"home","name":"****************"}],"email":"****************","id":7,` +
		`"notes":{"a":"****************"},"phone":"****************","score":0,"tagged_elsewhere":"kept","vip":{"boolean":false}}`
	if string(got) != want {
		t.Errorf("masked\n%s\nwant\n%s", got, want)
	}
	wantPaths := []string{"address.street", "backup.street", "contacts[].name", "email", "notes.*", "phone", "score", "vip"}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Errorf("paths %v, want %v", paths, wantPaths)
	}
	for _, secret := range []string{"ada@", "Bahnhof", "Grace", "Alan", "1234", "Seestrasse", "0.93", "+41"} {
		if strings.Contains(string(got), secret) {
			t.Errorf("%q shows through: %s", secret, got)
		}
	}
}

func TestAvroWithoutTheTagsMasksNothing(t *testing.T) {
	s := avro.MustParse(customerAvro)
	if AvroTagged(s, NewTags("GDPR")) {
		t.Error("a schema without the platform's tags was taken as tagged")
	}
	plain := avro.MustParse(`{"type":"record","name":"R","fields":[{"name":"self","type":["null","R"],"default":null},{"name":"a","type":"string"}]}`)
	if AvroTagged(plain, pii) {
		t.Error("an untagged recursive schema was taken as tagged")
	}
	in := map[string]any{"self": map[string]any{"R": map[string]any{"self": nil, "a": "inner"}}, "a": "outer"}
	v, paths := Avro(plain, decodeAvro(t, plain, in), pii)
	if paths != nil || !strings.Contains(mustJSON(t, v), "inner") {
		t.Errorf("masked %v of %s", paths, mustJSON(t, v))
	}
}

func TestRecordTaggedWholeMasksEveryLeaf(t *testing.T) {
	s := avro.MustParse(`{"type":"record","name":"Outer","fields":[{"name":"card","type":{"type":"record","name":"Card","confluent:tags":["PII"],
		"fields":[{"name":"number","type":"string"},{"name":"cvc","type":"int"},{"name":"raw","type":"bytes"}]}}]}`)
	v, paths := Avro(s, decodeAvro(t, s, map[string]any{"card": map[string]any{"number": "4111111111111111", "cvc": 123, "raw": []byte("abcdefghi")}}), pii)
	if got := mustJSON(t, v); got != `{"card":{"cvc":0,"number":"****************","raw":"AAAAAAAAAAAAAAAAAAAAAA=="}}` || !reflect.DeepEqual(paths, []string{"card"}) {
		t.Errorf("masked %s %v", got, paths)
	}
}

const orderJSONSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
 "definitions":{"Person":{"type":"object","properties":{"email":{"type":"string","confluent:tags":["PII"]},"name":{"type":"string"}}}},
 "properties":{
  "id":{"type":"integer"},
  "buyer":{"$ref":"#/definitions/Person"},
  "items":{"type":"array","items":{"type":"object","properties":{"sku":{"type":"string"},"gift_note":{"type":"string","confluent:tags":["PII"]}}}},
  "card":{"type":"object","confluent:tags":["PII"],"properties":{"number":{"type":"string"},"cvc":{"type":"integer"}}},
  "extra":{"type":"object","additionalProperties":{"type":"string","confluent:tags":["PII"]}},
  "pair":{"type":"array","items":[{"type":"string","confluent:tags":["PII"]},{"type":"integer"}]},
  "either":{"oneOf":[{"type":"null"},{"type":"object","properties":{"ssn":{"type":"string","confluent:tags":["PII"]}}}]}
 }}`

func TestJSONSchemaMasksTaggedProperties(t *testing.T) {
	j, err := ParseJSONSchema(orderJSONSchema, pii)
	if err != nil || j == nil {
		t.Fatalf("parse: %v %v", j, err)
	}
	in := `{"id":12345678901234567,"buyer":{"email":"ada@example.com","name":"Ada"},"items":[{"sku":"A-1","gift_note":"Happy birthday"},{"sku":"B-2"}],
	 "card":{"number":"4111111111111111","cvc":123},"extra":{"k":"v1"},"pair":["secret","42"],"either":{"ssn":"756.1234.5678.97"},"unknown":"x"}`
	d := json.NewDecoder(strings.NewReader(in))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	v, paths := j.Mask(v)
	want := `{"buyer":{"email":"****************","name":"Ada"},"card":{"cvc":0,"number":"****************"},"either":{"ssn":"****************"},` +
		`"extra":{"k":"****"},"id":12345678901234567,"items":[{"gift_note":"****************","sku":"A-1"},{"sku":"B-2"}],"pair":["********","42"],"unknown":"x"}`
	if got := mustJSON(t, v); got != want {
		t.Errorf("masked\n%s\nwant\n%s", got, want)
	}
	wantPaths := []string{"buyer.email", "card", "either.ssn", "extra.*", "items[].gift_note", "pair[]"}
	if !reflect.DeepEqual(paths, wantPaths) {
		t.Errorf("paths %v, want %v", paths, wantPaths)
	}
}

func TestJSONSchemaWithoutTagsIsNil(t *testing.T) {
	j, err := ParseJSONSchema(`{"type":"object","properties":{"a":{"$ref":"#"}}}`, pii)
	if err != nil || j != nil {
		t.Errorf("an untagged schema gave %v, %v", j, err)
	}
	if _, err := ParseJSONSchema(`{"type":`, pii); err == nil {
		t.Error("a broken schema parsed")
	}
	// A schema that refers to itself ends at the depth bound.
	j, err = ParseJSONSchema(`{"type":"object","properties":{"next":{"$ref":"#"},"pin":{"type":"string","confluent:tags":["PII"]}}}`, pii)
	if err != nil {
		t.Fatal(err)
	}
	var v any = map[string]any{"pin": "1234", "next": map[string]any{"pin": "5678", "next": map[string]any{"pin": "9999"}}}
	v, paths := j.Mask(v)
	if got := mustJSON(t, v); strings.ContainsAny(got, "123456789") || !reflect.DeepEqual(paths, []string{"next.next.pin", "next.pin", "pin"}) {
		t.Errorf("masked %s %v", got, paths)
	}
}

func TestLengthClasses(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 4, 4: 4, 5: 8, 9: 16, 100: 128, 300: 256, 10_000: 256} {
		if got := lengthClass(n); got != want {
			t.Errorf("lengthClass(%d) = %d, want %d", n, got, want)
		}
	}
	if Value(struct{}{}) != nil {
		t.Error("a value of an unknown type was kept")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
