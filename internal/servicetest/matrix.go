package servicetest

import (
	"context"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Op is one service call of an access matrix: a read or a write, made in
// a stage.
type Op struct {
	Name  string
	Write bool
	Run   func(ctx context.Context, w *World, stage string) error
}

// Policy is what an access matrix expects of each role in each stage:
// the error kind of a read and of a write ("" for allowed).
type Policy map[portal.Role]map[string][2]portal.Kind

// IdentityPolicy is the rule of the organisation's identities (service
// accounts, pools, API keys): reads for every role of the unit, changes
// for Admins and up, who may also change them in a read-only stage.
var IdentityPolicy = Policy{
	portal.NoRole:     {"dev": {portal.NotFound, portal.NotFound}, "run": {portal.NotFound, portal.NotFound}},
	portal.Viewer:     {"dev": {"", portal.InsufficientRole}, "run": {"", portal.InsufficientRole}},
	portal.Developer:  {"dev": {"", portal.InsufficientRole}, "run": {"", portal.InsufficientRole}},
	portal.Admin:      {"dev": {"", ""}, "run": {"", ""}},
	portal.SuperAdmin: {"dev": {"", ""}, "run": {"", ""}},
}

// CheckOps makes each op as role of unit in stage and fails on an answer
// other than the policy's, on a refused write without exactly one audit
// event, and on a refused read that left one.
func (w *World) CheckOps(t *testing.T, unit string, role portal.Role, stage string, p Policy, ops []Op) {
	t.Helper()
	for _, o := range ops {
		want := p[role][stage][map[bool]int{false: 0, true: 1}[o.Write]]
		before := len(w.AuditEvents(t))
		err := o.Run(As(unit, role), w, stage)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s %s in %s: refused: %v", role, o.Name, stage, err)
		case want != "" && portal.KindOf(err) != want:
			t.Errorf("%s %s in %s: got %v, want %s", role, o.Name, stage, err, want)
		case want != "" && o.Write && len(w.AuditEvents(t)) != before+1:
			t.Errorf("%s %s in %s: a refused write must leave one audit event", role, o.Name, stage)
		case want != "" && !o.Write && len(w.AuditEvents(t)) != before:
			t.Errorf("%s %s in %s: a refused read left an audit event", role, o.Name, stage)
		}
	}
}
