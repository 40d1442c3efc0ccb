package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func get(h http.Handler, path string, header ...string) *http.Response {
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

// TestFingerprintsAndCaching: URL adds the content's fingerprint; with it
// the file is immutable for a year, without it (or with a stale one) it
// revalidates, and the ETag answers 304.
func TestFingerprintsAndCaching(t *testing.T) {
	h := Handler()
	u := URL("css/app.css")
	if !strings.HasPrefix(u, "/static/css/app.css?v=") || len(u) <= len("/static/css/app.css?v=") {
		t.Fatalf("URL %q", u)
	}
	if URL("nope.css") != "/static/nope.css" {
		t.Errorf("unknown file: %q", URL("nope.css"))
	}
	path := strings.TrimPrefix(u, Prefix)
	r := get(h, "/"+path)
	if r.StatusCode != 200 || r.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("fingerprinted: %d %q", r.StatusCode, r.Header.Get("Cache-Control"))
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/css") {
		t.Errorf("content type %q", ct)
	}
	for _, p := range []string{"/css/app.css", "/css/app.css?v=0000stale000"} {
		if r := get(h, p); r.Header.Get("Cache-Control") != "public, no-cache" {
			t.Errorf("%s: %q", p, r.Header.Get("Cache-Control"))
		}
	}
	etag := r.Header.Get("ETag")
	if r := get(h, "/css/app.css", "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", r.StatusCode)
	}
	if r := get(h, "/../static.go"); r.StatusCode != http.StatusNotFound {
		t.Errorf("outside the files: %d", r.StatusCode)
	}
}

// TestCompressedForms: brotli when accepted, else gzip, else plain; each
// decodes to the file; q=0 refuses an encoding; images stay as they are.
func TestCompressedForms(t *testing.T) {
	h := Handler()
	plain, err := FS.ReadFile("js/htmx.min.js")
	if err != nil {
		t.Fatal(err)
	}
	decode := map[string]func(io.Reader) (io.Reader, error){
		"br":   func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
		"gzip": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		"":     func(r io.Reader) (io.Reader, error) { return r, nil },
	}
	for accept, want := range map[string]string{
		"gzip, deflate, br": "br", "gzip": "gzip", "": "", "br;q=0, gzip": "gzip", "identity": "",
	} {
		r := get(h, "/js/htmx.min.js", "Accept-Encoding", accept)
		if got := r.Header.Get("Content-Encoding"); got != want {
			t.Errorf("Accept-Encoding %q: %q, want %q", accept, got, want)
			continue
		}
		if r.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("Vary %q", r.Header.Get("Vary"))
		}
		body, _ := decode[want](r.Body)
		got, err := io.ReadAll(body)
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%q: the body does not decode to the file (%v)", accept, err)
		}
		if want != "" && r.ContentLength >= int64(len(plain))/2 {
			t.Errorf("%s: %d bytes of %d", want, r.ContentLength, len(plain))
		}
	}
	if r := get(h, "/swagger/favicon-32x32.png", "Accept-Encoding", "br, gzip"); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("a PNG is compressed: %q", r.Header.Get("Content-Encoding"))
	}
}
