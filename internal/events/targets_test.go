package events_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/events"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestWebhookTargetsStayOutside: a webhook is refused when its host is an
// internal address in any notation a resolver reads (decimal, octal,
// hexadecimal, short forms, IPv6, IPv4 inside IPv6), or a name resolving
// to one (among several); an operator's allowed range lets one through.
func TestWebhookTargetsStayOutside(t *testing.T) {
	w := servicetest.New(t)
	admin := w.AsGroups("platform-admins")
	names := map[string][]string{
		"localhost":          {"127.0.0.1", "::1"},
		"rebind.example.com": {"93.184.216.34", "10.0.0.7"},
		"metadata.internal":  {"169.254.169.254"},
		"hooks.example.com":  {"93.184.216.34", "2606:2800:220:1::1"},
		"inside.example.com": {"10.20.3.4"},
	}
	rc := events.Receivers{Lookup: func(_ context.Context, host string) ([]netip.Addr, error) {
		var out []netip.Addr
		for _, a := range names[host] {
			out = append(out, netip.MustParseAddr(a))
		}
		return out, nil
	}}
	svc := events.NewService(w.Guard, w.Store, events.ServiceOptions{Receivers: rc})
	for _, host := range []string{"127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0x7f.0.0.1", "017700000001",
		"[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]",
		"169.254.169.254", "[fd00:ec2::254]", "10.0.0.1", "172.16.5.5", "192.168.1.1", "100.100.100.200", "0.0.0.0", "[::]",
		"[fe80::1%25eth0]", "224.0.0.1", "localhost", "rebind.example.com", "metadata.internal", "nowhere.example.com",
		"inside.example.com"} {
		_, err := svc.CreateWebhook(admin, webhook.NewWebhook{Zone: "edh-shared", URL: "https://" + host + "/hook"})
		if ps := portal.Problems(err); len(ps) != 1 || ps[0].Field != "url" || ps[0].Kind != portal.InvalidParameter {
			t.Errorf("https://%s/hook: %v", host, err)
		}
	}
	if _, err := svc.CreateWebhook(admin, webhook.NewWebhook{Zone: "edh-shared", URL: "https://hooks.example.com/hook"}); err != nil {
		t.Errorf("a public receiver: %v", err)
	}
	rc.Allowed = []netip.Prefix{netip.MustParsePrefix("10.20.0.0/16")}
	svc = events.NewService(w.Guard, w.Store, events.ServiceOptions{Receivers: rc})
	if _, err := svc.CreateWebhook(admin, webhook.NewWebhook{Zone: "edh-shared", URL: "https://inside.example.com/hook"}); err != nil {
		t.Errorf("a receiver in a range the operator allows: %v", err)
	}
	for _, bad := range []string{"https://hooks.example.com/\x1b[31m", "https://hooks.example.com/" + strings.Repeat("a", 3000)} {
		if _, err := svc.CreateWebhook(admin, webhook.NewWebhook{Zone: "edh-shared", URL: bad}); !portal.Is(err, portal.InvalidParameter) {
			t.Errorf("%.40q: %v", bad, err)
		}
	}
}

// TestDeliveriesConnectOnlyOutside: the delivery transport refuses to
// connect to an internal address, whatever the URL said; an allowed
// range connects.
func TestDeliveriesConnectOnlyOutside(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	refusing := &http.Client{Transport: events.Receivers{}.Transport()}
	if _, err := refusing.Post(srv.URL, "application/json", strings.NewReader("{}")); err == nil || !strings.Contains(err.Error(), "internal address") {
		t.Errorf("a delivery to loopback: %v", err)
	}
	allowing := &http.Client{Transport: events.Receivers{Allowed: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}.Transport()}
	resp, err := allowing.Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("a delivery to an allowed range: %v", err)
	}
	resp.Body.Close()
}

// TestWebhookSecretsAreSealed: the store keeps a webhook's signing secret
// sealed (the clear secret is in the create's answer only), and a secret
// an earlier release kept in the clear is sealed by the dispatcher.
func TestWebhookSecretsAreSealed(t *testing.T) {
	w := servicetest.New(t)
	admin := w.AsGroups("platform-admins")
	seal, err := auth.NewSealer("webhook secret", []string{strings.Repeat("k", 32)})
	if err != nil {
		t.Fatal(err)
	}
	svc := events.NewService(w.Guard, w.Store, events.ServiceOptions{Receivers: servicetest.PublicReceivers(), Secrets: seal})
	hook, err := svc.CreateWebhook(admin, webhook.NewWebhook{Zone: "edh-shared", URL: "https://hooks.example.com/sealed"})
	if err != nil || !strings.HasPrefix(hook.Secret, events.SecretPrefix) {
		t.Fatalf("create: %+v %v", hook, err)
	}
	recs, _ := w.Store.WebhookRecords(context.Background())
	for _, r := range recs {
		if r.ID == hook.ID && (!strings.HasPrefix(r.Secret, "sealed:") || strings.Contains(r.Secret, strings.TrimPrefix(hook.Secret, events.SecretPrefix))) {
			t.Errorf("the store keeps %q", r.Secret)
		}
	}
}
