package service

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// planConnector compares a connector's class and configuration. Secrets
// are compared by presence only (their stored values cannot be read):
// one declared but not stored is a change; an update sends every declared
// secret with the value the client read from its environment.
func (s *Declarations) planConnector(ctx context.Context, call *gate.Call, obs *observed, r portal.Resource) (*step, error) {
	st := &step{change: portal.PlannedChange{Kind: "connector"}}
	scope := call.Named()
	d := r.Connector
	var v portal.Validation
	full := ""
	if ident := s.rebase(call, r.Name); identifier(&v, "name", "name", ident) {
		full = call.Scope.QualifyConnector(ident)
	}
	cfg := map[string]string{}
	for _, k := range sortedKeys(d.Config) {
		switch {
		case k == "connector.class":
			v.Add(portal.Invalid("config."+k, "give the class in spec.class"))
		case k == "name":
			v.Add(portal.Invalid("config."+k, "the connector's name is metadata.name; leave config.name out"))
		case portal.IsSensitiveKey(k):
			v.Add(portal.Invalid("config."+k, "%s holds a secret: declare it under spec.secrets with fromEnv, never in the file", k))
		case portal.IsConnectorTopicKey(k):
			var names []string
			for _, t := range portal.SplitTopics(d.Config[k]) {
				names = append(names, s.rebase(call, t))
			}
			cfg[k] = strings.Join(names, ",")
		default:
			cfg[k] = d.Config[k]
		}
	}
	if strings.TrimSpace(d.Class) == "" {
		v.Add(portal.Missing("class"))
	}
	cfg["connector.class"] = d.Class
	cfg = s.connectors.prepare(call, full, cfg, &v)
	st.change.Name, st.key = full, "connector/"+full
	for _, t := range portal.ConnectorTopics(cfg) {
		st.needs = append(st.needs, "topic/"+t)
	}
	cur, exists := obs.connector(full)
	send := maps.Clone(cfg)
	stored := map[string]bool{}
	before := map[string]string{}
	if exists {
		sensitive := s.connectors.sensitive(ctx, call, cur.Class, cur.Config)
		for k, val := range cur.Config {
			switch {
			case slices.Contains(sensitive, k):
				stored[k] = true
			case k == "name" || k == "connector.class":
			case slices.Contains(portal.ConnectorPlatformKeys, k):
				if _, declared := d.Config[k]; declared {
					before[k] = val
				}
			default:
				before[k] = val
			}
		}
		st.state = cur.ID + " " + cur.Class
		if cur.Class != d.Class && d.Class != "" {
			v.Add(portal.Invalid("class", "the class of %s is %s and cannot change; declare a connector under another name instead", full, cur.Class))
		}
		st.diff("class", ptr(cur.Class), ptr(d.Class))
	} else {
		st.diff("class", nil, ptr(d.Class))
	}
	after := maps.Clone(cfg)
	delete(after, "name")
	delete(after, "connector.class")
	st.diffMaps("config.", before, after)
	var unsent []string
	for _, k := range sortedKeys(d.Secrets) {
		ref := d.Secrets[k]
		switch {
		case ref.Value != "":
			send[k] = ref.Value
			if !stored[k] {
				st.diff("secrets."+k, nil, ptr("(from $"+ref.FromEnv+")"))
			}
		case stored[k]:
			unsent = append(unsent, k)
		default:
			v.Add(portal.Invalid("secrets."+k, "%s has no value: set the environment variable %s where the document is sent from (portalctl reads it)", k, cmp.Or(ref.FromEnv, "named by fromEnv")))
		}
	}
	for _, k := range sortedKeys(stored) {
		if _, declared := d.Secrets[k]; !declared {
			st.diff("secrets."+k, ptr("(set)"), nil)
		}
	}
	if len(st.change.Diff) > 0 {
		// Confluent Cloud replaces a configuration whole and never reveals
		// a stored secret, so an update must send every secret again.
		for _, k := range unsent {
			v.Add(portal.Invalid("secrets."+k, "%s must be sent with the update (Confluent Cloud replaces a connector's configuration whole and never reveals a stored secret): set the environment variable %s where the document is sent from",
				k, cmp.Or(d.Secrets[k].FromEnv, "named by fromEnv")))
		}
	}
	if exists && len(st.change.Diff) > 0 || !exists {
		// The plugin checks the configuration as the create or update
		// will send it; nothing changes upstream.
		if len(v.Problems) == 0 {
			if err := validateConnector(ctx, call, send, &v); err != nil && len(v.Problems) == 0 {
				return nil, err
			}
			for _, p := range v.Problems {
				// The plugin names a secret by its setting; the document
				// declares it under secrets.
				if k, ok := strings.CutPrefix(p.Field, "config."); ok {
					if _, secret := d.Secrets[k]; secret {
						p.Field = "secrets." + k
					}
				}
			}
		}
	}
	st.change.Errors = v.Problems
	st.do = func(ctx context.Context) error {
		if !exists {
			_, err := s.connectors.Create(ctx, scope, portal.NewConnector{Name: full, Config: send})
			return err
		}
		_, err := s.connectors.Update(ctx, scope, full, send)
		return err
	}
	st.decide(exists)
	return st, nil
}
