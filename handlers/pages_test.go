package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/handlers"
	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// users sign in by the cookie "test-session=<user>"; their groups are the
// demo users' of dev mode.
var users = map[string]portal.Identity{
	"bob":   {Subject: "bob", Username: "bob", Groups: []string{"sg-scada-admins"}},
	"carol": {Subject: "carol", Username: "carol", Groups: []string{"sg-scada-developers", "sg-crm-viewers"}},
	"dave":  {Subject: "dave", Username: "dave", Groups: []string{"sg-scada-viewers"}},
	"erin":  {Subject: "erin", Username: "erin"},
	"alice": {Subject: "alice", Username: "alice", Groups: []string{"sg-edh-shared-superadmins"}},
	"frank": {Subject: "frank", Username: "frank", Groups: []string{"platform-admins"}},
	"sally": {Subject: "sally", Username: "sally", Groups: []string{"sg-sales-admins"}},
}

// sessions is the session manager of these tests: a cookie names the
// signed-in user; the CSRF token is "csrf-<user>".
type sessions struct{}

func (sessions) Current(_ http.ResponseWriter, r *http.Request) (*auth.Session, error) {
	c, err := r.Cookie("test-session")
	if err != nil {
		return nil, nil
	}
	id, ok := users[c.Value]
	if !ok {
		return nil, nil
	}
	return &auth.Session{ID: c.Value, Identity: id, CSRF: "csrf-" + c.Value}, nil
}
func (sessions) Begin(context.Context, http.ResponseWriter, string, string) (string, error) {
	return "/idp", nil
}
func (sessions) Finish(http.ResponseWriter, *http.Request) (string, error)     { return "/", nil }
func (sessions) End(http.ResponseWriter, *http.Request) (*auth.Session, error) { return nil, nil }
func (sessions) AddToast(http.ResponseWriter, *http.Request, auth.Toast)       {}
func (sessions) TakeToasts(http.ResponseWriter, *http.Request) []auth.Toast    { return nil }
func (sessions) EndSessionURL(context.Context, string, string) string          { return "" }
func (sessions) Key(*http.Request) string                                      { return "" }

// Handoff has no session to keep data in: the handlers answer with it.
func (sessions) Handoff(*http.Request, string, []byte) error      { return errors.New("no session") }
func (sessions) TakeHandoff(*http.Request, string) ([]byte, bool) { return nil, false }

type site struct {
	t *testing.T
	w *servicetest.World
	e *echo.Echo
}

// newSite is the HTML front door through the real echo setup over the
// service fakes.
func newSite(t *testing.T) *site {
	t.Helper()
	return newSiteWith(t, nil)
}

// newSiteWith is newSite with options changed by tweak.
func newSiteWith(t *testing.T, tweak func(*handlers.Options)) *site {
	t.Helper()
	w := servicetest.New(t)
	o := handlers.Options{Services: w.Services(), Sessions: sessions{},
		Resolver: access.NewResolver(w.Tenancy, "platform-admins"), BaseURL: "http://portal.test", Logger: servicetest.Discard()}
	if tweak != nil {
		tweak(&o)
	}
	h := handlers.New(o)
	e := httpserver.New(httpserver.Options{Logger: servicetest.Discard(), MaxBodyBytes: 1 << 20,
		IsAPI: api.IsAPIPath, APIErrors: api.WriteProblem, PageErrors: h.RenderError})
	h.Register(e)
	return &site{t: t, w: w, e: e}
}

type page struct {
	status int
	header http.Header
	body   string
}

