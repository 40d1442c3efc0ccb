package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// identityPools are the operations of the identity-pools tag.
func identityPools() []Operation {
	return []Operation{
		{
			ID: "listIdentityPools", Method: http.MethodGet, Path: "/{bu}/{stage}/identity-pools",
			Need:    NeedReads,
			Tags:    []string{"identity-pools"},
			Summary: "List the business unit's identity pools.",
			Params:  []Param{Ref("page_size"), Ref("unit"), Ref("page_token"), Ref("search"), Ref("order")},
			Answers: []Answer{{Status: 200, Doc: "One page of identity pools.", Of: wire.IdentityPoolList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "testIdentityPoolFilter", Method: http.MethodPost, Path: "/{bu}/{stage}/identity-pools/test-filter",
			Need:    NeedReads,
			Tags:    []string{"identity-pools"},
			Summary: "Evaluate a filter against a sample token's claims.",
			Doc:     "Changes nothing; every role of the business unit may call it. A filter that does not compile is a 400 on `filter`.",
			Body:    &Body{Of: wire.FilterTest{}, Required: true, Example: "{filter: claims.aud == \"confluent\" && \"scada-ci\" in claims.groups, claims: {sub: ci-runner, aud: confluent, groups: [scada-ci]}}"},
			Answers: []Answer{{Status: 200, Doc: "Whether the claims match.", Of: wire.FilterTestResult{}}},
			Fails:   []Failure{BadRequest, NotFound, PayloadTooLarge, UnsupportedMediaType},
		},
		{
			ID: "createIdentityPool", Method: http.MethodPost, Path: "/{bu}/{stage}/identity-pool",
			Need:    NeedManages,
			Tags:    []string{"identity-pools"},
			Summary: "Create an identity pool and apply its type's role bindings.",
			Doc:     "Admins and Super Admins only. The filter is checked before anything is sent upstream.",
			Body:    &Body{Of: wire.IdentityPoolCreate{}, Required: true, Example: "{name: ci, type: consumer, filter: claims.aud == \"confluent\"}"},
			Answers: []Answer{{Status: 201, Doc: "Created. `Location` names it.", Of: wire.IdentityPool{}, Headers: []Header{{Name: "Location", Schema: "{type: string}"}}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "identityPoolImpact", Method: http.MethodGet, Path: "/{bu}/{stage}/identity-pool/{id}/impact",
			Need:    NeedReads,
			Tags:    []string{"identity-pools"},
			Summary: "What deleting the pool would break: the grants other units gave it, its role bindings.",
			Params:  []Param{Ref("pool_id")},
			Answers: []Answer{{Status: 200, Doc: "The dependants.", Of: wire.Impact{}}},
			Fails:   []Failure{NotFound, Unavailable},
		},
		{
			ID: "getIdentityPool", Method: http.MethodGet, Path: "/{bu}/{stage}/identity-pool/{id}",
			Need:    NeedReads,
			Tags:    []string{"identity-pools"},
			Summary: "Get an identity pool with its role bindings.",
			Params:  []Param{Ref("pool_id")},
			Answers: []Answer{{Status: 200, Doc: "The identity pool.", Of: wire.IdentityPool{}, Headers: []Header{{Name: "ETag", Ref: "ETag"}}}},
			Fails:   []Failure{NotFound, Unavailable, Timeout},
		},
		{
			ID: "updateIdentityPoolFilter", Method: http.MethodPatch, Path: "/{bu}/{stage}/identity-pool/{id}",
			Need:    NeedManages,
			Tags:    []string{"identity-pools"},
			Summary: "Change an identity pool's filter.",
			Params:  []Param{Ref("pool_id"), Ref("if_match")},
			Body:    &Body{Of: wire.IdentityPoolFilterUpdate{}, Required: true, Example: "{filter: claims.aud == \"confluent\" && claims.sub.startsWith(\"ci-\")}"},
			Answers: []Answer{{Status: 200, Doc: "The updated identity pool.", Of: wire.IdentityPool{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, PreconditionFailed, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "deleteIdentityPool", Method: http.MethodDelete, Path: "/{bu}/{stage}/identity-pool/{id}",
			Need:    NeedManages,
			Tags:    []string{"identity-pools"},
			Summary: "Delete an identity pool and its role bindings.",
			Doc:     "While other units' grants are given to the pool, the delete needs confirm and reason (409 otherwise); the delete then ends those grants first (their bindings removed, each grant recorded ended with its own audit event naming the delete).",
			Params:  []Param{Ref("pool_id"), Ref("if_match"), {Name: "dry_run", In: "query", Doc: "Answer what the delete would break (as GET .../impact) instead of deleting.", Schema: "{type: boolean, default: false}"}, {Name: "confirm", In: "query", Doc: "Its id or name: an Admin's confirmation of a delete while other units' grants are given to it.", Schema: "{type: string}"}, {Name: "reason", In: "query", Doc: "Why (kept in the audit trail); needed with confirm.", Schema: "{type: string, maxLength: 2000}"}},
			Answers: []Answer{{Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{Forbidden, NotFound, Busy, PreconditionFailed, Unavailable, Timeout},
		},
	}
}
