package wire

// ErrorRecord is the body of every non-2xx API response.
type ErrorRecord struct {
	// Status is the upper-snake name of the HTTP status (BAD_REQUEST).
	Status string `json:"status" oa:"required" example:"BAD_REQUEST" doc:"Upper-snake name of the HTTP status."`
	// Code always equals the HTTP status code.
	Code int `json:"code" oa:"required" example:"400" doc:"Always the HTTP status code."`
	// Timestamp is UTC with milliseconds: 2026-11-21T22:43:37.123Z.
	Timestamp string      `json:"timestamp" oa:"required" example:"2026-11-21T22:43:37.123Z" doc:"UTC with milliseconds."`
	Errors    []ErrorItem `json:"errors" oa:"required"`
}

// ErrorItem is one problem; a 400 has one per offending field.
type ErrorItem struct {
	Type    string "json:\"type\" oa:\"required\" enum:\"MISSING_PARAMETER,INVALID_PARAMETER,MALFORMED_BODY,UNAUTHENTICATED,INSUFFICIENT_ROLE,READ_ONLY_ENVIRONMENT,CSRF_REJECTED,DATA_ACCESS_DISABLED,PRODUCE_DISABLED,NOT_FOUND,METHOD_NOT_ALLOWED,ALREADY_EXISTS,CONFLICT,INCOMPATIBLE_SCHEMA,QUOTA_EXCEEDED,PRECONDITION_FAILED,POLICY_VIOLATION,BUDGET_EXCEEDED,PAYLOAD_TOO_LARGE,UNSUPPORTED_MEDIA_TYPE,HEADERS_TOO_LARGE,RATE_LIMITED,INTERNAL,UPSTREAM_UNAVAILABLE,UPSTREAM_TIMEOUT,UPSTREAM_PERMISSION\" doc:\"- `MISSING_PARAMETER` (400): a required field is absent.\\n- `INVALID_PARAMETER` (400): a field's value is not acceptable, or a field is unknown.\\n- `MALFORMED_BODY` (400): the body is not a JSON object.\\n- `UNAUTHENTICATED` (401): no valid bearer token.\\n- `INSUFFICIENT_ROLE` (403): your role in the business unit does not allow this.\\n- `READ_ONLY_ENVIRONMENT` (403): the stage is read-only for your role.\\n- `CSRF_REJECTED` (403): a browser form that did not come from the portal (pages only).\\n- `DATA_ACCESS_DISABLED` (403): reading records is turned off for your role in this stage (`data_access`).\\n- `PRODUCE_DISABLED` (403): producing records by hand is turned off in this stage (`produce: off`).\\n- `NOT_FOUND` (404): no such resource, endpoint, stage, or business unit you have a role in.\\n- `METHOD_NOT_ALLOWED` (405): the endpoint does not support the method.\\n- `ALREADY_EXISTS` (409): the resource exists.\\n- `CONFLICT` (409): the current state does not allow the change.\\n- `INCOMPATIBLE_SCHEMA` (409): a schema is not compatible with earlier versions.\\n- `QUOTA_EXCEEDED` (409): the create would exceed one of the platform's quotas, which the message names; ask the platform team.\\n- `PRECONDITION_FAILED` (412): `If-Match` names a version of the resource that is no longer current: read it again.\\n- `POLICY_VIOLATION` (422): the write breaks a policy of the platform; `rule` names the policy and the message says what to change.\\n- `BUDGET_EXCEEDED` (422): the write would take the unit beyond one of its budgets; `rule` names the budget, the message its use and limit.\\n- `PAYLOAD_TOO_LARGE` (413): the body is too large.\\n- `UNSUPPORTED_MEDIA_TYPE` (415): the body is not JSON.\\n- `HEADERS_TOO_LARGE` (431): the request's headers exceed 64 KiB.\\n- `RATE_LIMITED` (429): you, your business unit, or an upstream service went over its rate limit; see `Retry-After`.\\n- `INTERNAL` (500): an unexpected error; the message gives the request id.\\n- `UPSTREAM_UNAVAILABLE` (503): an upstream service cannot be reached.\\n- `UPSTREAM_TIMEOUT` (504): an upstream service did not answer in time.\\n- `UPSTREAM_PERMISSION` (502): an upstream refused the portal's own credentials for the operation (its key lacks a role, which the message names); the platform team's configuration, not your request and not an outage.\""
	Message string `json:"message" oa:"required"`
	Field   string `json:"field,omitempty" doc:"The offending input field, when there is one."`
	// Rule names the policy (POLICY_VIOLATION) or the budget
	// (BUDGET_EXCEEDED) that refused a write.
	Rule string `json:"rule,omitempty" doc:"The policy (POLICY_VIOLATION) or budget (BUDGET_EXCEEDED) that refused the write."`
}