// do sends a request as user; a form is posted with the user's CSRF token
// and a same-origin Origin, as the portal's own pages do.
func (s *site) do(method, path, user string, form url.Values, header ...string) page {
	s.t.Helper()
	var req *http.Request
	if form != nil {
		if form.Get("_csrf") == "" {
			form.Set("_csrf", "csrf-"+user)
		}
		req = httptest.NewRequest(method, "http://portal.test"+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "http://portal.test")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	} else {
		req = httptest.NewRequest(method, "http://portal.test"+path, nil)
	}
	if user != "" {
		req.AddCookie(&http.Cookie{Name: "test-session", Value: user})
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.e.ServeHTTP(rec, req)
	return page{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
}

// forms hold a valid submission of every form, so that the only reason for
// a refusal is the policy; a new form without an entry here fails
// TestEveryFormRefusesViewersAndReadOnlyStages.
func forms(sd servicetest.Seeded) map[string]url.Values {
	return map[string]url.Values{
		"POST /:bu/:stage/topics":                          {"name": {"fresh"}, "partitions_count": {"2"}},
		"POST /:bu/:stage/topic/:name/edit":                {"partitions_count": {"2"}},
		"POST /:bu/:stage/topic/:name/delete":              {"confirm": {"existing"}},
		"POST /:bu/:stage/topic/:name/produce":             {"value": {"v"}},
		"POST /:bu/:stage/connectors":                      {"name": {"fresh"}, "config_json": {`{"connector.class": "DatagenSource", "kafka.topic": "existing", "quickstart": "USERS", "output.data.format": "JSON", "kafka.api.key": "K", "kafka.api.secret": "S"}`}},
		"POST /:bu/:stage/connector/:name/edit":            {"config_json": {`{"quickstart": "USERS"}`}},
		"POST /:bu/:stage/connector/:name/delete":          {"confirm": {"existing"}},
		"POST /:bu/:stage/connector/:name/:action":         {},
		"POST /:bu/:stage/alerts/rules":                    {"name": {"lag"}, "kind": {"lag_time"}, "threshold": {"60"}, "for_seconds": {"0"}, "enabled": {"true"}},
		"POST /:bu/:stage/alerts/rule/:name/silence":       {"hours": {"2"}, "reason": {"walk"}},
		"POST /:bu/:stage/alerts/channels":                 {"format": {"slack"}, "url": {"https://hooks.example.com/x"}},
		"POST /:bu/:stage/alerts/channel/:id/delete":       {},
		"POST /:bu/:stage/connector/:name/auto-restart":    {"enabled": {"true"}, "max_restarts": {"3"}},
		"POST /:bu/:stage/schemas":                         {"topic": {"fresh"}, "subject_type": {"value"}, "schema_type": {"AVRO"}, "schema": {`"string"`}},
		"POST /:bu/:stage/schema/:subject/new-version":     {"schema": {`{"type":"record","name":"R","fields":[{"name":"a","type":"string"},{"name":"b","type":"string","default":""}]}`}},
		"POST /:bu/:stage/schema/:subject/check":           {"schema": {`"string"`}},
		"POST /:bu/:stage/schema/:subject/:version/delete": {"confirm": {"existing-value v1"}},
		"POST /:bu/:stage/service-accounts":                {"name": {"fresh"}, "type": {"producer"}},
		"POST /:bu/:stage/service-accounts/bulk":           {"accounts": {"fresh,producer"}},
		"POST /:bu/:stage/identity-pools":                  {"name": {"fresh"}, "type": {"consumer"}, "filter": {`claims.sub == "y"`}},
		"POST /:bu/:stage/identity-pool/:id/filter":        {"op": {"save"}, "filter": {`claims.sub == "z"`}, "claims": {"{}"}},
		"POST /:bu/:stage/identity-pool/:id/delete":        {"confirm": {"existing"}},
		"POST /:bu/:stage/consumer-group/:id/reset":        {"to": {"earliest"}, "op": {"apply"}},
		"POST /:bu/:stage/consumer-group/:id/delete":       {"confirm": {"existing-readers"}},
		"POST /:bu/:stage/service-account/:id/edit":        {"description": {"changed"}},
		"POST /:bu/:stage/service-account/:id/delete":      {"confirm": {"existing"}, "with_keys": {"true"}},
		"POST /:bu/:stage/service-account/:id/api-keys":    {"resource": {"kafka"}},
		"POST /:bu/:stage/api-key/:id/rotate":              {"overlap": {"1h"}},
		"POST /:bu/:stage/api-key/:id/delete":              {"confirm": {sd.KeyID}},
		"POST /:bu/:stage/change-requests":                 {"document": {`{"items": [{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "fresh"}, "spec": {}}]}`}, "reason": {"walk"}},
		"POST /:bu/:stage/change-request/:id/:action":      {"comment": {"walk"}},
		"POST /:bu/:stage/change-requests/draft":           {"name": {"walk"}, "partitions_count": {"1"}},
		"POST /:bu/:stage/catalog/:name":                   {"description": {"walk"}, "tags": {"walk"}},
		"POST /:bu/:stage/grants":                          {"owner": {"crm"}, "topic": {"orders"}, "access": {"read"}, "principal": {sd.AccountID}, "reason": {"walk"}},
		"POST /:bu/:stage/grant/:id/:action":               {"comment": {"walk"}},
	}
}

// readForms change nothing, so every role may post them.
var readForms = map[string]bool{"POST /:bu/:stage/schema/:subject/check": true,
	// A draft only fills in the request form: it changes and files nothing.
	"POST /:bu/:stage/change-requests/draft": true}

// TestEveryFormRefusesViewersAndReadOnlyStages walks the route table: every
// form that changes something refuses a Viewer and a Developer in the
// read-only stage with a 403 page, and changes nothing upstream.
func TestEveryFormRefusesViewersAndReadOnlyStages(t *testing.T) {
	s := newSite(t)
	seeded := map[string]servicetest.Seeded{}
	for _, st := range []string{"dev", "run"} {
		seeded[st] = s.w.Seed(t, "scada", st)
	}
	before := s.w.Snapshot(t)
	walked := 0
	for _, rt := range s.e.Routes() {
		if rt.Method != http.MethodPost || !strings.HasPrefix(rt.Path, "/:bu/:stage/") {
			continue
		}
		key := rt.Method + " " + rt.Path
		for _, c := range []struct{ user, stage, want string }{
			{"dave", "dev", "Not allowed"},
			{"carol", "run", "Not allowed"},
		} {
			sd := seeded[c.stage]
			form, ok := forms(sd)[key]
			if !ok {
				t.Errorf("%s has no sample form: add one to forms", key)
				break
			}
			walked++
			name, id := sd.Topic, sd.PoolID
			if strings.Contains(rt.Path, "/connector/") {
				name = sd.Connector
			}
			switch {
			case strings.Contains(rt.Path, "/consumer-group/"):
				id = sd.Group
			case strings.Contains(rt.Path, "/service-account/"):
				id = sd.AccountID
			case strings.Contains(rt.Path, "/api-key/"):
				id = sd.KeyID
			}
			verb := "approve" // a decision on a grant or a change request
			if strings.Contains(rt.Path, "/connector/") {
				verb = "pause"
			}
			path := strings.NewReplacer(":bu", "scada", ":stage", c.stage, ":name", name, ":subject", sd.Subject,
				":version", "1", ":id", id, ":action", verb).Replace(rt.Path)
			trail := len(s.w.AuditEvents(t))
			p := s.do(http.MethodPost, path, c.user, form)
			if !readForms[key] && p.status == http.StatusForbidden {
				// The form's refusal is in the trail, once (a bulk or an
				// apply: one per item), as the API's is.
				evs := s.w.AuditEvents(t)
				added := evs[:len(evs)-trail]
				refused := 0
				for _, e := range added {
					if e.Outcome == "INSUFFICIENT_ROLE" || e.Outcome == "READ_ONLY_ENVIRONMENT" || e.Outcome == "PRODUCE_DISABLED" {
						refused++
					}
				}
				if refused == 0 || refused != len(added) || (refused > 1 && !strings.Contains(key, "bulk") && !strings.Contains(key, "apply")) {
					t.Errorf("%s as %s in %s: the trail has %d event(s), %d of them the refusal; want one", key, c.user, c.stage, len(added), refused)
				}
			}
			switch {
			case key == "POST /:bu/:stage/change-requests" && c.stage == "run":
				// What a request is for: filed, nothing changes upstream.
				if p.status != http.StatusSeeOther {
					t.Errorf("%s as %s in %s: %d, want 303\n%.400s", key, c.user, c.stage, p.status, p.body)
				}
			case strings.HasSuffix(key, "/change-request/:id/:action"):
				// No such request; the journey tests the roles on real ones.
				if p.status != http.StatusNotFound {
					t.Errorf("%s as %s in %s: %d, want 404", key, c.user, c.stage, p.status)
				}
			case readForms[key] && p.status != http.StatusOK:
				t.Errorf("%s as %s in %s: %d, want 200", key, c.user, c.stage, p.status)
			case !readForms[key] && p.status != http.StatusForbidden:
				t.Errorf("%s as %s in %s: %d, want 403\n%.400s", key, c.user, c.stage, p.status, p.body)
			}
		}
	}
	if walked < 25 {
		t.Errorf("walked only %d form submissions", walked)
	}
	if after := s.w.Snapshot(t); after != before {
		t.Errorf("refused forms changed upstream:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// TestFormsWithoutTheSessionTokenAreRefused: a form without the CSRF token,
// or from another site, gets its own error, not a role refusal.
func TestFormsWithoutTheSessionTokenAreRefused(t *testing.T) {
	s := newSite(t)
	p := s.do(http.MethodPost, "/scada/dev/topics", "carol", url.Values{"name": {"x"}, "_csrf": {"forged"}})
	if p.status != http.StatusForbidden || !strings.Contains(p.body, "Form expired") || !strings.Contains(p.body, "reload the page") {
		t.Errorf("forged token: %d %.300s", p.status, p.body)
	}
	p = s.do(http.MethodPost, "/scada/dev/topics", "carol", url.Values{"name": {"x"}}, "Sec-Fetch-Site", "cross-site", "Origin", "http://evil.test")
	if p.status != http.StatusForbidden || !strings.Contains(p.body, "another site") {
		t.Errorf("cross-site: %d %.300s", p.status, p.body)
	}
	if s.w.Cluster("edh-shared", "dev").Writes() != 0 {
		t.Error("a refused form wrote to the cluster")
	}
}

func TestPagesOfAContext(t *testing.T) {
	s := newSite(t)
	s.w.Seed(t, "scada", "dev")
	p := s.do(http.MethodGet, "/scada/dev/topics", "carol", nil)
	if p.status != http.StatusOK || !strings.Contains(p.body, "edh-shared-scada-dev-existing") {
		t.Errorf("topics: %d %.300s", p.status, p.body)
	}
	// A unit the caller has no role in is as unknown as one that does not
	// exist; the service says so, the page only shows it.
	for _, path := range []string{"/sales/dev/topics", "/nowhere/dev/topics", "/context?bu=sales&stage=dev"} {
		if p := s.do(http.MethodGet, path, "carol", nil); p.status != http.StatusNotFound || !strings.Contains(p.body, "not found") {
			t.Errorf("%s: %d %.300s", path, p.status, p.body)
		}
	}
	if p := s.do(http.MethodGet, "/scada/nostage/topics", "carol", nil); p.status != http.StatusNotFound || !strings.Contains(p.body, "stage") {
		t.Errorf("unknown stage: %d", p.status)
	}
	// Without a session the page asks to sign in.
	if p := s.do(http.MethodGet, "/scada/dev/topics", "", nil); !strings.Contains(p.body, "/auth/login?next=") {
		t.Errorf("no session: %d %.300s", p.status, p.body)
	}
	// Viewers see no write controls.
	if p := s.do(http.MethodGet, "/scada/dev/topics", "dave", nil); strings.Contains(p.body, "/scada/dev/topics/new") {
		t.Error("dave is offered to create topics")
	}
}

// TestConnectorFormShowsAFailedClassList: a class list that cannot be read
// is said so, not shown as an empty list.
func TestConnectorFormShowsAFailedClassList(t *testing.T) {
	s := newSite(t)
	env := s.w.Env("edh-shared", "dev")
	env.Connectors = downConnect{env.Connectors}
	p := s.do(http.MethodGet, "/scada/dev/connectors/new", "carol", nil)
	if p.status != http.StatusOK || !strings.Contains(p.body, "The connector classes could not be listed") {
		t.Errorf("%d %.2000s", p.status, p.body)
	}
}

// downConnect is a Connect API whose class list cannot be read.
type downConnect struct{ platform.Connectors }

func (downConnect) Plugins(context.Context) ([]connect.ConnectorPlugin, error) {
	return nil, portal.New(portal.UpstreamUnavailable, "Confluent Cloud Connect cannot be reached")
}

// TestRefusedConnectorFormForgetsSecrets: a connector form shown again
// after a refusal does not carry the secrets that were typed into it.
func TestRefusedConnectorFormForgetsSecrets(t *testing.T) {
	s := newSite(t)
	p := s.do(http.MethodPost, "/scada/dev/connectors", "carol", url.Values{"name": {"leaky"},
		"key":         {"connector.class", "kafka.api.secret", "connection.password", "quickstart"},
		"value":       {"DatagenSource", "TYPED-SECRET-1", "TYPED-SECRET-2", "NOPE"},
		"config_json": {`{"kafka.api.key": "TYPED-SECRET-3", "output.data.format": "JSON"}`}})
	if p.status != http.StatusUnprocessableEntity {
		t.Fatalf("refused form: %d %.500s", p.status, p.body)
	}
	for _, secret := range []string{"TYPED-SECRET-1", "TYPED-SECRET-2", "TYPED-SECRET-3"} {
		if strings.Contains(p.body, secret) {
			t.Errorf("the form shows %s again", secret)
		}
	}
	if !strings.Contains(p.body, "Secrets are not shown again") || !strings.Contains(p.body, "NOPE") {
		t.Errorf("the form lost what is not secret, or does not say why secrets are gone:\n%.2000s", p.body)
	}
}
