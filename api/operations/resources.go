package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// resources are the operations of the change-requests tag.
func resources() []Operation {
	return []Operation{
		{
			ID: "fileChangeRequest", Method: http.MethodPost, Path: "/{bu}/{stage}/change-requests",
			Need:    NeedRequests,
			Tags:    []string{"change-requests"},
			Summary: "File a document's plan as a change request.",
			Doc: "The document is planned as a reviewer would make it (your role and\n" +
				"the stage's read-only switch are left to the review; validation,\n" +
				"policies and budgets refuse as for a plan) and stored with its\n" +
				"fingerprint and diff. An Admin of the unit or a Super Admin of its\n" +
				"zone, never you, approves it (the portal applies exactly that plan)\n" +
				"or rejects it. Documents with secret values are refused: an Admin\n" +
				"applies connectors with secrets directly. Developers and up.\n",
			Params:  []Param{{Name: "reason", In: "query", Doc: "Why the change is needed.", Required: true, Schema: "{type: string, maxLength: 2000}"}},
			Body:    &Body{Document: true},
			Answers: []Answer{{Status: 201, Doc: "Filed, open.", Of: wire.ChangeRequest{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound},
		},
		{
			ID: "listChangeRequests", Method: http.MethodGet, Path: "/{bu}/{stage}/change-requests",
			Need:    NeedReads,
			Tags:    []string{"change-requests"},
			Summary: "The unit's change requests in the stage, newest first.",
			Params:  []Param{{Name: "state", In: "query", Schema: "{type: string, enum: [open, applying, applied, partly_applied, rejected, withdrawn, stale, expired]}"}},
			Answers: []Answer{{Status: 200, Doc: "The requests.", Of: wire.ChangeRequestList{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "getChangeRequest", Method: http.MethodGet, Path: "/{bu}/{stage}/change-request/{id}",
			Need:    NeedReads,
			Tags:    []string{"change-requests"},
			Summary: "One change request with its diff (and its outcome once applied).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Answers: []Answer{{Status: 200, Doc: "The request.", Of: wire.ChangeRequest{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "approveChangeRequest", Method: http.MethodPost, Path: "/{bu}/{stage}/change-request/{id}/approve",
			Need:    NeedReviews,
			Tags:    []string{"change-requests"},
			Summary: "Approve: apply exactly the requested plan as you (Admins and Super Admins; never the requester).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Body:    &Body{Of: wire.Decision{}},
			Answers: []Answer{{Status: 200, Doc: "The request as it is now.", Of: wire.ChangeRequest{}}},
			Fails:   []Failure{Forbidden, NotFound, Busy},
		},
		{
			ID: "rejectChangeRequest", Method: http.MethodPost, Path: "/{bu}/{stage}/change-request/{id}/reject",
			Need:    NeedReviews,
			Tags:    []string{"change-requests"},
			Summary: "Reject an open request with a comment (Admins and Super Admins; never the requester).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Body:    &Body{Of: wire.Decision{}},
			Answers: []Answer{{Status: 200, Doc: "The request as it is now.", Of: wire.ChangeRequest{}}},
			Fails:   []Failure{Forbidden, NotFound, Busy},
		},
		{
			ID: "withdrawChangeRequest", Method: http.MethodPost, Path: "/{bu}/{stage}/change-request/{id}/withdraw",
			Need:    NeedRequests,
			Tags:    []string{"change-requests"},
			Summary: "Withdraw your own open request.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Answers: []Answer{{Status: 200, Doc: "The request as it is now.", Of: wire.ChangeRequest{}}},
			Fails:   []Failure{Forbidden, NotFound, Busy},
		},
	}
}
