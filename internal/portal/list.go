package portal

// Paging limits shared by every list.
const (
	DefaultPageSize = 100
	MaxPageSize     = 1000
)

// ListQuery selects one page of a list sorted by name.
type ListQuery struct {
	// PageSize is the number of items wanted; 0 means DefaultPageSize.
	PageSize int
	// PageToken continues after the page that returned it.
	PageToken string
	// Search keeps items whose name contains it, ignoring case.
	Search string
	// Descending sorts from Z to A (or from the most partitions).
	Descending bool
	// Offset starts the page at this position of the list (0 is the
	// first), for pages by number; ignored with a PageToken.
	Offset int
	// SortBy orders a topic list by "name" (the default) or
	// "partitions" (then by name).
	SortBy string
	// Unit keeps, in a whole-cluster view, the items of one business
	// unit (by the naming convention), or with UnitNone those outside
	// it. Other views hold one unit's items anyway.
	Unit string
	// Stats asks a topic list for each shown topic's records, retention
	// and cleanup policy (three batched requests for the page, never one
	// per topic).
	Stats bool
}

// UnitNone filters a whole-cluster view to the items outside the naming
// convention.
const UnitNone = "none"

// Sort orders of topic lists.
const (
	SortByName       = "name"
	SortByPartitions = "partitions"
)

// Page is one page of a list.
type Page[T any] struct {
	Items []T
	// NextPageToken fetches the next page; empty on the last page.
	NextPageToken string
	// Total counts the items matching the query on every page.
	Total int
}
