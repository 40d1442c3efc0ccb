package plans

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
)

// weigh reads the dependants of each planned delete: every one is shown
// with the change; live ones refuse it unless the document says force
// and the caller is an Admin of the unit.
func weigh(ctx context.Context, call *gate.Call, steps []*Step, force bool) error {
	admin := access.DecideGrant(call.Role, access.ReviewGrant).Allowed
	// What the plan deletes itself (a connector before its topic) is no
	// dependant of its other deletes.
	deleted := map[string]bool{}
	for _, st := range steps {
		if st.Change.Action == ascode.ActionDelete {
			deleted[st.Key] = true
		}
	}
	for _, st := range steps {
		if st.Impact == nil || st.Change.Action != ascode.ActionDelete {
			continue
		}
		im, err := st.Impact(ctx)
		if err != nil {
			return err
		}
		im.Dependants = slices.DeleteFunc(im.Dependants, func(d portal.Dependant) bool { return deleted[strings.ReplaceAll(d.Kind, "_", "-")+"/"+d.Name] })
		for _, d := range im.Dependants {
			what := "depends on it: "
			if d.Live {
				what = "live dependant: "
			}
			unit := d.Unit
			if unit == "" {
				unit = "no unit"
			}
			st.Change.Warnings = append(st.Change.Warnings, what+strings.ReplaceAll(d.Kind, "_", " ")+" "+d.Name+" of "+unit+" ("+d.Detail+")")
		}
		live := len(im.Live())
		switch {
		case live == 0:
		case force && admin:
			st.Force = true
		default:
			why := "the document says force: true (an Admin's plan) to delete it anyway"
			if force {
				why = "only an Admin's plan forces it"
			}
			e := portal.New(portal.Conflict, "%s %s has %d live dependants: %s", st.Change.Kind, st.Change.Name, live, why)
			e.Field = "force"
			st.Change.Errors = append(st.Change.Errors, e)
			st.Change.Wanted, st.Change.Action = st.Change.Action, ascode.ActionRefused
			st.Do, st.Batch = nil, nil
		}
	}
	return nil
}
