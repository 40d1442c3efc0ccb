package service

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Export returns the unit's resources as a document: names and topic
// references as identifiers, so that planning it in another stage is a
// promotion, and secrets as references to environment variables named
// after the connector and the setting.
func (s *Declarations) Export(ctx context.Context, scope portal.Scope) (portal.Document, error) {
	call, err := s.guard.Enter(ctx, scope, access.Read, "export resources")
	if err != nil {
		return portal.Document{}, err
	}
	call = call.Unit()
	all := map[string]bool{}
	for _, k := range portal.ResourceKinds() {
		all[k] = true
	}
	obs, err := s.observe(ctx, call, all)
	if err != nil {
		return portal.Document{}, err
	}
	var owned []string
	for _, t := range obs.topics {
		if call.Scope.Owns(t.Name) {
			owned = append(owned, t.Name)
		}
	}
	if err := s.describe(ctx, call, obs, owned); err != nil {
		return portal.Document{}, err
	}
	var doc portal.Document
	for _, name := range owned {
		d := obs.details[name]
		decl := &portal.TopicDecl{Partitions: &d.Partitions, Config: map[string]string{}}
		for k, v := range d.Config {
			if _, editable := portal.LookupTopicSetting(k); editable {
				decl.Config[k] = v
			}
		}
		doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindTopic, Name: call.Scope.Identifier(name), Topic: decl})
	}
	for _, subject := range sortedKeys(obs.schemas) {
		v := obs.schemas[subject]
		decl := &portal.SchemaDecl{SchemaType: v.Type, Schema: v.Schema}
		for _, r := range v.References {
			r.Subject = call.Scope.Identifier(r.Subject)
			decl.References = append(decl.References, r)
		}
		doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindSchema, Name: call.Scope.Identifier(subject), Schema: decl})
	}
	for _, c := range obs.connectors {
		if !call.Scope.Owns(c.Name) || !strings.HasSuffix(c.Name, tenancy.ConnectorSuffix) {
			continue
		}
		ident := strings.TrimSuffix(call.Scope.Identifier(c.Name), tenancy.ConnectorSuffix)
		sensitive := s.connectors.sensitive(ctx, call, c.Class, c.Config)
		decl := &portal.ConnectorDecl{Class: c.Class, Config: map[string]string{}}
		for k, v := range c.Config {
			switch {
			case k == "name" || k == "connector.class" || slices.Contains(portal.ConnectorPlatformKeys, k):
			case slices.Contains(sensitive, k):
				if decl.Secrets == nil {
					decl.Secrets = map[string]portal.SecretRef{}
				}
				decl.Secrets[k] = portal.SecretRef{FromEnv: envName(scope.BU, ident, k)}
			case portal.IsConnectorTopicKey(k):
				var names []string
				for _, t := range portal.SplitTopics(v) {
					names = append(names, call.Scope.Identifier(t))
				}
				decl.Config[k] = strings.Join(names, ",")
			default:
				decl.Config[k] = v
			}
		}
		doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindConnector, Name: ident, Connector: decl})
	}
	for _, a := range obs.accounts {
		v, ok := s.accounts.view(call, a)
		if !ok || v.Type == "" {
			continue // not made by the portal: no type to declare
		}
		doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindServiceAccount, Name: v.Identifier, Description: v.Description,
			Account: &portal.AccountDecl{Type: v.Type}})
	}
	for _, p := range obs.pools {
		v, ok := s.pools.view(call, p)
		if !ok || v.Type == "" {
			continue
		}
		doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindIdentityPool, Name: v.Identifier, Description: v.Description,
			Pool: &portal.PoolDecl{Type: v.Type, IdentityClaim: v.IdentityClaim, Filter: v.Filter}})
	}
	return doc, nil
}

// envName suggests the environment variable of a connector's secret:
// SCADA_ORDERS_SINK_KAFKA_API_SECRET.
func envName(parts ...string) string {
	s := strings.ToUpper(strings.Join(parts, "_"))
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}
