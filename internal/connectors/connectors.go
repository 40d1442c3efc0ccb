// Package connectors is the managed connectors service: lifecycle, secrets
// kept back, auto-restart with backoff in background rounds, the impact of
// a delete, and their part of resources as code.
package connectors

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Service manages a business unit's fully-managed connectors.
type Service struct {
	guard *gate.Guard
	// restarts keeps the auto-restarts (none when nil), paced by backoff.
	restarts AutoRestartStore
	backoff  Backoff
	// secrets keeps the digests of the secrets sent (none when nil).
	secrets store.ConnectorSecrets
}

// New returns the connector service.
func New(g *gate.Guard) *Service { return &Service{guard: g} }

func (s *Service) view(ctx context.Context, call *gate.Call, c platform.Connector, withConfig bool) connect.Connector {
	o := call.Owner(c.Name, tenancy.ConnectorSuffix)
	v := connect.Connector{Name: c.Name, Identifier: o.Identifier, BU: o.Unit, OutsideConvention: o.Outside,
		ID: c.ID, Type: c.Type, Class: c.Class, State: c.State, Trace: c.Trace, Tasks: c.Tasks}
	if c.Config != nil {
		v.Version = s.version(c)
	}
	if withConfig {
		sensitive := s.sensitive(ctx, call, c.Class, c.Config)
		v.Config = map[string]string{}
		for k, val := range c.Config {
			if slices.Contains(sensitive, k) {
				val = connect.Mask
			}
			v.Config[k] = val
		}
		v.Sensitive = sensitive
	}
	return v
}

// version is a connector's version: its configuration's digest.
func (s *Service) version(c platform.Connector) string { return s.guard.Version(c.Config) }

// connectorLock names the lock of a connector's changes.
func connectorLock(call *gate.Call, full string) string {
	return "connector " + call.Env.Name() + " " + full
}

// sensitive lists the keys of cfg to mask: those the plugin defines as
// passwords, and those whose names say they hold secrets.
func (s *Service) sensitive(ctx context.Context, call *gate.Call, class string, cfg map[string]string) []string {
	var defined []string
	if d, err := call.Env.Connectors.Definition(ctx, class); err == nil {
		defined = d.Sensitive
	}
	var out []string
	for k, v := range cfg {
		if slices.Contains(defined, k) || connect.IsSensitiveKey(k) || connect.IsMask(v) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// List returns one page of the unit's connectors with their states.
func (s *Service) List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[connect.Connector], error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "list connectors")
	if err != nil {
		return portal.Page[connect.Connector]{}, err
	}
	all, err := call.Env.Connectors.ListConnectors(ctx)
	if err != nil {
		return portal.Page[connect.Connector]{}, err
	}
	var visible []platform.Connector
	for _, c := range all {
		if (call.WholeCluster || call.Scope.Owns(c.Name)) && call.KeepUnit(q, call.Owner(c.Name, tenancy.ConnectorSuffix).Unit) {
			visible = append(visible, c)
		}
	}
	page, err := gate.Paginate(s.guard.Pages(), "connectors "+call.Scope.String(), visible, func(c platform.Connector) string { return c.Name }, q)
	if err != nil {
		return portal.Page[connect.Connector]{}, err
	}
	out := portal.Page[connect.Connector]{NextPageToken: page.NextPageToken, Total: page.Total, Items: make([]connect.Connector, len(page.Items))}
	ars, err := s.autoRestartsIn(ctx, call)
	if err != nil {
		return portal.Page[connect.Connector]{}, err
	}
	for i, c := range page.Items {
		out.Items[i] = s.view(ctx, call, c, false)
		if a, ok := ars[c.Name]; ok {
			out.Items[i].AutoRestart = s.autoRestartView(a, c)
		}
	}
	return out, nil
}

// resolve turns a given name into the connector's full name; in a
// whole-cluster view an existing name is taken as it is.
func (s *Service) resolve(ctx context.Context, call *gate.Call, name string) (string, error) {
	if call.WholeCluster {
		if _, err := call.Env.Connectors.GetConnector(ctx, name); err == nil {
			return name, nil
		}
	}
	if p := tenancy.IdentifierProblem(tenancy.Normalise(name)); p != "" {
		return "", portal.Invalid("name", "connector name %q %s", name, p)
	}
	return call.Scope.QualifyConnector(name), nil
}

