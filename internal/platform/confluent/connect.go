package confluent

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
)

// Connect is the Connectors port on Confluent Cloud's Connect v1 API for
// one Kafka cluster.
type Connect struct {
	c       *Client
	prefix  string
	defsMu  sync.Mutex
	defs    map[string]connect.ConnectorDefinition
	plugins []connect.ConnectorPlugin
}

var _ platform.Connectors = (*Connect)(nil)

// NewConnect returns the adapter for a cluster of an environment.
func NewConnect(c *Client, environmentID, clusterID string) *Connect {
	return &Connect{c: c, prefix: "/connect/v1/environments/" + url.PathEscape(environmentID) + "/clusters/" + url.PathEscape(clusterID),
		defs: map[string]connect.ConnectorDefinition{}}
}

func (k *Connect) connectorPath(name string, rest ...string) string {
	p := k.prefix + "/connectors/" + url.PathEscape(name)
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

type connectorInfo struct {
	Name   string            `json:"name"`
	Type   string            `json:"type"`
	Config map[string]string `json:"config"`
}

type connectorStatus struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Connector struct {
		State string `json:"state"`
		Trace string `json:"trace"`
	} `json:"connector"`
	Tasks []struct {
		ID    int    `json:"id"`
		State string `json:"state"`
		Msg   string `json:"msg"`
		Trace string `json:"trace"`
	} `json:"tasks"`
}

type expanded struct {
	ID struct {
		ID string `json:"id"`
	} `json:"id"`
	Info   connectorInfo   `json:"info"`
	Status connectorStatus `json:"status"`
}

