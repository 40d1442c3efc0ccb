package jsonbody_test

import (
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/jsonbody"
	"github.com/edh-platform/rms-portal/internal/portal"
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
		err := jsonbody.Decode([]byte(c.body), &got)
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
