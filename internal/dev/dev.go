// Package dev is dev mode: the platform a portal runs on when everything
// is embedded. It starts Kafka-protocol clusters (franz-go's kfake) per
// landing zone and stage, Schema Registries, the Confluent Cloud stand-in
// and the development identity provider, and rewrites the configuration
// so that the portal reaches them exactly as a deployment reaches its own
// platform (bootstrap addresses with SASL credentials, registry URLs, a
// Cloud API URL with a key). It also seeds the demo data and writes serve
// configurations for replicas. Only cmd/portal's dev wiring imports it,
// and the image's binary is built without it.
package dev

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/dev/cloud"
	"github.com/edh-platform/rms-portal/internal/dev/clusters"
	"github.com/edh-platform/rms-portal/internal/dev/idp"
	"github.com/edh-platform/rms-portal/internal/dev/registry"
)

// Where dev mode serves its stand-ins, and the stand-in's Cloud API key.
const (
	CloudPath   = "/dev/cloud"
	cloudKey    = "DEVCLOUDKEY"
	cloudSecret = "dev-cloud-secret"
	// iamLatency is how long each IAM write of the stand-in takes:
	// Confluent Cloud's take tens to hundreds of milliseconds, so that
	// progress shows.
	iamLatency = 15 * time.Millisecond
)

// Platform is what dev mode started for one portal.
type Platform struct {
	// Clusters and Watched are the embedded clusters and what they do
	// (for the Metrics API stand-in), by environment ("zone/stage").
	Clusters map[string]*clusters.Cluster
	Watched  map[string]*clusters.Telemetry
	// Registries are the embedded Schema Registries' URLs, by environment.
	Registries map[string]string
	// Org is the Cloud organisation's state (accounts, bindings, pools);
	// Cloud serves it, with each cluster's connectors, at CloudPath.
	Org   *cloud.Org
	Cloud *cloud.CloudAPI
	// byID are the clusters by their Cloud id, where API keys sign in;
	// registries likewise.
	byID       map[string]*clusters.Cluster
	registries map[string]*registry.Registry
	// keyDelay and bindingDelay are how long a new key and a changed
	// role binding take to work (confluent_cloud.embedded_*_delay).
	keyDelay, bindingDelay time.Duration

	// idp is the development identity provider's configuration, when the
	// configuration selected it.
	idp     *config.DevIDP
	closers []func()
}

// IDs are the stand-in's Confluent Cloud ids of an environment, so that
// role bindings read like Confluent Cloud's. One identity provider per
// stage serves every landing zone, as one organisation's would.
func IDs(zone, stage string) (environmentID, clusterID, registryID, providerID string) {
	id := zone + "-" + stage
	return "env-" + id, "lkc-" + id, "lsrc-" + id, "op-" + stage
}

