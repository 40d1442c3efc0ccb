package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// TestCallsAreTheOperations: a method sends its operation's request
// (path escaped, parameters set only when given, the body as JSON), reads
// the answer into its wire type and hands back its headers; a refusal is
// an *Error with the record's status, types, messages and fields.
func TestCallsAreTheOperations(t *testing.T) {
	var got *http.Request
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		switch r.URL.Path {
		case "/api/v1/scada/dev/topic/a b":
			w.Header().Set("ETag", `"v7"`)
			w.Header().Add("Warning", `299 - "a \"warned\" change"`)
			_, _ = w.Write([]byte(`{"name":"edh-shared-scada-dev-a-b","partitions_count":3,"config":{"retention.ms":"1000"}}`))
		default:
			w.Header().Set("Retry-After", "5")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"status":"FORBIDDEN","code":403,"timestamp":"2026-12-06T00:00:00.000Z","errors":[` +
				`{"type":"READ_ONLY_ENVIRONMENT","message":"run is read-only","field":"stage"},{"type":"INSUFFICIENT_ROLE","message":"no"}]}`))
		}
	}))
	defer srv.Close()
	c := New(srv.URL+"/", srv.Client())
	two := 2
	cfg := map[string]*string{"retention.ms": ptr("1000")}
	tp, m, err := c.PatchTopic(context.Background(), "scada", "dev", "a b", wire.TopicPatch{PartitionsCount: &two, Config: cfg}, &PatchTopicParams{IfMatch: `"v6"`})
	if err != nil || tp.Name != "edh-shared-scada-dev-a-b" || tp.PartitionsCount != 3 || m.ETag() != `"v7"` || m.Warnings()[0] != `a "warned" change` {
		t.Fatalf("patch: %+v %+v %v", tp, m, err)
	}
	if got.Method != "PATCH" || got.URL.EscapedPath() != "/api/v1/scada/dev/topic/a%20b" || got.Header.Get("If-Match") != `"v6"` ||
		got.Header.Get("Content-Type") != "application/json" || body != `{"partitions_count":2,"config":{"retention.ms":"1000"}}` {
		t.Errorf("the request: %s %s %v %s", got.Method, got.URL.EscapedPath(), got.Header, body)
	}
	if _, _, err := c.ListTopics(context.Background(), "scada", "run", &ListTopicsParams{PageSize: 50, Search: "pump"}); err == nil {
		t.Fatal("a refusal is no error")
	} else {
		var e *Error
		if !errors.As(err, &e) || e.Code != 403 || e.Status != "FORBIDDEN" || !e.Has("READ_ONLY_ENVIRONMENT") || e.Errors[0].Field != "stage" ||
			e.RetryAfter != 5 || StatusOf(err) != 403 || IsNotFound(err) || err.Error() != "403 READ_ONLY_ENVIRONMENT at stage: run is read-only (and 1 more)" {
			t.Errorf("the refusal: %#v %q", e, err)
		}
	}
	if got.URL.RawQuery != "page_size=50&search=pump" {
		t.Errorf("the list's query: %s", got.URL.RawQuery)
	}
}

func ptr[T any](v T) *T { return &v }
