// Package contract holds adapters and stand-ins to the published API
// documents in tests: a Checker sits between an adapter and the server it
// calls, checks every request and every answer against the documents
// (kin-openapi), and reports each difference as a test failure. It is used
// by tests only; it lives outside a _test file so that the Confluent Cloud
// and Schema Registry adapters' tests share it.
package contract

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// Checker checks every exchange with next against published OpenAPI
// documents; problems are kept for Report.
type Checker struct {
	t       testing.TB
	routers []routers.Router
	next    http.Handler
	// Undocumented, when set, says why an operation missing from the
	// documents is called anyway ("" when it must be there).
	Undocumented func(r *http.Request) string

	mu       sync.Mutex
	problems []string
	checked  int
}

// ModuleDoc is the path of a document shipped in a Go module of go.mod.
func ModuleDoc(t testing.TB, module, file string) string {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		t.Fatalf("locating %s: %v", module, err)
	}
	return filepath.Join(strings.TrimSpace(string(dir)), file)
}

// brief keeps each problem to a line or two, not the whole schema.
func brief() []openapi3.SchemaValidationOption {
	return []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()}
}

// Serve serves next behind a Checker of the documents at paths: each
// exchange is checked against the document that has its operation.
func Serve(t testing.TB, next http.Handler, paths ...string) (*Checker, *httptest.Server) {
	t.Helper()
	// Schema Registry's own media type is JSON.
	openapi3filter.RegisterBodyDecoder("application/vnd.schemaregistry.v1+json", openapi3filter.JSONBodyDecoder)
	c := &Checker{t: t, next: next}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	for _, path := range paths {
		doc, err := openapi3.NewLoader().LoadFromFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc.Servers = openapi3.Servers{{URL: srv.URL}}
		if doc.Info != nil && doc.Info.Version == "" {
			// The Metrics API v2 document has an empty info.version.
			doc.Info.Version = "unversioned"
		}
		// Published examples are not always valid; the schemas are what
		// counts. Connect v1 gives one response both a $ref and content.
		router, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation(), openapi3.AllowExtraSiblingFields("content"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		c.routers = append(c.routers, router)
	}
	return c, srv
}

func (c *Checker) fail(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// route finds the operation of r in the documents.
func (c *Checker) route(r *http.Request) (*routers.Route, map[string]string, error) {
	var first error
	for _, router := range c.routers {
		route, params, err := router.FindRoute(r)
		if err == nil {
			return route, params, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, nil, first
}

func (c *Checker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	// A server's request carries no scheme and host; the router matches
	// them against the document's server.
	r.URL.Scheme, r.URL.Host = "http", r.Host
	route, params, err := c.route(r)
	if err != nil {
		if why := c.undocumented(r); why != "" {
			c.t.Logf("%s %s is not in the published document (%s): passed through unchecked", r.Method, r.URL.Path, why)
			c.next.ServeHTTP(w, r)
			return
		}
		c.fail("%s %s is not an operation of the document: %v", r.Method, r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	route, checked := expanded(route, r)
	in := &openapi3filter.RequestValidationInput{Request: checked, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true,
			SchemaValidationOptions: brief()}}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		c.fail("request %s %s does not follow the document: %v", r.Method, r.URL.Path, err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	c.next.ServeHTTP(rec, r)
	status := rec.Code
	// A refusal the document does not list (Connect's 409 for a duplicate)
	// must still have the operation's error shape.
	if status >= 400 && status < 500 && route.Operation.Responses.Status(status) == nil && route.Operation.Responses.Status(400) != nil {
		status = 400
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: rec.Header(),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, SchemaValidationOptions: brief()}}
	out.SetBodyBytes(rec.Body.Bytes())
	if err := openapi3filter.ValidateResponse(r.Context(), out); err != nil {
		c.fail("response %d to %s %s does not follow the document: %v\n%s", rec.Code, r.Method, r.URL.Path, err, rec.Body.String())
	}
	c.mu.Lock()
	c.checked++
	c.mu.Unlock()
	for k, vals := range rec.Header() {
		w.Header()[k] = vals
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// expanded is the operation of a Connect v1 list with expand: the document
// has it as a path of its own, with the query in the path's name and its
// examples (expand=info,status,id), though its parameter's schema takes
// one value. The request is held to the path's name, the answer to that
// operation.
func expanded(route *routers.Route, r *http.Request) (*routers.Route, *http.Request) {
	q := r.URL.Query()
	if !q.Has("expand") {
		return route, r
	}
	item := route.Spec.Paths.Value(route.Path + "?expand=" + q.Get("expand"))
	if item == nil || item.GetOperation(r.Method) == nil {
		return route, r
	}
	alt := *route
	alt.Operation = item.GetOperation(r.Method)
	q.Del("expand")
	checked := r.Clone(r.Context())
	checked.URL.RawQuery = q.Encode()
	return &alt, checked
}

func (c *Checker) undocumented(r *http.Request) string {
	if c.Undocumented == nil {
		return ""
	}
	return c.Undocumented(r)
}

// Report fails the test with every problem found, or when no exchange was
// checked at all.
func (c *Checker) Report() {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.problems {
		c.t.Error(p)
	}
	if c.checked == 0 {
		c.t.Error("no exchange was checked")
	}
}
