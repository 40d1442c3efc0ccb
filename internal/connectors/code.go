package connectors

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// AsCode is the connectors' part of resources as code.
func (s *Service) AsCode() plans.Kind { return connectorCode{s} }

type connectorCode struct{ s *Service }

func (connectorCode) Kind() string          { return portal.KindConnector }
func (connectorCode) Action() access.Action { return access.Write }
func (connectorCode) Prunes() bool          { return true }

// observedConnectors are the environment's connectors with their
// settings, and the auto-restarts that are on, by connector.
type observedConnectors struct {
	all      []platform.Connector
	restarts map[string]store.AutoRestart
}

// Observe lists the environment's connectors with their settings, and
// reads the stage's auto-restarts once.
func (k connectorCode) Observe(ctx context.Context, call *gate.Call, _ []portal.Resource) (plans.Observed, error) {
	all, err := call.Env.Connectors.ListConnectors(ctx)
	if err != nil {
		return nil, err
	}
	restarts, err := k.s.autoRestartsIn(ctx, call)
	return observedConnectors{all: all, restarts: restarts}, err
}

func connectorNamed(all []platform.Connector, name string) (platform.Connector, bool) {
	for _, c := range all {
		if c.Name == name {
			return c, true
		}
	}
	return platform.Connector{}, false
}

// Plan compares a connector's class and configuration. Secrets
// are compared by presence only (their stored values cannot be read):
// one declared but not stored is a change; an update sends every declared
// secret with the value the client read from its environment.
func (k connectorCode) Plan(ctx context.Context, call *gate.Call, o plans.Observed, r portal.Resource) (*plans.Step, error) {
	s := k.s
	st := &plans.Step{Change: ascode.PlannedChange{Kind: "connector"}}
	scope := call.Named()
	d := portal.DeclOf[portal.ConnectorDecl](r)
	var v portal.Validation
	full := ""
	if ident := s.guard.Tenancy().Rebase(call.Scope.Unit, r.Name); gate.Identifier(&v, "name", "name", ident) {
		full = call.Scope.QualifyConnector(ident)
	}
	cfg := s.prepare(call, full, k.declaredConfig(call, d, &v), &v)
	st.Change.Name, st.Key = full, "connector/"+full
	for _, t := range connect.ConnectorTopics(cfg) {
		st.Needs = append(st.Needs, "topic/"+t)
	}
	obs := o.(observedConnectors)
	cur, exists := connectorNamed(obs.all, full)
	before, stored := map[string]string{}, map[string]bool{}
	var changed []string
	if exists {
		before, stored = k.current(ctx, call, cur, d)
		changed = s.changedSecrets(call, full, d.Secrets, s.digestsOf(ctx, call, full))
		st.State = cur.ID + " " + cur.Class
		if cur.Class != d.Class && d.Class != "" {
			v.Add(portal.Invalid("class", "the class of %s is %s and cannot change; declare a connector under another name instead", full, cur.Class))
		}
		st.Diff("class", plans.Ptr(cur.Class), plans.Ptr(d.Class))
	} else {
		st.Diff("class", nil, plans.Ptr(d.Class))
	}
	after := maps.Clone(cfg)
	delete(after, "name")
	delete(after, "connector.class")
	st.DiffMaps("config.", before, after)
	send := planSecrets(st, d, cfg, stored, changed, &v)
	configChanged := !exists || len(st.Change.Diff) > 0
	if configChanged {
		if err := validateDeclared(ctx, call, d, send, &v); err != nil {
			return nil, err
		}
	}
	restart := k.planAutoRestart(st, d, obs.restarts, full, &v)
	st.Change.Errors = v.Problems
	// Secrets are judged masked: cfg holds none (a document declares them
	// apart), so a policy sees the declared settings only.
	rule := rules.NewChange(rules.KindConnector, "", full, connectorRule(call, full, cfg, nil), nil)
	if exists {
		rule.Before = connectorRule(call, full, cur.Config, slices.Collect(maps.Keys(stored)))
	}
	st.Rule = &rule
	st.Do = func(ctx context.Context) error {
		var err error
		switch {
		case !exists:
			_, err = s.Create(ctx, scope, connect.NewConnector{Name: full, Config: send})
		case configChanged:
			_, err = s.Update(ctx, scope, full, send, "")
		}
		if err == nil && restart != nil {
			_, err = s.SetAutoRestart(ctx, scope, full, *restart)
		}
		return err
	}
	st.Decide(exists)
	return st, nil
}

