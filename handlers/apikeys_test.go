package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestAPIKeyPages: bob makes a key on the account's page and sees its
// secret once, on a page that is never cached, with a client snippet and
// copy buttons; the account's page and the unit's list then show the key
// without it; a bad expiry shows the form again with its problem; the
// delete asks to type the key's id; the account's delete offers its keys.
func TestAPIKeyPages(t *testing.T) {
	s := newSite(t)
	ctx := servicetest.As("scada", portal.Admin)
	qas := portal.Scope{BU: "scada", Stage: "qas"}
	sa, err := s.w.Accounts.Create(ctx, qas, iam.NewServiceAccount{Name: "paged", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	account := "/scada/qas/service-account/" + sa.ID
	if p := s.do(http.MethodGet, account, "dave", nil); p.status != 200 || !strings.Contains(p.body, "No API keys") || strings.Contains(p.body, `id="key-form"`) {
		t.Errorf("dave's view of the account: %d", p.status)
	}
	p := s.do(http.MethodPost, account+"/api-keys", "bob", url.Values{"resource": {"kafka"}, "description": {"paged app"}})
	if p.status != http.StatusCreated || p.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("create: %d %v", p.status, p.header)
	}
	keys, _ := s.w.APIKeys.List(ctx, qas, iam.APIKeyQuery{Account: sa.ID})
	if len(keys.Items) != 1 {
		t.Fatalf("keys %+v", keys.Items)
	}
	id := keys.Items[0].ID
	secret := between(between(p.body, `id="key-secret"`, ">"), `value="`, `"`)
	if len(secret) < 16 || !strings.Contains(p.body, "sasl.jaas.config") || !strings.Contains(p.body, `data-copy="key-properties"`) || !strings.Contains(p.body, "shown only this once") {
		t.Fatalf("the key's page lacks its secret, snippet or copy buttons:\n%s", p.body)
	}
	for _, path := range []string{account, "/scada/qas/api-keys", "/scada/qas/api-keys?expiring_within=31d"} {
		p = s.do(http.MethodGet, path, "carol", nil)
		if p.status != 200 || !strings.Contains(p.body, id) || strings.Contains(p.body, secret) || !strings.Contains(p.body, `data-expiry="later"`) {
			t.Errorf("%s: %d, key listed %v, secret shown %v", path, p.status, strings.Contains(p.body, id), strings.Contains(p.body, secret))
		}
	}
	// Not usable yet: the page says so and asks again until it is.
	if p = s.do(http.MethodGet, account, "carol", nil); !strings.Contains(p.body, `data-key-state="provisioning"`) || !strings.Contains(p.body, `hx-trigger="every 3s"`) {
		t.Errorf("a new key's state on the account's page:\n%s", between(p.body, `id="api-keys"`, "</table>"))
	}
	if _, err := s.w.APIKeys.CheckProvisioning(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p = s.do(http.MethodGet, "/scada/qas/api-keys", "carol", nil); !strings.Contains(p.body, `data-key-state="ready"`) || strings.Contains(p.body, `hx-trigger="every 3s"`) {
		t.Errorf("a key that signed in:\n%s", between(p.body, `id="api-keys"`, "</table>"))
	}
	if p = s.do(http.MethodGet, "/scada/qas/api-keys?expiring_within=1d", "carol", nil); strings.Contains(p.body, id) {
		t.Error("a key 30 days away is listed as expiring within a day")
	}

	p = s.do(http.MethodPost, account+"/api-keys", "bob", url.Values{"resource": {"kafka"}, "expires": {"2001-01-01"}})
	if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "not in the future") {
		t.Errorf("a past expiry: %d", p.status)
	}
	if keys, _ = s.w.APIKeys.List(ctx, qas, iam.APIKeyQuery{Account: sa.ID}); len(keys.Items) != 1 {
		t.Error("a refused form made a key")
	}

	if p = s.do(http.MethodGet, "/scada/qas/api-key/"+id+"/delete", "bob", nil); p.status != 200 || !strings.Contains(p.body, "paged") {
		t.Errorf("the key's delete page: %d", p.status)
	}
	if p = s.do(http.MethodGet, "/scada/qas/api-key/NOSUCHKEY/delete", "bob", nil); p.status != http.StatusNotFound {
		t.Errorf("a missing key's delete page: %d", p.status)
	}
	if p = s.do(http.MethodPost, "/scada/qas/api-key/"+id+"/delete", "bob", url.Values{"confirm": {"wrong"}}); p.status != http.StatusUnprocessableEntity {
		t.Errorf("a mistyped delete: %d", p.status)
	}

	// The account's delete offers its keys, and refuses without them.
	if p = s.do(http.MethodGet, account+"/delete", "bob", nil); !strings.Contains(p.body, `name="with_keys"`) {
		t.Error("the account's delete does not offer its keys")
	}
	if p = s.do(http.MethodPost, account+"/delete", "bob", url.Values{"confirm": {sa.Identifier}}); p.status != http.StatusConflict || !strings.Contains(p.body, id) {
		t.Errorf("deleting the account without its key: %d", p.status)
	}
	if p = s.do(http.MethodPost, account+"/delete", "bob", url.Values{"confirm": {sa.Identifier}, "with_keys": {"true"}}); p.status >= 400 {
		t.Errorf("deleting the account with its key: %d", p.status)
	}
	if keys, _ = s.w.APIKeys.List(ctx, qas, iam.APIKeyQuery{}); len(keys.Items) != 0 {
		t.Errorf("keys left: %+v", keys.Items)
	}
}

// between returns the text of s between from and to.
func between(s, from, to string) string {
	_, after, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	out, _, _ := strings.Cut(after, to)
	return out
}

// TestDedicatedAccountNames: on a dedicated unit's pages the form's
// preview, the list's subtitle and its names agree with the name the
// account gets (the unit twice, DESIGN section 2).
func TestDedicatedAccountNames(t *testing.T) {
	s := newSite(t)
	const prefix = "sa-sales-sales-dev-usr-"
	if p := s.do(http.MethodGet, "/sales/dev/service-accounts/new", "sally", nil); p.status != 200 || !strings.Contains(p.body, prefix) {
		t.Errorf("the form's preview: %d, lacks %s", p.status, prefix)
	}
	if p := s.do(http.MethodPost, "/sales/dev/service-accounts", "sally", url.Values{"name": {"usr-x"}, "type": {"producer"}}); p.status >= 400 {
		t.Fatalf("create: %d", p.status)
	}
	p := s.do(http.MethodGet, "/sales/dev/service-accounts", "sally", nil)
	if !strings.Contains(p.body, prefix+"*") || !strings.Contains(p.body, `data-account="`+prefix+"usr-x-producer") || !strings.Contains(p.body, ">usr-x</a>") {
		t.Errorf("the list's subtitle and names disagree with %s: %.3000s", prefix, p.body)
	}
}