// Get returns a connector with its status, and its masked configuration
// when showConfig is set.
func (s *Service) Get(ctx context.Context, scope portal.Scope, name string, showConfig bool) (connect.Connector, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read connectors")
	if err != nil {
		return connect.Connector{}, err
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return connect.Connector{}, err
	}
	c, err := call.Env.Connectors.GetConnector(ctx, full)
	if err != nil {
		return connect.Connector{}, err
	}
	v := s.view(ctx, call, c, showConfig)
	if s.restarts != nil {
		a, err := s.restarts.AutoRestartOf(ctx, call.Env.Zone, call.Env.Stage, full)
		switch {
		case err == nil:
			v.AutoRestart = s.autoRestartView(a, c)
		case !errors.Is(err, store.ErrNotFound):
			return connect.Connector{}, err
		}
	}
	return v, nil
}

// autoRestartsIn reads a stage's auto-restarts once, for a list.
func (s *Service) autoRestartsIn(ctx context.Context, call *gate.Call) (map[string]store.AutoRestart, error) {
	out := map[string]store.AutoRestart{}
	if s.restarts == nil {
		return out, nil
	}
	ars, err := s.restarts.AutoRestartsIn(ctx, call.Env.Zone, call.Env.Stage)
	for _, a := range ars {
		out[a.Connector] = a
	}
	return out, err
}

// Plugins lists the connector classes offered in a scope.
func (s *Service) Plugins(ctx context.Context, scope portal.Scope) ([]connect.ConnectorPlugin, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "list connector classes")
	if err != nil {
		return nil, err
	}
	return call.Env.Connectors.Plugins(ctx)
}

// Definition describes a connector class's settings.
func (s *Service) Definition(ctx context.Context, scope portal.Scope, class string) (connect.ConnectorDefinition, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read connector classes")
	if err != nil {
		return connect.ConnectorDefinition{}, err
	}
	return call.Env.Connectors.Definition(ctx, class)
}

// maxConnectorName bounds a connector's full name, as Kafka bounds topic
// names: the connector's own topics and groups are named after it.
const maxConnectorName = 249

// prepare checks and completes a configuration: the name, the topics
// qualified into the scope, and no topic patterns that could escape it.
func (s *Service) prepare(call *gate.Call, full string, cfg map[string]string, v *portal.Validation) map[string]string {
	out := maps.Clone(cfg)
	if out == nil {
		out = map[string]string{}
	}
	if strings.TrimSpace(out["connector.class"]) == "" {
		v.Add(portal.Missing("config.connector.class"))
	}
	if n, ok := out["name"]; ok && n != full && tenancy.Normalise(n) != tenancy.Normalise(full) && call.Scope.QualifyConnector(n) != full {
		v.Add(portal.Invalid("config.name", "config.name %q differs from the connector's name %s; leave it out", n, full))
	}
	out["name"] = full
	if _, ok := out["topics.regex"]; ok {
		v.Add(portal.Invalid("config.topics.regex", "topics.regex is not supported: list the topics in topics, so that the connector stays within your business unit"))
	}
	// Topics are qualified like topic names, which keeps connectors
	// inside the tenant.
	for _, key := range connect.ConnectorTopicKeys {
		raw, ok := out[key]
		if !ok {
			continue
		}
		var names []string
		for _, t := range strings.Split(raw, ",") {
			t = strings.TrimSpace(t)
			if t == "" {
				continue
			}
			if call.WholeCluster {
				// A Super Admin names any topic of the cluster as it is.
				if p := portal.TopicNameProblem(t); p != "" {
					v.Add(portal.Invalid("config."+key, "topic %q %s", t, p))
				}
				names = append(names, t)
				continue
			}
			if p := tenancy.IdentifierProblem(tenancy.Normalise(t)); p != "" {
				v.Add(portal.Invalid("config."+key, "topic %q %s", t, p))
				continue
			}
			if q := call.Scope.Qualify(t); len(q) > portal.MaxTopicName {
				v.Add(portal.Invalid("config."+key, "topic %s is %d characters long; Kafka allows %d", q, len(q), portal.MaxTopicName))
			} else {
				names = append(names, q)
			}
		}
		out[key] = strings.Join(names, ",")
	}
	return out
}

// validate asks the plugin about cfg and returns its problems as one
// validation error.
func validateConnector(ctx context.Context, call *gate.Call, cfg map[string]string, v *portal.Validation) error {
	problems, err := call.Env.Connectors.Validate(ctx, cfg["connector.class"], cfg)
	if err != nil {
		if ps := portal.Problems(err); len(ps) > 0 && ps[0].Kind.IsValidation() {
			for _, p := range ps {
				v.Add(p)
			}
			return v.Err()
		}
		return err
	}
	for _, p := range problems {
		v.Add(portal.Invalid("config."+p.Key, "%s", p.Message))
	}
	return v.Err()
}

