// Package registry is dev mode's Schema Registry: an HTTP server speaking the
// part of the Schema Registry REST API the portal uses, with real Avro
// parsing and compatibility checks and basic JSON Schema rules.
package registry

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/edh-platform/rms-portal/internal/cpupriority"
)

// Registry is the dev-mode Schema Registry: an HTTP server that speaks the
// part of the Schema Registry REST API the portal uses, with real parsing
// and compatibility checks (Avro fully, JSON Schema by basic rules). The
// production adapter talks to it like to a real registry.
type Registry struct {
	user, pass string
	// keys, when set, lets in the organisation's API keys for this
	// registry (those spread already).
	keys atomic.Pointer[func(user, pass string) bool]
	srv  *http.Server
	addr string
	mux  *http.ServeMux

	mu       sync.Mutex
	writes   sync.Mutex
	nextID   int
	schemas  map[int]storedSchema
	byCanon  map[string]int
	subjects map[string][]*regVersion
	levels   map[string]string
	global   string
	parses   parseCache
}

type storedSchema struct {
	Type       string         `json:"schemaType,omitempty"`
	Schema     string         `json:"schema"`
	References []regReference `json:"references,omitempty"`
	parsed     parsed
	// key names the schema among those stored (canonKey), found with the
	// parse, outside the registry's lock.
	key string
}

type regReference struct {
	Name    string `json:"name"`
	Subject string `json:"subject"`
	Version int    `json:"version"`
}

type regVersion struct {
	version int
	id      int
	deleted bool
}

// StartRegistry serves a registry on a loopback port, with basic auth.
func StartRegistry(user, pass string) (*Registry, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &Registry{user: user, pass: pass, addr: l.Addr().String(), nextID: 100001, schemas: map[int]storedSchema{},
		byCanon: map[string]int{}, subjects: map[string][]*regVersion{}, levels: map[string]string{}, global: "BACKWARD"}
	r.mux = r.routes()
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 5e9}
	go func() { _ = r.srv.Serve(l) }()
	return r, nil
}

// TakeKeys lets in, besides the registry's own user, the credentials
// taken says yes to: the API keys made for the registry.
func (r *Registry) TakeKeys(taken func(user, pass string) bool) { r.keys.Store(&taken) }

func (r *Registry) keyTaken(user, pass string) bool {
	f := r.keys.Load()
	return f != nil && (*f)(user, pass)
}

// URL is the registry's base URL.
func (r *Registry) URL() string { return "http://" + r.addr }

// Close stops the registry.
func (r *Registry) Close() { _ = r.srv.Close() }

type regError struct {
	status int
	code   int
	msg    string
}

