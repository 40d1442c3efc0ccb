package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Plan is a plan of resources as code: each change, the summary, the budget it uses.
func Plan(p ascode.Plan) wire.Plan {
	out := wire.Plan{BusinessUnit: p.BU, Stage: p.Stage, Prune: p.Prune, Force: p.Force, Fingerprint: p.Fingerprint, RequestID: p.AuditID,
		Summary: map[string]int{}, Changes: make([]wire.PlanChange, len(p.Changes)), Budget: BudgetLines(p.Budget)}
	for _, a := range []string{ascode.ActionCreate, ascode.ActionUpdate, ascode.ActionUnchanged, ascode.ActionDelete, ascode.ActionRefused, ascode.ActionSkipped} {
		out.Summary[a] = p.Count(a)
	}
	for i, c := range p.Changes {
		cj := wire.PlanChange{Kind: c.Kind, Name: c.Name, Identifier: c.Identifier, Action: c.Action, Refused: c.Wanted,
			Warnings: c.Warnings, Outcome: c.Outcome}
		if c.Index >= 0 {
			cj.Item = &c.Index
		}
		if len(c.Diff) > 0 {
			cj.Diff = map[string]wire.FieldDiff{}
			for _, d := range c.Diff {
				cj.Diff[d.Field] = wire.FieldDiff{Before: d.Before, After: d.After}
			}
		}
		for _, e := range c.Errors {
			cj.Errors = append(cj.Errors, wire.ErrorItem{Type: string(e.Kind), Message: e.Message, Field: e.Field, Rule: e.Rule})
		}
		if c.Error != nil {
			cj.Error = &wire.ErrorItem{Type: string(c.Error.Kind), Message: c.Error.Message, Field: c.Error.Field}
		}
		if c.Outcome != "" {
			out.Summary[c.Outcome]++
		}
		for _, k := range c.Issued {
			cj.APIKeys = append(cj.APIKeys, CreatedAPIKey(k))
		}
		out.Changes[i] = cj
	}
	return out
}
