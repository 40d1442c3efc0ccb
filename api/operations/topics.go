package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// topics are the operations of the topics tag.
func topics() []Operation {
	return []Operation{
		{
			ID: "search", Method: http.MethodGet, Path: "/{bu}/{stage}/search",
			Need:    NeedReads,
			Tags:    []string{"topics"},
			Summary: "Find the business unit's resources by name, across kinds.",
			Doc: "Up to five topics, consumer groups, connectors, schema subjects,\n" +
				"service accounts and identity pools of the unit in the stage whose\n" +
				"name contains `q` (ignoring case), each through its own list (the\n" +
				"same access rules; topics from the cluster's cached listing). Kinds\n" +
				"whose upstream did not answer within 1.5 s are named in\n" +
				"`unavailable` rather than reported as having no match.\n",
			Params:  []Param{{Name: "q", In: "query", Doc: "What the names contain.", Required: true, Schema: "{type: string, maxLength: 256}"}},
			Answers: []Answer{{Status: 200, Doc: "What was found.", Of: wire.SearchResult{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "listTopics", Method: http.MethodGet, Path: "/{bu}/{stage}/topics",
			Need:    NeedReads,
			Tags:    []string{"topics"},
			Summary: "List the business unit's topics.",
			Doc: "One metadata request upstream, whatever the number of topics. A Super\n" +
				"Admin viewing the main business unit of a landing zone sees the whole\n" +
				"cluster; topics outside the naming convention are marked\n" +
				"`outside_convention`. With `stats=true`, each topic of the page gets\n" +
				"its records, retention and cleanup policy from three batched\n" +
				"requests for the page (earliest offsets, latest offsets, settings),\n" +
				"never one per topic; absent when the cluster does not answer.\n",
			Params:  []Param{{Name: "stats", In: "query", Doc: "Give each topic of the page its records, retention.ms and cleanup.policy.", Schema: "{type: boolean, default: false}"}, Ref("page_size"), Ref("unit"), Ref("page_token"), Ref("search"), Ref("order")},
			Answers: []Answer{{Status: 200, Doc: "One page of topics.", Of: wire.TopicList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "createTopic", Method: http.MethodPost, Path: "/{bu}/{stage}/topic",
			Need:    NeedWrites,
			Tags:    []string{"topics"},
			Summary: "Create a topic.",
			Doc:     "Developers and up; in a read-only stage, Admins and Super Admins only.",
			Body:    &Body{Of: wire.TopicCreate{}, Required: true, Example: "{name: crm-orders, partitions_count: 6, config: {retention.ms: '604800000'}}"},
			Answers: []Answer{{Status: 201, Doc: "Created. `Location` names the new topic.", Of: wire.TopicDetail{}, Headers: []Header{{Name: "Location", Doc: "Path of the new topic.", Schema: "{type: string}"}}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "getTopic", Method: http.MethodGet, Path: "/{bu}/{stage}/topic/{name}",
			Need:    NeedReads,
			Tags:    []string{"topics"},
			Summary: "Get a topic with its configuration overrides.",
			Params:  []Param{{Name: "include_defaults", In: "query", Doc: "Also return every inherited setting under `defaults`.", Schema: "{type: boolean, default: false}"}},
			Answers: []Answer{{Status: 200, Doc: "The topic.", Of: wire.TopicDetail{}, Headers: []Header{{Name: "ETag", Ref: "ETag"}}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "replaceTopic", Method: http.MethodPut, Path: "/{bu}/{stage}/topic/{name}",
			Need:    NeedWrites,
			Tags:    []string{"topics"},
			Summary: "Set a topic's desired state.",
			Doc: "`partitions_count` and `config` are both required. `config` is the full\n" +
				"set of overrides of editable settings: editable settings missing from\n" +
				"it are reset to their defaults. Partitions can only grow. Read-only\n" +
				"fields of a GET response are accepted and ignored, so a GET response\n" +
				"can be edited and sent back.\n",
			Params:  []Param{Ref("if_match")},
			Body:    &Body{Of: wire.TopicReplace{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The updated topic.", Of: wire.TopicDetail{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, PreconditionFailed, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "patchTopic", Method: http.MethodPatch, Path: "/{bu}/{stage}/topic/{name}",
			Need:    NeedWrites,
			Tags:    []string{"topics"},
			Summary: "Change some settings or raise the partition count.",
			Doc:     "Given settings are set, settings given as `null` are reset, others are kept.",
			Params:  []Param{Ref("if_match")},
			Body:    &Body{Of: wire.TopicPatch{}, Required: true, Example: "{config: {retention.ms: '86400000', cleanup.policy: null}}"},
			Answers: []Answer{{Status: 200, Doc: "The updated topic.", Of: wire.TopicDetail{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, PreconditionFailed, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "deleteTopic", Method: http.MethodDelete, Path: "/{bu}/{stage}/topic/{name}",
			Need:    NeedWrites,
			Tags:    []string{"topics"},
			Summary: "Delete a topic and its data.",
			Doc:     "A topic with live dependants (consumer groups with members or records left to read, other units' grants, connectors naming it) is refused for Developers (403) and, for Admins, needs confirm (its name) and a reason (409 otherwise); every dependant is a problem of the error record (field dependants). A forced delete is audited with its dependants and reason. The delete ends the grants on the topic first (their role bindings removed, each grant recorded ended with its own audit event naming the delete; a request on it is closed), so that a topic made again under the name gives no other unit access; a grant whose bindings cannot be removed stops the delete. With dry_run=true nothing is deleted: the answer is the impact (as GET .../impact).",
			Params:  []Param{Ref("if_match"), {Name: "dry_run", In: "query", Doc: "Answer what the delete would break instead of deleting.", Schema: "{type: boolean, default: false}"}, {Name: "confirm", In: "query", Doc: "The topic's identifier or full name: an Admin's confirmation of a delete with live dependants.", Schema: "{type: string}"}, {Name: "reason", In: "query", Doc: "Why an Admin deletes a topic with live dependants (kept in the audit trail).", Schema: "{type: string, maxLength: 2000}"}},
			Answers: []Answer{{Status: 200, Doc: "The impact (dry_run=true).", Of: wire.Impact{}}, {Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, PreconditionFailed, Unavailable, Timeout},
		},
		{
			ID: "topicImpact", Method: http.MethodGet, Path: "/{bu}/{stage}/topic/{name}/impact",
			Need:    NeedReads,
			Tags:    []string{"topics"},
			Summary: "What deleting the topic would break.",
			Doc:     "Consumer groups that read it (by unit, with members and lag), other units' grants on it, connectors naming it, its subjects; live dependants make a delete need an Admin, its name and a reason.",
			Answers: []Answer{{Status: 200, Doc: "The dependants.", Of: wire.Impact{}}},
			Fails:   []Failure{NotFound, Unavailable},
		},
		{
			ID: "readMessages", Method: http.MethodGet, Path: "/{bu}/{stage}/topic/{name}/messages",
			Need:    NeedRecords,
			Tags:    []string{"topics"},
			Summary: "Read a topic's records, decoded.",
			Doc: "The latest `limit` records (newest first), or `limit` records from an\n" +
				"offset or a time. Values in the Schema Registry wire format are\n" +
				"decoded with their schema (Avro, JSON Schema); others are shown as\n" +
				"UTF-8 text or hex. Who may read is a per-stage switch\n" +
				"(`data_access`: off, developers, viewers; off in read-only stages by\n" +
				"default), and every read is audited (who read which range, not the\n" +
				"data). In stages that mask (`masking: tags`, the default in read-only\n" +
				"stages), fields their schema tags as sensitive are masked for roles\n" +
				"below `masking.unmasked_role`, in filters too, and the trail says so. A read takes at most 3 s and 4 MiB; no consumer group is\n" +
				"joined or committed to. With any filter, up to 2,000 records are\n" +
				"looked at and the first `limit` that match kept; `scanned` says how\n" +
				"many were looked at.\n",
			Params:  []Param{{Name: "limit", In: "query", Schema: "{type: integer, minimum: 1, maximum: 100, default: 20}"}, {Name: "partition", In: "query", Doc: "One partition; all when omitted.", Schema: "{type: integer, minimum: 0}"}, {Name: "offset", In: "query", Doc: "Read from this offset (in each partition read).", Schema: "{type: integer, format: int64, minimum: 0}"}, {Name: "timestamp", In: "query", Doc: "Read from the first record at or after this time.", Schema: "{type: string, format: date-time}"}, {Name: "after", In: "query", Doc: "A tail: the records after these offsets per partition (the `after` of an earlier answer).", Schema: "{type: string, example: '0:120,1:98'}"}, {Name: "key", In: "query", Doc: "Keep records whose key holds this text (any case).", Schema: "{type: string}"}, {Name: "value", In: "query", Doc: "Keep records whose value (as decoded) holds this text (any case).", Schema: "{type: string}"}, {Name: "header", In: "query", Doc: "Keep records with a header whose name or value holds this text (any case).", Schema: "{type: string}"}, {Name: "filter", In: "query", Doc: "Keep records for which this CEL expression is true. Variables: `key` (string), `value` (the decoded value as JSON when it is, else a string), `headers` (map of strings), `partition`, `offset` (int), `timestamp`. Example: `value.amount > 100 && headers.source == \"pump\"`. Evaluation has a cost limit and a time bound; a record the expression cannot judge does not match.", Schema: "{type: string, maxLength: 1000}"}},
			Answers: []Answer{{Status: 200, Doc: "The records.", Of: wire.RecordPage{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound},
		},
		{
			ID: "produceRecords", Method: http.MethodPost, Path: "/{bu}/{stage}/topic/{name}/records",
			Need:    NeedProduces,
			Tags:    []string{"topics"},
			Summary: "Write records to a topic by hand.",
			Doc: "Writes up to 1,000 records (1 MiB of keys, values and headers) in\n" +
				"order. `value_format` says how each value is written: `text` (a JSON\n" +
				"string, written as UTF-8), `json` (any JSON value, written as given),\n" +
				"or `schema` (any JSON value, serialized with a subject's schema,\n" +
				"Avro or JSON Schema, in the Schema Registry wire format; the subject\n" +
				"defaults to the topic's `-value` subject, the version to the latest).\n" +
				"A null value is a tombstone. Every record is checked before the first\n" +
				"is written: a problem in one refuses them all, with its field\n" +
				"(`records[2].value.amount`), and nothing is written. Who may is a\n" +
				"per-stage switch (`produce`: off, developers, admins; off in\n" +
				"read-only stages by default; in a stage read-only at the time only\n" +
				"Admins may). Every produce is audited with its partitions, offsets\n" +
				"and sizes, never the data. The answer gives each record's partition\n" +
				"and offset, or why it was not written; `written` counts those the\n" +
				"cluster confirmed.\n",
			Body:    &Body{Of: wire.Produce{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "Where each record landed.", Of: wire.ProduceResult{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound},
		},
	}
}