// Start starts what cfg embeds and rewrites cfg to reach it: on return,
// cfg names no embedded part, and its issuer is the development identity
// provider's address under the portal's base URL (Handlers serves it).
func Start(cfg *config.Config) (_ *Platform, err error) {
	p := &Platform{Clusters: map[string]*clusters.Cluster{}, Watched: map[string]*clusters.Telemetry{},
		Registries: map[string]string{}, Org: cloud.NewOrg(), byID: map[string]*clusters.Cluster{},
		registries: map[string]*registry.Registry{}}
	defer func() {
		if err != nil {
			p.Close()
		}
	}()
	if cfg.Identity.Issuer == config.EmbeddedIssuer {
		p.idp = cfg.DevIDP
		cfg.Identity.Issuer = strings.TrimSuffix(cfg.BaseURL, "/") + idp.PathPrefix
	}
	cc := &cfg.ConfluentCloud
	if cc.Embedded {
		p.Cloud = cloud.NewCloudAPI(p.Org, cloudKey, cloudSecret)
		p.Org.SetLatency(iamLatency)
		p.keyDelay, p.bindingDelay = cc.EmbeddedKeyDelay, cc.EmbeddedBindingDelay
		cc.Embedded, cc.URL, cc.MetricsURL, cc.APIKey, cc.APISecret = false, cfg.BaseURL+CloudPath, cfg.BaseURL+CloudPath, cloudKey, cloudSecret
		cc.OrganizationID = "org-dev"
	}
	for zi := range cfg.LandingZones {
		z := &cfg.LandingZones[zi]
		for _, st := range cfg.Stages {
			name := z.ID + "/" + st.Name
			ec := z.Environments[st.Name]
			if ec.Kafka.Embedded {
				// Every client signs in, as on Confluent Cloud: the portal
				// as the cluster's admin, applications with API keys.
				admin := &clusters.Admin{User: "portal-admin", Password: randomSecret()}
				cl, err := clusters.StartCluster(name, admin)
				if err != nil {
					return nil, err
				}
				p.Clusters[name] = cl
				p.closers = append(p.closers, cl.Close)
				p.Watched[name] = cl.Watch()
				ec.Kafka = config.Kafka{BootstrapServers: cl.Addr(), SecurityProtocol: "SASL_PLAINTEXT", SASLMechanism: "PLAIN",
					APIKey: admin.User, APISecret: admin.Password, ClientSASLMechanism: "SCRAM-SHA-256"}
			}
			if ec.SchemaRegistry.Embedded {
				reg, err := registry.StartRegistry(ec.SchemaRegistry.APIKey, ec.SchemaRegistry.APISecret)
				if err != nil {
					return nil, err
				}
				p.closers = append(p.closers, reg.Close)
				ec.SchemaRegistry.Embedded, ec.SchemaRegistry.URL = false, reg.URL()
				p.Registries[name] = reg.URL()
				_, _, registryID, _ := IDs(z.ID, st.Name)
				p.registries[registryID] = reg
			}
			if p.Cloud != nil {
				envID, clusterID, registryID, providerID := IDs(z.ID, st.Name)
				connect := cloud.NewConnect()
				p.Cloud.AddCluster(envID, clusterID, connect)
				billed := cloud.Billed{EnvironmentID: envID, ClusterID: clusterID, RegistryID: registryID, Name: z.ID + "-" + st.Name,
					Dedicated: z.Dedicated, Connect: connect}
				if cl := p.Clusters[name]; cl != nil {
					p.byID[clusterID] = cl
					billed.Partitions = cl.Partitions
				}
				if t := p.Watched[name]; t != nil {
					p.Cloud.AddTelemetry(clusterID, t)
					billed.Telemetry = t
				}
				p.Cloud.AddBilled(billed)
				ec.EnvironmentID, ec.KafkaClusterID, ec.SchemaRegistry.ClusterID, ec.IdentityProviderID = envID, clusterID, registryID, providerID
			}
			z.Environments[st.Name] = ec
		}
	}
	return p, nil
}

func randomSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Run keeps what the embedded clusters do sampled for the Metrics API
// stand-in until ctx ends.
func (p *Platform) Run(ctx context.Context) {
	for _, t := range p.Watched {
		go t.Run(ctx.Done(), 5*time.Second)
	}
}

// Close stops the clusters and registries.
func (p *Platform) Close() {
	for i := len(p.closers) - 1; i >= 0; i-- {
		p.closers[i]()
	}
}

// Handlers are what the portal serves of dev mode, by path prefix: the
// identity provider and the Cloud stand-in. baseURL and audience are the
// portal's.
func (p *Platform) Handlers(baseURL, audience string, log *slog.Logger) (map[string]http.Handler, error) {
	out := map[string]http.Handler{}
	if p.idp != nil {
		prov, err := idp.New(idp.Options{BaseURL: baseURL, Audience: audience, Config: *p.idp, Logger: log})
		if err != nil {
			return nil, err
		}
		out[idp.PathPrefix] = prov
	}
	if p.Cloud != nil {
		out[CloudPath] = p.Cloud
		ka := newKeyAccess(p.Org, p.byID, p.keyDelay, p.bindingDelay, log)
		for id, reg := range p.registries {
			reg.TakeKeys(ka.registryTaken(id))
		}
		p.Org.OnChange(ka.handle)
		p.closers = append(p.closers, ka.stop)
	}
	return out, nil
}
