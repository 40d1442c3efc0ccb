package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/config"
)

// devSessionKey reads the dev session key kept in dir, creating it on
// first use, so that a dev portal started again with the same --data
// keeps everyone signed in.
func devSessionKey(dir string) (string, error) {
	path := filepath.Join(dir, "session.key")
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	key := hex.EncodeToString(b)
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return "", err
	}
	return key, nil
}

// writeServeConfig writes a production configuration whose upstreams are
// this dev instance: its identity provider, its Kafka brokers, its Cloud
// API stand-in and its Schema Registries, with the dev secrets inline.
// Replicas run with it as `DATABASE_URL=... PORT=... BASE_URL=... portal
// serve --config FILE`.
func writeServeConfig(p *app, path string) error {
	cfg := p.cfg
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	q := strconv.Quote
	var b strings.Builder
	fmt.Fprintf(&b, `# A serve configuration that uses the dev instance at %s as its platform.
# Written by: portal dev --write-serve-config. Run replicas with
#   DATABASE_URL=postgres://... PORT=8081 BASE_URL=http://127.0.0.1:8081 portal serve --config %s
mode: production
listen: ":8081"
base_url: http://127.0.0.1:8081
platform_admin_group: %s
upstream_timeout: %s
metadata_cache_ttl: %s
metadata_max_staleness: %s

identity:
  issuer: %s
  client_id: %s
  audience: %s

session:
  # Every replica needs the same keys.
  keys: [%s]
  max_age: %s

rate_limits:
  cloud_writes_per_unit: {per_second: %g, burst: %d}
  cloud_writes: {per_second: %g, burst: %d}

confluent_cloud:
  organization_id: org-dev
  url: %s
  metrics_url: %s
  api_key: %s
  api_secret: %s

stages:
`, cfg.BaseURL, filepath.Base(path), q(cfg.PlatformAdminGroup), cfg.UpstreamTimeout, cfg.MetadataCacheTTL, cfg.MetadataMaxStaleness,
		q(issuerOf(cfg)), q(cfg.Identity.ClientID), q(cfg.Identity.Audience), q(hex.EncodeToString(key)), cfg.Session.MaxAge,
		cfg.RateLimits.CloudWritesPerUnit.PerSecond, cfg.RateLimits.CloudWritesPerUnit.Burst,
		cfg.RateLimits.CloudWrites.PerSecond, cfg.RateLimits.CloudWrites.Burst,
		q(cfg.BaseURL+devCloudPath), q(cfg.BaseURL+devCloudPath), q(devCloudKey), q(devCloudSecret))
	for _, s := range cfg.Stages {
		fmt.Fprintf(&b, "  - {name: %s, read_only: %v, data_access: %s}\n", s.Name, s.ReadOnly, s.DataAccess)
	}
	b.WriteString("\nlanding_zones:\n")
	for _, z := range cfg.LandingZones {
		fmt.Fprintf(&b, "  - id: %s\n    dedicated: %v\n", z.ID, z.Dedicated)
		if z.MainBU != "" {
			fmt.Fprintf(&b, "    main_bu: %s\n", z.MainBU)
		}
		fmt.Fprintf(&b, "    super_admin_groups: %s\n    environments:\n", yamlList(z.SuperAdminGroups))
		for _, s := range cfg.Stages {
			name := z.ID + "/" + s.Name
			cl := p.clusters[name]
			if cl == nil {
				return fmt.Errorf("no embedded cluster for %s", name)
			}
			envID, clusterID, registryID, providerID := devIDs(z.ID, s.Name)
			fmt.Fprintf(&b, "      %s:\n        kafka: {bootstrap_servers: %s, security_protocol: PLAINTEXT}\n", s.Name, q(cl.Addr()))
			fmt.Fprintf(&b, "        environment_id: %s\n        kafka_cluster_id: %s\n        identity_provider_id: %s\n", envID, clusterID, providerID)
			fmt.Fprintf(&b, "        schema_registry: {url: %s, cluster_id: %s}\n", q(p.registries[name]), registryID)
		}
		b.WriteString("    business_units:\n")
		for _, u := range z.BusinessUnits {
			fmt.Fprintf(&b, "      - id: %s\n", u.ID)
			if g := u.Groups; len(g.Admin)+len(g.Developer)+len(g.Viewer) > 0 {
				fmt.Fprintf(&b, "        groups: {admin: %s, developer: %s, viewer: %s}\n", yamlList(g.Admin), yamlList(g.Developer), yamlList(g.Viewer))
			}
		}
	}
	// The file must load as a serve configuration, given a database.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return err
	}
	if _, err := config.Load(tmp, func(k string) string {
		if k == "DATABASE_URL" {
			return "postgres://check@localhost/check"
		}
		return ""
	}); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("the serve configuration would not load: %w", err)
	}
	return os.Rename(tmp, path)
}

func yamlList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}
