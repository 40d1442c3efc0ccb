package assistants

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edh-platform/rms-portal/api"
)

// A unit's topics and schemas are resources too, read as the API's
// answers under the caller's token: portal://{bu}/{stage}/topics (the
// list), portal://{bu}/{stage}/topic/{name}, portal://{bu}/{stage}/schemas
// and portal://{bu}/{stage}/schema/{subject} (its latest version), and
// portal://me, where the caller's units and stages are.

// scheme is the resources' URI scheme.
const scheme = "portal://"

// resourcePaths map a resource's URI (after the scheme) to the API's
// path, by the number and kind of its segments.
func resourcePath(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, scheme)
	if !ok {
		return "", false
	}
	if rest == "me" {
		return "/me", true
	}
	seg := strings.Split(rest, "/")
	for i, s := range seg {
		u, err := url.PathUnescape(s)
		if err != nil || u == "" {
			return "", false
		}
		seg[i] = url.PathEscape(u)
	}
	switch {
	case len(seg) == 3 && (seg[2] == "topics" || seg[2] == "schemas"):
		q := "?page_size=1000"
		if seg[2] == "schemas" {
			q += "&latest_only=true"
		}
		return "/" + seg[0] + "/" + seg[1] + "/" + seg[2] + q, true
	case len(seg) == 4 && seg[2] == "topic":
		return "/" + seg[0] + "/" + seg[1] + "/topic/" + seg[3], true
	case len(seg) == 4 && seg[2] == "schema":
		return "/" + seg[0] + "/" + seg[1] + "/schema/" + seg[3] + "/latest", true
	}
	return "", false
}

// addResources adds the resources and their templates to s.
func (d *Door) addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: scheme + "me", Name: "me", Title: "Your units and stages", MIMEType: "application/json",
		Description: "Who you are in the portal: your business units with your role in each, and the stages (read-only ones marked)."}, d.readResource)
	for _, t := range []mcp.ResourceTemplate{
		{URITemplate: scheme + "{bu}/{stage}/topics", Name: "topics", Title: "A unit's topics", Description: "The unit's topics in the stage (up to 1,000, sorted by name)."},
		{URITemplate: scheme + "{bu}/{stage}/topic/{name}", Name: "topic", Title: "A topic", Description: "One topic: partitions, settings, its catalog entry."},
		{URITemplate: scheme + "{bu}/{stage}/schemas", Name: "schemas", Title: "A unit's schemas", Description: "The latest version of each of the unit's subjects in the stage."},
		{URITemplate: scheme + "{bu}/{stage}/schema/{subject}", Name: "schema", Title: "A schema", Description: "The latest version of one subject, with its schema text."},
	} {
		t.MIMEType = "application/json"
		s.AddResourceTemplate(&t, d.readResource)
	}
}

// readResource reads a resource as the API answers its path.
func (d *Door) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	c, ok := callerOf(req.Extra)
	if !ok {
		return nil, fmt.Errorf("sign-in required")
	}
	uri := req.Params.URI
	path, ok := resourcePath(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	a := d.serve(ctx, c, http.MethodGet, api.Base+path, nil, nil)
	switch {
	case a.status == http.StatusNotFound:
		return nil, mcp.ResourceNotFoundError(uri)
	case a.status >= 400:
		var v any
		_ = json.Unmarshal(a.body, &v)
		return nil, fmt.Errorf("%s", refusalText(a.status, v))
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(a.body)}}}, nil
}