// routes are the registry's endpoints, by method and path pattern, each
// answering a value or a registry error under the registry's lock.
func (r *Registry) routes() *http.ServeMux {
	mux := http.NewServeMux()
	handle := func(pattern string, h func(req *http.Request) (any, *regError)) {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, req *http.Request) {
			r.mu.Lock()
			out, e := h(req)
			r.mu.Unlock()
			if e != nil {
				writeReg(w, e.status, map[string]any{"error_code": e.code, "message": e.msg})
				return
			}
			writeReg(w, http.StatusOK, out)
		})
	}
	// A request that carries a schema has it read and parsed outside the
	// lock: a large schema takes its time, and a registry serves the
	// others meanwhile.
	// Registrations go one at a time, as on a registry's leader.
	handleSchema := func(pattern string, h func(req *http.Request, in storedSchema) (any, *regError)) {
		handle(pattern, func(req *http.Request) (any, *regError) {
			r.mu.Unlock()
			write := req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/versions")
			if write {
				r.writes.Lock()
				defer r.writes.Unlock()
			}
			in, e := r.parseRequest(req)
			r.mu.Lock()
			if e != nil {
				return nil, e
			}
			return h(req, in)
		})
	}
	flag := func(req *http.Request, name string) bool { return req.URL.Query().Get(name) == "true" }
	handle("GET /subjects", func(req *http.Request) (any, *regError) { return page(req, r.listSubjects(flag(req, "deleted"))) })
	handle("GET /schemas", func(req *http.Request) (any, *regError) {
		return page(req, r.listSchemas(req.URL.Query().Get("subjectPrefix"), flag(req, "latestOnly"), flag(req, "deleted")))
	})
	handle("GET /schemas/types", func(*http.Request) (any, *regError) { return []string{"JSON", "PROTOBUF", "AVRO"}, nil })
	handle("GET /schemas/ids/{id}", func(req *http.Request) (any, *regError) { return r.byID(req.PathValue("id")) })
	handle("GET /subjects/{subject}/versions", func(req *http.Request) (any, *regError) {
		return r.versions(req.PathValue("subject"), flag(req, "deleted"))
	})
	handleSchema("POST /subjects/{subject}/versions", func(req *http.Request, in storedSchema) (any, *regError) {
		return r.register(req.PathValue("subject"), in)
	})
	handleSchema("POST /subjects/{subject}", func(req *http.Request, in storedSchema) (any, *regError) {
		return r.lookup(req.PathValue("subject"), in)
	})
	handle("DELETE /subjects/{subject}", func(req *http.Request) (any, *regError) {
		return r.deleteSubject(req.PathValue("subject"), flag(req, "permanent"))
	})
	handle("GET /subjects/{subject}/versions/{version}", func(req *http.Request) (any, *regError) {
		return r.version(req.PathValue("subject"), req.PathValue("version"), flag(req, "deleted"))
	})
	handle("DELETE /subjects/{subject}/versions/{version}", func(req *http.Request) (any, *regError) {
		return r.deleteVersion(req.PathValue("subject"), req.PathValue("version"), flag(req, "permanent"))
	})
	handleSchema("POST /compatibility/subjects/{subject}/versions/{version}", func(req *http.Request, in storedSchema) (any, *regError) {
		return r.compatibility(req.PathValue("subject"), req.PathValue("version"), req, in)
	})
	handle("GET /config", func(*http.Request) (any, *regError) { return map[string]string{"compatibilityLevel": r.level("")}, nil })
	handle("GET /config/{subject}", func(req *http.Request) (any, *regError) {
		return map[string]string{"compatibilityLevel": r.level(req.PathValue("subject"))}, nil
	})
	handle("PUT /config", func(req *http.Request) (any, *regError) { return r.setLevel("", req) })
	handle("PUT /config/{subject}", func(req *http.Request) (any, *regError) { return r.setLevel(req.PathValue("subject"), req) })
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		writeReg(w, http.StatusNotFound, map[string]any{"error_code": 404, "message": "HTTP 404 Not Found"})
	})
	return mux
}

// ServeHTTP checks the registry's basic credentials, then routes.
func (r *Registry) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if u, p, ok := req.BasicAuth(); r.user != "" && (!ok || (u != r.user || p != r.pass) && !r.keyTaken(u, p)) {
		writeReg(w, http.StatusUnauthorized, map[string]any{"error_code": 401, "message": "Unauthorized"})
		return
	}
	if req.ContentLength >= heavyRequest {
		// A real registry's work is not the portal's processors': in dev
		// mode it shares them, so a large schema is parsed and checked at
		// a lower priority than the pages the portal serves meanwhile.
		_ = cpupriority.Run(func() error { r.mux.ServeHTTP(w, req); return nil })
		return
	}
	r.mux.ServeHTTP(w, req)
}

// heavyRequest is the body size from which the stand-in's work runs at a
// lower priority: the portal's own bound for large requests.
const heavyRequest = 256 << 10