// Create validates a configuration with its plugin and creates the
// connector, named "{prefix}{identifier}-connector".
func (s *Service) Create(ctx context.Context, scope portal.Scope, in connect.NewConnector) (connect.Connector, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "create connectors", portal.ActConnectorCreate, in.Name, func(ctx context.Context, call *gate.Call) (_ connect.Connector, err error) {
		var v portal.Validation
		full := ""
		if gate.Identifier(&v, "name", "name", in.Name) {
			if full = call.Scope.QualifyConnector(in.Name); len(full) > maxConnectorName {
				v.Add(portal.Invalid("name", "the full name %s is %d characters long; at most %d", full, len(full), maxConnectorName))
			}
		}
		if in.Config == nil {
			v.Add(portal.Missing("config"))
		}
		cfg := s.prepare(call, full, in.Config, &v)
		// A new connector has no stored secret that a mask could stand for.
		for _, k := range s.sensitive(ctx, call, cfg["connector.class"], cfg) {
			if connect.IsMask(cfg[k]) {
				v.Add(portal.Invalid("config."+k, "%s is the mask %s, not a value: send the real secret", k, connect.Mask))
			}
		}
		if err := v.Err(); err != nil {
			return connect.Connector{}, err
		}
		if err := validateConnector(ctx, call, cfg, &v); err != nil {
			return connect.Connector{}, err
		}
		secret := s.sensitive(ctx, call, cfg["connector.class"], cfg)
		if err := s.guard.Check(ctx, call, portal.ActConnectorCreate, rules.NewChange(rules.KindConnector, rules.OpCreate, full, connectorRule(call, full, cfg, secret), nil)); err != nil {
			return connect.Connector{}, err
		}
		if err := call.Pace(ctx); err != nil {
			return connect.Connector{}, err
		}
		var c platform.Connector
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActConnectorCreate, Resource: full,
			Do: func(ctx context.Context) (err error) {
				c, err = call.Env.Connectors.CreateConnector(ctx, full, cfg)
				return err
			},
			Confirm: &gate.Confirmation{What: "connector " + full + " was created", How: "GET the connector to see", Check: func(ctx context.Context) (bool, error) {
				got, err := call.Env.Connectors.GetConnector(ctx, full)
				if err == nil {
					c = got
					return true, nil
				}
				if portal.Is(err, portal.NotFound) {
					return false, nil
				}
				return false, err
			}},
		})
		if err != nil {
			return connect.Connector{}, err
		}
		s.keepDigests(ctx, call, full, cfg, secret)
		return s.view(ctx, call, c, true), nil
	})
}

// Update replaces a connector's configuration. A sensitive value sent back
// masked keeps the stored secret.
func (s *Service) Update(ctx context.Context, scope portal.Scope, name string, config map[string]string, ifMatch portal.IfMatch) (connect.Connector, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "update connectors", portal.ActConnectorUpdate, name, func(ctx context.Context, call *gate.Call) (_ connect.Connector, err error) {
		var v portal.Validation
		if config == nil {
			v.Add(portal.Missing("config"))
			return connect.Connector{}, v.Err()
		}
		full, err := s.resolve(ctx, call, name)
		if err != nil {
			return connect.Connector{}, err
		}
		unlock, err := s.guard.Lock(ctx, connectorLock(call, full))
		if err != nil {
			return connect.Connector{}, err
		}
		defer unlock()
		cur, err := call.Env.Connectors.GetConnector(ctx, full)
		if err != nil {
			return connect.Connector{}, err
		}
		if err := ifMatch.Check("connector "+full, s.version(cur)); err != nil {
			return connect.Connector{}, err
		}
		cfg := maps.Clone(config)
		if cfg["connector.class"] == "" {
			cfg["connector.class"] = cur.Class
		} else if cfg["connector.class"] != cur.Class {
			v.Add(portal.Invalid("config.connector.class", "the class of %s is %s and cannot change; create a new connector instead", full, cur.Class))
		}
		cfg = s.prepare(call, full, cfg, &v)
		var keep []string
		for _, k := range s.sensitive(ctx, call, cur.Class, cfg) {
			if connect.IsMask(cfg[k]) {
				if _, stored := cur.Config[k]; !stored {
					v.Add(portal.Invalid("config."+k, "%s is masked, but no value is stored for it: send the real value", k))
					continue
				}
				keep = append(keep, k)
			}
		}
		if err := v.Err(); err != nil {
			return connect.Connector{}, err
		}
		if err := validateConnector(ctx, call, cfg, &v); err != nil {
			return connect.Connector{}, err
		}
		secret := s.sensitive(ctx, call, cur.Class, cfg)
		ch := rules.NewChange(rules.KindConnector, rules.OpUpdate, full, connectorRule(call, full, cfg, secret), connectorRule(call, full, cur.Config, secret))
		if err := s.guard.Check(ctx, call, portal.ActConnectorUpdate, ch); err != nil {
			return connect.Connector{}, err
		}
		if err := call.Pace(ctx); err != nil {
			return connect.Connector{}, err
		}
		var c platform.Connector
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActConnectorUpdate, Resource: full, Changes: s.configChanges(ctx, call, cur, cfg),
			Do: func(ctx context.Context) (err error) {
				c, err = call.Env.Connectors.UpdateConnector(ctx, full, cfg, keep)
				return err
			}})
		if err != nil {
			return connect.Connector{}, err
		}
		s.keepDigests(ctx, call, full, cfg, secret)
		return s.view(ctx, call, c, true), nil
	})
}

