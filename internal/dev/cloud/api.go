// Package cloud is dev mode's Confluent Cloud: an organisation (service
// accounts, role bindings, identity pools), managed connectors per cluster,
// and the Metrics API, served over HTTP in the shapes of the published
// documents so that the production adapters reach them.
package cloud

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/edh-platform/rms-portal/internal/dev/clusters"
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

	mux       *http.ServeMux
	mu        sync.Mutex
	clusters  map[string]*Connect // "env-.../lkc-..."
	telemetry map[string]*clusters.Telemetry
	// metricsLimit is the Metrics API's limit per source address.
	metricsLimit perMinute
	// lacks are the roles the key does not hold (none by default).
	lacks map[string]bool
	// billed are the clusters the Billing API bills.
	billed []Billed
	// down are the APIs stopped ("metrics", "billing"): they answer 503.
	down map[string]bool
}

// Stop makes an API of the stand-in ("metrics", "billing") answer 503
// until Start: an outage, for the portal to record as a gap.
func (c *CloudAPI) Stop(api string) { c.setDown(api, true) }

// Start ends Stop.
func (c *CloudAPI) Start(api string) { c.setDown(api, false) }

func (c *CloudAPI) setDown(api string, down bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.down == nil {
		c.down = map[string]bool{}
	}
	c.down[api] = down
}

// Roles the stand-in's key may hold, by the APIs they open, as Confluent
// Cloud grants them (and the portal's refusals name them).
const (
	RoleAccountAdmin      = "AccountAdmin"
	RoleCloudClusterAdmin = "CloudClusterAdmin"
	RoleMetricsViewer     = "MetricsViewer"
	// RoleBillingAdmin opens the Billing API; the portal needs it only
	// where it reports costs.
	RoleBillingAdmin = "BillingAdmin"
)

// Roles are every role the portal's Cloud API key needs.
var Roles = []string{RoleAccountAdmin, RoleCloudClusterAdmin, RoleMetricsViewer}

// HoldOnly makes the key hold these roles alone: calls needing another
// are refused with 403, as Confluent Cloud refuses a key without the role.
// Empty holds them all.
func (c *CloudAPI) HoldOnly(roles []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lacks = map[string]bool{}
	if len(roles) == 0 {
		return
	}
	for _, r := range Roles {
		c.lacks[r] = !slices.Contains(roles, r)
	}
}

// roleFor is the role a path's API needs.
func roleFor(path string) string {
	switch {
	case strings.HasPrefix(path, "/v2/metrics/"):
		return RoleMetricsViewer
	case strings.HasPrefix(path, "/connect/"):
		return RoleCloudClusterAdmin
	case strings.HasPrefix(path, "/iam/"):
		return RoleAccountAdmin
	case strings.HasPrefix(path, "/billing/"):
		return RoleBillingAdmin
	}
	return ""
}

// NewCloudAPI serves org and the clusters added with AddCluster.
func NewCloudAPI(org *Org, key, secret string) *CloudAPI {
	c := &CloudAPI{key: key, secret: secret, org: org, clusters: map[string]*Connect{}}
	c.mux = c.routes()
	return c
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

// ServeHTTP checks the Cloud API key, then routes.
func (c *CloudAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if u, p, ok := r.BasicAuth(); !ok || u != c.key || p != c.secret {
		w.Header().Set("WWW-Authenticate", `Basic realm="Confluent Cloud (dev stand-in)"`)
		writeError(w, http.StatusUnauthorized, "Unauthorized: a Cloud API key is required")
		return
	}
	if role := roleFor(r.URL.Path); role != "" {
		c.mu.Lock()
		lacks := c.lacks[role]
		c.mu.Unlock()
		if lacks {
			msg := "Forbidden: the key's principal has no role that allows this (" + role + ")"
			if strings.HasPrefix(r.URL.Path, "/connect/") {
				writeConnectError(w, http.StatusForbidden, msg)
			} else {
				writeError(w, http.StatusForbidden, msg)
			}
			return
		}
	}
	c.mux.ServeHTTP(w, r)
}

// routes are the endpoints of the published documents the stand-in
// serves: Connect v1, IAM v2 (service accounts, role bindings), identity
// providers v2 (identity pools) and the Metrics API v2.
func (c *CloudAPI) routes() *http.ServeMux {
	mux := http.NewServeMux()
	c.connectRoutes(mux, "/connect/v1/environments/{env}/clusters/{cluster}")
	c.iamRoutes(mux)
	c.apiKeyRoutes(mux)
	c.poolRoutes(mux, "/iam/v2/identity-providers/{provider}/identity-pools")
	c.quotasRoutes(mux)
	mux.HandleFunc("POST /v2/metrics/cloud/query", c.metricsQuery)
	mux.HandleFunc("GET /billing/v1/costs", c.billingCosts)
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint in the dev stand-in")
	})
	return mux
}

// writeError answers in the IAM APIs' error shape, which the Connect API's
// clients also read: {"errors": [{"status", "detail"}]}.
func writeError(w http.ResponseWriter, status int, detail string) {
	writeJSON(w, status, map[string]any{"errors": []map[string]string{{"status": strconv.Itoa(status), "detail": detail}}})
}

// objectMeta is the metadata every IAM v2 object carries (only self is
// required; the stand-in keeps no times for accounts and pools).
type objectMeta struct {
	Self         string `json:"self"`
	ResourceName string `json:"resource_name,omitempty"`
	CreatedAt    string `json:"created_at,omitempty"`
	UpdatedAt    string `json:"updated_at,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeFault answers a stand-in's domain error with the status Confluent
// Cloud would use.
func writeFault(w http.ResponseWriter, err error) {
	status, msg := faultOf(err)
	writeError(w, status, msg)
}

// writeConnectError answers in the Connect API's error shape:
// {"error": {"code", "message"}}.
func writeConnectError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": message}})
}

func writeConnectFault(w http.ResponseWriter, err error) {
	status, msg := faultOf(err)
	writeConnectError(w, status, msg)
}

// faultOf is the status and message a stand-in answers err with.
func faultOf(err error) (int, string) {
	status := http.StatusInternalServerError
	switch portal.KindOf(err) {
	case portal.NotFound:
		status = http.StatusNotFound
	case portal.AlreadyExists, portal.Conflict:
		status = http.StatusConflict
	case portal.InvalidParameter, portal.MissingParameter:
		status = http.StatusBadRequest
	case portal.UpstreamTimeout:
		status = http.StatusGatewayTimeout
	case portal.QuotaExceeded:
		status = http.StatusPaymentRequired // "The request would exceed one or more quotas."
	}
	msg := err.Error()
	if ps := portal.Problems(err); len(ps) > 0 {
		msg = ps[0].Message
	}
	return status, msg
}

func decodeBody(r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20))
	if err := dec.Decode(v); err != nil {
		return portal.New(portal.InvalidParameter, "the request body is not valid JSON: %v", err)
	}
	return nil
}

// page slices a list for page_size/page_token and sets metadata.next.
func page[T any](r *http.Request, kind string, items []T) map[string]any {
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
	return map[string]any{"api_version": "iam/v2", "kind": kind, "metadata": meta, "data": data}
}
