// Package schemareg implements the Schemas port on a Schema Registry
// through confluent-kafka-go's schemaregistry client, with basic auth. Two
// calls the client lacks (the one-request list of latest schemas and the
// verbose compatibility check) are plain requests with the same
// credentials.
package schemareg

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/rest"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// Options configure the adapter.
type Options struct {
	Name      string
	URL       string
	APIKey    string
	APISecret string
	Timeout   time.Duration
	// Upstream, when set, guards every request (circuit breaker, health).
	Upstream *upstream.Upstream
	// Transport, when set, carries the adapter's own requests (traces).
	Transport http.RoundTripper
	// Cache keeps the schemas read by id, shared by the replica's
	// registries; one of its own (DefaultCacheBytes) when nil.
	Cache *Cache
	// IdleAfter is how long the registry client stays open after its
	// last call (IdleAfter, the constant, by default).
	IdleAfter time.Duration
}

// IdleAfter is how long a registry's client is kept after its last call:
// a replica of hundreds of environments holds clients only for those in
// use.
const IdleAfter = 10 * time.Minute

// Registry is the Schemas port on one Schema Registry.
type Registry struct {
	name    string
	base    string
	key     string
	secret  string
	timeout time.Duration
	client  *lazyClient
	byID    *Cache
	http    *http.Client
	up      *upstream.Upstream
	// answers are buffers the registry's answers are read into (readAnswer).
	answers sync.Pool
}

var _ platform.Schemas = (*Registry)(nil)

// New returns the adapter.
func New(o Options) (*Registry, error) {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	cfg := schemaregistry.NewConfig(o.URL)
	if o.APIKey != "" {
		cfg = schemaregistry.NewConfigWithBasicAuthentication(o.URL, o.APIKey, o.APISecret)
	}
	ms := int(o.Timeout / time.Millisecond)
	cfg.RequestTimeoutMs, cfg.ConnectionTimeoutMs = ms, ms
	cfg.MaxRetries, cfg.RetriesWaitMs, cfg.RetriesMaxWaitMs = 1, 200, 1000
	// The client keeps what it read with no bound unless told one; what it
	// still reads for the adapter (a version by number, a deletion) needs
	// few entries.
	cfg.CacheCapacity = 256
	// The client is made now once, so that a configuration it refuses is
	// the start's error, then made again when it is used.
	c, err := schemaregistry.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("schema registry %s: %w", o.Name, err)
	}
	_ = c.Close()
	if o.Cache == nil {
		o.Cache = NewCache(DefaultCacheBytes)
	}
	if o.IdleAfter <= 0 {
		o.IdleAfter = IdleAfter
	}
	return &Registry{name: o.Name, base: strings.TrimSuffix(o.URL, "/"), key: o.APIKey, secret: o.APISecret,
		timeout: o.Timeout, client: &lazyClient{cfg: cfg, idle: o.IdleAfter}, byID: o.Cache,
		http: &http.Client{Timeout: o.Timeout, Transport: o.Transport}, up: o.Upstream}, nil
}

// Close releases the client.
func (r *Registry) Close() { r.client.close() }

// bounded runs a call of the context-less client, giving up when ctx ends;
// the client's own timeout ends the call itself.
func bounded[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case res := <-ch:
		return res.v, res.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

type schemaJSON struct {
	Subject    string                     `json:"subject"`
	Version    int                        `json:"version"`
	ID         int                        `json:"id"`
	Type       string                     `json:"schemaType"`
	Schema     string                     `json:"schema"`
	References []schemaregistry.Reference `json:"references"`
}

func (s schemaJSON) version() schema.SchemaVersion {
	v := schema.SchemaVersion{Subject: s.Subject, Version: s.Version, ID: s.ID, Type: typeOrAvro(s.Type), Schema: s.Schema}
	for _, ref := range s.References {
		v.References = append(v.References, portal.SchemaReference{Name: ref.Name, Subject: ref.Subject, Version: ref.Version})
	}
	return v
}

func typeOrAvro(t string) string {
	if t == "" {
		return schema.SchemaAvro
	}
	return t
}

// raw sends a request the client has no method for.
func (r *Registry) raw(ctx context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.base+path, rd)
	if err != nil {
		return err
	}
	if r.key != "" {
		req.SetBasicAuth(r.key, r.secret)
	}
	req.Header.Set("Accept", "application/vnd.schemaregistry.v1+json, application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/vnd.schemaregistry.v1+json")
	}
	resp, err := r.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, done := r.readAnswer(resp)
	defer done()
	if resp.StatusCode/100 != 2 {
		re := &rest.Error{}
		if json.Unmarshal(data, re) != nil || re.Code == 0 {
			re.Code, re.Message = resp.StatusCode, strings.TrimSpace(string(data))
		}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			return &retryError{err: re, after: time.Duration(s) * time.Second}
		}
		return re
	}
	return json.Unmarshal(data, out)
}

