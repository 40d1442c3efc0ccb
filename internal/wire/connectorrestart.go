package wire

// AutoRestart is a connector's auto-restart: off, or on with its
// limit and where its backoff stands.
type AutoRestart struct {
	Enabled     bool    `json:"enabled"`
	MaxRestarts int     `json:"max_restarts" oa:"min=0,max=1000"`
	Attempts    int     `json:"attempts" doc:"Restarts since the connector last ran well."`
	GivenUp     bool    `json:"given_up"`
	LastAt      *string `json:"last_restart_at,omitempty" format:"date-time"`
	NextAt      *string `json:"next_restart_at,omitempty" format:"date-time" doc:"When the next restart is due while it is failing."`
	GivesUpAt   *string `json:"gives_up_at,omitempty" format:"date-time" doc:"When its restarts are spent: when the portal gives up if it still fails then (and tells the unit's alert channels)."`
	SetBy       string  `json:"set_by,omitempty"`
	SetAt       *string `json:"set_at,omitempty" format:"date-time"`
}

// AutoRestartUpdate turns a connector's auto-restart on or off.
type AutoRestartUpdate struct {
	Enabled     *bool `json:"enabled" oa:"required"`
	MaxRestarts int   `json:"max_restarts" oa:"min=0,max=1000,default=0" doc:"Restarts before the portal gives up; 0 for no limit."`
}

// Restart is one of the portal's restarts of a connector.
type Restart struct {
	At      string `json:"at" format:"date-time"`
	Action  string `json:"action" enum:"connector.auto-restart,connector.give-up"`
	Outcome string `json:"outcome"`
	Detail  string `json:"detail" doc:"The attempt and the failure's first line."`
}

// RestartList is a page of Restart.
type RestartList = List[Restart]
