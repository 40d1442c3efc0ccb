package embedded

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// CloudAPI serves the dev stand-ins over HTTP in the shapes of Confluent
// Cloud's published API documents (Connect v1, IAM v2 service accounts and
// role bindings, identity providers v2 identity pools), with Basic auth, so
// that dev mode, and serve-mode replicas pointed at a dev instance, use the
// production adapters. It is mounted at /dev/cloud in dev mode.
type CloudAPI struct {
	key, secret string
	org         *Org

	mu        sync.Mutex
	clusters  map[string]*Connect // "env-.../lkc-..."
	telemetry map[string]*Telemetry
}

// NewCloudAPI serves org and the clusters added with AddCluster.
func NewCloudAPI(org *Org, key, secret string) *CloudAPI {
	return &CloudAPI{key: key, secret: secret, org: org, clusters: map[string]*Connect{}}
}

// AddCluster serves a cluster's managed connectors.
func (c *CloudAPI) AddCluster(environmentID, clusterID string, k *Connect) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clusters[environmentID+"/"+clusterID] = k
}

// Cluster returns a cluster's connectors stand-in.
func (c *CloudAPI) Cluster(environmentID, clusterID string) *Connect {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clusters[environmentID+"/"+clusterID]
}

func (c *CloudAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if u, p, ok := r.BasicAuth(); !ok || u != c.key || p != c.secret {
		w.Header().Set("WWW-Authenticate", `Basic realm="Confluent Cloud (dev stand-in)"`)
		writeError(w, http.StatusUnauthorized, "Unauthorized: a Cloud API key is required")
		return
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case len(parts) >= 6 && parts[0] == "connect" && parts[1] == "v1" && parts[2] == "environments" && parts[4] == "clusters":
		k := c.Cluster(parts[3], parts[5])
		if k == nil {
			writeError(w, http.StatusNotFound, "cluster "+parts[5]+" not found in environment "+parts[3])
			return
		}
		c.connect(w, r, k, parts[6:])
	case len(parts) >= 3 && parts[0] == "iam" && parts[1] == "v2" && parts[2] == "service-accounts":
		c.serviceAccounts(w, r, parts[3:])
	case len(parts) >= 3 && parts[0] == "iam" && parts[1] == "v2" && parts[2] == "role-bindings":
		c.roleBindings(w, r, parts[3:])
	case len(parts) >= 5 && parts[0] == "iam" && parts[1] == "v2" && parts[2] == "identity-providers" && parts[4] == "identity-pools":
		c.pools(w, r, c.org.PoolsFor(parts[3]), parts[5:])
	case len(parts) == 4 && parts[0] == "v2" && parts[1] == "metrics" && parts[2] == "cloud" && parts[3] == "query" && r.Method == http.MethodPost:
		c.metricsQuery(w, r)
	default:
		writeError(w, http.StatusNotFound, "no such endpoint in the dev stand-in")
	}
}

// writeError answers in the IAM APIs' error shape, which the Connect API's
// clients also read: {"errors": [{"status", "detail"}]}.
func writeError(w http.ResponseWriter, status int, detail string) {
	writeJSON(w, status, map[string]any{"errors": []map[string]string{{"status": strconv.Itoa(status), "detail": detail}}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeFault answers a stand-in's domain error with the status Confluent
// Cloud would use.
func writeFault(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	switch portal.KindOf(err) {
	case portal.NotFound:
		status = http.StatusNotFound
	case portal.AlreadyExists:
		status = http.StatusConflict
	case portal.InvalidParameter, portal.MissingParameter:
		status = http.StatusBadRequest
	case portal.UpstreamTimeout:
		status = http.StatusGatewayTimeout
	}
	msg := err.Error()
	if ps := portal.Problems(err); len(ps) > 0 {
		msg = ps[0].Message
	}
	writeError(w, status, msg)
}

func decodeBody(r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20))
	if err := dec.Decode(v); err != nil {
		return portal.New(portal.InvalidParameter, "the request body is not valid JSON: %v", err)
	}
	return nil
}

// page slices a list for page_size/page_token and sets metadata.next.
func page[T any](r *http.Request, items []T) map[string]any {
	size, _ := strconv.Atoi(r.URL.Query().Get("page_size"))
	if size <= 0 || size > 100 {
		size = 100
	}
	start, _ := strconv.Atoi(r.URL.Query().Get("page_token"))
	start = min(max(start, 0), len(items))
	end := min(start+size, len(items))
	meta := map[string]any{}
	if end < len(items) {
		q := r.URL.Query()
		q.Set("page_token", strconv.Itoa(end))
		meta["next"] = (&url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawQuery: q.Encode()}).String()
	}
	data := items[start:end]
	if data == nil {
		data = []T{}
	}
	return map[string]any{"api_version": "iam/v2", "metadata": meta, "data": data}
}

