package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// schemas are the operations of the schemas tag.
func schemas() []Operation {
	return []Operation{
		{
			ID: "listSchemas", Method: http.MethodGet, Path: "/{bu}/{stage}/schemas",
			Need:    NeedReads,
			Tags:    []string{"schemas"},
			Summary: "List the business unit's subjects, every version or the latest only.",
			Doc:     "One request upstream. Items are sorted by subject, then version; `search` matches subjects.",
			Params:  []Param{{Name: "latest_only", In: "query", Doc: "One entry per subject, its latest version.", Schema: "{type: boolean, default: false}"}, Ref("page_size"), Ref("unit"), Ref("page_token"), Ref("search"), Ref("order")},
			Answers: []Answer{{Status: 200, Doc: "One page of schema versions.", Of: wire.SchemaList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "createSchema", Method: http.MethodPost, Path: "/{bu}/{stage}/schema",
			Need:    NeedWrites,
			Tags:    []string{"schemas"},
			Summary: "Register the first version of a topic's key or value subject.",
			Body:    &Body{Of: wire.SchemaCreate{}, Required: true, Example: "{topic: readings, subject_type: value, schema_type: AVRO, schema: '{\"type\":\"record\",\"name\":\"Reading\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}'}"},
			Answers: []Answer{{Status: 201, Doc: "Registered. `Location` names the version.", Of: wire.Schema{}, Headers: []Header{{Name: "Location", Schema: "{type: string}"}}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "updateSchema", Method: http.MethodPut, Path: "/{bu}/{stage}/schema/{subject}",
			Need:    NeedWrites,
			Tags:    []string{"schemas"},
			Summary: "Register a new version of a subject.",
			Doc: "The registry checks compatibility with the subject's level (BACKWARD\n" +
				"by default); an incompatible schema is a 409 `INCOMPATIBLE_SCHEMA` whose\n" +
				"message says why. Registering the latest schema again returns it.\n",
			Body:    &Body{Of: wire.SchemaUpdate{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The new (or identical existing) version.", Of: wire.Schema{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "subjectImpact", Method: http.MethodGet, Path: "/{bu}/{stage}/schema/{subject}/impact",
			Need:    NeedReads,
			Tags:    []string{"schemas"},
			Summary: "What deleting the subject's versions would break: schemas referencing it, its topic and the groups reading that.",
			Answers: []Answer{{Status: 200, Doc: "The dependants.", Of: wire.Impact{}}},
			Fails:   []Failure{NotFound, Unavailable},
		},
		{
			ID: "listSchemaVersions", Method: http.MethodGet, Path: "/{bu}/{stage}/schema/{subject}/versions",
			Need:    NeedReads,
			Tags:    []string{"schemas"},
			Summary: "Every version of a subject with its text, oldest first.",
			Answers: []Answer{{Status: 200, Doc: "The versions.", Of: wire.SchemaVersionList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable},
		},
		{
			ID: "checkSchemaCompatibility", Method: http.MethodPost, Path: "/{bu}/{stage}/schema/{subject}/compatibility",
			Need:    NeedReads,
			Tags:    []string{"schemas"},
			Summary: "Check, without registering, whether a schema could be the subject's next version.",
			Body:    &Body{Of: wire.SchemaUpdate{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The verdict and its reasons.", Of: wire.Compatibility{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable},
		},
		{
			ID: "getSchema", Method: http.MethodGet, Path: "/{bu}/{stage}/schema/{subject}/{version}",
			Need:    NeedReads,
			Tags:    []string{"schemas"},
			Summary: "Get a version with its schema text, type and references.",
			Params:  []Param{{Name: "version", In: "path", Doc: "A version number, or `latest`.", Required: true, Schema: "{type: string, example: latest}"}},
			Answers: []Answer{{Status: 200, Doc: "The version.", Of: wire.Schema{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "deleteSchema", Method: http.MethodDelete, Path: "/{bu}/{stage}/schema/{subject}/{version}",
			Need:    NeedWrites,
			Tags:    []string{"schemas"},
			Summary: "Delete a version, softly or (after a soft delete) for good.",
			Params:  []Param{{Name: "version", In: "path", Doc: "A version number, or `latest`.", Required: true, Schema: "{type: string, example: latest}"}, {Name: "permanent", In: "query", Doc: "Delete for good; the registry allows it only after a soft delete.", Schema: "{type: boolean, default: false}"}},
			Answers: []Answer{{Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable},
		},
	}
}
