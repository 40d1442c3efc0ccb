package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// formWalk is one submission of the walk: who posts which form where.
type formWalk struct {
	user, path string
	form       url.Values
	// also is how many audit events the form leaves besides its own: an
	// approved change request applies its plan (the apply and its item).
	also int
}

// TestEveryFormLeavesOneAuditEvent walks the forms again, now as callers
// who may: every form that changes something succeeds and leaves exactly
// one audit event, its own action's, with the outcome ok. Routes with a
// verb in the path (a connector's pause, resume and restart; a decision)
// are walked once per verb, each in a world of its own.
func TestEveryFormLeavesOneAuditEvent(t *testing.T) {
	verbs := map[string][]string{"/connector/": {"pause", "resume", "restart"}, "/change-request/": {"approve", "reject", "withdraw"},
		"/grant/": {"approve", "reject", "withdraw", "revoke"}}
	walked := 0
	for _, rt := range newSite(t).e.Routes() {
		key := rt.Method + " " + rt.Path
		if rt.Method != http.MethodPost || !strings.HasPrefix(rt.Path, "/:bu/:stage/") || readForms[key] {
			continue
		}
		each := []string{""}
		for kind, vs := range verbs {
			if strings.Contains(rt.Path, kind) && strings.HasSuffix(rt.Path, "/:action") {
				each = vs
			}
		}
		for _, verb := range each {
			walked++
			t.Run(strings.NewReplacer("/:bu/:stage/", "", "/", "_", ":", "").Replace(key)+"_"+verb, func(t *testing.T) {
				t.Parallel()
				s := newSite(t)
				c := s.prepare(t, rt.Path, verb)
				before := len(s.w.AuditEvents(t))
				p := s.do(http.MethodPost, c.path, c.user, c.form)
				if p.status >= 400 || strings.Contains(p.body, `role="alert"`) {
					said := p.body
					for _, mark := range []string{`role="alert"`, "form-error", "aria-invalid"} {
						if i := strings.Index(said, mark); i >= 0 {
							said = said[i:]
							break
						}
					}
					t.Fatalf("%s as %s: %d\n%.600s", c.path, c.user, p.status, said)
				}
				if strings.Contains(key, "/bulk") {
					s.waitForJob(t, p.header.Get("Location"))
				}
				s.w.CheckDone(t, before, 1+c.also)
			})
		}
	}
	if walked < 40 {
		t.Errorf("walked only %d forms", walked)
	}
}

