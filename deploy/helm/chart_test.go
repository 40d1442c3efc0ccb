// Package helm holds the portal's Helm chart (portal/) and the test that
// renders it with Helm itself.
package helm

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/config"
)

// helmModule is the Helm that renders the chart, run through go run.
const helmModule = "helm.sh/helm/v3/cmd/helm@v3.22.0"

// render runs helm template with extra arguments; it returns the
// manifests by kind and name, or Helm's error output.
func render(t *testing.T, args ...string) (map[string]map[string]any, error) {
	t.Helper()
	if testing.Short() {
		t.Skip("short: Helm runs through go run")
	}
	// Kubernetes 1.30, the chart's least (kubeVersion).
	cmd := exec.Command("go", append([]string{"run", helmModule, "template", "rms", "portal", "--kube-version", "1.30.0"}, args...)...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, errors.New(stderr.String())
	}
	docs := map[string]map[string]any{}
	dec := yaml.NewDecoder(&out)
	for {
		var m map[string]any
		err := dec.Decode(&m)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("rendered YAML: %v", err)
		}
		if m == nil {
			continue
		}
		meta, _ := m["metadata"].(map[string]any)
		docs[m["kind"].(string)+"/"+meta["name"].(string)] = m
	}
	return docs, nil
}

// dig walks maps and lists ("spec", "template", 0 ...).
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// secretEnv are the variables that carry secrets.
var secretEnv = map[string]bool{"RMS_SESSION_KEYS": true, "DATABASE_URL": true, "RMS_CLOUD_API_KEY": true,
	"RMS_CLOUD_API_SECRET": true, "RMS_OIDC_CLIENT_SECRET": true, "RMS_METRICS_BEARER_TOKEN": true,
	"EDH_DEV_KAFKA_KEY": true, "EDH_DEV_KAFKA_SECRET": true, "EDH_RUN_KAFKA_KEY": true, "EDH_RUN_KAFKA_SECRET": true}

// TestChartRenders renders the chart with its defaults and checks the
// deployment: probes, a non-root read-only container, secrets only by
// reference, and a configuration the portal itself accepts.
func TestChartRenders(t *testing.T) {
	docs, err := render(t)
	if err != nil {
		t.Fatalf("helm template: %s", err)
	}
	for _, want := range []string{"Deployment/rms-portal", "Service/rms-portal", "ConfigMap/rms-portal", "PodDisruptionBudget/rms-portal", "ServiceAccount/rms-portal"} {
		if docs[want] == nil {
			t.Errorf("no %s among %v", want, keys(docs))
		}
	}
	for k := range docs {
		if strings.HasPrefix(k, "Secret/") {
			t.Errorf("the chart creates %s: secrets must come from existing Secrets", k)
		}
	}
	dep := docs["Deployment/rms-portal"]
	pod := dig(dep, "spec", "template", "spec")
	c := dig(pod, "containers", 0)
	if got := dig(c, "livenessProbe", "httpGet", "path"); got != "/healthz" {
		t.Errorf("liveness probe %v", got)
	}
	if got := dig(c, "readinessProbe", "httpGet", "path"); got != "/readyz" {
		t.Errorf("readiness probe %v", got)
	}
	if dig(pod, "securityContext", "runAsNonRoot") != true || dig(pod, "securityContext", "runAsUser") != 65532 {
		t.Errorf("pod security context %v", dig(pod, "securityContext"))
	}
	if dig(c, "securityContext", "readOnlyRootFilesystem") != true || dig(c, "securityContext", "allowPrivilegeEscalation") != false ||
		dig(c, "securityContext", "runAsNonRoot") != true {
		t.Errorf("container security context %v", dig(c, "securityContext"))
	}
	if dig(c, "resources", "requests", "cpu") == nil || dig(c, "resources", "requests", "memory") == nil {
		t.Errorf("no resource requests: %v", dig(c, "resources"))
	}
	seen := map[string]bool{}
	env, _ := dig(c, "env").([]any)
	for _, e := range env {
		name, _ := dig(e, "name").(string)
		if !secretEnv[name] {
			continue
		}
		seen[name] = true
		if dig(e, "value") != nil || dig(e, "valueFrom", "secretKeyRef", "name") == nil {
			t.Errorf("%s is not taken from a Secret: %v", name, e)
		}
	}
	for _, name := range []string{"RMS_SESSION_KEYS", "DATABASE_URL", "EDH_DEV_KAFKA_SECRET"} {
		if !seen[name] {
			t.Errorf("%s is not given to the container", name)
		}
	}

	// The rendered configuration is one the portal accepts, with the
	// variables the Secrets would give.
	data, _ := dig(docs["ConfigMap/rms-portal"], "data", "config.yaml").(string)
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, func(name string) string {
		switch name {
		case "RMS_SESSION_KEYS":
			return strings.Repeat("k", 40)
		case "DATABASE_URL":
			return "postgres://portal@db:5432/portal"
		}
		if secretEnv[name] {
			return "from-a-secret"
		}
		return ""
	})
	if err != nil {
		t.Fatalf("the portal refuses the rendered configuration: %v", err)
	}
	if cfg.Listen != ":8080" || cfg.Metrics.Listen != ":9090" || cfg.BaseURL != "https://portal.example.com" {
		t.Errorf("listen %q, metrics %q, base URL %q", cfg.Listen, cfg.Metrics.Listen, cfg.BaseURL)
	}
	if len(cfg.Unknown) > 0 {
		t.Errorf("the rendered configuration has keys the portal does not know: %v", cfg.Unknown)
	}
	// A rolling update fails no request: the pod pauses before SIGTERM
	// while it leaves the endpoints, then drains, and Kubernetes waits
	// for all of it.
	if got := dig(c, "lifecycle", "preStop", "sleep", "seconds"); got != 5 {
		t.Errorf("preStop %v", dig(c, "lifecycle"))
	}
	if cfg.Shutdown.Drain.Seconds() != 10 || cfg.Shutdown.Grace.Seconds() != 20 {
		t.Errorf("shutdown %+v", cfg.Shutdown)
	}
	if got := dig(pod, "terminationGracePeriodSeconds"); got != 40 {
		t.Errorf("terminationGracePeriodSeconds %v, want preStop + drain + grace + 5 = 40", got)
	}
}

