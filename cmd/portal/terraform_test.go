package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/edh-platform/rms-portal/tfprovider"
)

// terraformCLI finds the Terraform-compatible CLI the tests drive:
// $TF_ACC_TERRAFORM_PATH, the one make test builds (build/tools), or
// one on the PATH. Without one the test fails: make test builds it.
func terraformCLI(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("TF_ACC_TERRAFORM_PATH"), filepath.Join("..", "..", "build", "tools", "terraform")} {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			if _, err := os.Stat(abs); err == nil {
				return abs
			}
		}
	}
	if p, err := exec.LookPath("terraform"); err == nil {
		return p
	}
	t.Fatal("no terraform CLI: make test builds one into build/tools (make terraform), or set TF_ACC_TERRAFORM_PATH")
	return ""
}

// terraformPortal is a dev portal process of the Terraform tests' own
// (their policies and budgets are the whole platform's) and how to run
// Terraform against it.
type terraformPortal struct {
	*testPortal
	cli string
}

func startTerraformPortal(t *testing.T) *terraformPortal {
	cli := terraformCLI(t)
	terraformEnv(t, cli)
	dev := startProcess(t, "terraform's portal", []string{"dev", "--data", filepath.Join(t.TempDir(), "dev")})
	tp := &testPortal{t: t, url: dev.url, tokens: &tokenCache{m: map[string]cachedToken{}}}
	return &terraformPortal{testPortal: tp, cli: cli}
}

var (
	terraformEnvOnce sync.Once
	terraformEnvErr  error
	// terraformRCDir holds the empty CLI configuration; TestMain removes it.
	terraformRCDir string
)

// terraformEnv sets, once for the test process, what Terraform's test
// framework reads from the environment: the CLI, no update checks, and
// an empty CLI configuration instead of the machine's. The values are
// the same for every test, so the Terraform tests run in parallel, as
// t.Setenv would not let them.
func terraformEnv(t *testing.T, cli string) {
	t.Helper()
	terraformEnvOnce.Do(func() {
		if terraformRCDir, terraformEnvErr = os.MkdirTemp("", "rms-portal-terraformrc-"); terraformEnvErr != nil {
			return
		}
		rc := filepath.Join(terraformRCDir, "terraformrc")
		if terraformEnvErr = os.WriteFile(rc, nil, 0o600); terraformEnvErr != nil {
			return
		}
		for k, v := range map[string]string{"TF_ACC_TERRAFORM_PATH": cli, "CHECKPOINT_DISABLE": "1", "TF_IN_AUTOMATION": "1", "TF_CLI_CONFIG_FILE": rc} {
			if terraformEnvErr = os.Setenv(k, v); terraformEnvErr != nil {
				return
			}
		}
	})
	if terraformEnvErr != nil {
		t.Fatal(terraformEnvErr)
	}
}

// provider is a provider block signed in as user in bu/stage, with more
// settings.
func (tf *terraformPortal) provider(user, bu, stage string, more ...string) string {
	return fmt.Sprintf("provider \"portal\" {\n  base_url = %q\n  token = %q\n  business_unit = %q\n  stage = %q\n  %s\n}\n",
		tf.url, tf.token(user), bu, stage, strings.Join(more, "\n  "))
}

// factories run the provider in the test's process.
func (tf *terraformPortal) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){"portal": providerserver.NewProtocol6WithError(tfprovider.New("test")())}
}

// upstream asks the API as frank and checks the status.
func (tf *terraformPortal) upstream(method, path string, body any, want int) map[string]any {
	tf.t.Helper()
	r := tf.call(method, path, "frank", body)
	if r.status != want {
		tf.t.Fatalf("%s %s: %d, want %d\n%s", method, path, r.status, want, r.body)
	}
	if len(r.body) == 0 {
		return nil
	}
	return r.json(tf.t)
}

