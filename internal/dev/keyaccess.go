package dev

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/edh-platform/rms-portal/internal/dev/cloud"
	"github.com/edh-platform/rms-portal/internal/dev/clusters"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// keyAccess lets the Cloud stand-in's API keys into the embedded clusters
// and enforces their owners' role bindings there, as Confluent Cloud does:
// a key made for a cluster signs in to it (with SCRAM-SHA-256: kfake takes
// PLAIN users only when it starts), and may do what its owner's role
// bindings on that cluster allow, translated to ACLs on the key's
// principal.
type keyAccess struct {
	org *cloud.Org
	// clusters by Cloud id (lkc-...).
	clusters map[string]*clusters.Cluster
	log      *slog.Logger
}

// handle follows one change of the organization.
func (a keyAccess) handle(e cloud.Event) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	switch {
	case e.Key != nil && e.Deleted:
		if cl := a.clusters[e.Key.Resource]; cl != nil {
			a.report(e.Key.ID, "delete user", cl.DeleteUser(ctx, e.Key.ID))
			a.report(e.Key.ID, "delete ACLs", cl.SetACLs(ctx, "User:"+e.Key.ID, nil))
		}
	case e.Key != nil:
		if cl := a.clusters[e.Key.Resource]; cl != nil {
			a.report(e.Key.ID, "add user", cl.PutUser(ctx, e.Key.ID, e.Key.Secret))
			a.sync(ctx, cl, e.Key.Resource, e.Key.ID, e.Key.Owner)
		}
	case e.Principal != "":
		owner := strings.TrimPrefix(e.Principal, "User:")
		keys, _ := a.org.APIKeys().ListAPIKeys(ctx, owner, "")
		for _, k := range keys {
			if cl := a.clusters[k.Resource]; cl != nil {
				a.sync(ctx, cl, k.Resource, k.ID, owner)
			}
		}
	}
}

// sync gives a key's principal the ACLs of its owner's bindings.
func (a keyAccess) sync(ctx context.Context, cl *clusters.Cluster, clusterID, key, owner string) {
	acls := bindingACLs(a.org.ClusterBindings("User:"+owner, clusterID))
	a.report(key, "set ACLs", cl.SetACLs(ctx, "User:"+key, acls))
}

func (a keyAccess) report(key, what string, err error) {
	if err != nil {
		a.log.Warn("dev cluster: API key access", "key", key, "step", what, "err", err)
	}
}

// roleOps are the Kafka operations a Confluent Cloud role grants on a
// resource type, after Confluent's documentation of its predefined roles.
var roleOps = map[string]map[string][]kmsg.ACLOperation{
	"DeveloperRead": {
		portal.ResourceTopic:           {kmsg.ACLOperationRead, kmsg.ACLOperationDescribe},
		portal.ResourceGroup:           {kmsg.ACLOperationRead, kmsg.ACLOperationDescribe},
		portal.ResourceTransactionalID: {kmsg.ACLOperationDescribe},
	},
	"DeveloperWrite": {
		portal.ResourceTopic:           {kmsg.ACLOperationWrite, kmsg.ACLOperationDescribe},
		portal.ResourceTransactionalID: {kmsg.ACLOperationWrite, kmsg.ACLOperationDescribe},
	},
	"DeveloperManage": {
		portal.ResourceTopic: {kmsg.ACLOperationCreate, kmsg.ACLOperationDelete, kmsg.ACLOperationAlter, kmsg.ACLOperationAlterConfigs,
			kmsg.ACLOperationDescribe, kmsg.ACLOperationDescribeConfigs},
		portal.ResourceGroup: {kmsg.ACLOperationDelete, kmsg.ACLOperationDescribe},
	},
	"ResourceOwner": {
		portal.ResourceTopic: {kmsg.ACLOperationAll}, portal.ResourceGroup: {kmsg.ACLOperationAll},
		portal.ResourceTransactionalID: {kmsg.ACLOperationAll},
	},
}

var aclTypes = map[string]kmsg.ACLResourceType{
	portal.ResourceTopic: kmsg.ACLResourceTypeTopic, portal.ResourceGroup: kmsg.ACLResourceTypeGroup,
	portal.ResourceTransactionalID: kmsg.ACLResourceTypeTransactionalId,
}

// bindingACLs translates role bindings on one cluster to ACLs. A pattern
// ending in "*" is a prefix; "*" alone is every resource of the type.
func bindingACLs(bindings []portal.RoleBinding) []clusters.ACL {
	var out []clusters.ACL
	for _, b := range bindings {
		if b.Resource == portal.ResourceCluster {
			switch b.Role {
			case "CloudClusterAdmin":
				out = append(out, clusters.ACL{Resource: kmsg.ACLResourceTypeCluster, Name: "kafka-cluster", Operation: kmsg.ACLOperationAll})
				for _, t := range aclTypes {
					out = append(out, clusters.ACL{Resource: t, Name: "*", Operation: kmsg.ACLOperationAll})
				}
			case "Operator":
				out = append(out, clusters.ACL{Resource: kmsg.ACLResourceTypeCluster, Name: "kafka-cluster", Operation: kmsg.ACLOperationDescribe})
			}
			continue
		}
		t, ok := aclTypes[b.Resource]
		if !ok {
			continue // subjects: the registry's, not the cluster's
		}
		name, prefixed := strings.CutSuffix(b.Pattern, "*")
		if name == "" {
			name, prefixed = "*", false
		}
		for _, op := range roleOps[b.Role][b.Resource] {
			out = append(out, clusters.ACL{Resource: t, Name: name, Prefixed: prefixed, Operation: op})
		}
		if b.Role == "DeveloperWrite" && b.Resource == portal.ResourceTopic {
			// Idempotent producers (franz-go's and Java's default).
			out = append(out, clusters.ACL{Resource: kmsg.ACLResourceTypeCluster, Name: "kafka-cluster", Operation: kmsg.ACLOperationIdempotentWrite})
		}
	}
	return out
}
