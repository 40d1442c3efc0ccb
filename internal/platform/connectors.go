package platform

import "context"

// Connector states reported by the Connectors port: Confluent Cloud's
// states, with DEGRADED also derived when some tasks failed.
const (
	StateProvisioning = "PROVISIONING"
	StateRunning      = "RUNNING"
	StateDegraded     = "DEGRADED"
	StatePaused       = "PAUSED"
	StateFailed       = "FAILED"
	StateDeleted      = "DELETED"
	StateUnknown      = "UNKNOWN"
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
	Tasks  []ConnectorTask
}

// ConnectorTask is one task's status.
type ConnectorTask struct {
	ID    int
	State string
	Trace string
}

// ConfigProblem is a validation error of one setting.
type ConfigProblem struct {
	Key     string
	Message string
}

// ConnectorDefinition is what a plugin says about its settings.
type ConnectorDefinition struct {
	Class string
	Type  string
	// Sensitive are the settings of type PASSWORD.
	Sensitive []string
	// Required are the settings without a default that must be given.
	Required []string
	Settings []ConnectorSetting
}

// ConnectorSetting describes one setting of a plugin.
type ConnectorSetting struct {
	Name          string
	Type          string
	Required      bool
	Default       string
	Documentation string
	DisplayName   string
	Recommended   []string
}

// ConnectorPlugin is a connector class offered by the platform.
type ConnectorPlugin struct {
	Class string
	Type  string
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
	Plugins(ctx context.Context) ([]ConnectorPlugin, error)
	Definition(ctx context.Context, class string) (ConnectorDefinition, error)
	CreateConnector(ctx context.Context, name string, config map[string]string) (Connector, error)
	// UpdateConnector replaces the configuration; the values of keep are
	// the stored ones (their secret values are never sent back to callers).
	UpdateConnector(ctx context.Context, name string, config map[string]string, keep []string) (Connector, error)
	DeleteConnector(ctx context.Context, name string) error
	PauseConnector(ctx context.Context, name string) error
	ResumeConnector(ctx context.Context, name string) error
	RestartConnector(ctx context.Context, name string, onlyFailed bool) error
}