// said matches Terraform's output holding the texts in order, however
// its lines are wrapped.
func said(texts ...string) *regexp.Regexp {
	parts := make([]string, len(texts))
	for i, t := range texts {
		words := strings.Fields(t)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// check runs f as a Terraform check.
func check(f func() error) resource.TestCheckFunc {
	return func(*terraform.State) error { return f() }
}

// TestTerraformUnitJourney is the journey through Terraform
// against the portal binary: a unit's topics, a schema, an account with
// a key, a pool, a connector with its auto-restart, an alert rule and
// channel, and a grant asked of another unit; imported, drifted in the
// portal (a diff), updated (If-Match: a change in the portal between
// plan and apply writes nothing), approved, destroyed (nothing left).
func TestTerraformUnitJourney(t *testing.T) {
	t.Parallel()
	tf := startTerraformPortal(t)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(receiver.Close)
	sfx := suffix()
	base := "/api/v1/scada/dev"
	topic := "edh-shared-scada-dev-tf-orders-" + sfx

	config := func(partitions int, retention, description, filter, rotation, threshold string) string {
		// The second configuration changes the connector and its
		// auto-restart too.
		quickstart, restarts, fields := "ORDERS", 3, ""
		if partitions > 3 {
			quickstart, restarts, fields = "USERS", 5, `, { name = "channel", type = "string", default = "web" }`
		}
		return tf.provider("bob", "scada", "dev") + fmt.Sprintf(`
resource "portal_topic" "orders" {
  name        = "tf-orders-%[1]s"
  partitions  = %[2]d
  config      = { "retention.ms" = %[3]q }
  description = %[4]q
  tags        = ["orders", "terraform"]
}
resource "portal_topic" "plain" {
  count = 3
  name  = "tf-plain-${count.index}-%[1]s"
}
resource "portal_schema" "orders" {
  name        = "${portal_topic.orders.name}-value"
  schema      = jsonencode({ type = "record", name = "Order", fields = [{ name = "id", type = "string" }, { name = "note", type = "string", default = "" }%[11]s] })
  hard_delete = true
}
resource "portal_service_account" "app" {
  name        = "tf-app-%[1]s"
  type        = "producer"
  description = %[4]q
}
resource "portal_api_key" "app" {
  service_account_id = portal_service_account.app.account_id
  resource           = "kafka"
  secret_in_state    = true
  rotation           = %[6]q
  overlap            = "1h"
}
resource "portal_identity_pool" "ci" {
  name        = "tf-ci-%[1]s"
  type        = "consumer"
  filter      = %[5]q
  test_claims = jsonencode({ sub = "ci-scada-7", aud = "confluent" })
}
resource "portal_connector" "feed" {
  name   = "tf-feed-%[1]s"
  class  = "DatagenSource"
  config = { "kafka.topic" = portal_topic.orders.name, "output.data.format" = "JSON", "quickstart" = %[9]q, "tasks.max" = "1" }
  secret_config = { "kafka.api.key" = portal_api_key.app.key_id, "kafka.api.secret" = portal_api_key.app.secret }
}
resource "portal_connector_auto_restart" "feed" {
  connector    = portal_connector.feed.name
  max_restarts = %[10]d
}
resource "portal_alert_rule" "lag" {
  name      = "tf-lag-%[1]s"
  kind      = "lag_time"
  target    = "tf-group-%[1]s"
  threshold = %[7]s
  for       = "5m"
}
resource "portal_alert_channel" "slack" {
  format = "slack"
  url    = "%[8]s/slack"
}
resource "portal_grant" "customers" {
  owner     = "crm"
  topic     = "customers"
  access    = "read"
  principal = portal_service_account.app.account_id
  reason    = "terraform journey %[1]s"
  duration  = "7d"
}
data "portal_caller" "me" {}
data "portal_topics" "mine" {
  search     = "tf-plain-"
  depends_on = [portal_topic.plain]
}
data "portal_catalog" "crm" { owner = "crm" }
data "portal_consumer_groups" "all" {}
`, sfx, partitions, retention, description, filter, rotation, threshold, receiver.URL, quickstart, restarts, fields)
	}
	first := config(3, "86400000", "Orders of the journey", `claims.aud == "confluent" && claims.sub.startsWith("ci-scada")`, "one", "60")
	var keyID string

	resource.Test(t, resource.TestCase{
		IsUnitTest:               true,
		ProtoV6ProviderFactories: tf.factories(),
		CheckDestroy: func(*terraform.State) error {
			for _, p := range []string{base + "/topic/" + topic, base + "/topic/tf-plain-0-" + sfx, base + "/schema/" + topic + "-value/latest",
				base + "/connector/tf-feed-" + sfx} {
				if r := tf.call("GET", p, "frank", nil); r.status != http.StatusNotFound {
					return fmt.Errorf("%s is left: %d", p, r.status)
				}
			}
			accounts := tf.upstream("GET", base+"/service-accounts?search=tf-app-"+sfx, nil, http.StatusOK)
			if n := len(accounts["items"].([]any)); n != 0 {
				return fmt.Errorf("%d accounts are left", n)
			}
			for _, g := range tf.upstream("GET", base+"/grants?page_size=1000", nil, http.StatusOK)["items"].([]any) {
				if g := g.(map[string]any); strings.Contains(g["reason"].(string), sfx) && (g["state"] == "active" || g["state"] == "requested") {
					return fmt.Errorf("a grant is left: %v", g)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				// Create: what the portal holds is what was declared.
				Config: first,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("portal_topic.orders", "full_name", topic),
					resource.TestCheckResourceAttr("portal_topic.orders", "id", "scada/dev/tf-orders-"+sfx),
					resource.TestCheckResourceAttr("portal_topic.plain.0", "partitions", "1"),
					resource.TestCheckResourceAttr("portal_schema.orders", "version", "1"),
					resource.TestCheckResourceAttr("portal_schema.orders", "subject", topic+"-value"),
					resource.TestMatchResourceAttr("portal_service_account.app", "account_id", regexp.MustCompile(`^sa-`)),
					resource.TestMatchResourceAttr("portal_identity_pool.ci", "pool_id", regexp.MustCompile(`^pool-`)),
					resource.TestCheckResourceAttrSet("portal_api_key.app", "secret"),
					resource.TestMatchResourceAttr("portal_connector.feed", "connector_id", regexp.MustCompile(`^lcc-`)),
					resource.TestCheckResourceAttr("portal_grant.customers", "state", "requested"),
					resource.TestCheckResourceAttr("data.portal_caller.me", "username", "bob"),
					resource.TestCheckResourceAttr("data.portal_topics.mine", "topics.#", "3"),
					func(s *terraform.State) error {
						keyID = s.RootModule().Resources["portal_api_key.app"].Primary.Attributes["key_id"]
						return nil
					},
					check(func() error {
						d := tf.upstream("GET", base+"/topic/"+topic, nil, http.StatusOK)
						cfg := d["config"].(map[string]any)
						if d["partitions_count"] != 3.0 || cfg["retention.ms"] != "86400000" {
							return fmt.Errorf("the topic upstream: %v", d)
						}
						e := tf.upstream("GET", base+"/catalog/"+topic, nil, http.StatusOK)
						if e["description"] != "Orders of the journey" || len(e["tags"].([]any)) != 2 {
							return fmt.Errorf("the catalog entry: %v", e)
						}
						c := tf.upstream("GET", base+"/connector/tf-feed-"+sfx, nil, http.StatusOK)
						if a := c["auto_restart"].(map[string]any); a["enabled"] != true || a["max_restarts"] != 3.0 {
							return fmt.Errorf("the connector's auto-restart: %v", a)
						}
						return nil
					}),
				),
			},
			// Import: every resource by its item path reads back as made.
			{ResourceName: "portal_topic.orders", ImportState: true, ImportStateId: "scada/dev/tf-orders-" + sfx, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"delete_reason"}},
			{ResourceName: "portal_schema.orders", ImportState: true, ImportStateId: "scada/dev/tf-orders-" + sfx + "-value", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"hard_delete", "schema"}},
			{ResourceName: "portal_service_account.app", ImportState: true, ImportStateId: "scada/dev/tf-app-" + sfx, ImportStateVerify: true},
			{ResourceName: "portal_identity_pool.ci", ImportState: true, ImportStateId: "scada/dev/tf-ci-" + sfx, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"test_claims"}},
			{ResourceName: "portal_connector.feed", ImportState: true, ImportStateId: "scada/dev/tf-feed-" + sfx, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"secret_config", "state"}},
			{ResourceName: "portal_connector_auto_restart.feed", ImportState: true, ImportStateId: "scada/dev/tf-feed-" + sfx, ImportStateVerify: true},
			{ResourceName: "portal_alert_rule.lag", ImportState: true, ImportStateId: "scada/dev/tf-lag-" + sfx, ImportStateVerify: true},
			{ResourceName: "portal_api_key.app", ImportState: true, ImportStateIdFunc: func(*terraform.State) (string, error) { return "scada/dev/" + keyID, nil },
				ImportStateVerify: true, ImportStateVerifyIgnore: []string{"secret", "client_config", "secret_in_state", "rotation", "overlap", "state"}},
			{ResourceName: "portal_alert_channel.slack", ImportState: true, ImportStateIdFunc: func(s *terraform.State) (string, error) {
				return "scada/dev/" + s.RootModule().Resources["portal_alert_channel.slack"].Primary.Attributes["channel_id"], nil
			}, ImportStateVerify: true},
			{ResourceName: "portal_grant.customers", ImportState: true, ImportStateIdFunc: func(s *terraform.State) (string, error) {
				return "scada/dev/" + s.RootModule().Resources["portal_grant.customers"].Primary.Attributes["grant_id"], nil
			}, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"topic", "expires_at"}},
			{
				// Drift: a change made in the portal is a diff in the plan.
				PreConfig: func() {
					tf.upstream("PATCH", base+"/topic/"+topic, map[string]any{"config": map[string]any{"retention.ms": "3600000", "cleanup.policy": "compact"}}, http.StatusOK)
					tf.upstream("PUT", base+"/alert-rule/tf-lag-"+sfx, map[string]any{"kind": "lag_time", "target": "tf-group-" + sfx, "threshold": 99, "for_seconds": 300}, http.StatusOK)
				},
				Config: first, PlanOnly: true, ExpectNonEmptyPlan: true,
			},
			{
				// Applying the same configuration puts it back.
				Config: first,
				Check: check(func() error {
					cfg := tf.upstream("GET", base+"/topic/"+topic, nil, http.StatusOK)["config"].(map[string]any)
					if cfg["retention.ms"] != "86400000" || cfg["cleanup.policy"] != nil {
						return fmt.Errorf("the drift was not undone: %v", cfg)
					}
					return nil
				}),
			},
			{
				// A secret changed in the portal (not by Terraform) is
				// told by the digest the portal kept of the one sent ...
				PreConfig: func() {
					c := tf.upstream("GET", base+"/connector/tf-feed-"+sfx+"?show_config=true", nil, http.StatusOK)["config"].(map[string]any)
					c["kafka.api.key"], c["kafka.api.secret"] = keyID, "set-by-hand"
					tf.upstream("PUT", base+"/connector/tf-feed-"+sfx, map[string]any{"config": c}, http.StatusOK)
				},
				Config: first, PlanOnly: true, ExpectNonEmptyPlan: true,
			},
			{
				// ... and the apply sends the configured one again.
				Config: first,
				Check: check(func() error {
					doc := tf.upstream("POST", base+"/plan", map[string]any{"items": []any{map[string]any{"apiVersion": "portal/v1", "kind": "Connector",
						"metadata": map[string]any{"name": "tf-feed-" + sfx}, "spec": map[string]any{"class": "DatagenSource",
							"config":  map[string]string{"kafka.topic": "tf-orders-" + sfx, "output.data.format": "JSON", "quickstart": "ORDERS", "tasks.max": "1"},
							"secrets": map[string]any{"kafka.api.secret": map[string]string{"fromEnv": "S", "value": "set-by-hand"}, "kafka.api.key": map[string]string{"fromEnv": "K"}}}}}}, http.StatusOK)
					if !strings.Contains(fmt.Sprint(doc["changes"]), "(changed, from $S)") {
						return fmt.Errorf("the hand-set secret is still the connector's: %v", doc["changes"])
					}
					return nil
				}),
			},
			{
				// Update everything that can change in place, and rotate
				// the key: its successor is another key, the old one
				// stays for its overlap.
				Config: config(6, "172800000", "Orders, described again", `claims.aud == "confluent" && claims.sub.startsWith("ci-scada-")`, "two", "120"),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("portal_topic.orders", "partitions", "6"),
					resource.TestCheckResourceAttr("portal_alert_rule.lag", "threshold", "120"),
					resource.TestCheckResourceAttr("portal_schema.orders", "version", "2"),
					func(s *terraform.State) error {
						if now := s.RootModule().Resources["portal_api_key.app"].Primary.Attributes["key_id"]; now == keyID || now == "" {
							return fmt.Errorf("the rotated key is %q, was %q", now, keyID)
						}
						old := tf.upstream("GET", base+"/api-key/"+keyID, nil, http.StatusOK)
						if old["replaced_by"] == "" || old["expires_at"] == nil {
							return fmt.Errorf("the old key after its rotation: %v", old)
						}
						return nil
					},
					check(func() error {
						d := tf.upstream("GET", base+"/topic/"+topic, nil, http.StatusOK)
						if d["partitions_count"] != 6.0 || d["config"].(map[string]any)["retention.ms"] != "172800000" {
							return fmt.Errorf("the topic upstream: %v", d)
						}
						c := tf.upstream("GET", base+"/connector/tf-feed-"+sfx+"?show_config=true", nil, http.StatusOK)
						if c["config"].(map[string]any)["quickstart"] != "USERS" || c["auto_restart"].(map[string]any)["max_restarts"] != 5.0 {
							return fmt.Errorf("the connector upstream: %v", c)
						}
						if pools := tf.upstream("GET", base+"/identity-pools?search=tf-ci-"+sfx, nil, http.StatusOK)["items"].([]any); len(pools) != 1 ||
							!strings.Contains(pools[0].(map[string]any)["filter"].(string), `startsWith("ci-scada-")`) {
							return fmt.Errorf("the pool: %v", pools)
						}
						if acc := tf.upstream("GET", base+"/service-accounts?search=tf-app-"+sfx, nil, http.StatusOK)["items"].([]any); len(acc) != 1 ||
							acc[0].(map[string]any)["description"] != "Orders, described again" {
							return fmt.Errorf("the account: %v", acc)
						}
						return nil
					}),
				),
			},
			{
				// The owner approves the grant: the next plan reads it active.
				PreConfig: func() {
					id := ""
					for _, g := range tf.upstream("GET", "/api/v1/crm/dev/grants?side=given&page_size=1000", nil, http.StatusOK)["items"].([]any) {
						if g := g.(map[string]any); strings.Contains(g["reason"].(string), sfx) && g["state"] == "requested" {
							id = g["id"].(string)
						}
					}
					if id == "" {
						t.Fatal("crm was not asked for the grant")
					}
					r := tf.call("POST", "/api/v1/crm/dev/grant/"+id+"/approve", "alice", map[string]string{"comment": "fine"})
					if r.status != http.StatusOK {
						t.Fatalf("approving: %d %s", r.status, r.body)
					}
				},
				Config: config(6, "172800000", "Orders, described again", `claims.aud == "confluent" && claims.sub.startsWith("ci-scada-")`, "two", "120"),
				Check:  resource.TestCheckResourceAttr("portal_grant.customers", "state", "active"),
			},
		},
	})
}

