package identity

import (
	"cmp"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

func isAccountType(t string) bool {
	for _, a := range iam.AccountTypes() {
		if a.Name == t {
			return true
		}
	}
	return false
}

func accountTypeNames() string {
	var names []string
	for _, a := range iam.AccountTypes() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

// BindingsFor returns the role bindings of a type on a prefix.
func BindingsFor(kind, prefix string) []iam.RoleBinding {
	p := prefix + "*"
	rb := func(role, resource string) iam.RoleBinding {
		if resource == iam.ResourceCluster {
			return iam.RoleBinding{Role: role, Resource: resource}
		}
		return iam.RoleBinding{Role: role, Resource: resource, Pattern: p}
	}
	switch kind {
	case "producer":
		return []iam.RoleBinding{rb("Operator", iam.ResourceCluster),
			rb("DeveloperRead", iam.ResourceTopic), rb("DeveloperWrite", iam.ResourceTopic),
			rb("DeveloperRead", iam.ResourceTransactionalID), rb("DeveloperWrite", iam.ResourceTransactionalID),
			rb("DeveloperRead", iam.ResourceGroup), rb("DeveloperRead", iam.ResourceSubject)}
	case "consumer":
		return []iam.RoleBinding{rb("Operator", iam.ResourceCluster),
			rb("DeveloperRead", iam.ResourceTopic), rb("DeveloperRead", iam.ResourceGroup), rb("DeveloperRead", iam.ResourceSubject)}
	case "stream-processor":
		return []iam.RoleBinding{rb("Operator", iam.ResourceCluster),
			rb("DeveloperRead", iam.ResourceTopic), rb("DeveloperWrite", iam.ResourceTopic), rb("DeveloperManage", iam.ResourceTopic),
			rb("DeveloperRead", iam.ResourceGroup),
			rb("DeveloperRead", iam.ResourceTransactionalID), rb("DeveloperWrite", iam.ResourceTransactionalID),
			rb("DeveloperRead", iam.ResourceSubject), rb("DeveloperWrite", iam.ResourceSubject)}
	case "metrics":
		return []iam.RoleBinding{rb("MetricsViewer", iam.ResourceCluster)}
	}
	return nil
}

// resourceOrder is the order in which bindings are shown: the cluster,
// then data, then schemas.
var resourceOrder = []string{iam.ResourceCluster, iam.ResourceTopic, iam.ResourceGroup,
	iam.ResourceTransactionalID, iam.ResourceSubject}

// sortBindings orders bindings by resource, role and pattern, so that a
// principal's bindings read the same on every visit, whatever order
// upstream lists them in.
func sortBindings(bs []iam.RoleBinding) {
	slices.SortStableFunc(bs, func(a, b iam.RoleBinding) int {
		return cmp.Or(cmp.Compare(slices.Index(resourceOrder, a.Resource), slices.Index(resourceOrder, b.Resource)),
			cmp.Compare(a.Role, b.Role), cmp.Compare(a.Pattern, b.Pattern))
	})
}
