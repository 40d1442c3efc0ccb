package wire

// ChangeRequest is a plan a Developer asks an Admin to apply.
type ChangeRequest struct {
	ID           string `json:"id" example:"cr-x1y2z3"`
	BU           string `json:"business_unit"`
	Stage        string `json:"stage"`
	Requester    string `json:"requester"`
	Reason       string `json:"reason"`
	State        string `json:"state" enum:"open,applying,applied,partly_applied,rejected,withdrawn,stale,expired" doc:"applying: approved, its plan being applied (result holds the plan meanwhile); if the replica doing it stops, another finishes what is left of the approved plan, or records it partly_applied with what was made."`
	Created      string `json:"created_at" format:"date-time"`
	Expires      string `json:"expires_at" format:"date-time"`
	DecidedBy    string `json:"decided_by,omitempty"`
	Decided      string `json:"decided_at,omitempty" format:"date-time"`
	Comment      string `json:"comment,omitempty"`
	Reviewable   bool   `json:"reviewable" doc:"Whether you may approve or reject it."`
	Withdrawable bool   `json:"withdrawable" doc:"Whether you may withdraw it (your own open request)."`
	Plan         Plan   `json:"plan" doc:"The plan as requested (as POST .../plan answers it)."`
	Result       *Plan  `json:"result,omitempty" doc:"The apply's plan with each change's outcome, once approved."`
}

// Decision is a reviewer's optional word on a change request or a grant.
type Decision struct {
	Comment string `json:"comment" oa:"maxlen=2000"`
}

// ChangeRequestList is a page of ChangeRequest.
type ChangeRequestList = List[ChangeRequest]
