package portal

// The change request's actions, with the past tenses that name their CloudEvents
// (changeRequestKind lists them).
var (
	ActChangeRequestCreate   = Action{"change-request.create", "created"}
	ActChangeRequestApprove  = Action{"change-request.approve", "approved"}
	ActChangeRequestReject   = Action{"change-request.reject", "rejected"}
	ActChangeRequestWithdraw = Action{"change-request.withdraw", "withdrawn"}
	ActChangeRequestStale    = Action{"change-request.stale", "stale"}
)

// changeRequestKind declares the change request: see KindInfo.
var changeRequestKind = KindInfo{
	Change: "change-request", Title: "Change request", Titles: "Change requests",
	Plural: "change-requests", Item: "change-request", Readable: true, Aliases: []string{"requests"},
	Columns: []string{"id", "state", "requester", "reason", "expires_at"},
	Nav:     11, Icon: "clipboard-check",
	Verbs: []Action{ActChangeRequestCreate, ActChangeRequestApprove, ActChangeRequestReject, ActChangeRequestWithdraw, ActChangeRequestStale},
}
