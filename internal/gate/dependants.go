package gate

import (
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// CheckDependants refuses a delete with live dependants unless an Admin
// names the resource and gives a reason; the refusal lists each
// dependant. It returns the audit changes of an allowed forced delete.
func CheckDependants(call *Call, im portal.Impact, identifier string, opt portal.DeleteOptions) ([]trail.Change, error) {
	live := im.Live()
	if len(live) == 0 {
		return nil, nil
	}
	what := strings.ReplaceAll(im.Kind, "_", " ") + " " + im.Name
	var v portal.Validation
	admin := access.DecideGrant(call.Role, access.ReviewGrant).Allowed
	typed := strings.TrimSpace(opt.Confirm)
	if opt.Forced && admin {
		opt.Reason = "forced by the Admin's plan"
		typed = im.Name
	}
	switch {
	case !admin:
		v.Add(portal.New(portal.InsufficientRole, "%s has %d live dependants: only an Admin of %s deletes it, naming it and giving a reason", what, len(live),
			call.Scope.Unit.ID))
	case typed != im.Name && typed != identifier || strings.TrimSpace(opt.Reason) == "":
		v.Add(portal.New(portal.Conflict, "%s has %d live dependants: to delete it anyway, confirm with its name (%s) and give a reason", what, len(live), identifier))
	case portal.CheckText("reason", opt.Reason, 2000, true) != nil:
		return nil, portal.CheckText("reason", opt.Reason, 2000, true)
	default:
		changes := []trail.Change{{Field: "forced", After: "true"}, {Field: "reason", After: strings.TrimSpace(opt.Reason)}}
		for _, d := range live {
			changes = append(changes, trail.Change{Field: "dependant", Before: d.Kind + " " + d.Name + " (" + d.Unit + ")"})
		}
		return changes, nil
	}
	for _, d := range live {
		e := portal.New(v.Problems[0].Kind, "%s %s of %s: %s", strings.ReplaceAll(d.Kind, "_", " "), d.Name, orNone(d.Unit), d.Detail)
		e.Field = "dependants"
		v.Add(e)
	}
	return nil, v.Err()
}

func orNone(unit string) string {
	if unit == "" {
		return "no unit"
	}
	return unit
}