func writeReg(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/vnd.schemaregistry.v1+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func subjectNotFound(s string) *regError {
	return &regError{404, 40401, fmt.Sprintf("Subject '%s' not found.", s)}
}

func (r *Registry) live(s string, deleted bool) []*regVersion {
	var out []*regVersion
	for _, v := range r.subjects[s] {
		if deleted || !v.deleted {
			out = append(out, v)
		}
	}
	return out
}

func (r *Registry) listSubjects(deleted bool) []string {
	out := []string{}
	for s := range r.subjects {
		if len(r.live(s, deleted)) > 0 {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

type regSchemaJSON struct {
	Subject    string         `json:"subject"`
	Version    int            `json:"version"`
	ID         int            `json:"id"`
	Type       string         `json:"schemaType,omitempty"`
	Schema     string         `json:"schema"`
	References []regReference `json:"references,omitempty"`
}

func (r *Registry) describe(s string, v *regVersion) regSchemaJSON {
	st := r.schemas[v.id]
	out := regSchemaJSON{Subject: s, Version: v.version, ID: v.id, Type: st.Type, Schema: st.Schema, References: st.References}
	if out.Type == "AVRO" {
		out.Type = "" // the registry omits the default type, as a real one does
	}
	return out
}

func (r *Registry) listSchemas(prefix string, latestOnly, deleted bool) []regSchemaJSON {
	out := []regSchemaJSON{}
	for _, s := range r.listSubjects(deleted) {
		if !strings.HasPrefix(s, prefix) {
			continue
		}
		vs := r.live(s, deleted)
		if latestOnly {
			vs = vs[len(vs)-1:]
		}
		for _, v := range vs {
			out = append(out, r.describe(s, v))
		}
	}
	return out
}

func (r *Registry) byID(raw string) (any, *regError) {
	id, _ := strconv.Atoi(raw)
	st, ok := r.schemas[id]
	if !ok {
		return nil, &regError{404, 40403, "Schema not found"}
	}
	return st, nil
}

func (r *Registry) versions(s string, deleted bool) (any, *regError) {
	vs := r.live(s, deleted)
	if len(vs) == 0 {
		return nil, subjectNotFound(s)
	}
	out := []int{}
	for _, v := range vs {
		out = append(out, v.version)
	}
	return out, nil
}

func (r *Registry) find(s, raw string, deleted bool) (*regVersion, *regError) {
	if len(r.subjects[s]) == 0 {
		return nil, subjectNotFound(s)
	}
	if raw == "latest" || raw == "-1" {
		vs := r.live(s, deleted)
		if len(vs) == 0 {
			return nil, subjectNotFound(s)
		}
		return vs[len(vs)-1], nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		return nil, &regError{422, 42202, "The specified version '" + raw + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\""}
	}
	for _, v := range r.subjects[s] {
		if v.version == n && (deleted || !v.deleted) {
			return v, nil
		}
	}
	return nil, &regError{404, 40402, fmt.Sprintf("Version %d not found.", n)}
}

func (r *Registry) version(s, raw string, deleted bool) (any, *regError) {
	v, e := r.find(s, raw, deleted)
	if e != nil {
		return nil, e
	}
	return r.describe(s, v), nil
}

// parseRequest reads and parses a schema in a request body; it takes
// the registry's lock only to find the schemas it references.
func (r *Registry) parseRequest(req *http.Request) (storedSchema, *regError) {
	var in storedSchema
	if err := json.NewDecoder(req.Body).Decode(&in); err != nil || in.Schema == "" {
		return in, &regError{422, 42201, "Invalid schema: the request must carry a schema"}
	}
	if in.Type == "" {
		in.Type = "AVRO"
	}
	refs, e := r.referenced(in.References)
	if e != nil {
		return in, e
	}
	p, err := r.parses.parse(in.Type, in.Schema, refs)
	if err != nil {
		return in, &regError{422, 42201, err.Error()}
	}
	in.parsed = p
	in.key = canonKey(in)
	return in, nil
}

// referenced are the texts of the schemas refs name.
func (r *Registry) referenced(refs []regReference) ([]string, *regError) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, ref := range refs {
		v, e := r.find(ref.Subject, strconv.Itoa(ref.Version), false)
		if e != nil {
			return nil, &regError{422, 42201, fmt.Sprintf("Invalid schema: reference %s (subject %s version %d) not found", ref.Name, ref.Subject, ref.Version)}
		}
		out = append(out, r.schemas[v.id].Schema)
	}
	return out, nil
}

// canonKey is a digest of a schema's type, canonical form and references:
// a registration looks it up under the registry's lock, where a key as
// long as a megabyte schema would be hashed and compared while every
// other request waited.
func canonKey(st storedSchema) string {
	refs, _ := json.Marshal(st.References)
	k := digest(st.Type, st.parsed.canonical, string(refs))
	return string(k[:])
}

func (r *Registry) earlier(s string) []parsed {
	var out []parsed
	for _, v := range r.live(s, false) {
		out = append(out, r.schemas[v.id].parsed)
	}
	return out
}

func (r *Registry) register(s string, in storedSchema) (any, *regError) {
	key := in.key
	if id, ok := r.byCanon[key]; ok {
		for _, v := range r.live(s, false) {
			if v.id == id {
				return r.describe(s, v), nil // already registered: same id and version
			}
		}
	}
	if why := compatible(r.level(s), in.parsed, r.earlier(s)); len(why) > 0 {
		return nil, &regError{409, 40901, fmt.Sprintf("Schema being registered is incompatible with an earlier schema for subject %q (%s): %s",
			s, r.level(s), strings.Join(why, "; "))}
	}
	id, ok := r.byCanon[key]
	if !ok {
		id = r.nextID
		r.nextID++
		r.schemas[id] = in
		r.byCanon[key] = id
	}
	next := 1
	if all := r.subjects[s]; len(all) > 0 {
		next = all[len(all)-1].version + 1
	}
	v := &regVersion{version: next, id: id}
	r.subjects[s] = append(r.subjects[s], v)
	return r.describe(s, v), nil
}

func (r *Registry) lookup(s string, in storedSchema) (any, *regError) {
	if len(r.live(s, false)) == 0 {
		return nil, subjectNotFound(s)
	}
	id := r.byCanon[in.key]
	for _, v := range r.live(s, false) {
		if v.id == id {
			return r.describe(s, v), nil
		}
	}
	return nil, &regError{404, 40403, "Schema not found"}
}

func (r *Registry) compatibility(s, raw string, req *http.Request, in storedSchema) (any, *regError) {
	var earlier []parsed
	if raw == "latest" {
		earlier = r.earlier(s)
		if len(earlier) == 0 {
			return nil, subjectNotFound(s)
		}
	} else {
		v, e := r.find(s, raw, false)
		if e != nil {
			return nil, e
		}
		earlier = []parsed{r.schemas[v.id].parsed}
	}
	why := compatible(r.level(s), in.parsed, earlier)
	out := map[string]any{"is_compatible": len(why) == 0}
	if req.URL.Query().Get("verbose") == "true" {
		out["messages"] = append([]string{}, why...)
	}
	return out, nil
}

func (r *Registry) deleteVersion(s, raw string, permanent bool) (any, *regError) {
	v, e := r.find(s, raw, true)
	if e != nil {
		return nil, e
	}
	if permanent {
		if !v.deleted {
			return nil, &regError{404, 40407, fmt.Sprintf("Subject '%s' Version %d was not deleted first before being permanently deleted", s, v.version)}
		}
		all := r.subjects[s]
		for i, x := range all {
			if x == v {
				r.subjects[s] = append(all[:i:i], all[i+1:]...)
				break
			}
		}
		if len(r.subjects[s]) == 0 {
			delete(r.subjects, s)
		}
		return v.version, nil
	}
	if v.deleted {
		return nil, &regError{404, 40406, fmt.Sprintf("Subject '%s' Version %d was soft deleted. Set permanent=true to delete permanently", s, v.version)}
	}
	v.deleted = true
	return v.version, nil
}

func (r *Registry) deleteSubject(s string, permanent bool) (any, *regError) {
	all := r.subjects[s]
	if len(all) == 0 {
		return nil, subjectNotFound(s)
	}
	var out []int
	for _, v := range all {
		out = append(out, v.version)
		v.deleted = true
	}
	if permanent {
		delete(r.subjects, s)
	}
	return out, nil
}

func (r *Registry) level(s string) string {
	if l, ok := r.levels[s]; ok && s != "" {
		return l
	}
	return r.global
}

var levels = []string{"NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE"}

func (r *Registry) setLevel(s string, req *http.Request) (any, *regError) {
	var in struct {
		Compatibility string `json:"compatibility"`
	}
	_ = json.NewDecoder(req.Body).Decode(&in)
	ok := false
	for _, l := range levels {
		ok = ok || l == in.Compatibility
	}
	if !ok {
		return nil, &regError{422, 42203, "Invalid compatibility level " + in.Compatibility}
	}
	if s == "" {
		r.global = in.Compatibility
	} else {
		r.levels[s] = in.Compatibility
	}
	return in, nil
}

// searchLimit is Schema Registry's schema.search.default.limit and
// schema.search.max.limit: a list answers at most this many items, from
// offset, as the registry does.
const searchLimit = 1000

// page is the part of a list that offset and limit ask for (limit at
// most searchLimit, which is also the default).
func page[T any](req *http.Request, all []T) ([]T, *regError) {
	q := req.URL.Query()
	offset, limit := 0, searchLimit
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, &regError{status: http.StatusUnprocessableEntity, code: 42202, msg: "Invalid offset " + v}
		}
		offset = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, &regError{status: http.StatusUnprocessableEntity, code: 42202, msg: "Invalid limit " + v}
		}
		if n > 0 && n < searchLimit {
			limit = n
		}
	}
	if offset >= len(all) {
		return []T{}, nil
	}
	return all[offset:min(len(all), offset+limit)], nil
}