// TestTerraformRefusals: the portal's refusals reach Terraform as
// diagnostics, and a plan's at plan time: a guardrail policy at the
// attribute it names, a budget at the resource that takes the unit over
// (whichever of three new topics is planned third, with room for two), a Developer in a
// read-only stage with the change-request path (and, with
// change_requests, the change filed as a request whose id the apply
// names), a Viewer's role.
func TestTerraformRefusals(t *testing.T) {
	t.Parallel()
	tf := startTerraformPortal(t)
	sfx := suffix()
	policy := map[string]any{"landing_zone": "edh-shared", "kind": "Topic", "stages": []string{"dev"}, "expression": "resource.partitions <= 6",
		"message": "at most 6 partitions in dev, not ${resource.partitions}", "field": "partitions_count", "action": "enforce"}
	tf.upstream("PUT", "/api/v1/admin/policy/tf-small-"+sfx, policy, http.StatusCreated)
	t.Cleanup(func() { tf.call("DELETE", "/api/v1/admin/policy/tf-small-"+sfx, "frank", nil) })
	topics := 0
	for _, l := range tf.upstream("GET", "/api/v1/scada/dev/budget", nil, http.StatusOK)["budgets"].([]any) {
		if l := l.(map[string]any); l["dimension"] == "topics" {
			topics = int(l["use"].(float64))
		}
	}
	noTopic := func(name string) resource.TestCheckFunc {
		return check(func() error {
			for _, stage := range []string{"dev", "run"} {
				if r := tf.call("GET", "/api/v1/scada/"+stage+"/topic/"+name, "frank", nil); r.status != http.StatusNotFound {
					return fmt.Errorf("%s/%s was made: %d", stage, name, r.status)
				}
			}
			return nil
		})
	}
	topicsOf := func(n int, partitions int) string {
		out := ""
		for i := range n {
			out += fmt.Sprintf("resource \"portal_topic\" \"t%d\" {\n  name = \"tf-refused-%d-%s\"\n  partitions = %d\n}\n", i, i, sfx, partitions)
		}
		return out
	}

	resource.Test(t, resource.TestCase{
		IsUnitTest:               true,
		ProtoV6ProviderFactories: tf.factories(),
		Steps: []resource.TestStep{
			{
				// The policy answers at plan time, at partitions.
				Config: tf.provider("bob", "scada", "dev") + topicsOf(1, 8), PlanOnly: true,
				ExpectError: said("The portal refuses this change", "POLICY_VIOLATION", "partitions = 8", "at most 6 partitions in dev, not 8"),
			},
			{
				// A budget with room for two topics refuses the third.
				PreConfig: func() {
					tf.upstream("PUT", "/api/v1/admin/budget/scada/dev", map[string]any{"limits": map[string]int{"topics": topics + 2}}, http.StatusOK)
					t.Cleanup(func() {
						tf.call("PUT", "/api/v1/admin/budget/scada/dev", "frank", map[string]any{"limits": map[string]int{}})
					})
				},
				Config: tf.provider("bob", "scada", "dev") + topicsOf(3, 1), PlanOnly: true,
				ExpectError: said("BUDGET_EXCEEDED", `resource "portal_topic" "t`, fmt.Sprintf("%d in use, this change would make it %d, the limit is %d", topics+2, topics+3, topics+2)),
				Check:       noTopic("tf-refused-0-" + sfx),
			},
			{
				// A Viewer may not make topics.
				Config: tf.provider("dave", "scada", "dev") + topicsOf(1, 1), PlanOnly: true,
				ExpectError: said("INSUFFICIENT_ROLE"),
			},
			{
				// A Developer in a read-only stage is told how to ask.
				Config: tf.provider("carol", "scada", "run") + topicsOf(1, 1), PlanOnly: true,
				ExpectError: said("READ_ONLY_ENVIRONMENT", "run", "file the change as a change request (POST /api/v1/{bu}/{stage}/change-requests"),
			},
			{
				// ... and with change_requests the apply files the change.
				Config:      tf.provider("carol", "scada", "run", "change_requests = true") + topicsOf(1, 1),
				ExpectError: said("Filed as change request cr-", "waits for an Admin of scada"),
				Check:       noTopic("tf-refused-0-" + sfx),
			},
		},
	})
	var filed []any
	for _, cr := range tf.upstream("GET", "/api/v1/scada/run/change-requests", nil, http.StatusOK)["items"].([]any) {
		if cr := cr.(map[string]any); cr["requester"] == "carol" && strings.Contains(fmt.Sprint(cr), "tf-refused-0-"+sfx) {
			filed = append(filed, cr)
			tf.call("POST", "/api/v1/scada/run/change-request/"+cr["id"].(string)+"/withdraw", "carol", nil)
		}
	}
	if len(filed) != 1 || filed[0].(map[string]any)["state"] != "open" {
		t.Errorf("the change request carol's apply filed: %v", filed)
	}
	for _, stage := range []string{"dev", "run"} {
		if r := tf.call("GET", "/api/v1/scada/"+stage+"/topic/tf-refused-0-"+sfx, "frank", nil); r.status != http.StatusNotFound {
			t.Errorf("a refused topic was made in %s: %d", stage, r.status)
		}
	}
}

