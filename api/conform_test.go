package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/edh-platform/rms-portal/api"
)

// The API document every answer of these tests is checked against.
var (
	docOnce   sync.Once
	docRouter routers.Router
	docErr    error
)

func documentRouter() (routers.Router, error) {
	docOnce.Do(func() {
		spec, err := openapi3.NewLoader().LoadFromData(api.DocumentForTest())
		if err != nil {
			docErr = err
			return
		}
		docRouter, docErr = legacy.NewRouter(spec)
	})
	return docRouter, docErr
}

// conform checks an answer against the API document: a documented path
// and method, and a body of the documented schema for its status (or
// the default answer). The document cannot drift from the answers.
func conform(t *testing.T, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	if err := checkAnswer(req, status, header, body); err != nil {
		t.Error(err)
	}
}

func checkAnswer(req *http.Request, status int, header http.Header, body []byte) error {
	router, err := documentRouter()
	if err != nil {
		return fmt.Errorf("the API document: %w", err)
	}
	// The document's server is portal.example.com; the tests' requests
	// are made to be.
	req = req.Clone(context.Background())
	req.URL.Scheme, req.URL.Host, req.Host = "https", "portal.example.com", "portal.example.com"
	route, params, err := router.FindRoute(req)
	if err != nil {
		if status == http.StatusNotFound || status == http.StatusMethodNotAllowed {
			return nil
		}
		return fmt.Errorf("%s %s is not in the API document: %w", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: status, Header: header, Body: io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		msg := strings.TrimSpace(err.Error())
		if len(msg) > 1500 {
			msg = msg[:1500] + "…"
		}
		return fmt.Errorf("%s %s answered %d unlike the API document: %s", req.Method, req.URL.Path, status, msg)
	}
	return nil
}

// TestAnswersAreCheckedAgainstTheDocument: the check refuses an answer
// of the wrong shape and a route the document does not have.
func TestAnswersAreCheckedAgainstTheDocument(t *testing.T) {
	h := http.Header{"Content-Type": {"application/json"}}
	req := httptest.NewRequest("GET", "/api/v1/scada/dev/catalog", nil)
	if err := checkAnswer(req, 200, h, []byte(`{"items": [{"topic": 5}]}`)); err == nil {
		t.Error("a catalog entry whose topic is a number passed")
	}
	if err := checkAnswer(req, 200, h, []byte(`{"items": [{"topic": "t", "partitions": 1}], "total_size": 1}`)); err != nil {
		t.Errorf("a good answer: %v", err)
	}
	if err := checkAnswer(httptest.NewRequest("GET", "/api/v1/scada/dev/nothing-here", nil), 200, h, []byte(`{}`)); err == nil {
		t.Error("an undocumented route passed")
	}
}
