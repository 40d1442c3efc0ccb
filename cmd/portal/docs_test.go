package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topicconfig"
)

// TestOpenAPIDocumentMatchesRoutes keeps the document and the router in
// agreement: every API route is documented and every documented operation
// is routed.
func TestOpenAPIDocumentMatchesRoutes(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	r := tp.call("GET", "/api-docs/openapi.json", "", nil)
	if r.status != http.StatusOK {
		t.Fatalf("openapi.json: %d", r.status)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Servers []struct{ URL string }                `json:"servers"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
		Tags    []struct{ Name string }               `json:"tags"`
		Comps   struct {
			Security map[string]struct {
				Flows struct {
					Code struct {
						AuthorizationURL string            `json:"authorizationUrl"`
						TokenURL         string            `json:"tokenUrl"`
						Scopes           map[string]string `json:"scopes"`
					} `json:"authorizationCode"`
				} `json:"flows"`
			} `json:"securitySchemes"`
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	// The reference reads in the order a unit's people work: topics
	// first, the admin area last.
	if len(doc.Tags) < 3 || doc.Tags[1].Name != "topics" || doc.Tags[len(doc.Tags)-1].Name != "admin" {
		t.Errorf("tags in the order %v", doc.Tags)
	}
	var documented []string
	for path, ops := range doc.Paths {
		for method := range ops {
			if method != "parameters" {
				documented = append(documented, strings.ToUpper(method)+" "+path)
			}
		}
	}
	var routed []string
	for _, rt := range tp.app.echo.Routes() {
		if !strings.HasPrefix(rt.Path, api.Base+"/") || strings.HasSuffix(rt.Path, "*") {
			continue
		}
		p := strings.TrimPrefix(rt.Path, api.Base)
		parts := strings.Split(p, "/")
		for i, s := range parts {
			if strings.HasPrefix(s, ":") {
				parts[i] = "{" + s[1:] + "}"
			}
		}
		routed = append(routed, rt.Method+" "+strings.Join(parts, "/"))
	}
	sort.Strings(documented)
	sort.Strings(routed)
	if strings.Join(documented, "\n") != strings.Join(routed, "\n") {
		t.Errorf("document and routes differ:\ndocumented:\n%s\nrouted:\n%s", strings.Join(documented, "\n"), strings.Join(routed, "\n"))
	}
	if doc.OpenAPI != "3.0.3" || len(doc.Servers) != 1 || doc.Servers[0].URL != tp.url+"/api/v1" {
		t.Errorf("openapi %q servers %+v", doc.OpenAPI, doc.Servers)
	}
	flow := doc.Comps.Security["oidc"].Flows.Code
	if flow.AuthorizationURL != tp.url+"/dev/idp/authorize" || flow.TokenURL != tp.url+"/dev/idp/oauth/token" || flow.Scopes["api://rms-portal/.default"] == "" {
		t.Errorf("oauth flow %+v", flow)
	}

	// Every error type the portal can produce is documented.
	var item struct {
		Properties struct {
			Type struct {
				Enum []string `json:"enum"`
			} `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(doc.Comps.Schemas["ErrorItem"], &item)
	for _, k := range portal.Kinds {
		if !slices.Contains(item.Properties.Type.Enum, string(k)) {
			t.Errorf("error type %s is not documented", k)
		}
	}
	for _, typ := range []string{"METHOD_NOT_ALLOWED", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"} {
		if !slices.Contains(item.Properties.Type.Enum, typ) {
			t.Errorf("error type %s is not documented", typ)
		}
	}
	// Every editable topic setting is documented.
	cfg := string(doc.Comps.Schemas["TopicConfig"])
	for _, s := range topicconfig.TopicSettings() {
		if !strings.Contains(cfg, "`"+s.Key+"`") {
			t.Errorf("setting %s is not documented", s.Key)
		}
	}
}

func TestDocsNeedNoToken(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	for path, want := range map[string]string{
		"/api-docs/":                     "swagger-ui-bundle.js",
		"/api-docs/openapi.yaml":         "openapi: 3.0.3",
		"/api-docs/oauth2-redirect.html": "oauth2-redirect.js",
		"/api-docs/oauth2-redirect.js":   "swaggerUIRedirectOauth2",
		"/static/swagger/init.js":        "usePkceWithAuthorizationCodeGrant",
	} {
		r := tp.call("GET", path, "", nil)
		if r.status != http.StatusOK || !strings.Contains(string(r.body), want) {
			t.Errorf("%s: %d, lacks %q", path, r.status, want)
		}
	}
	page := string(tp.call("GET", "/api-docs/", "", nil).body)
	if !strings.Contains(page, `data-client-id="rms-portal"`) || !strings.Contains(page, tp.url+"/api-docs/oauth2-redirect.html") {
		t.Errorf("docs page does not configure sign-in:\n%s", page)
	}
}
