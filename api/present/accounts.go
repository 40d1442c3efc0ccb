package present

import (
	"cmp"
	"net/http"

	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Bindings is the role bindings of an account or a pool, never nil.
func Bindings(bs []iam.RoleBinding) []wire.RoleBinding {
	out := []wire.RoleBinding{}
	for _, b := range bs {
		out = append(out, wire.RoleBinding{Role: b.Role, Resource: b.Resource, Pattern: b.Pattern, CRN: b.CRN})
	}
	return out
}

// Account is a service account; withBindings adds its role bindings (its detail).
func Account(s iam.ServiceAccount, withBindings bool) wire.ServiceAccount {
	out := wire.ServiceAccount{ID: s.ID, Name: s.Name, Identifier: s.Identifier, BusinessUnit: s.BU, Outside: s.OutsideConvention,
		ReadOnly: s.ReadOnly, Type: s.Type, Description: s.Description, Job: s.Job}
	if withBindings {
		out.RoleBindings = Bindings(s.RoleBindings)
	}
	return out
}

// BulkJob is a bulk create's progress: each item's outcome as the status a create of its own would have answered.
func BulkJob(j iam.BulkJob) wire.BulkResults {
	out := wire.BulkResults{ID: j.ID, State: j.State, Total: len(j.Items), Done: j.Done(), Error: j.Error,
		Results: make([]wire.BulkResult, len(j.Items))}
	for i, it := range j.Items {
		row := wire.BulkResult{Index: i, Name: it.Name, Pending: true}
		if r := j.Results[i]; r != nil {
			row.Pending = false
			if r.Error != nil {
				row.Status = r.Error.Kind.Status()
				row.Error = &wire.ErrorItem{Type: string(r.Error.Kind), Message: r.Error.Message}
			} else {
				item := Account(*r.Item, true)
				row.Status, row.Name, row.Item, row.Outcome = http.StatusCreated, r.Item.Name, &item, cmp.Or(r.Outcome, iam.BulkCreated)
				if r.Outcome == iam.BulkCompleted {
					row.Status = http.StatusOK
				}
			}
		}
		out.Results[i] = row
	}
	return out
}
