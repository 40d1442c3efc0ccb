package connectors_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// as is a context whose caller has role in scada.
func as(role portal.Role) context.Context {
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles(role.String(), map[string]portal.Role{"scada": role}))
}

// problems is an error's problems, one per line of text.
func problems(err error) string {
	var parts []string
	for _, p := range portal.Problems(err) {
		parts = append(parts, fmt.Sprintf("%s %s: %s", p.Kind, p.Field, p.Message))
	}
	return strings.Join(parts, "\n")
}

// writePolicy is what each role may do with a unit's connectors and
// subjects in each stage: read, then write ("" allowed, else the refusal).
var writePolicy = map[portal.Role]map[string][2]portal.Kind{
	portal.NoRole:     {"dev": {portal.NotFound, portal.NotFound}, "run": {portal.NotFound, portal.NotFound}},
	portal.Viewer:     {"dev": {"", portal.InsufficientRole}, "run": {"", portal.InsufficientRole}},
	portal.Developer:  {"dev": {"", ""}, "run": {"", portal.ReadOnlyEnvironment}},
	portal.Admin:      {"dev": {"", ""}, "run": {"", ""}},
	portal.SuperAdmin: {"dev": {"", ""}, "run": {"", ""}},
}
