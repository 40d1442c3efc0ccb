package handlers_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestWebhookSecretShownWithACopyButton: a new webhook's signing secret is
// shown once in a read-only field with a Copy button (copying by hand
// from a code block is where secrets get truncated); the list shows it no
// more.
func TestWebhookSecretShownWithACopyButton(t *testing.T) {
	s := newSite(t)
	p := s.do("POST", "/admin/webhooks", "frank", url.Values{"landing_zone": {"edh-shared"}, "url": {"https://hooks.example.test/copy"}})
	m := regexp.MustCompile(`id="webhook-secret-value" readonly value="(whsec_[^"]+)"`).FindStringSubmatch(p.body)
	if p.status != 201 || m == nil || !strings.Contains(p.body, `data-copy="webhook-secret-value"`) {
		t.Fatalf("the created webhook's page: %d, secret field %v, Copy button %v", p.status, m != nil, strings.Contains(p.body, `data-copy="webhook-secret-value"`))
	}
	if list := s.do("GET", "/admin/webhooks", "frank", nil); strings.Contains(list.body, m[1]) {
		t.Error("the list shows the secret again")
	}
}