// TestTerraformImportAdoptsWhatExists: resources made in the portal (by
// a person, by portalctl) imported by their item paths, then planned
// with their configuration: nothing to change, nothing replaced (an API
// key's Terraform-only settings are recorded in place, the key kept).
func TestTerraformImportAdoptsWhatExists(t *testing.T) {
	t.Parallel()
	tf := startTerraformPortal(t)
	sfx := suffix()
	base := "/api/v1/scada/dev"
	tf.upstream("POST", base+"/topic", map[string]any{"name": "adopted-" + sfx, "partitions_count": 2, "config": map[string]string{"retention.ms": "3600000"}}, http.StatusCreated)
	tf.upstream("PUT", base+"/topic/adopted-"+sfx+"/catalog", map[string]any{"description": "made by hand", "owner_contact": "", "tags": []string{"adopted"}, "classification": ""}, http.StatusOK)
	acc := tf.upstream("POST", base+"/service-account", map[string]any{"name": "adopted-" + sfx, "type": "consumer", "description": "by hand"}, http.StatusCreated)
	key := tf.upstream("POST", base+"/service-account/"+acc["id"].(string)+"/api-keys", map[string]any{"resource": "kafka", "description": "by hand"}, http.StatusCreated)
	grant := tf.call("POST", base+"/grants", "bob", map[string]any{"owner": "crm", "topic": "customers", "access": "read", "principal": acc["id"], "reason": "adopted " + sfx, "duration": "7d"})
	if grant.status != http.StatusCreated {
		t.Fatalf("the grant: %d %s", grant.status, grant.body)
	}
	grantID := grant.json(t)["id"].(string)
	tf.upstream("PUT", base+"/alert-rule/adopted-"+sfx, map[string]any{"kind": "stalled", "target": "g-" + sfx, "for_seconds": 600}, http.StatusOK)

	config := tf.provider("bob", "scada", "dev") + fmt.Sprintf(`
resource "portal_topic" "t" {
  name        = "adopted-%[1]s"
  partitions  = 2
  config      = { "retention.ms" = "3600000" }
  description = "made by hand"
  tags        = ["adopted"]
}
resource "portal_service_account" "a" {
  name        = "adopted-%[1]s"
  type        = "consumer"
  description = "by hand"
}
resource "portal_api_key" "k" {
  service_account_id = portal_service_account.a.account_id
  resource           = "kafka"
  description        = "by hand"
  rotation           = "one"
}
resource "portal_grant" "g" {
  owner     = "crm"
  topic     = "customers"
  access    = "read"
  principal = portal_service_account.a.account_id
  reason    = "adopted %[1]s"
  duration  = "7d"
}
resource "portal_alert_rule" "r" {
  name   = "adopted-%[1]s"
  kind   = "stalled"
  target = "g-%[1]s"
  for    = "10m"
}
`, sfx)
	imported := func(name, id string) resource.TestStep {
		return resource.TestStep{Config: config, ResourceName: name, ImportState: true, ImportStateId: id, ImportStatePersist: true}
	}
	resource.Test(t, resource.TestCase{
		IsUnitTest:               true,
		ProtoV6ProviderFactories: tf.factories(),
		Steps: []resource.TestStep{
			imported("portal_topic.t", "scada/dev/adopted-"+sfx),
			imported("portal_service_account.a", "scada/dev/adopted-"+sfx),
			imported("portal_api_key.k", "scada/dev/"+key["id"].(string)),
			imported("portal_grant.g", "scada/dev/"+grantID),
			imported("portal_alert_rule.r", "scada/dev/adopted-"+sfx),
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("portal_topic.t", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("portal_service_account.a", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("portal_grant.g", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("portal_alert_rule.r", plancheck.ResourceActionNoop),
					plancheck.ExpectResourceAction("portal_api_key.k", plancheck.ResourceActionUpdate),
				}},
				Check: resource.TestCheckResourceAttr("portal_api_key.k", "key_id", key["id"].(string)),
			},
		},
	})
}
