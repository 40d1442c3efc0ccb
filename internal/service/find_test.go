package service_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/search"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// downConnectors answers every connector list with an outage.
type downConnectors struct{ platform.Connectors }

func (downConnectors) ListConnectors(context.Context) ([]platform.Connector, error) {
	return nil, portal.New(portal.UpstreamUnavailable, "the Connect API is unavailable")
}

// TestFindSearchesEveryKindOfTheUnit: one search finds the unit's topics,
// groups, accounts (and no other unit's), a few of each; a kind whose
// upstream is down is named unavailable, not reported empty; an empty or
// oversized search is refused; a role in another unit finds nothing here.
func TestFindSearchesEveryKindOfTheUnit(t *testing.T) {
	seed := []string{"edh-shared-scada-dev-meter-readings", "edh-shared-scada-dev-meter-alarms", "edh-shared-crm-dev-meter-leads"}
	for i := range 8 {
		seed = append(seed, "edh-shared-scada-dev-meter-batch-"+string(rune('a'+i)))
	}
	w := servicetest.New(t, seed...)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	admin := servicetest.As("scada", portal.Admin)
	if _, err := w.Accounts.Create(admin, dev, iam.NewServiceAccount{Name: "meter-reader", Type: "consumer"}); err != nil {
		t.Fatal(err)
	}
	r, err := w.Find.Find(servicetest.As("scada", portal.Viewer), dev, "METER")
	if err != nil {
		t.Fatal(err)
	}
	var topics, accounts []string
	for _, h := range r.Hits {
		switch h.Kind {
		case search.FindTopic:
			topics = append(topics, h.Key)
		case search.FindServiceAccount:
			accounts = append(accounts, h.Label)
		}
	}
	if len(topics) != 5 || strings.Contains(strings.Join(topics, " "), "crm") || len(accounts) != 1 || len(r.Unavailable) != 0 {
		t.Fatalf("found topics %v, accounts %v, unavailable %v", topics, accounts, r.Unavailable)
	}

	env := w.Env("edh-shared", "dev")
	env.Connectors = downConnectors{env.Connectors}
	if r, err = w.Find.Find(admin, dev, "meter"); err != nil || len(r.Unavailable) != 1 || r.Unavailable[0] != search.FindConnector || len(r.Hits) == 0 {
		t.Errorf("with the Connect API down: %+v %v", r, err)
	}
	for _, q := range []string{"", "  ", strings.Repeat("m", 257)} {
		if _, err := w.Find.Find(admin, dev, q); !portal.KindOf(err).IsValidation() {
			t.Errorf("search %q: %v", q, err)
		}
	}
	if _, err := w.Find.Find(servicetest.As("crm", portal.Admin), dev, "meter"); err == nil {
		t.Error("crm's Admin searched scada")
	}
}
