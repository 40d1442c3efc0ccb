package platform

import (
	"context"
	"slices"

	"github.com/edh-platform/rms-portal/internal/portal/connect"
)

// Connector is a fully-managed connector with its status.
type Connector struct {
	Name string
	ID   string
	// Type is "source" or "sink".
	Type   string
	Class  string
	Config map[string]string
	State  string
	Trace  string
	Tasks  []connect.ConnectorTask
}

// Failing tells whether the connector or one of its tasks has failed.
func (c Connector) Failing() bool {
	return c.State == connect.StateFailed || slices.ContainsFunc(c.Tasks, func(t connect.ConnectorTask) bool {
		return t.State == connect.StateFailed
	})
}

// ConfigProblem is a validation error of one setting.
type ConfigProblem struct {
	Key     string
	Message string
}

// Connectors is the port to a Kafka cluster's managed connectors. Errors
// are fault errors; upstream validation errors come back as a
// fault.Validation with one problem per setting.
type Connectors interface {
	// ListConnectors returns every connector of the cluster with status and
	// configuration, from one request.
	ListConnectors(ctx context.Context) ([]Connector, error)
	GetConnector(ctx context.Context, name string) (Connector, error)
	// Validate checks a configuration against its plugin; problems are
	// returned, not as an error.
	Validate(ctx context.Context, class string, config map[string]string) ([]ConfigProblem, error)
	Plugins(ctx context.Context) ([]connect.ConnectorPlugin, error)
	Definition(ctx context.Context, class string) (connect.ConnectorDefinition, error)
	CreateConnector(ctx context.Context, name string, config map[string]string) (Connector, error)
	// UpdateConnector replaces the configuration; the values of keep are
	// the stored ones (their secret values are never sent back to callers).
	UpdateConnector(ctx context.Context, name string, config map[string]string, keep []string) (Connector, error)
	DeleteConnector(ctx context.Context, name string) error
	PauseConnector(ctx context.Context, name string) error
	ResumeConnector(ctx context.Context, name string) error
	RestartConnector(ctx context.Context, name string, onlyFailed bool) error
}
