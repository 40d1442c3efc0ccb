package config

import (
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// secretKeys hold secrets wherever they appear; their values never leave
// the process.
var secretKeys = map[string]bool{"api_secret": true, "client_secret": true, "password": true, "bearer_token": true, "secret": true}

// Redacted is the mark that replaces a secret.
const Redacted = "[redacted]"

// Effective renders the configuration the process runs with: the file
// after environment overrides and defaults, the business units and
// read-only switches of the database (from t, the tenancy in force), and
// every secret replaced by Redacted. API keys keep their first four
// characters, so that operators can tell which key is in use.
func (c *Config) Effective(t *tenancy.Tenancy) (string, error) {
	raw, err := yaml.Marshal(c)
	if err != nil {
		return "", err
	}
	var m map[string]any
	if err := yaml.Unmarshal(raw, &m); err != nil {
		return "", err
	}
	redact(m)
	if db, ok := m["database"].(map[string]any); ok {
		if u, ok := db["url"].(string); ok {
			db["url"] = redactURL(u)
		}
	}
	if s, ok := m["session"].(map[string]any); ok {
		if keys, ok := s["keys"].([]any); ok {
			for i := range keys {
				keys[i] = Redacted
			}
		}
	}
	if t != nil {
		addTenancy(m, t)
	}
	out, err := yaml.Marshal(m)
	if err != nil {
		return "", err
	}
	head := "# The configuration in force: the file, environment overrides and defaults,\n" +
		"# with the business units and read-only switches of the admin area. Secrets are redacted.\n"
	if len(c.Unknown) > 0 {
		head += "#\n# Keys of the file this release does not know, and ignores:\n"
		for _, k := range c.Unknown {
			head += "#   " + k + "\n"
		}
	}
	return head + string(out), nil
}

func redact(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			s, isString := val.(string)
			switch {
			case secretKeys[k] && isString && s != "":
				x[k] = Redacted
			case k == "api_key" && isString && s != "":
				x[k] = s[:min(4, len(s))] + "… " + Redacted
			default:
				redact(val)
			}
		}
	case []any:
		for _, e := range x {
			redact(e)
		}
	}
}

// addTenancy adds the admin area's units (source: portal) and switches.
func addTenancy(m map[string]any, t *tenancy.Tenancy) {
	zones, _ := m["landing_zones"].([]any)
	for _, zv := range zones {
		z, ok := zv.(map[string]any)
		if !ok {
			continue
		}
		id, _ := z["id"].(string)
		lz, ok := t.LandingZone(id)
		if !ok {
			continue
		}
		units, _ := z["business_units"].([]any)
		for _, uid := range lz.BusinessUnits {
			u, _ := t.Unit(uid)
			if u == nil || u.Source != tenancy.FromPortal {
				continue
			}
			units = append(units, map[string]any{"id": u.ID, "source": tenancy.FromPortal, "groups": map[string]any{
				"admin": u.AdminGroups, "developer": u.DeveloperGroups, "viewer": u.ViewerGroups}})
		}
		z["business_units"] = units
		var switches []any
		for _, st := range t.Stages() {
			if sw, ok := lz.Switch(st.Name); ok {
				entry := map[string]any{"stage": st.Name, "read_only": sw.ReadOnly, "reason": sw.Reason, "set_by": sw.SetBy,
					"set_at": sw.SetAt.UTC().Format(time.RFC3339)}
				if !sw.Until.IsZero() {
					entry["until"] = sw.Until.UTC().Format(time.RFC3339)
				}
				switches = append(switches, entry)
			}
		}
		if len(switches) > 0 {
			z["read_only_switches"] = switches
		}
	}
}
