package platform

import (
	"context"
	"regexp"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// ServiceAccount is an IAM service account.
type ServiceAccount struct {
	ID          string
	DisplayName string
	Description string
}

// IAM is the port to service accounts and role bindings. Principals are
// written "User:sa-..." or "User:pool-...".
type IAM interface {
	// ListServiceAccounts returns every service account, paging upstream.
	ListServiceAccounts(ctx context.Context) ([]ServiceAccount, error)
	GetServiceAccount(ctx context.Context, id string) (ServiceAccount, error)
	CreateServiceAccount(ctx context.Context, displayName, description string) (ServiceAccount, error)
	// UpdateServiceAccount changes an account's description.
	UpdateServiceAccount(ctx context.Context, id, description string) (ServiceAccount, error)
	DeleteServiceAccount(ctx context.Context, id string) error
	// RoleBindings returns the principal's bindings within the
	// environment's cluster and schema registry.
	RoleBindings(ctx context.Context, principal string) ([]iam.RoleBinding, error)
	CreateRoleBinding(ctx context.Context, principal string, b iam.RoleBinding) (iam.RoleBinding, error)
	DeleteRoleBinding(ctx context.Context, id string) error
}

// IdentityPool is a pool of an identity provider: tokens whose claims
// pass Filter act as the pool's principal.
type IdentityPool struct {
	ID            string
	DisplayName   string
	Description   string
	IdentityClaim string
	Filter        string
	State         string
}

// IdentityPools is the port to the identity pools of the stage's identity
// provider.
type IdentityPools interface {
	ListPools(ctx context.Context) ([]IdentityPool, error)
	GetPool(ctx context.Context, id string) (IdentityPool, error)
	CreatePool(ctx context.Context, p IdentityPool) (IdentityPool, error)
	UpdatePoolFilter(ctx context.Context, id, filter string) (IdentityPool, error)
	DeletePool(ctx context.Context, id string) error
}

// IAMScope locates an environment in Confluent Cloud, for role bindings.
type IAMScope struct {
	OrganizationID string
	EnvironmentID  string
	KafkaClusterID string
	// SchemaRegistryID (lsrc-...) scopes subject bindings.
	SchemaRegistryID string
}

// EnvCRN is the environment's resource name.
func (s IAMScope) EnvCRN() string {
	return "crn://confluent.cloud/organization=" + s.OrganizationID + "/environment=" + s.EnvironmentID
}

// ClusterCRN is the Kafka cluster's resource name.
func (s IAMScope) ClusterCRN() string { return s.EnvCRN() + "/cloud-cluster=" + s.KafkaClusterID }

// RegistryCRN is the schema registry's resource name, "" when unknown.
func (s IAMScope) RegistryCRN() string {
	if s.SchemaRegistryID == "" {
		return ""
	}
	return s.EnvCRN() + "/schema-registry=" + s.SchemaRegistryID
}

// CRN builds a binding's resource name pattern.
func (s IAMScope) CRN(b iam.RoleBinding) (string, error) {
	switch b.Resource {
	case iam.ResourceCluster:
		return s.ClusterCRN(), nil
	case iam.ResourceTopic, iam.ResourceGroup, iam.ResourceTransactionalID:
		return s.ClusterCRN() + "/kafka=" + s.KafkaClusterID + "/" + b.Resource + "=" + b.Pattern, nil
	case iam.ResourceSubject:
		if s.SchemaRegistryID == "" {
			return "", portal.New(portal.UpstreamUnavailable, "no schema registry id is configured for subject role bindings")
		}
		return s.RegistryCRN() + "/subject=" + b.Pattern, nil
	}
	return "", portal.New(portal.Internal, "unknown resource %s", b.Resource)
}

var crnTail = regexp.MustCompile(`/(topic|group|transactional-id|subject)=([^/]+)$`)

// ParseBinding reads a binding's resource and pattern from its CRN.
func ParseBinding(id, role, crn string) iam.RoleBinding {
	b := iam.RoleBinding{ID: id, Role: role, CRN: crn, Resource: iam.ResourceCluster}
	if m := crnTail.FindStringSubmatch(crn); m != nil {
		b.Resource, b.Pattern = m[1], m[2]
	}
	return b
}
