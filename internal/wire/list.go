package wire

// List is the shape of every list.
type List[T any] struct {
	Items         []T    `json:"items"`
	NextPageToken string `json:"next_page_token" doc:"Empty on the last page."`
	TotalSize     int    `json:"total_size" doc:"Items matching the query on all pages."`
}
