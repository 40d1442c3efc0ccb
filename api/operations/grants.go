package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// grants are the operations of the grants tag.
func grants() []Operation {
	return []Operation{
		{
			ID: "listGrants", Method: http.MethodGet, Path: "/{bu}/{stage}/grants",
			Need:    NeedReads,
			Tags:    []string{"grants"},
			Summary: "The grants the unit gave or received in the stage, by topic.",
			Params:  []Param{{Name: "side", In: "query", Doc: "Only the grants on the unit's topics (given) or those it asked for (received).", Schema: "{type: string, enum: [given, received]}"}, {Name: "state", In: "query", Schema: "{type: string, enum: [requested, active, rejected, withdrawn, revoked, expired, ended, renewed]}"}, {Name: "topic", In: "query", Doc: "Only the grants covering this topic (its full name): who else reads it.", Schema: "{type: string}"}, {Name: "expiring", In: "query", Doc: "Only the active grants that end soon (within the platform's warning period).", Schema: "{type: boolean}"}, Ref("page_size"), Ref("page_token"), Ref("search"), Ref("order")},
			Answers: []Answer{{Status: 200, Doc: "One page of grants.", Of: wire.GrantList{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "requestGrant", Method: http.MethodPost, Path: "/{bu}/{stage}/grants",
			Need:    NeedGrants,
			Tags:    []string{"grants"},
			Summary: "Ask another unit of the zone for access to its topic (Admins and Super Admins).",
			Body:    &Body{Of: wire.GrantRequest{}, Required: true},
			Answers: []Answer{{Status: 201, Doc: "Asked; the owner's Admins review it.", Of: wire.Grant{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy},
		},
		{
			ID: "getGrant", Method: http.MethodGet, Path: "/{bu}/{stage}/grant/{id}",
			Need:    NeedReads,
			Tags:    []string{"grants"},
			Summary: "One grant the unit gave or received, with its role bindings.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Answers: []Answer{{Status: 200, Doc: "The grant.", Of: wire.Grant{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "approveGrant", Method: http.MethodPost, Path: "/{bu}/{stage}/grant/{id}/approve",
			Need:    NeedGrants,
			Tags:    []string{"grants"},
			Summary: "Approve a request on the unit's topic: the role bindings are made (the owner's Admins; never who asked).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Body:    &Body{Of: wire.Decision{}},
			Answers: []Answer{{Status: 200, Doc: "The grant as it is now.", Of: wire.Grant{}}},
			Fails:   []Failure{Forbidden, NotFound, Busy, Unavailable},
		},
		{
			ID: "rejectGrant", Method: http.MethodPost, Path: "/{bu}/{stage}/grant/{id}/reject",
			Need:    NeedGrants,
			Tags:    []string{"grants"},
			Summary: "Reject a request on the unit's topic with a comment (the owner's Admins).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Body:    &Body{Of: wire.Decision{}},
			Answers: []Answer{{Status: 200, Doc: "The grant as it is now.", Of: wire.Grant{}}},
			Fails:   []Failure{Forbidden, NotFound, Busy, Unavailable},
		},
		{
			ID: "withdrawGrant", Method: http.MethodPost, Path: "/{bu}/{stage}/grant/{id}/withdraw",
			Need:    NeedGrants,
			Tags:    []string{"grants"},
			Summary: "Withdraw the unit's own request (the asking unit's Admins).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Body:    &Body{Of: wire.Decision{}},
			Answers: []Answer{{Status: 200, Doc: "The grant as it is now.", Of: wire.Grant{}}},
			Fails:   []Failure{Forbidden, NotFound, Busy, Unavailable},
		},
		{
			ID: "revokeGrant", Method: http.MethodPost, Path: "/{bu}/{stage}/grant/{id}/revoke",
			Need:    NeedGrants,
			Tags:    []string{"grants"},
			Summary: "Revoke an active grant: its role bindings are removed (Admins of either side).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Body:    &Body{Of: wire.Decision{}},
			Answers: []Answer{{Status: 200, Doc: "The grant as it is now.", Of: wire.Grant{}}},
			Fails:   []Failure{Forbidden, NotFound, Busy, Unavailable},
		},
	}
}
