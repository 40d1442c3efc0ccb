package cloud

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
)

// Connect is the dev stand-in for Confluent Cloud's managed connectors on
// one cluster. Connectors move through realistic states over time:
// PROVISIONING, then RUNNING with their tasks; pause and resume; and, when
// configured with dev.failure, a failure that restart clears.
type Connect struct {
	// Provision is how long a new or changed connector provisions.
	Provision time.Duration
	// FailAfter is how long a dev.failure connector runs before failing.
	FailAfter time.Duration
	now       func() time.Time
	// born is when the stand-in started: connectors made in its first
	// minutes are the demo's, billed over the stand-ins' past.
	born time.Time

	mu         sync.Mutex
	connectors map[string]*standInConnector
}

type standInConnector struct {
	id        string
	class     string
	config    map[string]string
	started   time.Time
	created   time.Time
	paused    bool
	recovered bool
}

var _ platform.Connectors = (*Connect)(nil)

// SetTiming changes how long connectors provision and how long a
// dev.failure connector runs before failing (tests shorten both).
func (k *Connect) SetTiming(provision, failAfter time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.Provision, k.FailAfter = provision, failAfter
}

// NewConnect returns an empty stand-in.
func NewConnect() *Connect {
	return &Connect{Provision: 3 * time.Second, FailAfter: 5 * time.Second, now: time.Now, born: time.Now(), connectors: map[string]*standInConnector{}}
}

const secretMask = "****************"

func (k *Connect) view(name string, c *standInConnector) platform.Connector {
	p, _ := findPlugin(c.class)
	out := platform.Connector{Name: name, ID: c.id, Type: p.typ, Class: c.class, Config: map[string]string{}}
	for key, v := range c.config {
		if s, ok := p.setting(key); ok && s.typ == "PASSWORD" {
			v = secretMask // as Confluent Cloud does: stored secrets are never returned
		}
		out.Config[key] = v
	}
	tasks, _ := strconv.Atoi(c.config["tasks.max"])
	tasks = max(tasks, 1)
	now := k.now()
	running := now.Sub(c.started) >= k.Provision
	failing := !c.recovered && running && now.Sub(c.started) >= k.Provision+k.FailAfter
	failure := strings.TrimSuffix(c.config["dev.failure"], "-always")
	switch {
	case !running:
		out.State = connect.StateProvisioning
		return out
	case failing && failure == "connector":
		out.State = connect.StateFailed
		out.Trace = "org.apache.kafka.connect.errors.ConnectException: the target system refused the connection (simulated by dev.failure=" + c.config["dev.failure"] + ")"
		return out
	case c.paused:
		out.State = connect.StatePaused
	default:
		out.State = connect.StateRunning
	}
	failed := 0
	for i := 0; i < tasks; i++ {
		t := connect.ConnectorTask{ID: i, State: out.State}
		if i == 0 && failing && failure == "task" && !c.paused {
			t.State = connect.StateFailed
			t.Trace = "org.apache.kafka.connect.errors.RetriableException: write timed out (simulated by dev.failure=" + c.config["dev.failure"] + ")"
			failed++
		}
		out.Tasks = append(out.Tasks, t)
	}
	if failed > 0 {
		out.State = connect.StateDegraded
		if failed == tasks {
			out.State = connect.StateFailed
		}
	}
	return out
}

// ListConnectors returns every connector with its status.
func (k *Connect) ListConnectors(context.Context) ([]platform.Connector, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]platform.Connector, 0, len(k.connectors))
	for name, c := range k.connectors {
		out = append(out, k.view(name, c))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (k *Connect) find(name string) (*standInConnector, error) {
	c, ok := k.connectors[name]
	if !ok {
		return nil, portal.New(portal.NotFound, "connector %s not found", name)
	}
	return c, nil
}

// GetConnector returns one connector with its status.
func (k *Connect) GetConnector(_ context.Context, name string) (platform.Connector, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c, err := k.find(name)
	if err != nil {
		return platform.Connector{}, err
	}
	return k.view(name, c), nil
}

// Validate checks a configuration against the catalogue.
func (k *Connect) Validate(_ context.Context, class string, config map[string]string) ([]platform.ConfigProblem, error) {
	p, ok := findPlugin(class)
	if !ok {
		return nil, unknownClass(class)
	}
	return p.validate(config), nil
}

func unknownClass(class string) error {
	names := make([]string, len(catalogue))
	for i, p := range catalogue {
		names[i] = p.class
	}
	return portal.Invalid("config.connector.class", "connector class %q is not offered here; available: %s", class, strings.Join(names, ", "))
}

// Plugins lists the catalogue.
func (k *Connect) Plugins(context.Context) ([]connect.ConnectorPlugin, error) {
	out := make([]connect.ConnectorPlugin, len(catalogue))
	for i, p := range catalogue {
		out[i] = connect.ConnectorPlugin{Class: p.class, Type: p.typ}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Class < out[j].Class })
	return out, nil
}