// planAutoRestart diffs a declared auto-restart switch against the
// stage's, and returns it when the apply must set it (nil: leave it).
func (k connectorCode) planAutoRestart(st *plans.Step, d *portal.ConnectorDecl, on map[string]store.AutoRestart, full string, v *portal.Validation) *portal.AutoRestartSpec {
	if d.AutoRestart == nil {
		return nil
	}
	want := *d.AutoRestart
	if want.MaxRestarts < 0 || want.MaxRestarts > connect.MaxAutoRestarts {
		v.Add(portal.Invalid("autoRestart.maxRestarts", "must be between 0 (no limit) and %d", connect.MaxAutoRestarts))
	}
	cur, isOn := on[full]
	before, after := describeAutoRestart(isOn, cur.MaxRestarts), describeAutoRestart(want.Enabled, want.MaxRestarts)
	if before == after {
		return nil
	}
	st.Diff("autoRestart", plans.Ptr(before), plans.Ptr(after))
	return &want
}

// declaredConfig is a declared connector's configuration as a create
// takes it: the class, topics by identifier rebased to the stage, and a
// problem for each setting a document must not carry.
func (k connectorCode) declaredConfig(call *gate.Call, d *portal.ConnectorDecl, v *portal.Validation) map[string]string {
	cfg := map[string]string{}
	for _, key := range slices.Sorted(maps.Keys(d.Config)) {
		switch {
		case key == "connector.class":
			v.Add(portal.Invalid("config."+key, "give the class in spec.class"))
		case key == "name":
			v.Add(portal.Invalid("config."+key, "the connector's name is metadata.name; leave config.name out"))
		case connect.IsSensitiveKey(key):
			v.Add(portal.Invalid("config."+key, "%s holds a secret: declare it under spec.secrets with fromEnv, never in the file", key))
		case connect.IsConnectorTopicKey(key):
			var names []string
			for _, t := range connect.SplitTopics(d.Config[key]) {
				names = append(names, k.s.guard.Tenancy().Rebase(call.Scope.Unit, t))
			}
			cfg[key] = strings.Join(names, ",")
		default:
			cfg[key] = d.Config[key]
		}
	}
	if strings.TrimSpace(d.Class) == "" {
		v.Add(portal.Missing("class"))
	}
	cfg["connector.class"] = d.Class
	return cfg
}

// current is an existing connector's settings as a plan compares them
// (the settings the Cloud fills in only when declared) and its stored
// secrets, by key.
func (k connectorCode) current(ctx context.Context, call *gate.Call, cur platform.Connector, d *portal.ConnectorDecl) (map[string]string, map[string]bool) {
	before, stored := map[string]string{}, map[string]bool{}
	sensitive := k.s.sensitive(ctx, call, cur.Class, cur.Config)
	for key, val := range cur.Config {
		switch {
		case slices.Contains(sensitive, key):
			stored[key] = true
		case key == "name" || key == "connector.class":
		case slices.Contains(connect.ConnectorPlatformKeys, key):
			if _, declared := d.Config[key]; declared {
				before[key] = val
			}
		default:
			before[key] = val
		}
	}
	return before, stored
}

