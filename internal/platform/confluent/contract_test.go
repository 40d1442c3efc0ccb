package confluent

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	_ "github.com/confluentinc/ccloud-sdk-go-v2/connect/v1"
	_ "github.com/confluentinc/ccloud-sdk-go-v2/iam/v2"
	_ "github.com/confluentinc/ccloud-sdk-go-v2/identity-provider/v2"

	"github.com/edh-platform/rms-portal/internal/dev/cloud"
	"github.com/edh-platform/rms-portal/internal/dev/clusters"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/contract"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// TestAdaptersAndStandInsFollowTheDocuments drives the production
// adapters against dev mode's Confluent Cloud stand-in with every request
// and every answer checked against Confluent's published documents: IAM
// v2 (service accounts), MDS v2 (role bindings), identity providers v2
// (identity pools), Connect v1 (managed connectors), service quotas v1 and the Metrics API v2. A shape that differs
// from the documents, on either side, fails it; so dev mode answers as
// Confluent Cloud does, and the adapters ask as it expects.
func TestAdaptersAndStandInsFollowTheDocuments(t *testing.T) {
	org := cloud.NewOrg()
	api := cloud.NewCloudAPI(org, "KEY", "SECRET")
	api.AddCluster("env-dev", "lkc-dev", cloud.NewConnect())
	tel := clusters.NewTelemetry()
	for m := range 3 {
		at := time.Now().Add(-time.Duration(m) * time.Minute)
		tel.Record("received_bytes", "edh-shared-scada-dev-orders", "", at, 1000)
		tel.Record("consumer_lag_offsets", "edh-shared-scada-dev-orders", "edh-shared-scada-dev-billing", at, 7)
		tel.Record("retained_bytes", "t", "", at, 5000)
	}
	api.AddTelemetry("lkc-dev", tel)
	v, srv := contract.Serve(t, api,
		contract.ModuleDoc(t, "github.com/confluentinc/ccloud-sdk-go-v2/iam", "v2/api/openapi.yaml"),
		"testdata/mds-v2.yaml",
		contract.ModuleDoc(t, "github.com/confluentinc/ccloud-sdk-go-v2/identity-provider", "v2/api/openapi.yaml"),
		contract.ModuleDoc(t, "github.com/confluentinc/ccloud-sdk-go-v2/connect", "v1/api/openapi.yaml"),
		"testdata/connect-v1-restart.yaml",
		"testdata/service-quota-v1.yaml",
		contract.ModuleDoc(t, "github.com/confluentinc/ccloud-sdk-go-v2/metrics", "v2/api/openapi.yaml"))
	c := NewClient(Options{BaseURL: srv.URL, APIKey: "KEY", APISecret: "SECRET", Timeout: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx := context.Background()

	t.Run("service accounts and role bindings", func(t *testing.T) {
		ciam := NewIAM(c, platform.IAMScope{OrganizationID: "org-dev", EnvironmentID: "env-dev", KafkaClusterID: "lkc-dev", SchemaRegistryID: "lsrc-dev"})
		sa, err := ciam.CreateServiceAccount(ctx, "sa-edh-shared-scada-dev-usr-contract", "made by the contract test")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ciam.CreateServiceAccount(ctx, "sa-edh-shared-scada-dev-usr-contract", "again"); !portal.Is(err, portal.AlreadyExists) {
			t.Errorf("a duplicate: %v", err)
		}
		if _, err := ciam.ListServiceAccounts(ctx); err != nil {
			t.Error(err)
		}
		if _, err := ciam.UpdateServiceAccount(ctx, sa.ID, "changed"); err != nil {
			t.Error(err)
		}
		if _, err := ciam.GetServiceAccount(ctx, "sa-nope00"); !portal.Is(err, portal.NotFound) {
			t.Errorf("a missing account: %v", err)
		}
		principal := "User:" + sa.ID
		for _, b := range []iam.RoleBinding{
			{Role: "DeveloperRead", Resource: iam.ResourceTopic, Pattern: "edh-shared-scada-dev-*"},
			{Role: "DeveloperRead", Resource: iam.ResourceSubject, Pattern: "edh-shared-scada-dev-*"},
		} {
			if _, err := ciam.CreateRoleBinding(ctx, principal, b); err != nil {
				t.Fatal(err)
			}
		}
		got, err := ciam.RoleBindings(ctx, principal)
		if err != nil || len(got) != 2 {
			t.Fatalf("bindings: %+v %v", got, err)
		}
		for _, b := range got {
			if err := ciam.DeleteRoleBinding(ctx, b.ID); err != nil {
				t.Error(err)
			}
		}
		if err := ciam.DeleteServiceAccount(ctx, sa.ID); err != nil {
			t.Error(err)
		}
	})

	t.Run("identity pools", func(t *testing.T) {
		pools := NewPools(c, "op-dev")
		p, err := pools.CreatePool(ctx, platform.IdentityPool{DisplayName: "pool-edh-shared-scada-dev-contract", Description: "d",
			IdentityClaim: "claims.sub", Filter: `claims.aud == "x"`})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pools.ListPools(ctx); err != nil {
			t.Error(err)
		}
		if _, err := pools.UpdatePoolFilter(ctx, p.ID, `claims.aud == "y"`); err != nil {
			t.Error(err)
		}
		if _, err := pools.GetPool(ctx, p.ID); err != nil {
			t.Error(err)
		}
		if err := pools.DeletePool(ctx, p.ID); err != nil {
			t.Error(err)
		}
		if _, err := pools.GetPool(ctx, p.ID); !portal.Is(err, portal.NotFound) {
			t.Errorf("a deleted pool: %v", err)
		}
	})

	t.Run("connectors", func(t *testing.T) {
		k := NewConnect(c, "env-dev", "lkc-dev")
		plugins, err := k.Plugins(ctx)
		if err != nil || len(plugins) == 0 {
			t.Fatalf("plugins: %v %v", plugins, err)
		}
		class := plugins[0].Class
		if _, err := k.Definition(ctx, class); err != nil {
			t.Error(err)
		}
		if _, err := k.Validate(ctx, class, map[string]string{"connector.class": class}); err != nil {
			t.Error(err)
		}
		cfg := map[string]string{"connector.class": "DatagenSource", "name": "contract-datagen", "kafka.topic": "edh-shared-scada-dev-contract",
			"kafka.auth.mode": "KAFKA_API_KEY", "kafka.api.key": "CONTRACTKEY", "kafka.api.secret": "contract-secret",
			"output.data.format": "JSON", "quickstart": "ORDERS", "tasks.max": "1"}
		if _, err := k.CreateConnector(ctx, "contract-datagen", cfg); err != nil {
			t.Fatal(err)
		}
		if _, err := k.CreateConnector(ctx, "contract-datagen", cfg); !portal.Is(err, portal.AlreadyExists) {
			t.Errorf("a duplicate: %v", err)
		}
		if _, err := k.ListConnectors(ctx); err != nil {
			t.Error(err)
		}
		got, err := k.GetConnector(ctx, "contract-datagen")
		if err != nil {
			t.Error(err)
		}
		// What Cloud fills in itself is not the tenant's configuration.
		if _, ok := got.Config["cloud.environment"]; ok || got.Config["kafka.api.secret"] == "contract-secret" {
			t.Errorf("a connector's configuration as read: %v", got.Config)
		}
		for _, step := range []func(context.Context, string) error{k.PauseConnector, k.ResumeConnector} {
			if err := step(ctx, "contract-datagen"); err != nil {
				t.Error(err)
			}
		}
		for _, onlyFailed := range []bool{false, true} {
			if err := k.RestartConnector(ctx, "contract-datagen", onlyFailed); err != nil {
				t.Errorf("restart (only failed %v): %v", onlyFailed, err)
			}
		}
		cfg["tasks.max"] = "2"
		if _, err := k.UpdateConnector(ctx, "contract-datagen", cfg, nil); err != nil {
			t.Error(err)
		}
		if err := k.DeleteConnector(ctx, "contract-datagen"); err != nil {
			t.Error(err)
		}
		if _, err := k.GetConnector(ctx, "contract-datagen"); !portal.Is(err, portal.NotFound) {
			t.Errorf("a deleted connector: %v", err)
		}
	})
	t.Run("metrics", func(t *testing.T) {
		m := NewMetrics(c, nil)
		start := time.Now().UTC().Truncate(time.Minute).Add(-time.Hour)
		for _, q := range []platform.MetricQuery{
			{Metric: platform.MetricReceivedBytes, ClusterID: "lkc-dev", GroupBy: []string{platform.LabelTopic}, Limit: 1000},
			{Metric: platform.MetricConsumerLag, ClusterID: "lkc-dev", GroupBy: []string{platform.LabelGroup, platform.LabelTopic}, Limit: 1000},
			{Metric: platform.MetricRetainedBytes, ClusterID: "lkc-dev", Filters: map[string]string{platform.LabelTopic: "t"}},
		} {
			q.Granularity, q.Start, q.End = "PT1M", start, start.Add(time.Hour)
			if pts, err := m.QueryMetric(ctx, q); err != nil || len(pts) == 0 {
				t.Errorf("%s: %d points, %v", q.Metric, len(pts), err)
			}
		}
	})
	t.Run("quotas", func(t *testing.T) {
		limit, err := NewQuotas(c).ClusterPartitionLimit(ctx, "env-dev", "lkc-dev")
		if err != nil || limit <= 0 {
			t.Errorf("the partition limit: %d %v", limit, err)
		}
	})
	v.Report()
}