// prepare seeds what the form acts on and names its poster: bob, the
// scada Admin, in dev, unless the form is about another's request.
func (s *site) prepare(t *testing.T, route, verb string) formWalk {
	t.Helper()
	sd := s.w.Seed(t, "scada", "dev")
	crm := s.w.Seed(t, "crm", "dev")
	key := "POST " + route
	c := formWalk{user: "bob", form: forms(sd)[key]}
	if c.form == nil {
		t.Fatalf("%s has no sample form: add one to forms", key)
	}
	name, id, stage := sd.Topic, sd.PoolID, "dev"
	switch {
	case strings.Contains(route, "/connector/"):
		name = sd.Connector
		if verb == "resume" {
			s.must(t, "/scada/dev/connector/"+name+"/pause", "bob", url.Values{})
		}
		if strings.HasSuffix(route, "/edit") {
			c.form.Set("config_json", forms(sd)["POST /:bu/:stage/connectors"].Get("config_json")) // the whole config
		}
	case strings.Contains(route, "/consumer-group/"):
		id = sd.Group
	case strings.Contains(route, "/service-account/"):
		id = sd.AccountID
	case strings.Contains(route, "/api-key/"):
		id = sd.KeyID
	case strings.Contains(route, "/alerts/rule/"):
		name = "lag"
		s.must(t, "/scada/dev/alerts/rules", "bob", forms(sd)["POST /:bu/:stage/alerts/rules"])
	case strings.Contains(route, "/alerts/channel/"):
		s.must(t, "/scada/dev/alerts/channels", "bob", forms(sd)["POST /:bu/:stage/alerts/channels"])
		chs, err := s.w.Webhooks.Channels(s.as("bob"), portal.Scope{BU: "scada", Stage: "dev"})
		if err != nil || len(chs) != 1 {
			t.Fatalf("the channel: %v %v", chs, err)
		}
		id = chs[0].ID
	case strings.HasSuffix(route, "/grant/:id/:action"):
		id = s.grantFor(t, verb, sd, crm)
	case strings.HasSuffix(route, "/change-request/:id/:action"):
		stage = "run"
		s.must(t, "/scada/run/change-requests", "carol", forms(sd)["POST /:bu/:stage/change-requests"])
		rs, err := s.w.Requests.Requests(s.as("carol"), portal.Scope{BU: "scada", Stage: "run"}, "")
		if err != nil || len(rs) != 1 {
			t.Fatalf("the request: %v %v", rs, err)
		}
		id = rs[0].ID
		if verb == "withdraw" {
			c.user = "carol"
		}
		if verb == "approve" {
			c.also = 2 // the apply of its plan, and the plan's topic
		}
	case key == "POST /:bu/:stage/change-requests":
		c.user, stage = "carol", "run"
	case key == "POST /:bu/:stage/topic/:name/delete":
		c.form.Set("reason", "walk") // it has readers and a connector
	case key == "POST /:bu/:stage/schemas":
		c.form.Set("topic", "existing")
		c.form.Set("subject_type", "key")
	case key == "POST /:bu/:stage/grants":
		c.form.Set("owner", "crm")
		c.form.Set("topic", "existing")
	}
	c.path = strings.NewReplacer(":bu", "scada", ":stage", stage, ":name", name, ":subject", sd.Subject,
		":version", "1", ":id", id, ":action", verb).Replace(route)
	return c
}

// grantFor makes the grant a decision acts on: crm asks for scada's topic
// (bob decides; to revoke, bob approved it first), or, to withdraw, scada
// asks for crm's (bob withdraws his own).
func (s *site) grantFor(t *testing.T, step string, sd, crm servicetest.Seeded) string {
	t.Helper()
	in := grant.NewTopicGrant{Owner: "scada", Topic: "existing", Access: "read", Principal: crm.AccountID, Reason: "walk"}
	requester, scope := "alice", portal.Scope{BU: "crm", Stage: "dev"}
	if step == "withdraw" {
		in.Owner, in.Principal, requester, scope = "crm", sd.AccountID, "bob", portal.Scope{BU: "scada", Stage: "dev"}
	}
	g, err := s.w.Grants.RequestGrant(s.as(requester), scope, in)
	if err != nil {
		t.Fatal(err)
	}
	if step == "revoke" {
		if _, err := s.w.Grants.ApproveGrant(s.as("bob"), portal.Scope{BU: "scada", Stage: "dev"}, g.ID, "walk"); err != nil {
			t.Fatal(err)
		}
	}
	return g.ID
}

// as is a context whose caller is one of the test's users.
func (s *site) as(user string) context.Context {
	p := access.NewResolver(s.w.Tenancy, "platform-admins").Resolve(users[user])
	return portal.WithPrincipal(context.Background(), p)
}

// must posts a form the walk needs first.
func (s *site) must(t *testing.T, path, user string, form url.Values) {
	t.Helper()
	if p := s.do(http.MethodPost, path, user, form); p.status >= 400 {
		t.Fatalf("setting up %s: %d\n%.400s", path, p.status, p.body)
	}
}

// waitForJob waits for the bulk job a form started to finish.
func (s *site) waitForJob(t *testing.T, location string) {
	t.Helper()
	id := location[strings.LastIndex(location, "/")+1:]
	j, err := s.w.Accounts.BulkJob(s.as("bob"), portal.Scope{BU: "scada", Stage: "dev"}, id, 20*time.Second)
	if err != nil || j.State != "done" {
		t.Fatalf("the job %q: %+v %v", location, j, err)
	}
}