// answerLimit bounds how much of one answer of the registry is read.
const answerLimit = 64 << 20

// keptAnswer is the largest buffer kept for the next answer.
const keptAnswer = 4 << 20

// readAnswer reads an answer's body whole (up to answerLimit) into a
// buffer kept between calls, which done gives back; nothing may keep data
// after done (json.Unmarshal copies what it decodes). A registry's answer
// to a registration can echo a tenant's megabyte schema, and its answers
// are often chunked: read with io.ReadAll, whose buffer grows by doubling,
// each cost about three times its size, garbage that the replica's
// collector then spent every unit's processors on.
func (r *Registry) readAnswer(resp *http.Response) (data []byte, done func()) {
	buf, _ := r.answers.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	buf.Reset()
	if n := resp.ContentLength; n > 0 && n <= answerLimit {
		// ReadFrom wants room to read past the end, to see it.
		buf.Grow(int(n) + bytes.MinRead)
	}
	_, _ = buf.ReadFrom(io.LimitReader(resp.Body, answerLimit))
	return buf.Bytes(), func() {
		if buf.Cap() <= keptAnswer {
			r.answers.Put(buf)
		}
	}
}

// listPage is how many schemas one GET /schemas asks for: the registry's
// schema.search.max.limit (and default limit), 1,000.
const listPage = 1000

// ListSchemas uses GET /schemas with a subject prefix, a page of 1,000
// at a time (the registry answers no more): one request per thousand
// versions however many subjects there are.
func (r *Registry) listSchemas(ctx context.Context, prefix string, latestOnly bool) ([]schema.SchemaVersion, error) {
	var raw []schemaJSON
	for offset := 0; ; {
		q := url.Values{"subjectPrefix": {prefix}, "latestOnly": {fmt.Sprint(latestOnly)}, "offset": {strconv.Itoa(offset)}, "limit": {strconv.Itoa(listPage)}}
		var page []schemaJSON
		if err := r.raw(ctx, http.MethodGet, "/schemas?"+q.Encode(), nil, &page); err != nil {
			return nil, r.translate(err, prefix)
		}
		raw = append(raw, page...)
		// A short page is the last; a longer one is a registry that
		// ignores the limit and answered everything at once.
		if len(page) != listPage {
			break
		}
		offset += len(page)
	}
	out := make([]schema.SchemaVersion, len(raw))
	for i, s := range raw {
		out[i] = s.version()
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Subject != out[j].Subject {
			return out[i].Subject < out[j].Subject
		}
		return out[i].Version < out[j].Version
	})
	return out, nil
}

// GetSchema returns a version of a subject, the latest for version 0.
// The latest is read with a plain request: the portal is not the only
// writer, and the client's cache of latest versions would go stale (its
// evictor also races with clearing it).
func (r *Registry) getSchema(ctx context.Context, subject string, version int) (schema.SchemaVersion, error) {
	if version == 0 {
		var latest schemaJSON
		if err := r.raw(ctx, http.MethodGet, "/subjects/"+url.PathEscape(subject)+"/versions/latest", nil, &latest); err != nil {
			return schema.SchemaVersion{}, r.translate(err, subject)
		}
		latest.Subject = subject
		return latest.version(), nil
	}
	md, err := useClient(ctx, r.client, func(c schemaregistry.Client) (schemaregistry.SchemaMetadata, error) {
		return c.GetSchemaMetadata(subject, version)
	})
	if err != nil {
		return schema.SchemaVersion{}, r.translate(err, subject)
	}
	return metadata(subject, md), nil
}

