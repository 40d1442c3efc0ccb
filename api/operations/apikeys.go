package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// apiKeys are the operations of the api-keys tag.
func apiKeys() []Operation {
	return []Operation{
		{
			ID: "listServiceAccountAPIKeys", Method: http.MethodGet, Path: "/{bu}/{stage}/service-account/{id}/api-keys",
			Need:    NeedReads,
			Tags:    []string{"api-keys"},
			Summary: "A service account's API keys on the stage's cluster and Schema Registry.",
			Params:  []Param{Ref("account_id"), Ref("page_size"), Ref("page_token"), {Name: "expiring_within", In: "query", Doc: "Only keys that expire within this span: days (7d) or a duration (36h).", Schema: "{type: string, example: 7d}"}},
			Answers: []Answer{{Status: 200, Doc: "The keys, newest first; never their secrets.", Of: wire.APIKeyList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable},
		},
		{
			ID: "createAPIKey", Method: http.MethodPost, Path: "/{bu}/{stage}/service-account/{id}/api-keys",
			Need:    NeedWithheld,
			Tags:    []string{"api-keys"},
			Summary: "Create an API key for the service account; its secret is in this answer only.",
			Doc: "The key is for the stage's Kafka cluster (`kafka`) or its Schema\n" +
				"Registry (`schema-registry`). It expires at `expires_at` when given\n" +
				"(in the future, and no later than the stage's maximum key age), or\n" +
				"after the stage's maximum age (`stages[].api_key_max_age`); the\n" +
				"portal deletes it then. The answer carries the secret and a client\n" +
				"configuration with it, is never cached, and is the only place the\n" +
				"secret ever appears: the portal does not store, log, audit or\n" +
				"export it. Admins and Super Admins only.\n",
			Params:  []Param{Ref("account_id")},
			Body:    &Body{Of: wire.APIKeyCreate{}, Required: true, Example: "{resource: kafka, description: billing app}"},
			Answers: []Answer{{Status: 201, Doc: "The key with its secret, once.", Of: wire.CreatedAPIKey{}, Headers: []Header{{Name: "Location", Doc: "The key: .../api-key/{id}", Schema: "{type: string}"}, {Name: "Cache-Control", Schema: "{type: string, example: no-store}"}}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, Unavailable, Timeout},
		},
		{
			ID: "listAPIKeys", Method: http.MethodGet, Path: "/{bu}/{stage}/api-keys",
			Need:    NeedReads,
			Tags:    []string{"api-keys"},
			Summary: "The unit's API keys (those of its service accounts) on the stage's cluster and Schema Registry.",
			Doc: "Every role of the unit reads the keys' metadata; no answer but the\n" +
				"one that creates a key carries its secret. Keys made outside the\n" +
				"portal show the expiry they get when adopted (`adopted: true`).\n",
			Params:  []Param{Ref("page_size"), Ref("page_token"), {Name: "search", In: "query", Doc: "Keeps keys whose id, account or description contains it.", Schema: "{type: string}"}, {Name: "account", In: "query", Doc: "Keeps one service account's keys.", Schema: "{type: string}"}, {Name: "expiring_within", In: "query", Doc: "Only keys that expire within this span: days (7d) or a duration (36h).", Schema: "{type: string, example: 7d}"}},
			Answers: []Answer{{Status: 200, Doc: "The keys, newest first.", Of: wire.APIKeyList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable},
		},
		{
			ID: "getAPIKey", Method: http.MethodGet, Path: "/{bu}/{stage}/api-key/{id}",
			Need:    NeedReads,
			Tags:    []string{"api-keys"},
			Summary: "One of the unit's API keys; never its secret.",
			Params:  []Param{{Name: "id", In: "path", Doc: "The API key's id.", Required: true, Schema: "{type: string, example: ABCDEFGHIJKL2345}"}},
			Answers: []Answer{{Status: 200, Doc: "The key.", Of: wire.APIKey{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable},
		},
		{
			ID: "updateAPIKey", Method: http.MethodPatch, Path: "/{bu}/{stage}/api-key/{id}",
			Need:    NeedManages,
			Tags:    []string{"api-keys"},
			Summary: "Change an API key's description.",
			Params:  []Param{{Name: "id", In: "path", Doc: "The API key's id.", Required: true, Schema: "{type: string, example: ABCDEFGHIJKL2345}"}},
			Body:    &Body{Of: wire.DescriptionUpdate{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The key.", Of: wire.APIKey{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable, Timeout},
		},
		{
			ID: "deleteAPIKey", Method: http.MethodDelete, Path: "/{bu}/{stage}/api-key/{id}",
			Need:    NeedManages,
			Tags:    []string{"api-keys"},
			Summary: "Delete an API key; clients using it are refused from then.",
			Params:  []Param{{Name: "id", In: "path", Doc: "The API key's id.", Required: true, Schema: "{type: string, example: ABCDEFGHIJKL2345}"}},
			Answers: []Answer{{Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable, Timeout},
		},
		{
			ID: "rotateAPIKey", Method: http.MethodPost, Path: "/{bu}/{stage}/api-key/{id}/rotate",
			Need:    NeedWithheld,
			Tags:    []string{"api-keys"},
			Summary: "Make a new key in place of this one; the old one expires after the overlap.",
			Doc: "The new key has the same owner, resource and description, and the\n" +
				"stage's expiry; its secret is in this answer only. The old key keeps\n" +
				"working for `overlap` (default 24h; days like `1d` or a duration;\n" +
				"at most the stage's maximum key age), so that clients move to the\n" +
				"new one without a gap; then the portal deletes it. A key rotated\n" +
				"once is refused (409): rotate its successor.\n",
			Params:  []Param{{Name: "id", In: "path", Doc: "The API key to replace.", Required: true, Schema: "{type: string}"}},
			Body:    &Body{Of: wire.APIKeyRotate{}},
			Answers: []Answer{{Status: 201, Doc: "The new key with its secret, once.", Of: wire.CreatedAPIKey{}, Headers: []Header{{Name: "Location", Schema: "{type: string}"}, {Name: "Cache-Control", Schema: "{type: string, example: no-store}"}}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, Unavailable, Timeout},
		},
	}
}
