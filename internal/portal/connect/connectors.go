// Package connect is the contract of connectors: their configuration,
// state, plugins, restarts and auto-restart.
package connect

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Connector states: Confluent Cloud's, with DEGRADED also derived when
// some tasks failed.
const (
	StateProvisioning = "PROVISIONING"
	StateRunning      = "RUNNING"
	StateDegraded     = "DEGRADED"
	StatePaused       = "PAUSED"
	StateFailed       = "FAILED"
	StateDeleted      = "DELETED"
	StateUnknown      = "UNKNOWN"
)

// Mask replaces every sensitive configuration value the portal returns.
const Mask = "********"

// sensitiveKey matches configuration keys that hold secrets, whatever the
// plugin says: passwords, secrets, API keys, private keys, credentials.
var sensitiveKey = regexp.MustCompile(`(?i)(password|passwd|secret|passphrase|credential|private[._-]?key|api[._-]?key|token|sasl\.jaas|keystore|truststore)`)

// IsSensitiveKey reports whether a configuration key holds a secret by its
// name; the plugin's PASSWORD settings are secrets too.
func IsSensitiveKey(key string) bool { return sensitiveKey.MatchString(key) }

// IsMask reports whether a value is a mask (the portal's, or the row of
// asterisks Confluent Cloud returns) rather than a real value.
func IsMask(v string) bool { return len(v) >= 3 && strings.Trim(v, "*") == "" }

// Connector is a fully-managed connector as the portal shows it.
type Connector struct {
	Name              string
	Identifier        string
	BU                string
	OutsideConvention bool
	ID                string
	// Type is "source" or "sink".
	Type  string
	Class string
	State string
	Trace string
	Tasks []ConnectorTask
	// Config is the configuration with sensitive values masked; nil
	// unless asked for.
	Config map[string]string
	// Sensitive lists the configuration keys that are masked.
	Sensitive []string
	// Version changes whenever the configuration does: the ETag of reads,
	// the If-Match of writes; "" when the configuration was not read.
	Version string
	// AutoRestart is the connector's auto-restart (off when nil).
	AutoRestart *portal.AutoRestart
}

// MaxAutoRestarts is the highest limit of restarts that may be set.
const MaxAutoRestarts = 1000

// ConnectorRestart is one of the portal's restarts of a connector, or its
// giving up, as the trail holds it.
type ConnectorRestart struct {
	At      time.Time
	Action  portal.Action
	Outcome string
	// Detail is the attempt and the failure's first line.
	Detail string
}

// ConnectorTask is one task's status.
type ConnectorTask struct {
	ID    int
	State string
	Trace string
}

// NewConnector is the input of Create.
type NewConnector struct {
	Name   string
	Config map[string]string
}

// ConnectorPlugin is a connector class offered by the platform.
type ConnectorPlugin struct {
	Class string
	Type  string
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

// ConnectorService manages a business unit's fully-managed connectors,
// named "{prefix}{identifier}-connector". Writes need the Developer role
// (InsufficientRole) and a writable stage (ReadOnlyEnvironment).
type ConnectorService interface {
	List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[Connector], error)
	// Get errors: NotFound, InvalidParameter.
	Get(ctx context.Context, scope portal.Scope, name string, showConfig bool) (Connector, error)
	// Impact lists what depends on a connector: the topics it reads or
	// writes, with the groups reading those it writes. Errors: NotFound.
	Impact(ctx context.Context, scope portal.Scope, name string) (portal.Impact, error)
	Plugins(ctx context.Context, scope portal.Scope) ([]ConnectorPlugin, error)
	// Definition errors: NotFound (no such class).
	Definition(ctx context.Context, scope portal.Scope, class string) (ConnectorDefinition, error)
	// Create validates the configuration with its plugin; problems come
	// back as one InvalidParameter per setting ("config.<key>").
	// Errors: AlreadyExists too.
	Create(ctx context.Context, scope portal.Scope, in NewConnector) (Connector, error)
	// Update replaces the configuration; a masked secret keeps the stored
	// one. Errors: as Create, NotFound, PreconditionFailed (ifMatch).
	Update(ctx context.Context, scope portal.Scope, name string, config map[string]string, ifMatch portal.IfMatch) (Connector, error)
	// Delete errors: NotFound, PreconditionFailed (ifMatch).
	Delete(ctx context.Context, scope portal.Scope, name string, ifMatch portal.IfMatch) error
	Pause(ctx context.Context, scope portal.Scope, name string) error
	Resume(ctx context.Context, scope portal.Scope, name string) error
	Restart(ctx context.Context, scope portal.Scope, name string, onlyFailed bool) error
	// SetAutoRestart turns a connector's auto-restart on (its backoff from
	// the start) or off. Errors: InvalidParameter, NotFound, the roles'.
	SetAutoRestart(ctx context.Context, scope portal.Scope, name string, spec portal.AutoRestartSpec) (*portal.AutoRestart, error)
	// RestartHistory lists the portal's latest restarts of a connector,
	// newest first.
	RestartHistory(ctx context.Context, scope portal.Scope, name string) ([]ConnectorRestart, error)
}

// ConnectorPlatformKeys are the settings Confluent Cloud fills in on a
// managed connector from its cluster and returns on every read (Connect
// v1 document: "common connector configurations"); a desired state that
// leaves them out keeps them.
var ConnectorPlatformKeys = []string{"cloud.environment", "cloud.provider", "kafka.endpoint", "kafka.region"}

// ConnectorTopicKeys are the configuration keys of Confluent's managed
// connectors that name their topics: kafka.topic (sources) and topics
// (sinks), comma-separated.
var ConnectorTopicKeys = []string{"kafka.topic", "topics"}

// IsConnectorTopicKey tells whether a configuration key names topics.
func IsConnectorTopicKey(k string) bool { return slices.Contains(ConnectorTopicKeys, k) }

// SplitTopics splits a topics setting into its names.
func SplitTopics(v string) []string {
	var out []string
	for _, t := range strings.Split(v, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// ConnectorTopics are the topics a connector's configuration names.
func ConnectorTopics(cfg map[string]string) []string {
	var out []string
	for _, k := range ConnectorTopicKeys {
		out = append(out, SplitTopics(cfg[k])...)
	}
	return out
}
