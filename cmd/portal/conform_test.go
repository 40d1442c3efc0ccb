package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// The API document the portals of these tests serve: every answer of
// the API through tp.call is checked against it.
var (
	servedOnce   sync.Once
	servedRouter routers.Router
	servedErr    error
)

// documentHost is the server the document is read for, whatever the
// test portal's port.
const documentHost = "portal.example.com"

func servedDocument(tp *testPortal) (routers.Router, error) {
	servedOnce.Do(func() {
		resp, err := http.Get(tp.url + "/api-docs/openapi.yaml")
		if err != nil {
			servedErr = err
			return
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			servedErr = err
			return
		}
		spec, err := openapi3.NewLoader().LoadFromData(data)
		if err != nil {
			servedErr = err
			return
		}
		spec.Servers = openapi3.Servers{{URL: "https://" + documentHost + "/api/v1"}}
		servedRouter, servedErr = legacy.NewRouter(spec)
	})
	return servedRouter, servedErr
}

// conform checks one answer of the API against the served document: its
// route is documented, its body has the documented shape for its status.
func (tp *testPortal) conform(req *http.Request, status int, header http.Header, body []byte) {
	tp.t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/api/v1/") {
		return
	}
	router, err := servedDocument(tp)
	if err != nil {
		tp.t.Fatalf("the served API document: %v", err)
	}
	req = req.Clone(context.Background())
	req.URL.Scheme, req.URL.Host, req.Host = "https", documentHost, documentHost
	route, params, err := router.FindRoute(req)
	if err != nil {
		if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
			tp.t.Errorf("%s %s is not in the API document: %v", req.Method, req.URL.Path, err)
		}
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: status, Header: header, Body: io.NopCloser(bytes.NewReader(body)), Options: &openapi3filter.Options{MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		msg := strings.TrimSpace(err.Error())
		if len(msg) > 1200 {
			msg = msg[:1200] + "…"
		}
		tp.t.Errorf("%s %s answered %d unlike the API document: %s", req.Method, req.URL.Path, status, msg)
	}
}
