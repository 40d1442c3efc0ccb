// Package static holds the files served under /static: the compiled CSS,
// vendored htmx, the portal's small scripts, and Swagger UI. They are
// committed so that a machine with only Go builds and runs the portal.
package static

import (
	"embed"
	"net/http"
)

// FS holds the static files.
//
//go:embed css js swagger img
var FS embed.FS

// Handler serves FS with long-lived caching for the vendored files and
// revalidation for the portal's own.
func Handler() http.Handler {
	files := http.FileServer(http.FS(FS))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})
}