// schemaByID reads GET /schemas/ids/{id}; schemas never change under an
// id, so the answer is kept.
func (r *Registry) schemaByID(ctx context.Context, id int) (schema.SchemaVersion, error) {
	if v, ok := r.byID.get(r.name, id); ok {
		return v, nil
	}
	var s schemaJSON
	if err := r.raw(ctx, http.MethodGet, "/schemas/ids/"+strconv.Itoa(id), nil, &s); err != nil {
		return schema.SchemaVersion{}, r.translate(err, fmt.Sprintf("schema id %d", id))
	}
	s.ID = id
	v := s.version()
	r.byID.put(r.name, id, v)
	return v, nil
}

func metadata(subject string, md schemaregistry.SchemaMetadata) schema.SchemaVersion {
	v := schema.SchemaVersion{Subject: subject, Version: md.Version, ID: md.ID, Type: typeOrAvro(md.SchemaType), Schema: md.Schema}
	for _, ref := range md.References {
		v.References = append(v.References, portal.SchemaReference{Name: ref.Name, Subject: ref.Subject, Version: ref.Version})
	}
	return v
}

func info(def platform.SchemaDef) schemaregistry.SchemaInfo {
	si := schemaregistry.SchemaInfo{Schema: def.Schema, SchemaType: def.Type}
	if def.Type == schema.SchemaAvro {
		si.SchemaType = ""
	}
	for _, ref := range def.References {
		si.References = append(si.References, schemaregistry.Reference{Name: ref.Name, Subject: ref.Subject, Version: ref.Version})
	}
	return si
}

// register adds a version (or finds the identical one) and returns it.
// It is a plain request, not the client's: the client keeps every schema
// text it registered, for the life of the process and with no bound (a
// tenant's megabyte schemas would be held by every replica until it ran
// out of memory), and answers a registration it remembers without asking
// the registry, though another writer may have deleted the version since.
func (r *Registry) register(ctx context.Context, subject string, def platform.SchemaDef) (schema.SchemaVersion, error) {
	si := info(def)
	path := "/subjects/" + url.PathEscape(subject)
	// Only the numbers are read from the answers: some registries send the
	// schema back.
	type numbers struct {
		ID      int `json:"id"`
		Version int `json:"version"`
	}
	var got numbers
	if err := r.raw(ctx, http.MethodPost, path+"/versions", si, &got); err != nil {
		return schema.SchemaVersion{}, r.translate(err, subject)
	}
	if got.Version == 0 {
		// Older registries answer with the id only: the version is the
		// one the subject holds the schema under.
		var found numbers
		if err := r.raw(ctx, http.MethodPost, path, si, &found); err != nil {
			return schema.SchemaVersion{}, r.translate(err, subject)
		}
		got.Version = found.Version
	}
	return metadata(subject, schemaregistry.SchemaMetadata{SchemaInfo: si, ID: got.ID, Version: got.Version}), nil
}

// CheckCompatibility asks the registry, verbosely, whether def could be
// registered as the next version of subject.
func (r *Registry) checkCompatibility(ctx context.Context, subject string, def platform.SchemaDef) (schema.Compatibility, error) {
	var out struct {
		IsCompatible bool     `json:"is_compatible"`
		Messages     []string `json:"messages"`
	}
	err := r.raw(ctx, http.MethodPost, "/compatibility/subjects/"+url.PathEscape(subject)+"/versions/latest?verbose=true", info(def), &out)
	if err != nil {
		return schema.Compatibility{}, r.translate(err, subject)
	}
	var level struct {
		Level string `json:"compatibilityLevel"`
	}
	_ = r.raw(ctx, http.MethodGet, "/config/"+url.PathEscape(subject)+"?defaultToGlobal=true", nil, &level)
	return schema.Compatibility{Compatible: out.IsCompatible, Messages: out.Messages, Level: level.Level}, nil
}

// DeleteVersion deletes a version: softly, or for good once soft-deleted.
func (r *Registry) deleteVersion(ctx context.Context, subject string, version int, permanent bool) error {
	_, err := useClient(ctx, r.client, func(c schemaregistry.Client) (int, error) { return c.DeleteSubjectVersion(subject, version, permanent) })
	return r.translate(err, subject)
}