// TestChartOptions turns on the optional parts (ingress, autoscaling, a
// ServiceMonitor) and checks that literal secrets in the configuration are
// refused.
func TestChartOptions(t *testing.T) {
	docs, err := render(t, "--set", "ingress.enabled=true", "--set", "autoscaling.enabled=true",
		"--set", "metrics.serviceMonitor.enabled=true", "--set", "metrics.serviceMonitor.bearerTokenSecret.name=rms-portal",
		"--set", "metrics.serviceMonitor.bearerTokenSecret.key=metrics-token", "--set", "secrets.keys.RMS_METRICS_BEARER_TOKEN=metrics-token",
		"--set", "metrics.prometheusRule.enabled=true", "--set", "metrics.grafanaDashboard.enabled=true")
	if err != nil {
		t.Fatalf("helm template: %s", err)
	}
	if got := dig(docs["Ingress/rms-portal"], "spec", "rules", 0, "host"); got != "portal.example.com" {
		t.Errorf("ingress host %v", got)
	}
	if got := dig(docs["HorizontalPodAutoscaler/rms-portal"], "spec", "minReplicas"); got != 2 {
		t.Errorf("autoscaler %v", got)
	}
	if dig(docs["Deployment/rms-portal"], "spec", "replicas") != nil {
		t.Error("the deployment fixes replicas while the autoscaler owns them")
	}
	sm := docs["ServiceMonitor/rms-portal"]
	if dig(sm, "spec", "endpoints", 0, "port") != "metrics" || dig(sm, "spec", "endpoints", 0, "authorization", "credentials", "key") != "metrics-token" {
		t.Errorf("service monitor %v", dig(sm, "spec"))
	}

	if got := dig(docs["PrometheusRule/rms-portal"], "spec", "groups", 0, "rules", 0, "alert"); got != "RMSPortalHighErrorRate" {
		t.Errorf("alert rules: first alert %v", got)
	}
	if got, _ := dig(docs["ConfigMap/rms-portal-dashboard"], "data", "rms-portal.json").(string); !strings.Contains(got, `"uid": "rms-portal"`) {
		t.Errorf("dashboard ConfigMap holds %.80q", got)
	}

	for _, c := range []struct{ set, want string }{
		{"config.confluent_cloud.api_secret=hunter2-literal", "config.api_secret holds a literal value"},
		{"config.identity.client_secret=s3cret-literal", "config.client_secret holds a literal value"},
		{"config.session.keys[0]=0123456789abcdef0123456789abcdef-literal", "config.session.keys holds a literal key"},
		{"config.database.url=postgres://portal:hunter2@db:5432/portal", "config.database.url holds a password"},
	} {
		_, err := render(t, "--set", c.set)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s: %v, want a refusal naming %q", c.set, err, c.want)
		}
	}
	if _, err := render(t, "--set", "config.confluent_cloud.api_secret=${CLOUD_SECRET}"); err != nil {
		t.Errorf("a ${NAME} reference is refused: %v", err)
	}
	if _, err := render(t, "--set", "config.database.url=postgres://portal:${DB_PASSWORD}@db:5432/portal"); err != nil {
		t.Errorf("a database password as ${NAME} is refused: %v", err)
	}
	if _, err := exec.Command("go", "run", helmModule, "template", "rms", "portal", "--kube-version", "1.29.0").CombinedOutput(); err == nil {
		t.Error("the chart renders for Kubernetes 1.29, which lacks the preStop sleep")
	}
}

