package main

import (
	"net/http"
	"net/http/pprof"
)

// profiles serves Go's runtime profiles under /debug/pprof/, for
// metrics.profiling on the management port. Registered on a mux of its
// own: importing net/http/pprof also registers on http.DefaultServeMux,
// which the portal never serves.
func profiles() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
