// Package static holds the files served under /static: the compiled CSS,
// vendored htmx, the portal's small scripts, and Swagger UI. They are
// committed so that a machine with only Go builds and runs the portal.
//
// Pages link them through URL, which adds a fingerprint of the content
// (?v=hash); a request carrying the current fingerprint is cached by
// browsers and proxies for a year as immutable, any other revalidates
// with the ETag. Text files are compressed once, on first request, with
// brotli and gzip, and served in whichever the browser accepts.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// FS holds the static files.
//
//go:embed css js swagger img
var FS embed.FS

// Prefix is where the files are served.
const Prefix = "/static/"

// fingerprints are computed once from the embedded files, which never
// change while the process runs.
var fingerprints = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	_ = fs.WalkDir(FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := FS.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		m[name] = hex.EncodeToString(sum[:6])
		return nil
	})
	return m
})

// Has reports whether name (relative to the static root, "css/app.css")
// is one of the static files.
func Has(name string) bool {
	_, ok := fingerprints()[strings.TrimPrefix(path.Clean("/"+name), "/")]
	return ok
}

// URL is the fingerprinted address of a static file (name relative to
// the static root, "css/app.css"); an unknown name gets its plain address.
func URL(name string) string {
	if v, ok := fingerprints()[name]; ok {
		return Prefix + name + "?v=" + v
	}
	return Prefix + name
}

// Handler serves FS under Prefix (the prefix already stripped).
func Handler() http.Handler {
	return &handler{files: map[string]*file{}}
}

type handler struct {
	mu    sync.Mutex
	files map[string]*file
}

// file is one static file with its compressed forms.
type file struct {
	once        sync.Once
	contentType string
	etag        string
	plain       []byte
	br, gz      []byte
}

// compressible types are worth compressing; images (but SVG) are not.
func compressible(contentType string) bool {
	return strings.HasPrefix(contentType, "text/") || strings.Contains(contentType, "javascript") ||
		strings.Contains(contentType, "json") || strings.Contains(contentType, "svg")
}

func (h *handler) load(name string) (*file, bool) {
	fp, ok := fingerprints()[name]
	if !ok {
		return nil, false
	}
	h.mu.Lock()
	f := h.files[name]
	if f == nil {
		f = &file{}
		h.files[name] = f
	}
	h.mu.Unlock()
	f.once.Do(func() {
		f.plain, _ = FS.ReadFile(name)
		f.etag = `"` + fp + `"`
		f.contentType = mime.TypeByExtension(path.Ext(name))
		if f.contentType == "" {
			f.contentType = http.DetectContentType(f.plain)
		}
		if !compressible(f.contentType) || len(f.plain) < 512 {
			return
		}
		var b bytes.Buffer
		bw := brotli.NewWriterLevel(&b, 5)
		_, _ = bw.Write(f.plain)
		if bw.Close() == nil && b.Len() < len(f.plain) {
			f.br = bytes.Clone(b.Bytes())
		}
		b.Reset()
		gw, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression)
		_, _ = gw.Write(f.plain)
		if gw.Close() == nil && b.Len() < len(f.plain) {
			f.gz = bytes.Clone(b.Bytes())
		}
	})
	return f, true
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	f, ok := h.load(name)
	if !ok {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	if v := r.URL.Query().Get("v"); v != "" && `"`+v+`"` == f.etag {
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		hd.Set("Cache-Control", "public, no-cache")
	}
	hd.Set("ETag", f.etag)
	hd.Set("Content-Type", f.contentType)
	body := f.plain
	if f.br != nil || f.gz != nil {
		hd.Add("Vary", "Accept-Encoding")
		switch ae := r.Header.Get("Accept-Encoding"); {
		case f.br != nil && accepts(ae, "br"):
			hd.Set("Content-Encoding", "br")
			body = f.br
		case f.gz != nil && accepts(ae, "gzip"):
			hd.Set("Content-Encoding", "gzip")
			body = f.gz
		}
	}
	// ServeContent answers If-None-Match with 304; ranges are not offered
	// on compressed bodies, whose offsets differ from the file's.
	if hd.Get("Content-Encoding") != "" {
		r.Header.Del("Range")
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// accepts reports whether an Accept-Encoding header allows an encoding
// (a q=0 entry refuses it).
func accepts(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
