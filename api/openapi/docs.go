// Package openapi is the API document: written whole by Generate (make
// docs) from the operations table, its frame and the wire types, served
// with Swagger UI, filled in with the deployment's server and sign-in,
// and read for its operations by the doors made of them (the assistants'
// tools, the typed client).
package openapi

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/document"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topicconfig"
	"github.com/edh-platform/rms-portal/static"
)

// Path is where the document and Swagger UI are served.
const Path = "/api-docs"

// committed is the API document as committed: valid as it stands, naming
// example URLs that Document replaces with the deployment's.
//
//go:embed openapi.yaml
var committed string

// AuthEndpoints gives the identity provider's authorization and token
// endpoints, for the document's OAuth 2.0 flow.
type AuthEndpoints interface {
	AuthEndpoints(ctx context.Context) (authURL, tokenURL string, err error)
}

// DocsOptions configure the documentation.
type DocsOptions struct {
	// BaseURL is the portal's; Server the API's (BaseURL and the API's
	// base path).
	BaseURL  string
	Server   string
	ClientID string
	Audience string
	Provider AuthEndpoints
	Logger   *slog.Logger
}

// Docs serves the OpenAPI document and Swagger UI. Reading them needs no
// token; trying calls needs a sign-in, which Swagger UI does with PKCE.
type Docs struct {
	o DocsOptions

	mu       sync.Mutex
	rendered []byte
}

// NewDocs returns the documentation handler.
func NewDocs(o DocsOptions) *Docs { return &Docs{o: o} }

// Register mounts the documentation routes.
func (d *Docs) Register(e *echo.Echo) {
	e.GET(Path, func(c echo.Context) error { return c.Redirect(http.StatusMovedPermanently, Path+"/") })
	e.GET(Path+"/", d.index)
	e.GET(Path+"/openapi.yaml", d.yaml)
	e.GET(Path+"/openapi.json", d.json)
	e.GET(Path+"/oauth2-redirect.html", d.asset("swagger/oauth2-redirect.html", "text/html; charset=utf-8"))
	e.GET(Path+"/oauth2-redirect.js", d.asset("swagger/oauth2-redirect.js", "text/javascript; charset=utf-8"))
	e.GET(Path+"/schemas/", schemaIndex)
	e.GET(Path+"/schemas/:name", schemaFile)
	e.RouteNotFound(Path+"/*", func(echo.Context) error { return echo.ErrNotFound })
}

// Document returns the OpenAPI document as YAML, with the deployment's
// URLs filled in. A document rendered while the identity provider was
// unreachable is not kept, so the next request tries again.
func (d *Docs) Document(ctx context.Context) []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.rendered != nil {
		return d.rendered
	}
	authURL, tokenURL, err := d.o.Provider.AuthEndpoints(ctx)
	doc, ferr := ForDeployment(Deployment{Server: d.o.Server, Audience: d.o.Audience, ClientID: d.o.ClientID,
		AuthorizationURL: authURL, TokenURL: tokenURL})
	if ferr != nil {
		// The committed document is whole: serve it as it stands.
		d.o.Logger.ErrorContext(ctx, "API docs not filled in for this deployment", "error", ferr)
		return []byte(committed)
	}
	if err != nil {
		d.o.Logger.WarnContext(ctx, "API docs rendered without sign-in endpoints", "error", err)
		return doc
	}
	d.rendered = doc
	return doc
}

// Deployment is what the served document says of this deployment: its
// server, the audience and scope tokens are asked for, the client and
// endpoints its sign-in uses. The committed document names examples.
type Deployment struct {
	Server, Audience, ClientID, AuthorizationURL, TokenURL string
}

// ForDeployment is the committed document with the deployment's
// values in place of its examples (an empty value keeps the example):
// the server, and the oidc scheme's client, audience, endpoints and the
// scope of the API.
func ForDeployment(dep Deployment) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(committed), &root); err != nil || len(root.Content) == 0 {
		return nil, fmt.Errorf("the API document: %w", err)
	}
	doc := root.Content[0]
	set := func(n *yaml.Node, v string) {
		if n != nil && v != "" {
			n.Value, n.Tag, n.Style = v, "!!str", 0
		}
	}
	if servers := mapValue(doc, "servers"); servers != nil && len(servers.Content) > 0 {
		set(mapValue(servers.Content[0], "url"), dep.Server)
	}
	oidc := mapValue(mapValue(mapValue(doc, "components"), "securitySchemes"), "oidc")
	if oidc == nil {
		return nil, fmt.Errorf("the API document has no oidc security scheme")
	}
	set(mapValue(oidc, "x-client-id"), dep.ClientID)
	set(mapValue(oidc, "x-audience"), dep.Audience)
	flow := mapValue(mapValue(oidc, "flows"), "authorizationCode")
	set(mapValue(flow, "authorizationUrl"), dep.AuthorizationURL)
	set(mapValue(flow, "tokenUrl"), dep.TokenURL)
	// The first scope is the API's: the audience's default scope.
	if scopes := mapValue(flow, "scopes"); scopes != nil && len(scopes.Content) > 1 && dep.Audience != "" {
		set(scopes.Content[0], dep.Audience+"/.default")
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, fmt.Errorf("the API document: %w", err)
	}
	return out.Bytes(), nil
}

