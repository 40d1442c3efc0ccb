package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// serviceAccounts are the operations of the service-accounts tag.
func serviceAccounts() []Operation {
	return []Operation{
		{
			ID: "listServiceAccounts", Method: http.MethodGet, Path: "/{bu}/{stage}/service-accounts",
			Need:    NeedReads,
			Tags:    []string{"service-accounts"},
			Summary: "List the business unit's service accounts.",
			Doc:     "One paged listing upstream; role bindings are only on `GET /service-account/{id}`.",
			Params:  []Param{Ref("page_size"), Ref("unit"), Ref("page_token"), Ref("search"), Ref("order")},
			Answers: []Answer{{Status: 200, Doc: "One page of service accounts.", Of: wire.ServiceAccountList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "createServiceAccount", Method: http.MethodPost, Path: "/{bu}/{stage}/service-account",
			Need:    NeedManages,
			Tags:    []string{"service-accounts"},
			Summary: "Create a service account and apply its type's role bindings.",
			Doc: "The display name is `sa-{lz}-{bu}-{stage}-usr-{identifier}-{type}`.\n" +
				"Admins and Super Admins only. The create is journalled as a job of\n" +
				"one item before anything is made, so that a replica that stops\n" +
				"half way leaves it to another, which completes it. When a binding\n" +
				"cannot be applied the account is deleted again and the error is\n" +
				"returned. An account that exists without all of its type's role\n" +
				"bindings is completed; one that has them all is a 409.\n",
			Body: &Body{Of: wire.ServiceAccountCreate{}, Required: true, Example: "{name: billing-app, type: producer, description: Billing service}"},
			Answers: []Answer{{Status: 201, Doc: "Created. `Location` names it.", Of: wire.ServiceAccount{}, Headers: []Header{{Name: "Location", Schema: "{type: string}"}}}, {Status: 202, Doc: "Still being made after 15 seconds (a slow Cloud API): `Location`\n" +
				"is the job's (`GET` it, with `?wait=30s`, for the account with\n" +
				"its role bindings, or why it could not be made); the body has\n" +
				"the name and `job`, no `id` yet.\n", Of: wire.ServiceAccount{}, Headers: []Header{{Name: "Location", Schema: "{type: string}"}}}},
			Fails: []Failure{BadRequest, Forbidden, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "bulkCreateServiceAccounts", Method: http.MethodPost, Path: "/{bu}/{stage}/service-accounts/bulk",
			Need:    NeedManages,
			Tags:    []string{"service-accounts"},
			Summary: "Create several service accounts, reporting each.",
			Doc: "Every item is validated first: if any is invalid nothing is created\n" +
				"and the 400 lists each problem as `items[i].field`. Otherwise the\n" +
				"batch is journalled as a job and answered 202 with its `Location`\n" +
				"at once, before anything is created; `GET` there (with `wait`)\n" +
				"gives its progress and each item's outcome, with the status a single\n" +
				"create would have had. The job survives the replica that took it:\n" +
				"another resumes it within seconds. Items are idempotent: an account\n" +
				"that exists with all of its type's role bindings is a 409 item (so\n" +
				"repeating a request creates nothing twice), one that exists without\n" +
				"some of them is completed (`outcome: completed`, status 200), one\n" +
				"with role bindings outside the template is left alone (409). Each\n" +
				"item is one event in the audit trail. A platform quota refused is\n" +
				"the item's 409 `QUOTA_EXCEEDED`, naming the quota. At most 250\n" +
				"items.\n",
			Body:    &Body{Of: wire.BulkCreate{}, Required: true, Example: "{items: [{name: billing-app, type: producer}, {name: billing-app, type: consumer}, {name: demo-app, type: producer}]}"},
			Answers: []Answer{{Status: 202, Doc: "The batch is journalled and runs; `Location` gives its progress.", Of: wire.BulkResults{}, Headers: []Header{{Name: "Location", Doc: "The job: .../service-accounts/bulk/{job}", Schema: "{type: string}"}}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "getBulkServiceAccountJob", Method: http.MethodGet, Path: "/{bu}/{stage}/service-accounts/bulk/{job}",
			Need:    NeedReads,
			Tags:    []string{"service-accounts"},
			Summary: "Progress and outcomes of a bulk create.",
			Doc: "Only whoever started the batch (and platform admins) can read it;\n" +
				"to anyone else it is a 404. A batch whose replica stopped stays\n" +
				"`running` while another replica resumes it; `failed` means it could\n" +
				"not finish (the caller lost the role, Confluent Cloud could not be\n" +
				"reached, or it ran out of time), with the items done so far.\n",
			Params:  []Param{{Name: "job", In: "path", Doc: "The job id from the 202's Location.", Required: true, Schema: "{type: string}"}, {Name: "wait", In: "query", Doc: "Wait up to this long (at most 30s) for the batch to finish before answering.", Schema: "{type: string, example: 10s}"}},
			Answers: []Answer{{Status: 200, Doc: "The batch as it stands.", Of: wire.BulkResults{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "getServiceAccount", Method: http.MethodGet, Path: "/{bu}/{stage}/service-account/{id}",
			Need:    NeedReads,
			Tags:    []string{"service-accounts"},
			Summary: "Get a service account with its role bindings.",
			Params:  []Param{Ref("account_id")},
			Answers: []Answer{{Status: 200, Doc: "The service account.", Of: wire.ServiceAccount{}}},
			Fails:   []Failure{NotFound, Unavailable, Timeout},
		},
		{
			ID: "updateServiceAccount", Method: http.MethodPatch, Path: "/{bu}/{stage}/service-account/{id}",
			Need:    NeedManages,
			Tags:    []string{"service-accounts"},
			Summary: "Change a service account's description.",
			Params:  []Param{Ref("account_id")},
			Body:    &Body{Of: wire.DescriptionUpdate{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The account.", Of: wire.ServiceAccount{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable, Timeout},
		},
		{
			ID: "deleteServiceAccount", Method: http.MethodDelete, Path: "/{bu}/{stage}/service-account/{id}",
			Need:    NeedManages,
			Tags:    []string{"service-accounts"},
			Summary: "Delete a service account with its role bindings (and its API keys, when asked).",
			Doc: "An account that owns API keys is not deleted (409 `CONFLICT`, naming\n" +
				"the keys) unless `delete_api_keys=true`, which deletes them in the\n" +
				"same action. One audit event lists every key and role binding\n" +
				"removed. Admins and Super Admins only. While other units' grants are\n" +
				"given to the account (live dependants), the delete needs confirm and\n" +
				"reason (409 otherwise, each grant a problem of the record); the delete\n" +
				"then ends those grants first (their bindings removed, each grant\n" +
				"recorded `ended` with its own audit event naming the delete).\n",
			Params:  []Param{Ref("account_id"), {Name: "delete_api_keys", In: "query", Schema: "{type: boolean, default: false}"}, {Name: "dry_run", In: "query", Doc: "Answer what the delete would break (as GET .../impact) instead of deleting.", Schema: "{type: boolean, default: false}"}, {Name: "confirm", In: "query", Doc: "Its id or name: an Admin's confirmation of a delete while other units' grants are given to it.", Schema: "{type: string}"}, {Name: "reason", In: "query", Doc: "Why (kept in the audit trail); needed with confirm.", Schema: "{type: string, maxLength: 2000}"}},
			Answers: []Answer{{Status: 200, Doc: "What was removed.", Of: wire.AccountDeletion{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, Unavailable, Timeout},
		},
		{
			ID: "serviceAccountImpact", Method: http.MethodGet, Path: "/{bu}/{stage}/service-account/{id}/impact",
			Need:    NeedReads,
			Tags:    []string{"service-accounts"},
			Summary: "What deleting the account would break: its API keys, the grants other units gave it, its role bindings.",
			Params:  []Param{Ref("account_id")},
			Answers: []Answer{{Status: 200, Doc: "The dependants.", Of: wire.Impact{}}},
			Fails:   []Failure{NotFound, Unavailable},
		},
		{
			ID: "serviceAccountUsedBy", Method: http.MethodGet, Path: "/{bu}/{stage}/service-account/{id}/used-by",
			Need:    NeedReads,
			Tags:    []string{"service-accounts"},
			Summary: "What uses a service account.",
			Doc:     "The connectors that run as the account (`kafka.auth.mode` SERVICE_ACCOUNT). Connectors that use one of its API keys cannot be told, as Confluent Cloud hides `kafka.api.key`.",
			Params:  []Param{Ref("account_id")},
			Answers: []Answer{{Status: 200, Doc: "The account's users.", Of: wire.AccountUse{}}},
			Fails:   []Failure{NotFound, Unavailable},
		},
	}
}
