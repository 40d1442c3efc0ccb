package platform

import (
	"context"
	"errors"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// APIKey is a Confluent Cloud API key: the credential of a service
// account for one resource, a Kafka cluster (lkc-...) or a Schema
// Registry (lsrc-...).
type APIKey struct {
	ID          string
	Owner       string
	Resource    string
	DisplayName string
	Description string
	Created     time.Time
	// Secret is set on the key CreateAPIKey returns, and never again.
	Secret string
}

// NewAPIKey is what a key is created with.
type NewAPIKey struct {
	// Owner is the service account (sa-...).
	Owner string
	// Resource is the cluster or registry, in Environment (env-...).
	Resource    string
	Environment string
	DisplayName string
	Description string
}

// APIKeys is the port to the organisation's API keys (IAM v2).
type APIKeys interface {
	// ListAPIKeys returns the keys of an owner, of a resource, or both
	// ("" for any), paging upstream.
	ListAPIKeys(ctx context.Context, owner, resource string) ([]APIKey, error)
	// GetAPIKey reads one key (without its secret). Errors: NotFound.
	GetAPIKey(ctx context.Context, id string) (APIKey, error)
	// CreateAPIKey creates a key; the returned key carries its secret.
	CreateAPIKey(ctx context.Context, k NewAPIKey) (APIKey, error)
	// UpdateAPIKey changes a key's description.
	UpdateAPIKey(ctx context.Context, id, description string) (APIKey, error)
	// DeleteAPIKey deletes a key: clients using it are refused from then.
	DeleteAPIKey(ctx context.Context, id string) error
}

// KeyResource names what a key for resource id is in the environment:
// iam.KeyForKafka for its cluster, iam.KeyForSchemaRegistry for its
// registry, "" for another environment's.
func (e *Environment) KeyResource(id string) string {
	switch {
	case id != "" && id == e.Scope.KafkaClusterID:
		return iam.KeyForKafka
	case id != "" && id == e.Scope.SchemaRegistryID:
		return iam.KeyForSchemaRegistry
	}
	return ""
}

// ListKeys lists the keys of the environment's cluster and of its
// registry: one request for each, whoever owns them.
func (e *Environment) ListKeys(ctx context.Context) ([]APIKey, error) {
	var keys []APIKey
	for _, r := range []string{e.Scope.KafkaClusterID, e.Scope.SchemaRegistryID} {
		if r == "" {
			continue
		}
		ks, err := e.APIKeys.ListAPIKeys(ctx, "", r)
		if err != nil {
			return nil, err
		}
		keys = append(keys, ks...)
	}
	return keys, nil
}

// ClientAccess is how a client of the stage connects to its cluster and
// registry with an API key: what the portal writes into a new key's
// client configuration.
type ClientAccess struct {
	BootstrapServers string
	// SecurityProtocol and SASLMechanism are the client's (SASL_SSL and
	// PLAIN on Confluent Cloud).
	SecurityProtocol string
	SASLMechanism    string
	RegistryURL      string
}

// KeyCheck tells whether a new API key signs in yet: Confluent Cloud
// takes up to about two minutes to spread a new key, and until then
// clients using it are refused.
type KeyCheck interface {
	// CheckKey signs in with key and secret: to the stage's cluster (a
	// metadata request) or, forRegistry, to its Schema Registry (an
	// authenticated call). nil when the key was taken.
	CheckKey(ctx context.Context, forRegistry bool, key, secret string) error
}

// KeyChecks is a KeyCheck from one check per resource; a nil one cannot
// tell.
type KeyChecks struct {
	Kafka, Registry func(ctx context.Context, key, secret string) error
}

// CheckKey runs the check of the key's resource.
func (k KeyChecks) CheckKey(ctx context.Context, forRegistry bool, key, secret string) error {
	check, what := k.Kafka, "cluster"
	if forRegistry {
		check, what = k.Registry, "Schema Registry"
	}
	if check == nil {
		return errors.New("no " + what + " to check the key against")
	}
	return check(ctx, key, secret)
}