// mapValue is the value under key in a YAML mapping, nil when n is not a
// mapping or has no such key.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// DocumentTexts are the texts the document's generated schemas name that
// the wire types cannot know (the topic settings the portal edits, from
// their declarations): make docs fills them in.
func DocumentTexts() map[string]string {
	return map[string]string{"TOPIC_SETTINGS": settingsMarkdown(), "POLICY_KINDS": strings.Join(portal.PolicyKinds(), ",")}
}

func settingsMarkdown() string {
	var b strings.Builder
	for _, s := range topicconfig.TopicSettings() {
		rule := string(s.Type)
		switch {
		case len(s.Options) > 0:
			rule = "one of " + strings.Join(s.Options, ", ")
			if s.Type == topicconfig.TypeList {
				rule = "comma-separated list of " + strings.Join(s.Options, ", ")
			}
		case s.Type == topicconfig.TypeLong || s.Type == topicconfig.TypeInt:
			rule = fmt.Sprintf("%s, at least %d", s.Type, s.Min)
			if s.Max < 1<<62 {
				rule = fmt.Sprintf("%s, %d to %d", s.Type, s.Min, s.Max)
			}
			if s.Unlimited != nil {
				rule += fmt.Sprintf(", or %d", *s.Unlimited)
			}
		}
		fmt.Fprintf(&b, "- `%s` (%s; Kafka default %s): %s\n", s.Key, rule, s.Default, s.Help)
	}
	return b.String()
}

func (d *Docs) yaml(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/yaml; charset=utf-8", d.Document(c.Request().Context()))
}

func (d *Docs) json(c echo.Context) error {
	var v any
	if err := yaml.Unmarshal(d.Document(c.Request().Context()), &v); err != nil {
		return fmt.Errorf("openapi document: %w", err)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("openapi document: %w", err)
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}

func (d *Docs) asset(name, contentType string) echo.HandlerFunc {
	return func(c echo.Context) error {
		b, err := fs.ReadFile(static.FS, name)
		if err != nil {
			return err
		}
		return c.Blob(http.StatusOK, contentType, b)
	}
}

var swaggerPage = template.Must(template.New("docs").Funcs(template.FuncMap{"asset": static.URL}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API · Streaming resource portal</title>
<link rel="icon" href="{{asset "swagger/favicon-32x32.png"}}">
<link rel="stylesheet" href="{{asset "swagger/swagger-ui.css"}}">
<style>body{margin:0} .topbar-note{font-family:system-ui,sans-serif;background:#1e1b4b;color:#e0e7ff;padding:.6rem 1.25rem;font-size:.9rem}
.topbar-note a{color:#fff}</style>
</head><body>
<div class="topbar-note">Streaming resource portal · REST API. <a href="/">Back to the portal</a> · <a href="{{.Spec}}">openapi.yaml</a> · <a href="{{.JSON}}">openapi.json</a>.
Use <strong>Authorize</strong> to sign in; tokens stay in this page's memory only.</div>
<div id="swagger-ui" data-spec="{{.Spec}}" data-redirect="{{.Redirect}}" data-client-id="{{.ClientID}}" data-scopes="{{.Scopes}}"></div>
<script src="{{asset "swagger/swagger-ui-bundle.js"}}"></script>
<script src="{{asset "swagger/init.js"}}"></script>
</body></html>`))

func (d *Docs) index(c echo.Context) error {
	var buf bytes.Buffer
	err := swaggerPage.Execute(&buf, map[string]string{
		"Spec": Path + "/openapi.yaml", "JSON": Path + "/openapi.json",
		"Redirect": d.o.BaseURL + Path + "/oauth2-redirect.html", "ClientID": d.o.ClientID,
		"Scopes": "openid profile " + d.o.Audience + "/.default",
	})
	if err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, buf.Bytes())
}

// schemaIndex lists the JSON Schemas of the document format.
func schemaIndex(c echo.Context) error {
	var out []string
	for _, n := range document.JSONSchemaNames() {
		out = append(out, Path+"/schemas/"+n)
	}
	return c.JSON(http.StatusOK, map[string][]string{"items": out})
}

// schemaFile serves one JSON Schema (topic.json, document.json, ...).
func schemaFile(c echo.Context) error {
	b, ok := document.JSONSchema(c.Param("name"))
	if !ok {
		return portal.New(portal.NotFound, "no schema %q; the schemas are listed at %s/schemas/", c.Param("name"), Path)
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=300")
	return c.Blob(http.StatusOK, "application/schema+json", b)
}