// planSecrets diffs the declared secrets against the stored ones (by
// presence, and by digest where the portal kept the one it sent:
// changed) and returns the configuration to send, with every secret
// value the client read. Confluent Cloud replaces a configuration whole
// and never reveals a stored secret, so an update must send them all.
func planSecrets(st *plans.Step, d *portal.ConnectorDecl, cfg map[string]string, stored map[string]bool, changed []string, v *portal.Validation) map[string]string {
	send := maps.Clone(cfg)
	var unsent []string
	for _, key := range slices.Sorted(maps.Keys(d.Secrets)) {
		ref := d.Secrets[key]
		switch {
		case ref.Value != "":
			send[key] = ref.Value
			switch {
			case !stored[key]:
				st.Diff("secrets."+key, nil, plans.Ptr("(from $"+ref.FromEnv+")"))
			case slices.Contains(changed, key):
				st.Diff("secrets."+key, plans.Ptr("(set)"), plans.Ptr("(changed, from $"+ref.FromEnv+")"))
			}
		case stored[key]:
			unsent = append(unsent, key)
		default:
			v.Add(portal.Invalid("secrets."+key, "%s has no value: set the environment variable %s where the document is sent from (portalctl reads it)", key, cmp.Or(ref.FromEnv, "named by fromEnv")))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(stored)) {
		if _, declared := d.Secrets[key]; !declared {
			st.Diff("secrets."+key, plans.Ptr("(set)"), nil)
		}
	}
	if len(st.Change.Diff) > 0 {
		for _, key := range unsent {
			v.Add(portal.Invalid("secrets."+key, "%s must be sent with the update (Confluent Cloud replaces a connector's configuration whole and never reveals a stored secret): set the environment variable %s where the document is sent from",
				key, cmp.Or(d.Secrets[key].FromEnv, "named by fromEnv")))
		}
	}
	return send
}

// validateDeclared asks the plugin about the configuration as the create
// or update will send it (nothing changes upstream), once nothing else is
// wrong; a secret's problem is named where the document declares it.
func validateDeclared(ctx context.Context, call *gate.Call, d *portal.ConnectorDecl, send map[string]string, v *portal.Validation) error {
	if len(v.Problems) > 0 {
		return nil
	}
	if err := validateConnector(ctx, call, send, v); err != nil && len(v.Problems) == 0 {
		return err
	}
	for _, p := range v.Problems {
		if key, ok := strings.CutPrefix(p.Field, "config."); ok {
			if _, secret := d.Secrets[key]; secret {
				p.Field = "secrets." + key
			}
		}
	}
	return nil
}

// Prune plans deleting the unit's connectors the document does not
// declare; each frees the topics it names, whose deletes wait for it.
func (k connectorCode) Prune(call *gate.Call, o plans.Observed, keep map[string]bool) []*plans.Step {
	scope := call.Named()
	var out []*plans.Step
	for _, c := range o.(observedConnectors).all {
		if !call.Scope.Owns(c.Name) || !strings.HasSuffix(c.Name, tenancy.ConnectorSuffix) || keep["connector/"+c.Name] {
			continue
		}
		name := c.Name
		st := &plans.Step{Key: "connector/" + name, State: c.ID, Change: ascode.PlannedChange{Kind: "connector", Name: name, Index: -1, Action: ascode.ActionDelete,
			Identifier: strings.TrimSuffix(call.Scope.Identifier(name), tenancy.ConnectorSuffix)}}
		st.Diff("class", plans.Ptr(c.Class), nil)
		rule := rules.NewChange(rules.KindConnector, rules.OpDelete, name, nil, connectorRule(call, name, c.Config, nil))
		st.Rule = &rule
		st.Do = func(ctx context.Context) error { return k.s.Delete(ctx, scope, name, "") }
		for _, t := range connect.ConnectorTopics(c.Config) {
			st.Frees = append(st.Frees, "topic/"+t)
		}
		out = append(out, st)
	}
	return out
}

// Export declares the unit's connectors: settings without name and class,
// topics by identifier, secrets as environment variables to read them
// from (SCADA_<CONNECTOR>_<KEY>).
func (k connectorCode) Export(ctx context.Context, call *gate.Call, o plans.Observed) ([]portal.Resource, error) {
	scope := call.Named()
	obs := o.(observedConnectors)
	var out []portal.Resource
	for _, c := range obs.all {
		if !call.Scope.Owns(c.Name) || !strings.HasSuffix(c.Name, tenancy.ConnectorSuffix) {
			continue
		}
		ident := strings.TrimSuffix(call.Scope.Identifier(c.Name), tenancy.ConnectorSuffix)
		sensitive := k.s.sensitive(ctx, call, c.Class, c.Config)
		decl := &portal.ConnectorDecl{Class: c.Class, Config: map[string]string{}}
		for k, v := range c.Config {
			switch {
			case k == "name" || k == "connector.class" || slices.Contains(connect.ConnectorPlatformKeys, k):
			case slices.Contains(sensitive, k):
				if decl.Secrets == nil {
					decl.Secrets = map[string]portal.SecretRef{}
				}
				decl.Secrets[k] = portal.SecretRef{FromEnv: envName(scope.BU, ident, k)}
			case connect.IsConnectorTopicKey(k):
				var names []string
				for _, t := range connect.SplitTopics(v) {
					names = append(names, call.Scope.Identifier(t))
				}
				decl.Config[k] = strings.Join(names, ",")
			default:
				decl.Config[k] = v
			}
		}
		if a, on := obs.restarts[c.Name]; on {
			decl.AutoRestart = &portal.AutoRestartSpec{Enabled: true, MaxRestarts: a.MaxRestarts}
		}
		out = append(out, portal.Resource{Kind: portal.KindConnector, Name: ident, Spec: decl})
	}
	return out, nil
}

// envName suggests the environment variable of a connector's secret:
// SCADA_ORDERS_SINK_KAFKA_API_SECRET.
func envName(parts ...string) string {
	s := strings.ToUpper(strings.Join(parts, "_"))
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}
