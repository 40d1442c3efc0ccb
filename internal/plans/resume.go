package plans

import (
	"fmt"

	"github.com/edh-platform/rms-portal/internal/portal/ascode"
)

// changeKey names a change for comparing plans.
func changeKey(c ascode.PlannedChange) string {
	return fmt.Sprintf("%s %s %s", c.Kind, c.Name, c.Action)
}

// pending tells whether a change of a plan is still to be made.
func pending(c ascode.PlannedChange) bool {
	return c.Action == ascode.ActionCreate || c.Action == ascode.ActionUpdate || c.Action == ascode.ActionDelete
}

// Within tells whether every change still to be made in left was in the
// approved plan, as it was approved.
func Within(left, approved ascode.Plan) bool {
	planned := map[string]bool{}
	for _, c := range approved.Changes {
		planned[changeKey(c)] = true
	}
	for _, c := range left.Changes {
		if c.Action == ascode.ActionRefused || (pending(c) && !planned[changeKey(c)]) {
			return false
		}
	}
	return true
}

// Merged is the approved plan with the outcome of each change: applied
// when it is no longer to be made, else as after (applied or failed by
// the resumed apply, or skipped when it was not resumed).
func Merged(approved, after ascode.Plan) ascode.Plan {
	outcome := map[string]ascode.PlannedChange{} // by resource: its action may differ now
	for _, c := range after.Changes {
		if pending(c) || c.Action == ascode.ActionRefused {
			outcome[c.Kind+" "+c.Name] = c
		}
	}
	out := approved
	out.Changes = append([]ascode.PlannedChange(nil), approved.Changes...)
	out.AuditID = after.AuditID
	for i, c := range out.Changes {
		if !pending(c) {
			continue
		}
		a, left := outcome[c.Kind+" "+c.Name]
		switch {
		case !left:
			out.Changes[i].Outcome = ascode.OutcomeApplied
		case a.Outcome != "":
			out.Changes[i].Outcome, out.Changes[i].Error = a.Outcome, a.Error
		default:
			out.Changes[i].Outcome = ascode.OutcomeSkipped
		}
	}
	return out
}
