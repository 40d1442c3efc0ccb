package dev

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/edh-platform/rms-portal/internal/dev/cloud"
	"github.com/edh-platform/rms-portal/internal/dev/clusters"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// keyAccess lets the Cloud stand-in's API keys into the embedded clusters
// and registries and enforces their owners' role bindings there, as
// Confluent Cloud does: a key made for a cluster signs in to it (with
// SCRAM-SHA-256: kfake takes PLAIN users only when it starts), and may do
// what its owner's role bindings on that cluster allow, translated to ACLs
// on the key's principal; a key made for a registry signs in to it. Like
// Confluent Cloud, it takes its time: a new key signs in only after
// keyDelay, and a changed role binding is enforced after bindingDelay.
type keyAccess struct {
	org *cloud.Org
	// clusters by Cloud id (lkc-...).
	clusters               map[string]*clusters.Cluster
	log                    *slog.Logger
	keyDelay, bindingDelay time.Duration

	mu sync.Mutex
	// live are the keys spread already: their secret and resource.
	live map[string]liveKey
	// stopped ends the steps still to take, once the clusters close.
	stopped atomic.Bool
}

// stop takes no step from now on (the platform closes).
func (a *keyAccess) stop() { a.stopped.Store(true) }

type liveKey struct{ secret, resource string }

func newKeyAccess(org *cloud.Org, byID map[string]*clusters.Cluster, keyDelay, bindingDelay time.Duration, log *slog.Logger) *keyAccess {
	return &keyAccess{org: org, clusters: byID, log: log, keyDelay: keyDelay, bindingDelay: bindingDelay, live: map[string]liveKey{}}
}

// handle follows one change of the organization: a deleted key is refused
// at once, a new key and a changed binding take effect after their delay.
// A step the cluster does not take (a busy machine's admin client timing
// out) is taken again until it is: Confluent Cloud enforces a change in
// the end, and a key left with a revoked binding's ACLs would not be.
func (a *keyAccess) handle(e cloud.Event) {
	switch {
	case e.Key != nil && e.Deleted:
		id, resource := e.Key.ID, e.Key.Resource
		a.until(0, func() error { return a.deleteKey(id, resource) })
	case e.Key != nil:
		k := *e.Key
		a.until(a.keyDelay, func() error { return a.spread(k.ID, k.Resource, k.Owner, k.Secret) })
	case e.Principal != "":
		owner := strings.TrimPrefix(e.Principal, "User:")
		a.until(a.bindingDelay, func() error { return a.enforce(owner) })
	}
}

// retryFor bounds how long a step is taken again.
const retryFor = 2 * time.Minute

// until runs f after d, and again a second later each time it fails,
// for retryFor at most.
func (a *keyAccess) until(d time.Duration, f func() error) {
	give := time.Now().Add(d + retryFor)
	var run func()
	run = func() {
		if a.stopped.Load() {
			return
		}
		if err := f(); err != nil && time.Now().Before(give) {
			time.AfterFunc(time.Second, run)
		}
	}
	if d <= 0 {
		run()
		return
	}
	time.AfterFunc(d, run)
}

func (a *keyAccess) deleteKey(id, resource string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.live, id)
	cl := a.clusters[resource]
	if cl == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.report(id, "delete user", cl.DeleteUser(ctx, id)); err != nil {
		return err
	}
	return a.report(id, "delete ACLs", cl.SetACLs(ctx, "User:"+id, nil))
}

// spread lets a new key in, unless it was deleted meanwhile.
func (a *keyAccess) spread(id, resource, owner, secret string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := a.org.APIKeys().GetAPIKey(ctx, id); err != nil {
		return nil
	}
	a.live[id] = liveKey{secret: secret, resource: resource}
	cl := a.clusters[resource]
	if cl == nil {
		return nil
	}
	if err := a.report(id, "add user", cl.PutUser(ctx, id, secret)); err != nil {
		return err
	}
	return a.sync(ctx, cl, resource, id, owner)
}

