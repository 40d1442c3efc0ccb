package present

import (
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Policy is a guardrail policy.
func Policy(p policy.Policy) wire.Policy {
	return wire.Policy{ID: p.ID, LandingZone: p.Zone, Description: p.Description, Kind: wire.PolicyKind(p.Kind), Units: Strings(p.Units), Stages: Strings(p.Stages),
		Operations: Strings(p.Operations), Expression: p.Expression, Message: p.Message, Field: p.Field, Action: p.Action,
		UpdatedBy: p.UpdatedBy, Updated: Stamp(p.Updated)}
}

// BudgetLines is the budget use a write or a plan would make.
func BudgetLines(lines []portal.BudgetLine) []wire.BudgetLine {
	out := make([]wire.BudgetLine, len(lines))
	for i, l := range lines {
		out[i] = wire.BudgetLine(l)
	}
	return out
}

// Budget is a budget with its use.
func Budget(b portal.Budget) wire.Budget {
	w := b.Warnings
	if w == nil {
		w = []string{}
	}
	return wire.Budget{BU: b.BU, Stage: b.Stage, Zone: b.Zone, Lines: BudgetLines(b.Lines), UpdatedBy: b.UpdatedBy, Updated: Stamp(b.Updated), Warnings: w,
		MonthlyCost: b.MonthlyCost}
}
