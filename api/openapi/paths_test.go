package openapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/api/operations"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// TestGenerateRefusesWhatTheDocumentHasNot: an operation that names a
// parameter, answer, header or type the document does not declare, or
// that clashes with another, stops make docs with the operation's id
// rather than writing a document that points nowhere.
func TestGenerateRefusesWhatTheDocumentHasNot(t *testing.T) {
	ok := operations.Operation{
		ID: "getThing", Method: http.MethodGet, Path: "/{bu}/{stage}/thing/{name}", Tags: []string{"topics"}, Summary: "A thing.", Need: operations.NeedReads,
		Answers: []operations.Answer{{Status: 200, Doc: "The thing.", Of: wire.TopicDetail{}}},
		Fails:   []operations.Failure{operations.NotFound},
	}
	if _, err := pathsYAML(frame, []operations.Operation{ok}); err != nil {
		t.Fatalf("a well-formed operation: %v", err)
	}
	type thing struct{}
	for name, change := range map[string]func(*operations.Operation){
		"an unknown shared parameter":      func(o *operations.Operation) { o.Params = []operations.Param{operations.Ref("nope")} },
		"a path parameter nobody declares": func(o *operations.Operation) { o.Path = "/thing/{widget}" },
		"a path parameter not in the path": func(o *operations.Operation) {
			o.Params = []operations.Param{{Name: "other", In: "path", Required: true, Schema: "{type: string}"}}
		},
		"a type that is not a schema": func(o *operations.Operation) { o.Answers[0].Of = thing{} },
		"an unknown shared answer":    func(o *operations.Operation) { o.Fails = []operations.Failure{"418 Teapot"} },
		"an unknown shared header":    func(o *operations.Operation) { o.Answers[0].Headers = []operations.Header{{Name: "X", Ref: "X"}} },
		"a schema that is not YAML": func(o *operations.Operation) {
			o.Params = []operations.Param{{Name: "q", In: "query", Schema: "{type: [string"}}
		},
		"two answers of one status": func(o *operations.Operation) { o.Fails = append(o.Fails, "404 NotFound") },
		"a body of no type":         func(o *operations.Operation) { o.Body = &operations.Body{Required: true} },
		"no need":                   func(o *operations.Operation) { o.Need = "" },
		"an undeclared tag":         func(o *operations.Operation) { o.Tags = []string{"widgets"} },
	} {
		op := ok
		op.Answers = append([]operations.Answer(nil), ok.Answers...)
		change(&op)
		_, err := pathsYAML(frame, []operations.Operation{op})
		if err == nil || !strings.Contains(err.Error(), "getThing") {
			t.Errorf("%s: %v", name, err)
		}
	}
	twice := ok
	twice.Method = http.MethodPut
	if _, err := pathsYAML(frame, []operations.Operation{ok, twice}); err == nil || !strings.Contains(err.Error(), "used twice") {
		t.Errorf("an id used twice: %v", err)
	}
	again := ok
	again.ID = "getThingAgain"
	if _, err := pathsYAML(frame, []operations.Operation{ok, again}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a method and path twice: %v", err)
	}
}
