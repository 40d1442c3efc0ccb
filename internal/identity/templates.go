package identity

import (
	"cmp"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
)

func isAccountType(t string) bool {
	for _, a := range portal.AccountTypes() {
		if a.Name == t {
			return true
		}
	}
	return false
}

func accountTypeNames() string {
	var names []string
	for _, a := range portal.AccountTypes() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

// BindingsFor returns the role bindings of a type on a prefix.
func BindingsFor(kind, prefix string) []portal.RoleBinding {
	p := prefix + "*"
	rb := func(role, resource string) portal.RoleBinding {
		if resource == portal.ResourceCluster {
			return portal.RoleBinding{Role: role, Resource: resource}
		}
		return portal.RoleBinding{Role: role, Resource: resource, Pattern: p}
	}
	switch kind {
	case "producer":
		return []portal.RoleBinding{rb("Operator", portal.ResourceCluster),
			rb("DeveloperRead", portal.ResourceTopic), rb("DeveloperWrite", portal.ResourceTopic),
			rb("DeveloperRead", portal.ResourceTransactionalID), rb("DeveloperWrite", portal.ResourceTransactionalID),
			rb("DeveloperRead", portal.ResourceGroup), rb("DeveloperRead", portal.ResourceSubject)}
	case "consumer":
		return []portal.RoleBinding{rb("Operator", portal.ResourceCluster),
			rb("DeveloperRead", portal.ResourceTopic), rb("DeveloperRead", portal.ResourceGroup), rb("DeveloperRead", portal.ResourceSubject)}
	case "stream-processor":
		return []portal.RoleBinding{rb("Operator", portal.ResourceCluster),
			rb("DeveloperRead", portal.ResourceTopic), rb("DeveloperWrite", portal.ResourceTopic), rb("DeveloperManage", portal.ResourceTopic),
			rb("DeveloperRead", portal.ResourceGroup),
			rb("DeveloperRead", portal.ResourceTransactionalID), rb("DeveloperWrite", portal.ResourceTransactionalID),
			rb("DeveloperRead", portal.ResourceSubject), rb("DeveloperWrite", portal.ResourceSubject)}
	case "metrics":
		return []portal.RoleBinding{rb("MetricsViewer", portal.ResourceCluster)}
	}
	return nil
}

// resourceOrder is the order in which bindings are shown: the cluster,
// then data, then schemas.
var resourceOrder = []string{portal.ResourceCluster, portal.ResourceTopic, portal.ResourceGroup,
	portal.ResourceTransactionalID, portal.ResourceSubject}

// sortBindings orders bindings by resource, role and pattern, so that a
// principal's bindings read the same on every visit, whatever order
// upstream lists them in.
func sortBindings(bs []portal.RoleBinding) {
	slices.SortStableFunc(bs, func(a, b portal.RoleBinding) int {
		return cmp.Or(cmp.Compare(slices.Index(resourceOrder, a.Resource), slices.Index(resourceOrder, b.Resource)),
			cmp.Compare(a.Role, b.Role), cmp.Compare(a.Pattern, b.Pattern))
	})
}
