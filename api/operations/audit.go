package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// audit are the operations of the audit tag.
func audit() []Operation {
	return []Operation{
		{
			ID: "unitBudget", Method: http.MethodGet, Path: "/{bu}/{stage}/budget",
			Need:    NeedReads,
			Tags:    []string{"audit"},
			Summary: "The unit's use of each budget dimension in the stage, against its limit.",
			Doc:     "Every role of the unit may read it. A dimension without a limit has `limit` null.",
			Answers: []Answer{{Status: 200, Doc: "The budget.", Of: wire.Budget{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "listAudit", Method: http.MethodGet, Path: "/{bu}/{stage}/audit",
			Need:    NeedReviews,
			Tags:    []string{"audit"},
			Summary: "The unit's audit trail in a stage, newest first.",
			Doc: "Every write attempt, allowed or refused: who (with the role their\n" +
				"groups gave and the groups), from where (source IP, user agent), the\n" +
				"request id, the action and resource, the outcome (`ok`, `unknown` for\n" +
				"a write that timed out and may still have happened, or the error\n" +
				"type that stopped it), and for updates the settings that changed,\n" +
				"before and after (secrets masked). Admins and Super Admins of the\n" +
				"unit may read it; events are kept for the configured retention\n" +
				"(400 days by default).\n",
			Params:  []Param{{Name: "actor", In: "query", Doc: "Only events of this actor (user name or client id).", Schema: "{type: string}"}, {Name: "action", In: "query", Schema: "{type: string, example: topic.create}"}, {Name: "resource", In: "query", Doc: "The resource's full name, as events record it.", Schema: "{type: string}"}, {Name: "outcome", In: "query", Doc: "ok, unknown, or an error type.", Schema: "{type: string, example: READ_ONLY_ENVIRONMENT}"}, {Name: "since", In: "query", Schema: "{type: string, format: date-time}"}, {Name: "until", In: "query", Schema: "{type: string, format: date-time}"}, Ref("page_size"), Ref("page_token")},
			Answers: []Answer{{Status: 200, Doc: "One page of events.", Of: wire.AuditPage{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable},
		},
	}
}
