package platform

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
)

// Unconfigured stands for an upstream service that the deployment did not
// configure for an environment: every call says so.
type Unconfigured struct {
	// What names the service ("Confluent Cloud Connect").
	What string
	Env  string
}

var (
	_ Connectors    = Unconfigured{}
	_ Schemas       = Unconfigured{}
	_ IAM           = Unconfigured{}
	_ IdentityPools = Unconfigured{}
	_ APIKeys       = Unconfigured{}
)

func (u Unconfigured) err() error {
	return portal.New(portal.UpstreamUnavailable, "%s is not configured for %s", u.What, u.Env)
}

// ListConnectors implements Connectors.
func (u Unconfigured) ListConnectors(context.Context) ([]Connector, error) { return nil, u.err() }

// GetConnector implements Connectors.
func (u Unconfigured) GetConnector(context.Context, string) (Connector, error) {
	return Connector{}, u.err()
}

// Validate implements Connectors.
func (u Unconfigured) Validate(context.Context, string, map[string]string) ([]ConfigProblem, error) {
	return nil, u.err()
}

// Plugins implements Connectors.
func (u Unconfigured) Plugins(context.Context) ([]connect.ConnectorPlugin, error) {
	return nil, u.err()
}

// Definition implements Connectors.
func (u Unconfigured) Definition(context.Context, string) (connect.ConnectorDefinition, error) {
	return connect.ConnectorDefinition{}, u.err()
}

// CreateConnector implements Connectors.
func (u Unconfigured) CreateConnector(context.Context, string, map[string]string) (Connector, error) {
	return Connector{}, u.err()
}

// UpdateConnector implements Connectors.
func (u Unconfigured) UpdateConnector(context.Context, string, map[string]string, []string) (Connector, error) {
	return Connector{}, u.err()
}

// DeleteConnector implements Connectors.
func (u Unconfigured) DeleteConnector(context.Context, string) error { return u.err() }

// PauseConnector implements Connectors.
func (u Unconfigured) PauseConnector(context.Context, string) error { return u.err() }

// ResumeConnector implements Connectors.
func (u Unconfigured) ResumeConnector(context.Context, string) error { return u.err() }

// RestartConnector implements Connectors.
func (u Unconfigured) RestartConnector(context.Context, string, bool) error { return u.err() }

// ListSchemas implements Schemas.
func (u Unconfigured) ListSchemas(context.Context, string, bool) ([]schema.SchemaVersion, error) {
	return nil, u.err()
}

// GetSchema implements Schemas.
func (u Unconfigured) GetSchema(context.Context, string, int) (schema.SchemaVersion, error) {
	return schema.SchemaVersion{}, u.err()
}

// Register implements Schemas.
func (u Unconfigured) Register(context.Context, string, SchemaDef) (schema.SchemaVersion, error) {
	return schema.SchemaVersion{}, u.err()
}

// CheckCompatibility implements Schemas.
func (u Unconfigured) CheckCompatibility(context.Context, string, SchemaDef) (schema.Compatibility, error) {
	return schema.Compatibility{}, u.err()
}

// Compatibility implements Schemas.
func (u Unconfigured) Compatibility(context.Context, string) (string, error) {
	return "", u.err()
}

// DeleteVersion implements Schemas.
func (u Unconfigured) DeleteVersion(context.Context, string, int, bool) error { return u.err() }

// ListServiceAccounts implements IAM.
func (u Unconfigured) ListServiceAccounts(context.Context) ([]ServiceAccount, error) {
	return nil, u.err()
}

// GetServiceAccount implements IAM.
func (u Unconfigured) GetServiceAccount(context.Context, string) (ServiceAccount, error) {
	return ServiceAccount{}, u.err()
}

// CreateServiceAccount implements IAM.
func (u Unconfigured) CreateServiceAccount(context.Context, string, string) (ServiceAccount, error) {
	return ServiceAccount{}, u.err()
}

// DeleteServiceAccount implements IAM.
func (u Unconfigured) DeleteServiceAccount(context.Context, string) error { return u.err() }

// RoleBindings implements IAM.
func (u Unconfigured) RoleBindings(context.Context, string) ([]iam.RoleBinding, error) {
	return nil, u.err()
}

// CreateRoleBinding implements IAM.
func (u Unconfigured) CreateRoleBinding(context.Context, string, iam.RoleBinding) (iam.RoleBinding, error) {
	return iam.RoleBinding{}, u.err()
}

// DeleteRoleBinding implements IAM.
func (u Unconfigured) DeleteRoleBinding(context.Context, string) error { return u.err() }

// ListPools implements IdentityPools.
func (u Unconfigured) ListPools(context.Context) ([]IdentityPool, error) { return nil, u.err() }

// GetPool implements IdentityPools.
func (u Unconfigured) GetPool(context.Context, string) (IdentityPool, error) {
	return IdentityPool{}, u.err()
}

// CreatePool implements IdentityPools.
func (u Unconfigured) CreatePool(context.Context, IdentityPool) (IdentityPool, error) {
	return IdentityPool{}, u.err()
}

// UpdatePoolFilter implements IdentityPools.
func (u Unconfigured) UpdatePoolFilter(context.Context, string, string) (IdentityPool, error) {
	return IdentityPool{}, u.err()
}

// DeletePool implements IdentityPools.
func (u Unconfigured) DeletePool(context.Context, string) error { return u.err() }

// SchemaByID implements Schemas.
func (u Unconfigured) SchemaByID(context.Context, int) (schema.SchemaVersion, error) {
	return schema.SchemaVersion{}, u.err()
}

// QueryMetric implements CloudMetrics.
func (u Unconfigured) QueryMetric(context.Context, MetricQuery) ([]MetricPoint, error) {
	return nil, u.err()
}

// UpdateServiceAccount implements IAM.
func (u Unconfigured) UpdateServiceAccount(context.Context, string, string) (ServiceAccount, error) {
	return ServiceAccount{}, u.err()
}

// ListAPIKeys implements APIKeys.
func (u Unconfigured) ListAPIKeys(context.Context, string, string) ([]APIKey, error) {
	return nil, u.err()
}

// GetAPIKey implements APIKeys.
func (u Unconfigured) GetAPIKey(context.Context, string) (APIKey, error) { return APIKey{}, u.err() }

// CreateAPIKey implements APIKeys.
func (u Unconfigured) CreateAPIKey(context.Context, NewAPIKey) (APIKey, error) {
	return APIKey{}, u.err()
}

// UpdateAPIKey implements APIKeys.
func (u Unconfigured) UpdateAPIKey(context.Context, string, string) (APIKey, error) {
	return APIKey{}, u.err()
}

// DeleteAPIKey implements APIKeys.
func (u Unconfigured) DeleteAPIKey(context.Context, string) error { return u.err() }