// ListConnectors uses expand=info,status,id: one request for everything.
func (k *Connect) ListConnectors(ctx context.Context) ([]platform.Connector, error) {
	var out map[string]expanded
	err := k.c.do(ctx, call{method: http.MethodGet, path: k.prefix + "/connectors",
		query: url.Values{"expand": {"info,status,id"}}, out: &out, safe: true})
	if err != nil {
		return nil, err
	}
	list := make([]platform.Connector, 0, len(out))
	for name, e := range out {
		c := toConnector(name, e.Info, e.Status)
		c.ID = e.ID.ID
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list, nil
}

// GetConnector reads the connector and its status.
func (k *Connect) GetConnector(ctx context.Context, name string) (platform.Connector, error) {
	var info connectorInfo
	if err := k.c.do(ctx, call{method: http.MethodGet, path: k.connectorPath(name), out: &info, safe: true}); err != nil {
		return platform.Connector{}, notFound(err, name)
	}
	var st connectorStatus
	if err := k.c.do(ctx, call{method: http.MethodGet, path: k.connectorPath(name, "status"), out: &st, safe: true}); err != nil {
		return platform.Connector{}, notFound(err, name)
	}
	return toConnector(name, info, st), nil
}

func notFound(err error, name string) error {
	if portal.Is(err, portal.NotFound) {
		return portal.Wrap(err, portal.NotFound, "connector %s not found", name)
	}
	return err
}

// placementKeys are the configuration keys Confluent Cloud fills in
// itself on every managed connector (where it runs). The tenant never set
// them: they are left out of what the portal shows, compares and sends back
// (Cloud fills them again on every update).
var placementKeys = []string{"cloud.environment", "cloud.provider", "kafka.endpoint", "kafka.region"}

func toConnector(name string, info connectorInfo, st connectorStatus) platform.Connector {
	for _, k := range placementKeys {
		delete(info.Config, k)
	}
	c := platform.Connector{Name: name, Type: cmp.Or(info.Type, st.Type, info.Config["type"]), Config: info.Config,
		Class: info.Config["connector.class"], Trace: st.Connector.Trace}
	failed := 0
	for _, t := range st.Tasks {
		trace := t.Trace
		if trace == "" {
			trace = t.Msg
		}
		c.Tasks = append(c.Tasks, connect.ConnectorTask{ID: t.ID, State: strings.ToUpper(t.State), Trace: trace})
		if strings.EqualFold(t.State, "FAILED") {
			failed++
		}
	}
	c.State = State(st.Connector.State, len(st.Tasks), failed)
	return c
}

// State maps an upstream connector state to the documented set, deriving
// DEGRADED (some tasks failed) and FAILED (all did).
func State(upstream string, tasks, failed int) string {
	s := strings.ToUpper(upstream)
	switch s {
	case "RUNNING":
		switch {
		case tasks > 0 && failed == tasks:
			return connect.StateFailed
		case failed > 0:
			return connect.StateDegraded
		}
		return connect.StateRunning
	case "PROVISIONING", "UNASSIGNED", "RESTARTING":
		return connect.StateProvisioning
	case "DEGRADED", "FAILED", "PAUSED", "DELETED":
		return s
	case "STOPPED":
		return connect.StatePaused
	}
	return connect.StateUnknown
}

type validation struct {
	ErrorCount int `json:"error_count"`
	Configs    []struct {
		Definition struct {
			Name          string `json:"name"`
			Type          string `json:"type"`
			Required      bool   `json:"required"`
			DefaultValue  string `json:"default_value"`
			Documentation string `json:"documentation"`
			DisplayName   string `json:"display_name"`
		} `json:"definition"`
		Value struct {
			Name              string   `json:"name"`
			Errors            []string `json:"errors"`
			RecommendedValues []string `json:"recommended_values"`
		} `json:"value"`
	} `json:"configs"`
}

func (k *Connect) validate(ctx context.Context, class string, config map[string]string) (validation, error) {
	var v validation
	err := k.c.do(ctx, call{method: http.MethodPut, path: k.prefix + "/connector-plugins/" + url.PathEscape(class) + "/config/validate",
		body: config, out: &v, safe: true})
	if portal.Is(err, portal.NotFound) {
		return v, unknownClass(ctx, k, class)
	}
	return v, err
}

func unknownClass(ctx context.Context, k *Connect, class string) error {
	e := portal.Invalid("config.connector.class", "connector class %q is not offered here", class)
	if ps, err := k.Plugins(ctx); err == nil {
		var names []string
		for _, p := range ps {
			names = append(names, p.Class)
		}
		e.Message += "; available: " + strings.Join(names, ", ")
	}
	return e
}

// Validate runs the plugin's validation and returns one problem per
// offending setting.
func (k *Connect) Validate(ctx context.Context, class string, config map[string]string) ([]platform.ConfigProblem, error) {
	v, err := k.validate(ctx, class, config)
	if err != nil {
		return nil, err
	}
	var out []platform.ConfigProblem
	for _, c := range v.Configs {
		for _, msg := range c.Value.Errors {
			out = append(out, platform.ConfigProblem{Key: c.Value.Name, Message: msg})
		}
	}
	return out, nil
}

// Definition describes a plugin's settings, from its validation endpoint;
// it is cached, as plugins do not change while the portal runs.
func (k *Connect) Definition(ctx context.Context, class string) (connect.ConnectorDefinition, error) {
	k.defsMu.Lock()
	d, ok := k.defs[class]
	k.defsMu.Unlock()
	if ok {
		return d, nil
	}
	v, err := k.validate(ctx, class, map[string]string{"connector.class": class, "name": "rms-portal-probe"})
	if err != nil {
		return connect.ConnectorDefinition{}, err
	}
	d = connect.ConnectorDefinition{Class: class}
	for _, c := range v.Configs {
		def := c.Definition
		d.Settings = append(d.Settings, connect.ConnectorSetting{Name: def.Name, Type: def.Type, Required: def.Required,
			Default: def.DefaultValue, Documentation: def.Documentation, DisplayName: def.DisplayName, Recommended: c.Value.RecommendedValues})
		if def.Type == "PASSWORD" {
			d.Sensitive = append(d.Sensitive, def.Name)
		}
		if def.Required && def.DefaultValue == "" {
			d.Required = append(d.Required, def.Name)
		}
	}
	if ps, err := k.Plugins(ctx); err == nil {
		for _, p := range ps {
			if p.Class == class {
				d.Type = p.Type
			}
		}
	}
	k.defsMu.Lock()
	k.defs[class] = d
	k.defsMu.Unlock()
	return d, nil
}

// Plugins lists the connector classes, cached after the first success.
func (k *Connect) Plugins(ctx context.Context) ([]connect.ConnectorPlugin, error) {
	k.defsMu.Lock()
	cached := k.plugins
	k.defsMu.Unlock()
	if cached != nil {
		return cached, nil
	}
	var out []struct {
		Class string `json:"class"`
		Type  string `json:"type"`
	}
	if err := k.c.do(ctx, call{method: http.MethodGet, path: k.prefix + "/connector-plugins", out: &out, safe: true}); err != nil {
		return nil, err
	}
	ps := make([]connect.ConnectorPlugin, len(out))
	for i, p := range out {
		ps[i] = connect.ConnectorPlugin{Class: p.Class, Type: p.Type}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Class < ps[j].Class })
	k.defsMu.Lock()
	k.plugins = ps
	k.defsMu.Unlock()
	return ps, nil
}

