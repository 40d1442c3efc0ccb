package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// read is how get reads one type through the typed client: a page of
// its list (with the --where parameters and the page token), and one by
// name, each the API's answer.
type read struct {
	list func(ctx context.Context, c *client.Client, bu, stage string, where map[string]string, token string) (page any, next string, err error)
	one  func(ctx context.Context, c *client.Client, bu, stage, name string) (any, error)
}

// paged reads a page of a list whose parameters take the --where keys,
// 500 items at a time.
func paged[P interface {
	Set(name, value string) error
}, T any](call func(*client.Client, context.Context, string, string, P) (wire.List[T], client.Meta, error), params func() P) func(context.Context, *client.Client, string, string, map[string]string, string) (any, string, error) {
	return func(ctx context.Context, c *client.Client, bu, stage string, where map[string]string, token string) (any, string, error) {
		p := params()
		// A list that is not paged (change requests) takes neither.
		_ = p.Set("page_size", "500")
		if token != "" {
			if err := p.Set("page_token", token); err != nil {
				return nil, "", err
			}
		}
		for k, v := range where {
			if err := p.Set(k, v); err != nil {
				return nil, "", fmt.Errorf("--where %s=%s: %w", k, v, err)
			}
		}
		page, _, err := call(c, ctx, bu, stage, p)
		return page, page.NextPageToken, err
	}
}

// whole reads a list that comes in one answer (no parameters).
func whole[T any](call func(*client.Client, context.Context, string, string) (wire.List[T], client.Meta, error)) func(context.Context, *client.Client, string, string, map[string]string, string) (any, string, error) {
	return func(ctx context.Context, c *client.Client, bu, stage string, where map[string]string, _ string) (any, string, error) {
		if len(where) > 0 {
			return nil, "", fmt.Errorf("--where: this list takes no parameters")
		}
		page, _, err := call(c, ctx, bu, stage)
		return page, "", err
	}
}

// item reads one of a type by name.
func item[T any](call func(*client.Client, context.Context, string, string, string) (T, client.Meta, error)) func(context.Context, *client.Client, string, string, string) (any, error) {
	return func(ctx context.Context, c *client.Client, bu, stage, name string) (any, error) {
		v, _, err := call(c, ctx, bu, stage, name)
		return v, err
	}
}

// reads are get's and describe's typed reads, by the type's plural.
var reads = map[string]read{
	"topics": {paged((*client.Client).ListTopics, func() *client.ListTopicsParams { return &client.ListTopicsParams{} }),
		item(func(c *client.Client, ctx context.Context, bu, st, name string) (wire.TopicDetail, client.Meta, error) {
			return c.GetTopic(ctx, bu, st, name, nil)
		})},
	"schemas": {paged((*client.Client).ListSchemas, func() *client.ListSchemasParams { return &client.ListSchemasParams{} }),
		item(func(c *client.Client, ctx context.Context, bu, st, name string) (wire.Schema, client.Meta, error) {
			return c.GetSchema(ctx, bu, st, name, "latest")
		})},
	"connectors": {paged((*client.Client).ListConnectors, func() *client.ListConnectorsParams { return &client.ListConnectorsParams{} }),
		item(func(c *client.Client, ctx context.Context, bu, st, name string) (wire.Connector, client.Meta, error) {
			return c.GetConnector(ctx, bu, st, name, &client.GetConnectorParams{ShowConfig: true})
		})},
	"service-accounts": {paged((*client.Client).ListServiceAccounts, func() *client.ListServiceAccountsParams { return &client.ListServiceAccountsParams{} }), item((*client.Client).GetServiceAccount)},
	"identity-pools":   {paged((*client.Client).ListIdentityPools, func() *client.ListIdentityPoolsParams { return &client.ListIdentityPoolsParams{} }), item((*client.Client).GetIdentityPool)},
	"grants":           {paged((*client.Client).ListGrants, func() *client.ListGrantsParams { return &client.ListGrantsParams{} }), item((*client.Client).GetGrant)},
	"consumer-groups":  {paged((*client.Client).ListGroups, func() *client.ListGroupsParams { return &client.ListGroupsParams{} }), item((*client.Client).GetGroup)},
	"api-keys":         {paged((*client.Client).ListAPIKeys, func() *client.ListAPIKeysParams { return &client.ListAPIKeysParams{} }), item((*client.Client).GetAPIKey)},
	"change-requests":  {paged((*client.Client).ListChangeRequests, func() *client.ListChangeRequestsParams { return &client.ListChangeRequestsParams{} }), item((*client.Client).GetChangeRequest)},
	"catalog":          {paged((*client.Client).ListCatalog, func() *client.ListCatalogParams { return &client.ListCatalogParams{} }), item((*client.Client).GetCatalogEntry)},
	"alert-rules":      {list: whole((*client.Client).ListAlertRules)},
	"alerts":           {list: whole((*client.Client).ListAlerts)},
	"alert-channels":   {list: whole((*client.Client).ListAlertChannels)},
}

// shown is an answer as get prints it: its fields by their JSON names.
func shown(v any) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(raw, &m)
}

// shownItems are a page's items as get prints them.
func shownItems(page any) ([]map[string]any, error) {
	m, err := shown(page)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	items, _ := m["items"].([]any)
	for _, it := range items {
		if row, ok := it.(map[string]any); ok {
			out = append(out, row)
		}
	}
	return out, nil
}
