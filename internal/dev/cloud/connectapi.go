package cloud

import (
	"net/http"
	"sort"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
)

// connectRoutes serve each cluster's Connect v1 API under base.
func (c *CloudAPI) connectRoutes(mux *http.ServeMux, base string) {
	// on runs h with the cluster the path names, or answers 404.
	on := func(h func(w http.ResponseWriter, r *http.Request, k *Connect)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			env, cluster := r.PathValue("env"), r.PathValue("cluster")
			k := c.Cluster(env, cluster)
			if k == nil {
				writeConnectError(w, http.StatusNotFound, "cluster "+cluster+" not found in environment "+env)
				return
			}
			h(w, r, k)
		}
	}
	// answer writes a connector operation's outcome: err, or status with
	// body's value (nothing when body is nil).
	answer := func(w http.ResponseWriter, status int, err error, body func() any) {
		switch {
		case err != nil:
			writeConnectFault(w, err)
		case body == nil:
			w.WriteHeader(status)
		default:
			writeJSON(w, status, body())
		}
	}
	mux.HandleFunc("GET "+base+"/connectors", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		all, _ := k.ListConnectors(r.Context())
		if r.URL.Query().Get("expand") == "" {
			names := make([]string, len(all))
			for i, x := range all {
				names[i] = x.Name
			}
			writeJSON(w, http.StatusOK, names)
			return
		}
		out := map[string]any{}
		for _, x := range all {
			out[x.Name] = map[string]any{"id": map[string]string{"id": x.ID, "id_type": "ID"},
				"info": connectorInfo(r, x), "status": connectorStatus(x)}
		}
		writeJSON(w, http.StatusOK, out)
	}))
	mux.HandleFunc("POST "+base+"/connectors", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		var in struct {
			Name   string            `json:"name"`
			Config map[string]string `json:"config"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeConnectFault(w, err)
			return
		}
		x, err := k.CreateConnector(r.Context(), in.Name, in.Config)
		answer(w, http.StatusCreated, err, func() any { return connectorInfo(r, x) })
	}))
	mux.HandleFunc("GET "+base+"/connector-plugins", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		ps, _ := k.Plugins(r.Context())
		out := make([]map[string]string, len(ps))
		for i, p := range ps {
			out[i] = map[string]string{"class": p.Class, "type": p.Type, "version": "1.0.0"}
		}
		writeJSON(w, http.StatusOK, out)
	}))
	mux.HandleFunc("PUT "+base+"/connector-plugins/{class}/config/validate", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		validate(w, r, k, r.PathValue("class"))
	}))
	one := base + "/connectors/{name}"
	mux.HandleFunc("GET "+one, on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		x, err := k.GetConnector(r.Context(), r.PathValue("name"))
		answer(w, http.StatusOK, err, func() any { return connectorInfo(r, x) })
	}))
	mux.HandleFunc("DELETE "+one, on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		err := k.DeleteConnector(r.Context(), r.PathValue("name"))
		answer(w, http.StatusOK, err, func() any { return map[string]any{"error": nil} })
	}))
	mux.HandleFunc("GET "+one+"/status", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		x, err := k.GetConnector(r.Context(), r.PathValue("name"))
		answer(w, http.StatusOK, err, func() any { return connectorStatus(x) })
	}))
	mux.HandleFunc("GET "+one+"/config", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		x, err := k.GetConnector(r.Context(), r.PathValue("name"))
		answer(w, http.StatusOK, err, func() any { return placed(r, x.Config) })
	}))
	mux.HandleFunc("PUT "+one+"/config", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		var cfg map[string]string
		if err := decodeBody(r, &cfg); err != nil {
			writeConnectFault(w, err)
			return
		}
		// Confluent Cloud replaces the whole configuration.
		x, err := k.UpdateConnector(r.Context(), r.PathValue("name"), cfg, nil)
		answer(w, http.StatusOK, err, func() any { return connectorInfo(r, x) })
	}))
	mux.HandleFunc("PUT "+one+"/pause", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		answer(w, http.StatusAccepted, k.PauseConnector(r.Context(), r.PathValue("name")), nil)
	}))
	mux.HandleFunc("PUT "+one+"/resume", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		answer(w, http.StatusAccepted, k.ResumeConnector(r.Context(), r.PathValue("name")), nil)
	}))
	// Cloud's restart takes no parameters (restartConnectv1Connector):
	// Kafka Connect's includeTasks and onlyFailed are refused, not ignored.
	mux.HandleFunc("POST "+one+"/restart", on(func(w http.ResponseWriter, r *http.Request, k *Connect) {
		if r.URL.RawQuery != "" {
			writeConnectError(w, http.StatusBadRequest, "the restart of a connector takes no parameters: "+r.URL.RawQuery)
			return
		}
		answer(w, http.StatusAccepted, k.RestartConnector(r.Context(), r.PathValue("name"), false), nil)
	}))
}

func connectorInfo(r *http.Request, x platform.Connector) map[string]any {
	tasks := []map[string]any{}
	for _, t := range x.Tasks {
		tasks = append(tasks, map[string]any{"connector": x.Name, "task": t.ID})
	}
	return map[string]any{"name": x.Name, "type": x.Type, "config": placed(r, x.Config), "tasks": tasks}
}

// placed is a connector's configuration as Confluent Cloud shows it: with
// the keys Cloud fills in itself (where the connector runs: the
// environment, the provider and region, the cluster's endpoint).
func placed(r *http.Request, cfg map[string]string) map[string]string {
	out := make(map[string]string, len(cfg)+4)
	for k, v := range cfg {
		out[k] = v
	}
	out["cloud.environment"] = r.PathValue("env")
	out["cloud.provider"] = "aws"
	out["kafka.region"] = "eu-central-1"
	out["kafka.endpoint"] = "SASL_SSL://" + r.PathValue("cluster") + ".eu-central-1.aws.confluent.cloud:9092"
	return out
}

func connectorStatus(x platform.Connector) map[string]any {
	state := x.State
	if state == connect.StateDegraded {
		state = connect.StateRunning // Connect reports the connector running; a task failed
	}
	tasks := []map[string]any{}
	for _, t := range x.Tasks {
		tasks = append(tasks, map[string]any{"id": t.ID, "state": t.State, "worker_id": "dev", "msg": t.Trace})
	}
	return map[string]any{"name": x.Name, "type": x.Type, "connector": map[string]string{"state": state, "worker_id": "dev", "trace": x.Trace},
		"tasks": tasks}
}

func validate(w http.ResponseWriter, r *http.Request, k *Connect, class string) {
	var cfg map[string]string
	if err := decodeBody(r, &cfg); err != nil {
		writeConnectFault(w, err)
		return
	}
	def, err := k.Definition(r.Context(), class)
	if err != nil {
		// Confluent Cloud answers an unknown plugin with 404.
		writeConnectError(w, http.StatusNotFound, "plugin "+class+" not found")
		return
	}
	problems, err := k.Validate(r.Context(), class, cfg)
	if err != nil {
		writeConnectFault(w, err)
		return
	}
	byKey := map[string][]string{}
	for _, p := range problems {
		byKey[p.Key] = append(byKey[p.Key], p.Message)
	}
	var configs []map[string]any
	seen := map[string]bool{}
	for _, s := range def.Settings {
		seen[s.Name] = true
		errs := byKey[s.Name]
		if errs == nil {
			errs = []string{}
		}
		recommended := s.Recommended
		if recommended == nil {
			recommended = []string{}
		}
		configs = append(configs, map[string]any{
			"definition": map[string]any{"name": s.Name, "type": s.Type, "required": s.Required, "default_value": s.Default,
				"importance": "HIGH", "documentation": s.Documentation, "group": "Settings", "display_name": s.DisplayName},
			"value": map[string]any{"name": s.Name, "value": cfg[s.Name], "recommended_values": recommended, "errors": errs, "visible": true},
		})
	}
	var unknown []string
	for key := range byKey {
		if !seen[key] {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	for _, key := range unknown {
		configs = append(configs, map[string]any{"definition": map[string]any{"name": key, "type": "STRING"},
			"value": map[string]any{"name": key, "value": cfg[key], "recommended_values": []string{}, "errors": byKey[key], "visible": true}})
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": class, "error_count": len(problems), "groups": []string{"Settings"}, "configs": configs})
}