// CreateConnector creates a connector; it starts PROVISIONING.
func (k *Connect) CreateConnector(ctx context.Context, name string, config map[string]string) (platform.Connector, error) {
	var info connectorInfo
	err := k.c.do(ctx, call{method: http.MethodPost, path: k.prefix + "/connectors",
		body: map[string]any{"name": name, "config": config}, out: &info})
	if portal.Is(err, portal.AlreadyExists) {
		return platform.Connector{}, portal.Wrap(err, portal.AlreadyExists, "connector %s already exists", name)
	}
	if err != nil {
		return platform.Connector{}, err
	}
	return toConnector(name, info, connectorStatus{Connector: struct {
		State string `json:"state"`
		Trace string `json:"trace"`
	}{State: connect.StateProvisioning}}), nil
}

// UpdateConnector replaces the configuration. Confluent Cloud never
// returns stored secret values and replaces the whole configuration, so
// keeping a secret the caller did not resend is impossible here: such an
// update is refused, unchanged, with the keys to send.
func (k *Connect) UpdateConnector(ctx context.Context, name string, config map[string]string, keep []string) (platform.Connector, error) {
	if len(keep) > 0 {
		keys := slices.Clone(keep)
		slices.Sort(keys)
		var v portal.Validation
		for _, key := range keys {
			v.Add(portal.Invalid("config."+key, "Confluent Cloud does not reveal the stored value of %s, so it cannot be kept: send its value again", key))
		}
		return platform.Connector{}, v.Err()
	}
	var info connectorInfo
	if err := k.c.do(ctx, call{method: http.MethodPut, path: k.connectorPath(name, "config"), body: config, out: &info, safe: true}); err != nil {
		return platform.Connector{}, notFound(err, name)
	}
	return k.GetConnector(ctx, name)
}

// DeleteConnector deletes a connector.
func (k *Connect) DeleteConnector(ctx context.Context, name string) error {
	return notFound(k.c.do(ctx, call{method: http.MethodDelete, path: k.connectorPath(name), safe: true}), name)
}

// PauseConnector pauses a connector (asynchronously upstream).
func (k *Connect) PauseConnector(ctx context.Context, name string) error {
	return notFound(k.c.do(ctx, call{method: http.MethodPut, path: k.connectorPath(name, "pause"), safe: true}), name)
}

// ResumeConnector resumes a paused connector.
func (k *Connect) ResumeConnector(ctx context.Context, name string) error {
	return notFound(k.c.do(ctx, call{method: http.MethodPut, path: k.connectorPath(name, "resume"), safe: true}), name)
}

// RestartConnector restarts a connector and its tasks through Confluent
// Cloud's documented restart (restartConnectv1Connector), which takes no
// parameters and restarts them all: Cloud has neither Kafka Connect's
// includeTasks/onlyFailed nor a restart of one task. onlyFailed restarts
// only when the connector or one of its tasks has failed, and does
// nothing otherwise.
func (k *Connect) RestartConnector(ctx context.Context, name string, onlyFailed bool) error {
	if onlyFailed {
		c, err := k.GetConnector(ctx, name)
		if err != nil {
			return err
		}
		if !c.Failing() {
			return nil
		}
	}
	return notFound(k.c.do(ctx, call{method: http.MethodPost, path: k.connectorPath(name, "restart"), safe: true}), name)
}