// Definition describes a catalogued class.
func (k *Connect) Definition(_ context.Context, class string) (connect.ConnectorDefinition, error) {
	p, ok := findPlugin(class)
	if !ok {
		return connect.ConnectorDefinition{}, unknownClass(class)
	}
	return p.definition(), nil
}

func (k *Connect) check(class string, cfg map[string]string) error {
	p, ok := findPlugin(class)
	if !ok {
		return unknownClass(class)
	}
	var v portal.Validation
	for _, pr := range p.validate(cfg) {
		v.Add(portal.Invalid("config."+pr.Key, "%s", pr.Message))
	}
	return v.Err()
}

// CreateConnector validates and creates a connector, which provisions.
func (k *Connect) CreateConnector(_ context.Context, name string, config map[string]string) (platform.Connector, error) {
	class := config["connector.class"]
	if err := k.check(class, config); err != nil {
		return platform.Connector{}, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, exists := k.connectors[name]; exists {
		return platform.Connector{}, portal.New(portal.AlreadyExists, "connector %s already exists", name)
	}
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	c := &standInConnector{id: "lcc-" + hex.EncodeToString(b), class: class, config: maps.Clone(config), started: k.now(), created: k.now()}
	k.connectors[name] = c
	return k.view(name, c), nil
}

// UpdateConnector replaces the configuration, keeping the stored values of
// keep; the connector provisions again, as a managed one does.
func (k *Connect) UpdateConnector(_ context.Context, name string, config map[string]string, keep []string) (platform.Connector, error) {
	k.mu.Lock()
	c, err := k.find(name)
	if err != nil {
		k.mu.Unlock()
		return platform.Connector{}, err
	}
	next := maps.Clone(config)
	for _, key := range keep {
		if v, ok := c.config[key]; ok {
			next[key] = v
		}
	}
	k.mu.Unlock()
	if err := k.check(next["connector.class"], next); err != nil {
		return platform.Connector{}, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	c.config, c.class, c.started, c.recovered = next, next["connector.class"], k.now(), false
	return k.view(name, c), nil
}

// StoredConfig returns a connector's stored configuration, secrets
// included, which the port never returns; tests use it to see what the
// stand-in keeps.
func (k *Connect) StoredConfig(name string) (map[string]string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c, ok := k.connectors[name]
	if !ok {
		return nil, false
	}
	return maps.Clone(c.config), true
}

// DeleteConnector removes a connector.
func (k *Connect) DeleteConnector(_ context.Context, name string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, err := k.find(name); err != nil {
		return err
	}
	delete(k.connectors, name)
	return nil
}

// PauseConnector pauses a connector.
func (k *Connect) PauseConnector(_ context.Context, name string) error {
	return k.setPaused(name, true)
}

// ResumeConnector resumes a connector.
func (k *Connect) ResumeConnector(_ context.Context, name string) error {
	return k.setPaused(name, false)
}

func (k *Connect) setPaused(name string, paused bool) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	c, err := k.find(name)
	if err != nil {
		return err
	}
	c.paused = paused
	return nil
}

// RestartConnector restarts a connector; a simulated failure is cleared,
// unless it is one of dev.failure's "-always" kinds.
// With onlyFailed, a connector without failures is left as it is.
func (k *Connect) RestartConnector(_ context.Context, name string, onlyFailed bool) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	c, err := k.find(name)
	if err != nil {
		return err
	}
	if onlyFailed && !k.view(name, c).Failing() {
		return nil
	}
	if strings.HasSuffix(c.config["dev.failure"], "-always") {
		// A failure no restart cures: it starts again, and fails again.
		c.started = k.now()
		return nil
	}
	c.recovered = true
	return nil
}

// BilledConnector is what the Billing API stand-in bills of a connector.
type BilledConnector struct {
	ID, Name string
	Tasks    int
	// Topics are those it writes or reads.
	Topics []string
	// Since is when it is billed from: its creation, or for the demo's
	// (made as the stand-in started) as long as the stand-ins' past.
	Since time.Time
}

// Billed lists the connectors with what the Billing API stand-in bills.
func (k *Connect) Billed() []BilledConnector {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]BilledConnector, 0, len(k.connectors))
	for name, c := range k.connectors {
		b := BilledConnector{ID: c.id, Name: name, Tasks: 1, Since: c.created}
		if n, err := strconv.Atoi(c.config["tasks.max"]); err == nil && n > 0 {
			b.Tasks = n
		}
		for _, key := range []string{"kafka.topic", "topics"} {
			for _, t := range strings.Split(c.config[key], ",") {
				if t = strings.TrimSpace(t); t != "" {
					b.Topics = append(b.Topics, t)
				}
			}
		}
		if c.created.Sub(k.born) < 10*time.Minute {
			b.Since = time.Time{}
		}
		out = append(out, b)
	}
	return out
}
