package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// resourcesAsCode are the operations of the resources-as-code tag.
func resourcesAsCode() []Operation {
	return []Operation{
		{
			ID: "planResources", Method: http.MethodPost, Path: "/{bu}/{stage}/plan",
			Need:    NeedReads,
			Tags:    []string{"resources-as-code"},
			Summary: "What applying a document would change; changes nothing.",
			Doc: "Per resource, in the order an apply makes them (topics, schemas,\n" +
				"connectors, service accounts, identity pools; deletes last, the\n" +
				"other way round): `create`, `update` with a field-level diff,\n" +
				"`unchanged`, `delete` (with `prune`), or `refused` with the error\n" +
				"items that would stop it (role, read-only stage, validation, schema\n" +
				"incompatibility checked against the registry). The fingerprint,\n" +
				"also sent as `ETag`, digests the decisions and the upstream state\n" +
				"they were made on; apply it with `If-Match`.\n",
			Params:  []Param{{Name: "prune", In: "query", Doc: "Also delete the unit's topics, connectors and identity pools the document does not declare (schemas and service accounts are never pruned).", Schema: "{type: boolean, default: false}"}, {Name: "force", In: "query", Doc: "Let an Admin's plan delete topics that live dependants still use (consumer groups reading them, other units' grants, connectors); without it such a delete is refused, its dependants listed as warnings. A document may say force: true instead.", Schema: "{type: boolean, default: false}"}, {Name: "skip_forbidden", In: "query", Doc: "Plan a change your role may not make (INSUFFICIENT_ROLE) as `skipped`, with why, instead of refusing the plan, so that the rest can apply (a Developer's pipeline promoting a unit with service accounts). Other refusals stay refusals.", Schema: "{type: boolean, default: false}"}},
			Body:    &Body{Document: true},
			Answers: []Answer{{Status: 200, Doc: "The plan.", Of: wire.Plan{}, Headers: []Header{{Name: "ETag", Doc: "The plan's fingerprint, quoted.", Schema: "{type: string}"}}}},
			Fails:   []Failure{BadRequest, NotFound, UnsupportedDocument, Unavailable},
		},
		{
			ID: "applyResources", Method: http.MethodPost, Path: "/{bu}/{stage}/apply",
			Need:    NeedWrites,
			Tags:    []string{"resources-as-code"},
			Summary: "Apply exactly the reviewed plan.",
			Doc: "Plans the document again. When a change is refused, nothing changes\n" +
				"and the error record lists every refusal (403 when a change needs a\n" +
				"role you lack or a writable stage). When the fingerprint differs\n" +
				"from `If-Match` (the document or the upstream state changed since\n" +
				"the review), nothing changes and the answer is 409. Otherwise each\n" +
				"change is made through the same operation as a single call, and\n" +
				"audited as such under this request's id, with one `resources.apply`\n" +
				"event summarising the apply. A change whose prerequisite failed\n" +
				"(a schema whose topic was not created) is `skipped`; the others go\n" +
				"on, and the answer says what was `applied` and what `failed`.\n" +
				"Applying the same document twice changes nothing the second time.\n" +
				"A service account that declares `apiKeys` gets a key for each\n" +
				"resource it has none for; the keys' secrets are in this answer\n" +
				"(`changes[].api_keys`) and nowhere else.\n",
			Params:  []Param{{Name: "prune", In: "query", Doc: "As for the plan.", Schema: "{type: boolean, default: false}"}, {Name: "force", In: "query", Doc: "As for the plan.", Schema: "{type: boolean, default: false}"}, {Name: "skip_forbidden", In: "query", Doc: "As for the plan: skipped changes are not made, nor those that need them.", Schema: "{type: boolean, default: false}"}, {Name: "If-Match", In: "header", Doc: "The fingerprint of the plan you reviewed.", Required: true, Schema: "{type: string}"}},
			Body:    &Body{Document: true},
			Answers: []Answer{{Status: 200, Doc: "Each change with its outcome.", Of: wire.Plan{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Conflict, UnsupportedDocument, Unavailable},
		},
		{
			ID: "exportResources", Method: http.MethodPost, Path: "/{bu}/{stage}/export",
			Need:    NeedReads,
			Tags:    []string{"resources-as-code"},
			Summary: "The unit's current resources as a document.",
			Doc: "Topics (partitions and overridden editable settings), the latest\n" +
				"version of each schema subject, connectors (secrets as references\n" +
				"to environment variables named after the unit, connector and\n" +
				"setting), service accounts and identity pools, all named by\n" +
				"identifier. Planning the export against the next stage is a\n" +
				"promotion. Every role may export.\n",
			Params:  []Param{{Name: "format", In: "query", Doc: "yaml gives multi-document YAML (also with Accept: application/yaml).", Schema: "{type: string, enum: [json, yaml], default: json}"}},
			Answers: []Answer{{Status: 200, Doc: "The document.", Of: wire.ResourceDocument{}, Text: "application/yaml"}},
			Fails:   []Failure{NotFound, Unavailable},
		},
	}
}