// lifecycle runs one of delete, pause, resume and restart.
func (s *Service) lifecycle(ctx context.Context, scope portal.Scope, name, what string, action portal.Action, ifMatch portal.IfMatch,
	do func(platform.Connectors, string) error) error {
	return s.guard.Writing(ctx, scope, access.Write, what, action, name, func(ctx context.Context, call *gate.Call) (err error) {
		full, err := s.resolve(ctx, call, name)
		if err != nil {
			return err
		}
		unlock, err := s.guard.Lock(ctx, connectorLock(call, full))
		if err != nil {
			return err
		}
		defer unlock()
		if ifMatch != "" || action == portal.ActConnectorDelete {
			cur, err := call.Env.Connectors.GetConnector(ctx, full)
			if err != nil {
				return err
			}
			if err := ifMatch.Check("connector "+full, s.version(cur)); err != nil {
				return err
			}
			if action == portal.ActConnectorDelete {
				before := connectorRule(call, full, cur.Config, s.sensitive(ctx, call, cur.Class, cur.Config))
				if err := s.guard.Check(ctx, call, action, rules.NewChange(rules.KindConnector, rules.OpDelete, full, nil, before)); err != nil {
					return err
				}
			}
		}
		if err := call.Pace(ctx); err != nil {
			return err
		}
		err = s.guard.Write(ctx, call, gate.Change{Event: action, Resource: full,
			Do: func(context.Context) error { return do(call.Env.Connectors, full) }})
		if err == nil {
			// A person's pause, resume or restart starts the auto-restart's
			// backoff again; a delete ends it. The change is made either way.
			if rerr := s.resetAutoRestart(ctx, call.Env, full, action); rerr != nil {
				s.guard.Log().WarnContext(ctx, "the connector's auto-restart was not reset", "connector", full, "error", rerr)
			}
			if action == portal.ActConnectorDelete {
				s.forgetDigests(ctx, call, full)
			}
		}
		return err
	})
}

// Delete deletes a connector.
func (s *Service) Delete(ctx context.Context, scope portal.Scope, name string, ifMatch portal.IfMatch) error {
	return s.lifecycle(ctx, scope, name, "delete connectors", portal.ActConnectorDelete, ifMatch, func(c platform.Connectors, n string) error {
		return c.DeleteConnector(ctx, n)
	})
}

// Pause pauses a connector.
func (s *Service) Pause(ctx context.Context, scope portal.Scope, name string) error {
	return s.lifecycle(ctx, scope, name, "pause connectors", portal.ActConnectorPause, "", func(c platform.Connectors, n string) error {
		return c.PauseConnector(ctx, n)
	})
}

// Resume resumes a paused connector.
func (s *Service) Resume(ctx context.Context, scope portal.Scope, name string) error {
	return s.lifecycle(ctx, scope, name, "resume connectors", portal.ActConnectorResume, "", func(c platform.Connectors, n string) error {
		return c.ResumeConnector(ctx, n)
	})
}

// Restart restarts a connector and its tasks, or only the failed ones.
func (s *Service) Restart(ctx context.Context, scope portal.Scope, name string, onlyFailed bool) error {
	return s.lifecycle(ctx, scope, name, "restart connectors", portal.ActConnectorRestart, "", func(c platform.Connectors, n string) error {
		return c.RestartConnector(ctx, n, onlyFailed)
	})
}

// configChanges lists what an update changes, with secrets masked.
func (s *Service) configChanges(ctx context.Context, call *gate.Call, cur platform.Connector, next map[string]string) []trail.Change {
	secret := s.sensitive(ctx, call, cur.Class, next)
	show := func(k, v string) string {
		if v != "" && (slices.Contains(secret, k) || connect.IsSensitiveKey(k)) {
			return connect.Mask
		}
		return v
	}
	var out []trail.Change
	keys := slices.Sorted(maps.Keys(next))
	for k := range cur.Config {
		if _, ok := next[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		before, after := cur.Config[k], next[k]
		if before == after || connect.IsMask(after) {
			continue
		}
		out = append(out, trail.Change{Field: "config." + k, Before: show(k, before), After: show(k, after)})
	}
	return out
}

// Service implements the contract of the front doors.
var _ connect.ConnectorService = (*Service)(nil)
