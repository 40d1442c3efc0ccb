package connectors_test

import (
	"github.com/edh-platform/rms-portal/internal/portal"
)

// writePolicy is what each role may do with a unit's connectors and
// subjects in each stage: read, then write ("" allowed, else the refusal).
var writePolicy = map[portal.Role]map[string][2]portal.Kind{
	portal.NoRole:     {"dev": {portal.NotFound, portal.NotFound}, "run": {portal.NotFound, portal.NotFound}},
	portal.Viewer:     {"dev": {"", portal.InsufficientRole}, "run": {"", portal.InsufficientRole}},
	portal.Developer:  {"dev": {"", ""}, "run": {"", portal.ReadOnlyEnvironment}},
	portal.Admin:      {"dev": {"", ""}, "run": {"", ""}},
	portal.SuperAdmin: {"dev": {"", ""}, "run": {"", ""}},
}
