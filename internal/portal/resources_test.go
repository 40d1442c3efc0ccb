package portal_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
)

// TestResourcesKeepTheirDeclarationsInJSON: a document kept as JSON (an
// apply's journal, a change request) reads back with each resource's
// declaration of its kind's type, also when it was written before Spec
// held it (under the kind's own field), and a spec of another kind's type
// is not taken for one.
func TestResourcesKeepTheirDeclarationsInJSON(t *testing.T) {
	parts := 3
	doc := ascode.Document{Resources: []portal.Resource{
		{Kind: portal.KindTopic, Name: "orders", Labels: map[string]string{"team": "a"}, Spec: &portal.TopicDecl{Partitions: &parts, Config: map[string]string{"retention.ms": "1"}}},
		{Kind: portal.KindConnector, Name: "sink", Spec: &portal.ConnectorDecl{Class: "S3_SINK", Secrets: map[string]portal.SecretRef{"k": {FromEnv: "K"}}}},
		{Kind: portal.KindGrant, Name: "orders"},
	}}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var back ascode.Document
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, doc) {
		t.Errorf("read back %+v, want %+v", back, doc)
	}
	if d := portal.DeclOf[portal.TopicDecl](back.Resources[0]); d == nil || *d.Partitions != 3 {
		t.Errorf("the topic's declaration: %+v", back.Resources[0].Spec)
	}

	var old portal.Resource
	if err := json.Unmarshal([]byte(`{"Kind":"Topic","Name":"orders","Labels":null,"Description":"","Topic":{"Partitions":2,"Config":null,"Catalog":null},"Schema":null}`), &old); err != nil {
		t.Fatal(err)
	}
	if d := portal.DeclOf[portal.TopicDecl](old); d == nil || *d.Partitions != 2 || !portal.HasSpec(old) {
		t.Errorf("a resource written before Spec: %+v", old)
	}
	// A pool's declaration is its document spec (camelCase names): one
	// written with Go's names still reads.
	var pool portal.Resource
	if err := json.Unmarshal([]byte(`{"Kind":"IdentityPool","Name":"ci","Pool":{"Type":"consumer","IdentityClaim":"claims.sub","Filter":"true"}}`), &pool); err != nil {
		t.Fatal(err)
	}
	if d := portal.DeclOf[portal.PoolDecl](pool); d == nil || d.Type != "consumer" || d.IdentityClaim != "claims.sub" || d.Filter != "true" {
		t.Errorf("a pool written before Spec: %+v", pool.Spec)
	}
	if portal.HasSpec(portal.Resource{Kind: portal.KindTopic, Spec: &portal.SchemaDecl{}}) || portal.HasSpec(portal.Resource{Kind: portal.KindTopic}) {
		t.Error("a topic without a topic's declaration has its spec")
	}
}
