package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// TestGrantPages: access across units through the pages alone: alice (a
// Super Admin of the zone) asks scada for read on its topic for a crm
// account, bad input is shown on the form, bob finds the request on his
// home page and approves it, the topic's page says crm reads it, and
// revoking removes the role bindings.
func TestGrantPages(t *testing.T) {
	s := newSite(t)
	sd := s.w.Seed(t, "scada", "dev")
	alice := portal.WithPrincipal(context.Background(), portal.NewPrincipal(users["alice"], false, map[string]portal.Grant{"crm": {Role: portal.SuperAdmin}}))
	acct, err := s.w.Accounts.Create(alice, portal.Scope{BU: "crm", Stage: "dev"}, iam.NewServiceAccount{Name: "reports", Type: "metrics"})
	if err != nil {
		t.Fatal(err)
	}
	bound := func() string {
		bs, err := s.w.Env("edh-shared", "dev").IAM.RoleBindings(context.Background(), "User:"+acct.ID)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range bs {
			out = append(out, b.Role+" "+b.Resource+"="+b.Pattern)
		}
		return strings.Join(out, "; ")
	}
	before := bound()

	if p := s.do(http.MethodGet, "/crm/dev/grants/new?owner=scada", "alice", nil); p.status != http.StatusOK || !strings.Contains(p.body, acct.Name) {
		t.Fatalf("the form: %d %.300s", p.status, p.body)
	} else if topics := between(p.body, `id="grant-topics"`, "</datalist>"); !strings.Contains(p.body, `<option value="scada" selected>`) ||
		strings.Contains(p.body, `<option value="plant"`) || !strings.Contains(topics, `value="`+strings.TrimPrefix(sd.Topic, "edh-shared-scada-dev-")+`"`) {
		t.Errorf("the form does not offer scada and its topics:\n%s", topics)
	}
	form := url.Values{"owner": {"plant"}, "topic": {sd.Topic}, "access": {"read"}, "principal": {acct.ID}, "reason": {"reports"}}
	if p := s.do(http.MethodPost, "/crm/dev/grants", "alice", form); p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "landing zone mfg-shared") {
		t.Fatalf("another zone's unit: %d %.600s", p.status, p.body)
	}
	form.Set("owner", "scada")
	p := s.do(http.MethodPost, "/crm/dev/grants", "alice", form)
	loc := p.header.Get("Location")
	if p.status != http.StatusSeeOther || !strings.HasPrefix(loc, "/crm/dev/grant/gr-") {
		t.Fatalf("ask: %d %s %.300s", p.status, loc, p.body)
	}
	id := strings.TrimPrefix(loc, "/crm/dev/grant/")
	if p := s.do(http.MethodGet, "/", "bob", nil); !strings.Contains(p.body, `id="waiting-grants"`) || !strings.Contains(p.body, "/scada/dev/grant/"+id) {
		t.Fatalf("bob's home: %.2000s", p.body)
	}
	// The page's earlier address (plural, as the list's) leads to it.
	if p := s.do(http.MethodGet, "/scada/dev/grants/"+id+"?from=mail", "dave", nil); p.status != http.StatusMovedPermanently ||
		p.header.Get("Location") != "/scada/dev/grant/"+id+"?from=mail" {
		t.Errorf("the old address: %d %q", p.status, p.header.Get("Location"))
	}
	if p := s.do(http.MethodGet, "/scada/dev/grant/"+id, "dave", nil); p.status != http.StatusOK || strings.Contains(p.body, "Approve") {
		t.Errorf("dave sees an approve button: %d", p.status)
	}
	if p := s.do(http.MethodPost, "/scada/dev/grant/"+id+"/approve", "alice", url.Values{}); p.status != http.StatusForbidden {
		t.Errorf("alice approves her own request: %d", p.status)
	}
	if p := s.do(http.MethodPost, "/scada/dev/grant/"+id+"/approve", "bob", url.Values{"comment": {"fine"}}); p.status != http.StatusSeeOther {
		t.Fatalf("approve: %d %.300s", p.status, p.body)
	}
	if got := bound(); !strings.Contains(got, "DeveloperRead topic="+sd.Topic) || !strings.Contains(got, "DeveloperRead group=edh-shared-crm-dev-*") {
		t.Fatalf("bindings after approval: %s", got)
	}
	p = s.do(http.MethodGet, "/scada/dev/topic/"+sd.Topic, "dave", nil)
	if !strings.Contains(p.body, `id="topic-grants"`) || !strings.Contains(p.body, "reads it as") || !strings.Contains(p.body, acct.Name) {
		t.Fatalf("the topic page: %.300s", p.body)
	}
	if p := s.do(http.MethodGet, "/crm/dev/grants", "alice", nil); !strings.Contains(p.body, `data-grant="`+id+`" data-state="active"`) {
		t.Errorf("crm's list: %.300s", p.body)
	}
	if p := s.do(http.MethodPost, "/scada/dev/grant/"+id+"/revoke", "bob", url.Values{"comment": {"done"}}); p.status != http.StatusSeeOther {
		t.Fatalf("revoke: %d %.300s", p.status, p.body)
	}
	if got := bound(); got != before {
		t.Errorf("bindings after revoking: %s, want %s", got, before)
	}
}