// enforce gives the live keys of owner what its bindings allow now.
func (a *keyAccess) enforce(owner string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	keys, _ := a.org.APIKeys().ListAPIKeys(ctx, owner, "")
	var errs []error
	for _, k := range keys {
		if _, live := a.live[k.ID]; !live {
			continue // its own spreading sets its ACLs
		}
		if cl := a.clusters[k.Resource]; cl != nil {
			errs = append(errs, a.sync(ctx, cl, k.Resource, k.ID, owner))
		}
	}
	return errors.Join(errs...)
}

// registryTaken says whether user and pass are a live key of registry.
func (a *keyAccess) registryTaken(registry string) func(user, pass string) bool {
	return func(user, pass string) bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		k, ok := a.live[user]
		return ok && k.resource == registry && k.secret == pass
	}
}

// sync gives a key's principal the ACLs of its owner's bindings.
func (a *keyAccess) sync(ctx context.Context, cl *clusters.Cluster, clusterID, key, owner string) error {
	acls := bindingACLs(a.org.ClusterBindings("User:"+owner, clusterID))
	return a.report(key, "set ACLs", cl.SetACLs(ctx, "User:"+key, acls))
}

// report logs a step the cluster did not take, and says whether it is
// worth taking again (not on a cluster that takes no credentials).
func (a *keyAccess) report(key, what string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, clusters.ErrNotSecured):
		a.log.Warn("dev cluster: API key access", "key", key, "step", what, "err", err)
		return nil
	}
	a.log.Warn("dev cluster: API key access (taken again)", "key", key, "step", what, "err", err)
	return err
}

// roleOps are the Kafka operations a Confluent Cloud role grants on a
// resource type, after Confluent's documentation of its predefined roles.
var roleOps = map[string]map[string][]kmsg.ACLOperation{
	"DeveloperRead": {
		iam.ResourceTopic:           {kmsg.ACLOperationRead, kmsg.ACLOperationDescribe},
		iam.ResourceGroup:           {kmsg.ACLOperationRead, kmsg.ACLOperationDescribe},
		iam.ResourceTransactionalID: {kmsg.ACLOperationDescribe},
	},
	"DeveloperWrite": {
		iam.ResourceTopic:           {kmsg.ACLOperationWrite, kmsg.ACLOperationDescribe},
		iam.ResourceTransactionalID: {kmsg.ACLOperationWrite, kmsg.ACLOperationDescribe},
	},
	"DeveloperManage": {
		iam.ResourceTopic: {kmsg.ACLOperationCreate, kmsg.ACLOperationDelete, kmsg.ACLOperationAlter, kmsg.ACLOperationAlterConfigs,
			kmsg.ACLOperationDescribe, kmsg.ACLOperationDescribeConfigs},
		iam.ResourceGroup: {kmsg.ACLOperationDelete, kmsg.ACLOperationDescribe},
	},
	"ResourceOwner": {
		iam.ResourceTopic: {kmsg.ACLOperationAll}, iam.ResourceGroup: {kmsg.ACLOperationAll},
		iam.ResourceTransactionalID: {kmsg.ACLOperationAll},
	},
}

var aclTypes = map[string]kmsg.ACLResourceType{
	iam.ResourceTopic: kmsg.ACLResourceTypeTopic, iam.ResourceGroup: kmsg.ACLResourceTypeGroup,
	iam.ResourceTransactionalID: kmsg.ACLResourceTypeTransactionalId,
}

// bindingACLs translates role bindings on one cluster to ACLs. A pattern
// ending in "*" is a prefix; "*" alone is every resource of the type.
func bindingACLs(bindings []iam.RoleBinding) []clusters.ACL {
	var out []clusters.ACL
	for _, b := range bindings {
		if b.Resource == iam.ResourceCluster {
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
		if b.Role == "DeveloperWrite" && b.Resource == iam.ResourceTopic {
			// Idempotent producers (franz-go's and Java's default).
			out = append(out, clusters.ACL{Resource: kmsg.ACLResourceTypeCluster, Name: "kafka-cluster", Operation: kmsg.ACLOperationIdempotentWrite})
		}
	}
	return out
}
