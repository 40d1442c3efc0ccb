package confluent

import (
	"context"
	"testing"

	_ "github.com/confluentinc/ccloud-sdk-go-v2/apikeys/v2"

	"github.com/edh-platform/rms-portal/internal/dev/cloud"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/contract"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestAPIKeysAdapterFollowsTheDocument drives the API keys adapter against
// the dev stand-in through a check of every request and response against
// Confluent's published document (ccloud-sdk-go-v2/apikeys,
// v2/api/openapi.yaml): create (with its secret, once), list by owner
// and by resource across pages, read, update, delete, and the errors.
func TestAPIKeysAdapterFollowsTheDocument(t *testing.T) {
	org := cloud.NewOrg()
	api := cloud.NewCloudAPI(org, "KEY", "SECRET")
	v, srv := contract.Serve(t, api, contract.ModuleDoc(t, "github.com/confluentinc/ccloud-sdk-go-v2/apikeys", "v2/api/openapi.yaml"))
	c := NewClient(Options{BaseURL: srv.URL, APIKey: "KEY", APISecret: "SECRET"})
	keys := NewAPIKeys(c)
	ctx := context.Background()
	ciam := org.IAMFor(platform.IAMScope{})
	sa, err := ciam.CreateServiceAccount(ctx, "sa-edh-shared-scada-dev-usr-app-producer", "")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := ciam.CreateServiceAccount(ctx, "sa-edh-shared-crm-dev-usr-app-producer", "")

	k, err := keys.CreateAPIKey(ctx, platform.NewAPIKey{Owner: sa.ID, Resource: "lkc-dev", Environment: "env-dev",
		DisplayName: "app", Description: "the app's key"})
	if err != nil {
		t.Fatal(err)
	}
	if len(k.ID) != 16 || len(k.Secret) < 32 || k.Owner != sa.ID || k.Resource != "lkc-dev" || k.Created.IsZero() {
		t.Errorf("created %+v", k)
	}
	got, err := keys.GetAPIKey(ctx, k.ID)
	if err != nil || got.Secret != "" || got.Description != "the app's key" {
		t.Errorf("read: %+v %v (the secret must not come back)", got, err)
	}
	for i := range 104 {
		owner := other.ID
		if i%2 == 0 {
			owner = sa.ID
		}
		if _, err := keys.CreateAPIKey(ctx, platform.NewAPIKey{Owner: owner, Resource: "lsrc-dev", Environment: "env-dev"}); err != nil {
			t.Fatal(err)
		}
	}
	mine, err := keys.ListAPIKeys(ctx, sa.ID, "")
	if err != nil || len(mine) != 53 {
		t.Errorf("by owner: %d %v", len(mine), err)
	}
	registry, err := keys.ListAPIKeys(ctx, "", "lsrc-dev")
	if err != nil || len(registry) != 104 {
		t.Errorf("by resource, over two pages: %d %v", len(registry), err)
	}
	for _, x := range registry {
		if x.Secret != "" {
			t.Fatal("a listed key carries its secret")
		}
	}
	if u, err := keys.UpdateAPIKey(ctx, k.ID, "rotated soon"); err != nil || u.Description != "rotated soon" {
		t.Errorf("update: %+v %v", u, err)
	}
	if err := keys.DeleteAPIKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.GetAPIKey(ctx, k.ID); !portal.Is(err, portal.NotFound) {
		t.Errorf("a deleted key: %v", err)
	}
	if _, err := keys.CreateAPIKey(ctx, platform.NewAPIKey{Owner: "sa-nobody", Resource: "lkc-dev", Environment: "env-dev"}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("a key for no account: %v", err)
	}
	v.Report()
}
