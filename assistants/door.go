// Package assistants is the third front door: a Model Context Protocol
// server at /mcp (Streamable HTTP, stateless, so that any replica serves
// any call) through which an AI assistant acts as the signed-in person.
// Its tools are the API's operations, made from the API document (the
// same parameters and body), offered only where the person's roles let
// them be used, and answered by the API in process under the person's
// own token: the services decide every call as for the other doors, and
// the audit trail names this door.
package assistants

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/api/openapi"
	rmsauth "github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/contract"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/version"
)

// Path is where the door is served.
const Path = "/mcp"

// metadataPath is the door's OAuth protected resource metadata (RFC
// 9728), at the well-known path for the resource's path.
const metadataPath = "/.well-known/oauth-protected-resource"

// Options are the door's dependencies.
type Options struct {
	// Services answer who the caller is and where it may work (which
	// tools are offered); the API answers the calls.
	Services contract.Services
	API      http.Handler
	Verifier api.TokenVerifier
	// Throttle bounds the requests of callers that fail to authenticate,
	// per source address; nil for none.
	Throttle *rmsauth.Throttle
	// BaseURL is where the portal is reached; Issuer the identity
	// provider that signs its tokens; Audience what the API accepts
	// (api://<id>), asked for with the scope <audience>/.default.
	BaseURL, Issuer, Audience string
	Logger                    *slog.Logger
}

// Door is the assistants' front door.
type Door struct {
	o     Options
	api   http.Handler
	tools []tool
	http  http.Handler
	// servers are the door's MCP servers by the tools they offer: callers
	// who may use the same tools share one (a server keeps no caller's
	// state; each call carries its caller).
	servers sync.Map
}

// New reads the API document and makes the door's tools from it.
func New(o Options) (*Door, error) {
	doc, err := openapi.ReadDocument()
	if err != nil {
		return nil, err
	}
	tools, err := toolsOf(doc)
	if err != nil {
		return nil, err
	}
	d := &Door{o: o, api: o.API, tools: tools}
	stream := mcp.NewStreamableHTTPHandler(d.serverFor, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: o.Logger})
	d.http = auth.RequireBearerToken(d.verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: d.metadataURL(),
		Scopes: nil, AllowMissingExpiration: true})(stream)
	return d, nil
}

// Register mounts the door and its metadata on e.
func (d *Door) Register(e *echo.Echo) {
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
		e.Add(m, Path, d.handle)
	}
	meta := echo.WrapHandler(auth.ProtectedResourceMetadataHandler(d.metadata()))
	// RFC 9728 puts the metadata of a resource with a path under the
	// well-known prefix followed by that path; some clients ask at the
	// prefix alone.
	e.GET(metadataPath+Path, meta)
	e.GET(metadataPath, meta)
}

// IsDoorPath tells the door's paths, whose errors are not pages.
func IsDoorPath(path string) bool {
	return path == Path || strings.HasPrefix(path, metadataPath)
}

// metadata says where a client signs in for the door (RFC 9728).
func (d *Door) metadata() *oauthex.ProtectedResourceMetadata {
	return &oauthex.ProtectedResourceMetadata{Resource: d.o.BaseURL + Path, AuthorizationServers: []string{d.o.Issuer},
		ScopesSupported: []string{d.scope(), "openid"}, BearerMethodsSupported: []string{"header"},
		ResourceName: "Streaming resource portal", ResourceDocumentation: d.o.BaseURL + "/api-docs/"}
}

func (d *Door) metadataURL() string { return d.o.BaseURL + metadataPath + Path }

func (d *Door) scope() string { return d.o.Audience + "/.default" }

// caller is who calls, as the door keeps it for the call's API request.
type caller struct {
	principal *portal.Principal
	token     string
	// client is the assistant's name, for the trail's user agent;
	// remoteAddr, forwarded and requestID are the door's request's.
	client, remoteAddr, forwarded, requestID string
}

type sourceKey struct{}

// handle serves one request of the door: a source that keeps failing to
// sign in is refused before its token is looked at (as at the API), and
// a refusal of the token says where to sign in (the scope to ask for,
// beside the metadata).
func (d *Door) handle(c echo.Context) error {
	source := c.RealIP()
	if err := d.o.Throttle.Check(source); err != nil {
		return err
	}
	r := c.Request()
	r = r.WithContext(context.WithValue(r.Context(), sourceKey{}, source))
	d.http.ServeHTTP(&challenge{ResponseWriter: c.Response(), scope: d.scope()}, r)
	return nil
}

// challenge adds the scope to the WWW-Authenticate of a 401, so that a
// client asks the identity provider for a token the API takes.
type challenge struct {
	http.ResponseWriter
	scope string
	done  bool
}

func (c *challenge) WriteHeader(status int) {
	if !c.done && status == http.StatusUnauthorized {
		h := c.Header()
		if v := h.Get("WWW-Authenticate"); v != "" {
			h.Set("WWW-Authenticate", v+`, scope="`+c.scope+`", error="invalid_token"`)
		} else {
			h.Set("WWW-Authenticate", `Bearer scope="`+c.scope+`"`)
		}
	}
	c.done = true
	c.ResponseWriter.WriteHeader(status)
}

func (c *challenge) Write(b []byte) (int, error) {
	c.done = true
	return c.ResponseWriter.Write(b)
}

// Flush lets the stream's answers through as they come.
func (c *challenge) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// verify checks a bearer token as the API does, and keeps the caller
// for the call's API requests.
func (d *Door) verify(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	p, err := d.o.Verifier.Verify(ctx, token)
	if err != nil {
		if portal.Is(err, portal.Unauthenticated) {
			source, _ := r.Context().Value(sourceKey{}).(string)
			_ = d.o.Throttle.Take(source)
			return nil, errors.Join(auth.ErrInvalidToken, errors.New(portal.FirstMessage(err)))
		}
		return nil, err
	}
	c := caller{principal: p, token: token, client: strings.TrimSpace(portal.Clip(r.UserAgent(), 120)), remoteAddr: r.RemoteAddr,
		forwarded: r.Header.Get("X-Forwarded-For"), requestID: r.Header.Get(requestid.Header)}
	if !requestid.Valid(c.requestID) {
		c.requestID = requestid.New()
	}
	return &auth.TokenInfo{UserID: p.Subject, Extra: map[string]any{"caller": c}}, nil
}

// callerOf is the caller of a request the door verified.
func callerOf(extra *mcp.RequestExtra) (caller, bool) {
	if extra == nil || extra.TokenInfo == nil {
		return caller{}, false
	}
	c, ok := extra.TokenInfo.Extra["caller"].(caller)
	return c, ok
}

// implementation names the door to clients.
func implementation() *mcp.Implementation {
	return &mcp.Implementation{Name: "rms-portal", Title: "Streaming resource portal", Version: version.Get().Version}
}
