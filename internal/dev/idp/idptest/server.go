package idptest

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/dev/idp"
)

// Start serves a development provider with the demo users and clients of
// the dev configuration on a local test server and returns its issuer.
// tweak, when not nil, may change the provider's configuration first.
func Start(t testing.TB, tweak func(*config.DevIDP)) string {
	t.Helper()
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	idpCfg := *cfg.DevIDP
	if tweak != nil {
		tweak(&idpCfg)
	}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p, err := idp.New(idp.Options{BaseURL: srv.URL, Audience: cfg.Identity.Audience, Config: idpCfg})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle(idp.PathPrefix+"/", http.StripPrefix(idp.PathPrefix, p))
	return p.Issuer()
}
