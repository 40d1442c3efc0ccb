package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// consumerGroups are the operations of the consumer-groups tag.
func consumerGroups() []Operation {
	return []Operation{
		{
			ID: "listGroups", Method: http.MethodGet, Path: "/{bu}/{stage}/consumer-groups",
			Need:    NeedReads,
			Tags:    []string{"consumer-groups"},
			Summary: "The unit's consumer groups with state, members and total lag.",
			Doc: "Groups whose id carries the unit's prefix (`{lz}-{bu}-{stage}-`).\n" +
				"One round of requests per page: the groups are listed once,\n" +
				"described in one batch, their committed offsets fetched side by side\n" +
				"and the end offsets of every partition read in one request.\n",
			Params:  []Param{Ref("page_size"), Ref("page_token"), {Name: "search", In: "query", Schema: "{type: string}"}, {Name: "order", In: "query", Schema: "{type: string, enum: [asc, desc]}"}},
			Answers: []Answer{{Status: 200, Doc: "One page of groups.", Of: wire.ConsumerGroupList{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "getGroup", Method: http.MethodGet, Path: "/{bu}/{stage}/consumer-group/{id}",
			Need:    NeedReads,
			Tags:    []string{"consumer-groups"},
			Summary: "A group with its members and, per partition, committed offset, end offset and lag.",
			Params:  []Param{{Name: "id", In: "path", Doc: "The group id or its identifier (without the unit's prefix).", Required: true, Schema: "{type: string, example: billing}"}},
			Answers: []Answer{{Status: 200, Doc: "The group.", Of: wire.ConsumerGroupDetail{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "deleteGroup", Method: http.MethodDelete, Path: "/{bu}/{stage}/consumer-group/{id}",
			Need:    NeedWrites,
			Tags:    []string{"consumer-groups"},
			Summary: "Delete an empty group (Developer and up; audited).",
			Params:  []Param{{Name: "id", In: "path", Doc: "The group id or its identifier (without the unit's prefix).", Required: true, Schema: "{type: string, example: billing}"}},
			Answers: []Answer{{Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{Forbidden, NotFound, Conflict},
		},
		{
			ID: "resetOffsets", Method: http.MethodPost, Path: "/{bu}/{stage}/consumer-group/{id}/reset-offsets",
			Need:    NeedWrites,
			Tags:    []string{"consumer-groups"},
			Summary: "Move a group's committed offsets on one topic, or all its topics.",
			Doc: "To the earliest or latest offset, the first record at or after a\n" +
				"time, or a given offset (which must lie within every partition).\n" +
				"Only while the group has no active member (409 otherwise, naming the\n" +
				"members). Developer and up, not in read-only stages (Admins bypass);\n" +
				"a reset is audited with every partition's offset before and after.\n",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string, example: replay}"}, {Name: "dry_run", In: "query", Doc: "Show the new offsets without committing them.", Schema: "{type: boolean, default: false}"}},
			Body:    &Body{Of: wire.OffsetResetRequest{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The changes (made, or planned for a dry run).", Of: wire.OffsetReset{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Conflict},
		},
	}
}