type accountJSON struct {
	APIVersion  string `json:"api_version"`
	Kind        string `json:"kind"`
	ID          string `json:"id"`
	DisplayName string `json:"display_name"`
	Description string `json:"description"`
}

func accountOut(a platform.ServiceAccount) accountJSON {
	return accountJSON{APIVersion: "iam/v2", Kind: "ServiceAccount", ID: a.ID, DisplayName: a.DisplayName, Description: a.Description}
}

func (c *CloudAPI) serviceAccounts(w http.ResponseWriter, r *http.Request, rest []string) {
	iam := c.org.IAMFor(platform.IAMScope{})
	ctx := r.Context()
	switch {
	case len(rest) == 0 && r.Method == http.MethodGet:
		all, _ := iam.ListServiceAccounts(ctx)
		out := make([]accountJSON, len(all))
		for i, a := range all {
			out[i] = accountOut(a)
		}
		writeJSON(w, http.StatusOK, page(r, out))
	case len(rest) == 0 && r.Method == http.MethodPost:
		var in struct {
			DisplayName string `json:"display_name"`
			Description string `json:"description"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		a, err := iam.CreateServiceAccount(ctx, in.DisplayName, in.Description)
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, accountOut(a))
	case len(rest) == 1 && r.Method == http.MethodGet:
		a, err := iam.GetServiceAccount(ctx, rest[0])
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, accountOut(a))
	case len(rest) == 1 && r.Method == http.MethodDelete:
		if err := iam.DeleteServiceAccount(ctx, rest[0]); err != nil {
			writeFault(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
	}
}

type bindingJSON struct {
	APIVersion string `json:"api_version"`
	Kind       string `json:"kind"`
	ID         string `json:"id"`
	Principal  string `json:"principal"`
	RoleName   string `json:"role_name"`
	CRNPattern string `json:"crn_pattern"`
}

func (c *CloudAPI) roleBindings(w http.ResponseWriter, r *http.Request, rest []string) {
	ctx := r.Context()
	switch {
	case len(rest) == 0 && r.Method == http.MethodGet:
		q := r.URL.Query()
		if q.Get("crn_pattern") == "" {
			writeError(w, http.StatusBadRequest, "crn_pattern is required")
			return
		}
		var out []bindingJSON
		for _, b := range c.org.Bindings(q.Get("principal"), q.Get("crn_pattern")) {
			out = append(out, bindingJSON{APIVersion: "iam/v2", Kind: "RoleBinding", ID: b.ID, Principal: c.org.BindingPrincipal(b.ID),
				RoleName: b.Role, CRNPattern: b.CRN})
		}
		if role := q.Get("role_name"); role != "" {
			kept := out[:0]
			for _, b := range out {
				if b.RoleName == role {
					kept = append(kept, b)
				}
			}
			out = kept
		}
		writeJSON(w, http.StatusOK, page(r, out))
	case len(rest) == 0 && r.Method == http.MethodPost:
		var in bindingJSON
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		if in.Principal == "" || in.RoleName == "" || in.CRNPattern == "" {
			writeError(w, http.StatusBadRequest, "principal, role_name and crn_pattern are required")
			return
		}
		b, err := c.org.CreateBinding(ctx, in.Principal, in.RoleName, in.CRNPattern)
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, bindingJSON{APIVersion: "iam/v2", Kind: "RoleBinding", ID: b.ID, Principal: in.Principal,
			RoleName: b.Role, CRNPattern: b.CRN})
	case len(rest) == 1 && r.Method == http.MethodDelete:
		if err := c.org.IAMFor(platform.IAMScope{}).DeleteRoleBinding(ctx, rest[0]); err != nil {
			writeFault(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
	}
}

type poolJSON struct {
	APIVersion    string `json:"api_version"`
	Kind          string `json:"kind"`
	ID            string `json:"id"`
	DisplayName   string `json:"display_name"`
	Description   string `json:"description"`
	IdentityClaim string `json:"identity_claim"`
	Filter        string `json:"filter"`
	State         string `json:"state,omitempty"`
}

func poolOut(p platform.IdentityPool) poolJSON {
	return poolJSON{APIVersion: "iam/v2", Kind: "IdentityPool", ID: p.ID, DisplayName: p.DisplayName, Description: p.Description,
		IdentityClaim: p.IdentityClaim, Filter: p.Filter, State: p.State}
}

func (c *CloudAPI) pools(w http.ResponseWriter, r *http.Request, pools platform.IdentityPools, rest []string) {
	ctx := r.Context()
	switch {
	case len(rest) == 0 && r.Method == http.MethodGet:
		all, _ := pools.ListPools(ctx)
		out := make([]poolJSON, len(all))
		for i, p := range all {
			out[i] = poolOut(p)
		}
		writeJSON(w, http.StatusOK, page(r, out))
	case len(rest) == 0 && r.Method == http.MethodPost:
		var raw map[string]json.RawMessage
		if err := decodeBody(r, &raw); err != nil {
			writeFault(w, err)
			return
		}
		// The published document requires these four (description may be
		// empty, but must be sent).
		for _, field := range []string{"display_name", "description", "identity_claim", "filter"} {
			if _, ok := raw[field]; !ok {
				writeError(w, http.StatusBadRequest, field+" is required")
				return
			}
		}
		var in poolJSON
		b, _ := json.Marshal(raw)
		_ = json.Unmarshal(b, &in)
		p, err := pools.CreatePool(ctx, platform.IdentityPool{DisplayName: in.DisplayName, Description: in.Description,
			IdentityClaim: in.IdentityClaim, Filter: in.Filter})
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, poolOut(p))
	case len(rest) == 1 && r.Method == http.MethodGet:
		p, err := pools.GetPool(ctx, rest[0])
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, poolOut(p))
	case len(rest) == 1 && r.Method == http.MethodPatch:
		var in struct {
			Filter *string `json:"filter"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		if in.Filter == nil {
			p, err := pools.GetPool(ctx, rest[0])
			if err != nil {
				writeFault(w, err)
				return
			}
			writeJSON(w, http.StatusOK, poolOut(p))
			return
		}
		p, err := pools.UpdatePoolFilter(ctx, rest[0], *in.Filter)
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, poolOut(p))
	case len(rest) == 1 && r.Method == http.MethodDelete:
		if err := pools.DeletePool(ctx, rest[0]); err != nil {
			writeFault(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	default:
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
	}
}

// connect serves one cluster's Connect v1 API.
func (c *CloudAPI) connect(w http.ResponseWriter, r *http.Request, k *Connect, rest []string) {
	ctx := r.Context()
	switch {
	case len(rest) == 1 && rest[0] == "connectors" && r.Method == http.MethodGet:
		all, _ := k.ListConnectors(ctx)
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
				"info": connectorInfo(x), "status": connectorStatus(x)}
		}
		writeJSON(w, http.StatusOK, out)
	case len(rest) == 1 && rest[0] == "connectors" && r.Method == http.MethodPost:
		var in struct {
			Name   string            `json:"name"`
			Config map[string]string `json:"config"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		x, err := k.CreateConnector(ctx, in.Name, in.Config)
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, connectorInfo(x))
	case len(rest) == 1 && rest[0] == "connector-plugins" && r.Method == http.MethodGet:
		ps, _ := k.Plugins(ctx)
		out := make([]map[string]string, len(ps))
		for i, p := range ps {
			out[i] = map[string]string{"class": p.Class, "type": p.Type, "version": "1.0.0"}
		}
		writeJSON(w, http.StatusOK, out)
	case len(rest) == 4 && rest[0] == "connector-plugins" && rest[2] == "config" && rest[3] == "validate" && r.Method == http.MethodPut:
		c.validate(w, r, k, rest[1])
	case len(rest) >= 2 && rest[0] == "connectors":
		c.connector(w, r, k, rest[1], rest[2:])
	default:
		writeError(w, http.StatusNotFound, "no such endpoint in the dev stand-in")
	}
}

func connectorInfo(x platform.Connector) map[string]any {
	tasks := []map[string]any{}
	for _, t := range x.Tasks {
		tasks = append(tasks, map[string]any{"connector": x.Name, "task": t.ID})
	}
	return map[string]any{"name": x.Name, "type": x.Type, "config": x.Config, "tasks": tasks}
}

func connectorStatus(x platform.Connector) map[string]any {
	state := x.State
	if state == portal.StateDegraded {
		state = portal.StateRunning // Connect reports the connector running; a task failed
	}
	tasks := []map[string]any{}
	for _, t := range x.Tasks {
		tasks = append(tasks, map[string]any{"id": t.ID, "state": t.State, "worker_id": "dev", "msg": t.Trace})
	}
	return map[string]any{"name": x.Name, "type": x.Type, "connector": map[string]string{"state": state, "worker_id": "dev", "trace": x.Trace},
		"tasks": tasks}
}

func (c *CloudAPI) validate(w http.ResponseWriter, r *http.Request, k *Connect, class string) {
	var cfg map[string]string
	if err := decodeBody(r, &cfg); err != nil {
		writeFault(w, err)
		return
	}
	def, err := k.Definition(r.Context(), class)
	if err != nil {
		// Confluent Cloud answers an unknown plugin with 404.
		writeError(w, http.StatusNotFound, "plugin "+class+" not found")
		return
	}
	problems, err := k.Validate(r.Context(), class, cfg)
	if err != nil {
		writeFault(w, err)
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

func (c *CloudAPI) connector(w http.ResponseWriter, r *http.Request, k *Connect, name string, rest []string) {
	ctx := r.Context()
	respond := func(status int, err error, body func() any) {
		if err != nil {
			writeFault(w, err)
			return
		}
		if body == nil {
			w.WriteHeader(status)
			return
		}
		writeJSON(w, status, body())
	}
	get := func() (platform.Connector, error) { return k.GetConnector(ctx, name) }
	switch {
	case len(rest) == 0 && r.Method == http.MethodGet:
		x, err := get()
		respond(http.StatusOK, err, func() any { return connectorInfo(x) })
	case len(rest) == 0 && r.Method == http.MethodDelete:
		err := k.DeleteConnector(ctx, name)
		respond(http.StatusOK, err, func() any { return map[string]any{"error": nil} })
	case len(rest) == 1 && rest[0] == "status" && r.Method == http.MethodGet:
		x, err := get()
		respond(http.StatusOK, err, func() any { return connectorStatus(x) })
	case len(rest) == 1 && rest[0] == "config" && r.Method == http.MethodGet:
		x, err := get()
		respond(http.StatusOK, err, func() any { return x.Config })
	case len(rest) == 1 && rest[0] == "config" && r.Method == http.MethodPut:
		var cfg map[string]string
		if err := decodeBody(r, &cfg); err != nil {
			writeFault(w, err)
			return
		}
		// Confluent Cloud replaces the whole configuration.
		x, err := k.UpdateConnector(ctx, name, cfg, nil)
		respond(http.StatusOK, err, func() any { return connectorInfo(x) })
	case len(rest) == 1 && rest[0] == "pause" && r.Method == http.MethodPut:
		respond(http.StatusAccepted, k.PauseConnector(ctx, name), nil)
	case len(rest) == 1 && rest[0] == "resume" && r.Method == http.MethodPut:
		respond(http.StatusAccepted, k.ResumeConnector(ctx, name), nil)
	case len(rest) == 1 && rest[0] == "restart" && r.Method == http.MethodPost:
		onlyFailed := r.URL.Query().Get("onlyFailed") == "true"
		respond(http.StatusAccepted, k.RestartConnector(ctx, name, onlyFailed), nil)
	default:
		writeError(w, http.StatusNotFound, "no such endpoint in the dev stand-in")
	}
}
