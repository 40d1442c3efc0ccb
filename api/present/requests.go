package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// ChangeRequest is a change request with its review.
func ChangeRequest(r changerequest.ChangeRequest) wire.ChangeRequest {
	out := wire.ChangeRequest{ID: r.ID, BU: r.BU, Stage: r.Stage, Requester: r.Requester, Reason: r.Reason, State: r.State, Created: Stamp(r.Created),
		Expires: Stamp(r.Expires), DecidedBy: r.DecidedBy, Decided: Stamp(r.Decided), Comment: r.Comment, Reviewable: r.Reviewable, Withdrawable: r.Withdrawable, Plan: Plan(r.Plan)}
	if r.Result != nil {
		res := Plan(*r.Result)
		out.Result = &res
	}
	return out
}
