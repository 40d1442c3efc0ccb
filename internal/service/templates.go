package service

import (
	"cmp"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// AccountType is a kind of service account or identity pool; it selects
// the role bindings applied, all scoped to the business unit's prefix.
type AccountType struct {
	Name        string
	Description string
}

// AccountTypes lists the types, in the order pages offer them.
func AccountTypes() []AccountType {
	return []AccountType{
		{"producer", "Writes to the unit's topics: Operator on the cluster; DeveloperRead and DeveloperWrite on its topics and transactional ids; DeveloperRead on its consumer groups and subjects."},
		{"consumer", "Reads the unit's topics: Operator on the cluster; DeveloperRead on its topics, consumer groups and subjects."},
		{"stream-processor", "Kafka Streams or Flink applications: what a producer and a consumer have, plus DeveloperManage on the unit's topics (internal topics) and DeveloperWrite on its subjects."},
		{"metrics", "Monitoring: MetricsViewer on the cluster, nothing on data."},
	}
}

func isAccountType(t string) bool {
	for _, a := range AccountTypes() {
		if a.Name == t {
			return true
		}
	}
	return false
}

func accountTypeNames() string {
	var names []string
	for _, a := range AccountTypes() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

// bindingsFor returns the role bindings of a type on a prefix.
func bindingsFor(kind, prefix string) []platform.RoleBinding {
	p := prefix + "*"
	rb := func(role, resource string) platform.RoleBinding {
		if resource == platform.ResourceCluster {
			return platform.RoleBinding{Role: role, Resource: resource}
		}
		return platform.RoleBinding{Role: role, Resource: resource, Pattern: p}
	}
	switch kind {
	case "producer":
		return []platform.RoleBinding{rb("Operator", platform.ResourceCluster),
			rb("DeveloperRead", platform.ResourceTopic), rb("DeveloperWrite", platform.ResourceTopic),
			rb("DeveloperRead", platform.ResourceTransactionalID), rb("DeveloperWrite", platform.ResourceTransactionalID),
			rb("DeveloperRead", platform.ResourceGroup), rb("DeveloperRead", platform.ResourceSubject)}
	case "consumer":
		return []platform.RoleBinding{rb("Operator", platform.ResourceCluster),
			rb("DeveloperRead", platform.ResourceTopic), rb("DeveloperRead", platform.ResourceGroup), rb("DeveloperRead", platform.ResourceSubject)}
	case "stream-processor":
		return []platform.RoleBinding{rb("Operator", platform.ResourceCluster),
			rb("DeveloperRead", platform.ResourceTopic), rb("DeveloperWrite", platform.ResourceTopic), rb("DeveloperManage", platform.ResourceTopic),
			rb("DeveloperRead", platform.ResourceGroup),
			rb("DeveloperRead", platform.ResourceTransactionalID), rb("DeveloperWrite", platform.ResourceTransactionalID),
			rb("DeveloperRead", platform.ResourceSubject), rb("DeveloperWrite", platform.ResourceSubject)}
	case "metrics":
		return []platform.RoleBinding{rb("MetricsViewer", platform.ResourceCluster)}
	}
	return nil
}

// typeOf reads the type from the end of a display name.
func typeOf(name string) string {
	best := ""
	for _, a := range AccountTypes() {
		if strings.HasSuffix(name, "-"+a.Name) && len(a.Name) > len(best) {
			best = a.Name
		}
	}
	return best
}

// resourceOrder is the order in which bindings are shown: the cluster,
// then data, then schemas.
var resourceOrder = []string{platform.ResourceCluster, platform.ResourceTopic, platform.ResourceGroup,
	platform.ResourceTransactionalID, platform.ResourceSubject}

// sortBindings orders bindings by resource, role and pattern, so that a
// principal's bindings read the same on every visit, whatever order
// upstream lists them in.
func sortBindings(bs []platform.RoleBinding) {
	slices.SortStableFunc(bs, func(a, b platform.RoleBinding) int {
		return cmp.Or(cmp.Compare(slices.Index(resourceOrder, a.Resource), slices.Index(resourceOrder, b.Resource)),
			cmp.Compare(a.Role, b.Role), cmp.Compare(a.Pattern, b.Pattern))
	})
}
