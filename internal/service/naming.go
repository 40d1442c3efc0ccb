package service

import (
	"maps"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// maxIdentifier bounds any identifier a caller sends: no resource name
// (a topic's 249 characters at most, with its prefix) can hold a longer one.
const maxIdentifier = 200

// identifier adds to v what is wrong with an identifier sent as field
// (missing, or not usable in a name; label starts the message), and says
// whether it can be qualified.
func identifier(v *portal.Validation, field, label, name string) bool {
	if strings.TrimSpace(name) == "" {
		v.Add(portal.Missing(field))
		return false
	}
	if len(name) > maxIdentifier {
		v.Add(portal.Invalid(field, "%s is %d characters long; at most %d", label, len(name), maxIdentifier))
		return false
	}
	if p := tenancy.IdentifierProblem(tenancy.Normalise(name)); p != "" {
		v.Add(portal.Invalid(field, "%s %s", label, p))
		return false
	}
	return true
}

// The services implement the contract of the front doors.
var (
	_ portal.TopicService     = (*Topics)(nil)
	_ portal.MetricsService   = (*Topics)(nil)
	_ portal.ConnectorService = (*Connectors)(nil)
	_ portal.SchemaService    = (*Schemas)(nil)
	_ portal.AccountService   = (*ServiceAccounts)(nil)
	_ portal.PoolService      = (*IdentityPools)(nil)
)

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