func keys(m map[string]map[string]any) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

// TestChartFitsRealClusters renders each option a platform team sets and
// checks what it gives: private CAs through extra volumes, mounts, init
// containers and environment; spread across zones and nodes by default;
// a disruption budget that never blocks a drain with one replica; a
// network policy; a Gateway API route; probes, Service annotations and
// revision history; the migration job; the dashboard for the sidecar;
// and the schema's refusals.
func TestChartFitsRealClusters(t *testing.T) {
	docs, err := render(t, "-f", "testdata/production.yaml")
	if err != nil {
		t.Fatalf("helm template: %s", err)
	}
	dep := docs["Deployment/rms-portal"]
	pod := dig(dep, "spec", "template", "spec")
	c := dig(pod, "containers", 0)
	if dig(dep, "spec", "revisionHistoryLimit") != 3 {
		t.Errorf("revisionHistoryLimit %v", dig(dep, "spec", "revisionHistoryLimit"))
	}
	if dig(pod, "initContainers", 0, "name") != "fetch-ca" || dig(pod, "volumes", 2, "name") != "company-ca" ||
		dig(c, "volumeMounts", 2, "mountPath") != "/etc/ssl/company" {
		t.Errorf("init containers, volumes and mounts: %v / %v / %v", dig(pod, "initContainers"), dig(pod, "volumes"), dig(c, "volumeMounts"))
	}
	env := map[string]bool{}
	for _, e := range dig(c, "env").([]any) {
		env[e.(map[string]any)["name"].(string)] = true
	}
	if !env["SSL_CERT_FILE"] || !env["POD_NAME"] || dig(c, "envFrom", 0, "configMapRef", "name") != "proxy-settings" {
		t.Errorf("extra environment: %v, envFrom %v", env, dig(c, "envFrom"))
	}
	if dig(c, "readinessProbe", "periodSeconds") != 7 || dig(c, "startupProbe", "failureThreshold") != 150 || dig(c, "readinessProbe", "httpGet", "path") != "/readyz" {
		t.Errorf("probes: %v / %v", dig(c, "readinessProbe"), dig(c, "startupProbe"))
	}
	if dig(docs["Service/rms-portal"], "metadata", "annotations", "service.beta.kubernetes.io/azure-load-balancer-internal") != "true" {
		t.Errorf("service annotations %v", dig(docs["Service/rms-portal"], "metadata"))
	}
	np := docs["NetworkPolicy/rms-portal"]
	if dig(np, "spec", "ingress", 0, "from", 0, "namespaceSelector", "matchLabels", "kubernetes.io/metadata.name") != "ingress-nginx" ||
		dig(np, "spec", "ingress", 1, "ports", 0, "port") != "metrics" {
		t.Errorf("network policy %v", dig(np, "spec"))
	}
	route := docs["HTTPRoute/rms-portal"]
	if dig(route, "spec", "parentRefs", 0, "name") != "public" || dig(route, "spec", "hostnames", 0) != "portal.example.com" ||
		dig(route, "spec", "rules", 0, "backendRefs", 0, "name") != "rms-portal" {
		t.Errorf("HTTPRoute %v", dig(route, "spec"))
	}
	job := docs["Job/rms-portal-migrate"]
	if dig(job, "metadata", "annotations", "helm.sh/hook") != "pre-install,pre-upgrade" ||
		strings.Join(toStrings(dig(job, "spec", "template", "spec", "containers", 0, "args")), " ") != "migrate --config /etc/portal/config.yaml" ||
		dig(job, "spec", "template", "spec", "volumes", 0, "configMap", "name") != "rms-portal-migrate" {
		t.Errorf("migration job %v", dig(job, "spec"))
	}
	if docs["ConfigMap/rms-portal-migrate"] == nil {
		t.Error("the migration job has no configuration")
	}
	// On a first install the release's ServiceAccount does not exist yet
	// when the job runs: the job has its own, made as an earlier hook;
	// and the job's pod is none of the portal's (Service, budget, policy).
	sa := docs["ServiceAccount/rms-portal-migrate"]
	if dig(job, "spec", "template", "spec", "serviceAccountName") != "rms-portal-migrate" ||
		dig(sa, "metadata", "annotations", "helm.sh/hook") != "pre-install,pre-upgrade" || dig(sa, "metadata", "annotations", "helm.sh/hook-weight") != "-10" {
		t.Errorf("the job's service account: %v / %v", dig(job, "spec", "template", "spec", "serviceAccountName"), dig(sa, "metadata"))
	}
	selector := dig(docs["PodDisruptionBudget/rms-portal"], "spec", "selector", "matchLabels").(map[string]any)
	jobLabels := dig(job, "spec", "template", "metadata", "labels").(map[string]any)
	matches := true
	for k, v := range selector {
		matches = matches && jobLabels[k] == v
	}
	if matches {
		t.Errorf("the portal's selector %v selects the job's pod %v", selector, jobLabels)
	}
	dash := docs["ConfigMap/rms-portal-dashboard"]
	body, _ := dig(dash, "data", "rms-portal.json").(string)
	if dig(dash, "metadata", "labels", "grafana_dashboard") != "yes" || dig(dash, "metadata", "annotations", "grafana_folder") != "Kafka" ||
		strings.Contains(body, "__inputs") || !strings.Contains(body, `"type": "datasource"`) || !strings.Contains(body, "${datasource}") {
		t.Errorf("dashboard for the sidecar: %v %.200s", dig(dash, "metadata"), body)
	}

	// Defaults: spread across zones and nodes; one replica never blocks a
	// drain, two keep one.
	docs, err = render(t, "--set", "replicaCount=1")
	if err != nil {
		t.Fatal(err)
	}
	spread := dig(docs["Deployment/rms-portal"], "spec", "template", "spec", "topologySpreadConstraints")
	if dig(spread, 0, "topologyKey") != "topology.kubernetes.io/zone" || dig(spread, 1, "topologyKey") != "kubernetes.io/hostname" ||
		dig(spread, 0, "whenUnsatisfiable") != "ScheduleAnyway" {
		t.Errorf("default spread %v", spread)
	}
	if pdb := dig(docs["PodDisruptionBudget/rms-portal"], "spec"); dig(pdb, "maxUnavailable") != 1 || dig(pdb, "minAvailable") != nil {
		t.Errorf("one replica's budget %v", pdb)
	}
	docs, err = render(t, "--set", "podDisruptionBudget.minAvailable=1")
	if err != nil {
		t.Fatal(err)
	}
	if pdb := dig(docs["PodDisruptionBudget/rms-portal"], "spec"); dig(pdb, "minAvailable") != 1 {
		t.Errorf("two replicas' budget %v", pdb)
	}
	if docs["NetworkPolicy/rms-portal"] != nil || docs["HTTPRoute/rms-portal"] != nil || docs["Job/rms-portal-migrate"] != nil {
		t.Error("optional resources render by default")
	}

	for _, c := range []struct{ set, want string }{
		{"replicaCount=two", "/replicaCount"},
		{"service.port=0", "/service/port"},
		{"image.digest=latest", "/image/digest"},
		{"probes.readiness.periodSeconds=0", "/probes/readiness/periodSeconds"},
		{"replicaCout=2", "replicaCout"},
		{"httpRoute.enabled=true", "httpRoute.parentRefs"},
	} {
		if _, err := render(t, "--set", c.set); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s: %v, want a refusal naming %s", c.set, err, c.want)
		}
	}
}

func toStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		out = append(out, x.(string))
	}
	return out
}

// TestChartTakesWhatUsersAdd renders the options users of other Kafka
// UIs' charts look for (testdata/options.yaml) and checks that each lands
// where Kubernetes reads it; then the configuration from an existing
// Secret, and the schema's refusals of malformed ones.
func TestChartTakesWhatUsersAdd(t *testing.T) {
	docs, err := render(t, "-f", "testdata/options.yaml")
	if err != nil {
		t.Fatalf("helm template: %s", err)
	}
	dep := docs["Deployment/rms-portal"]
	pod := dig(dep, "spec", "template", "spec")
	if got := dig(pod, "containers", 0, "image"); got != "registry.example.com/mirror/ghcr.io/edh-platform/rms-portal:"+appVersion(t) {
		t.Errorf("image %v", got)
	}
	if dig(pod, "containers", 1, "name") != "auth-proxy" || dig(pod, "hostAliases", 0, "hostnames", 1) != "kafka-2.internal" {
		t.Errorf("sidecar and host aliases: %v / %v", dig(pod, "containers"), dig(pod, "hostAliases"))
	}
	for kind, want := range map[string]map[string]string{
		"Deployment/rms-portal":    {"team": "platform", "tier": "portal"},
		"ConfigMap/rms-portal":     {"team": "platform", "config": "portal"},
		"Service/rms-portal":       {"team": "platform", "exposure": "internal"},
		"Ingress/rms-portal":       {"team": "platform", "public": "yes"},
		"NetworkPolicy/rms-portal": {"team": "platform"},
	} {
		for k, v := range want {
			if got := dig(docs[kind], "metadata", "labels", k); got != v {
				t.Errorf("%s label %s = %v, want %s", kind, k, got, v)
			}
		}
	}
	if dig(dep, "metadata", "annotations", "reloader.stakater.com/auto") != "true" ||
		dig(docs["ConfigMap/rms-portal"], "metadata", "annotations", "owner") != "platform-team" {
		t.Errorf("annotations: %v / %v", dig(dep, "metadata"), dig(docs["ConfigMap/rms-portal"], "metadata"))
	}
	c := dig(pod, "containers", 0)
	if dig(c, "readinessProbe", "initialDelaySeconds") != 5 || dig(c, "livenessProbe", "initialDelaySeconds") != 15 ||
		dig(c, "livenessProbe", "httpGet", "path") != "/healthz" || dig(c, "readinessProbe", "path") != nil {
		t.Errorf("probes: %v / %v", dig(c, "readinessProbe"), dig(c, "livenessProbe"))
	}
	rules := dig(docs["Ingress/rms-portal"], "spec", "rules")
	if dig(rules, 1, "host") != "kafka.example.com" || dig(rules, 1, "http", "paths", 1, "path") != "/api/v1" ||
		dig(rules, 1, "http", "paths", 1, "pathType") != "ImplementationSpecific" || dig(rules, 0, "http", "paths", 0, "backend", "service", "name") != "rms-portal" {
		t.Errorf("ingress rules %v", rules)
	}
	np := dig(docs["NetworkPolicy/rms-portal"], "spec")
	if strings.Join(toStrings(dig(np, "policyTypes")), ",") != "Ingress,Egress" || dig(np, "egress", 0, "ports", 0, "port") != 53 ||
		dig(np, "egress", 2, "to", 0, "ipBlock", "except", 0) != "169.254.169.254/32" {
		t.Errorf("egress %v", np)
	}

	// The configuration from an existing Secret: no ConfigMap of the
	// chart's, the pods and the migration job mount the Secret's key.
	docs, err = render(t, "--set", "existingConfig.secret=portal-config", "--set", "existingConfig.key=portal.yaml", "--set", "migrations.job=true")
	if err != nil {
		t.Fatalf("helm template: %s", err)
	}
	if docs["ConfigMap/rms-portal"] != nil || docs["ConfigMap/rms-portal-migrate"] != nil {
		t.Error("a ConfigMap is rendered beside the existing configuration")
	}
	for _, kind := range []string{"Deployment/rms-portal", "Job/rms-portal-migrate"} {
		vol := dig(docs[kind], "spec", "template", "spec", "volumes", 0)
		if dig(vol, "secret", "secretName") != "portal-config" || dig(vol, "secret", "items", 0, "key") != "portal.yaml" ||
			dig(vol, "secret", "items", 0, "path") != "config.yaml" {
			t.Errorf("%s config volume %v", kind, vol)
		}
	}
	if dig(docs["Deployment/rms-portal"], "spec", "template", "metadata", "annotations", "checksum/config") != nil {
		t.Error("a checksum of a configuration the chart does not render")
	}

	for _, c := range []struct{ set, want string }{
		{"ingress.hosts[0].paths[0].pathType=Wildcard", "pathType"},
		{"probes.readiness.path=readyz", "/probes/readiness/path"},
		{"hostAliases[0].ip=10.0.0.1", "hostnames"},
		{"extraContainers[0].image=busybox", "name"},
	} {
		if _, err := render(t, "--set", c.set); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s: %v, want a refusal naming %s", c.set, err, c.want)
		}
	}
}

// appVersion is the chart's appVersion, the image's default tag.
func appVersion(t *testing.T) string {
	raw, err := os.ReadFile("portal/Chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		AppVersion string `yaml:"appVersion"`
	}
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return c.AppVersion
}
