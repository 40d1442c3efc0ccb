package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// catalog are the operations of the catalog tag.
func catalog() []Operation {
	return []Operation{
		{
			ID: "describeTopic", Method: http.MethodPut, Path: "/{bu}/{stage}/topic/{name}/catalog",
			Need:    NeedWrites,
			Tags:    []string{"catalog"},
			Summary: "Replace what the owner unit says about its topic in the zone's catalog.",
			Doc:     "Developers and up of the owner unit (Admins in read-only stages); audited as topic.describe.",
			Body:    &Body{Of: wire.TopicMetadata{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The entry.", Of: wire.CatalogEntry{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable},
		},
		{
			ID: "listCatalog", Method: http.MethodGet, Path: "/{bu}/{stage}/catalog",
			Need:    NeedReads,
			Tags:    []string{"catalog"},
			Summary: "Search the zone's topics in the stage.",
			Doc:     "Every topic of the unit's landing zone (its shared cluster, or a dedicated unit's own), with its owner, what the owner says about it, its subjects and their field names, and the units holding grants on it. search matches the name, description, owner contact, tags and field names; the other parameters each keep one kind of match. Metadata only: records stay behind the stage's data-access switch.",
			Params:  []Param{Ref("search"), {Name: "tag", In: "query", Schema: "{type: string}"}, {Name: "classification", In: "query", Schema: "{type: string}"}, {Name: "owner", In: "query", Doc: "The owner unit, or part of the owner contact.", Schema: "{type: string}"}, {Name: "field", In: "query", Doc: "A field name of the topic's key or value schema.", Schema: "{type: string}"}, Ref("page_size"), Ref("page_token")},
			Answers: []Answer{{Status: 200, Doc: "One page of entries, by topic.", Of: wire.CatalogEntryList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable},
		},
		{
			ID: "getCatalogEntry", Method: http.MethodGet, Path: "/{bu}/{stage}/catalog/{name}",
			Need:    NeedReads,
			Tags:    []string{"catalog"},
			Summary: "One topic of the zone, with its retention and who reads it (grants and consumer groups).",
			Params:  []Param{{Name: "name", In: "path", Doc: "The full topic name.", Required: true, Schema: "{type: string}"}},
			Answers: []Answer{{Status: 200, Doc: "The entry.", Of: wire.CatalogEntry{}}},
			Fails:   []Failure{NotFound, Unavailable},
		},
		{
			ID: "listClassifications", Method: http.MethodGet, Path: "/classifications",
			Need:    NeedReads,
			Tags:    []string{"catalog"},
			Summary: "The platform's data classifications, least strict first, and what grants on their topics may be.",
			Answers: []Answer{{Status: 200, Doc: "The classifications.", Of: wire.ClassificationList{}}},
		},
	}
}
