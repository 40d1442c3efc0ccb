package wire

// SearchHit is one thing a search found.
type SearchHit struct {
	Kind  string `json:"kind" enum:"topic,consumer-group,connector,schema,service-account,identity-pool"`
	Key   string `json:"key" doc:"What the resource's path takes: a topic's or group's full name, a connector's name, a subject, an account's or pool's id."`
	Label string `json:"label"`
}

// SearchResult is a search's hits.
type SearchResult struct {
	Items       []SearchHit `json:"items"`
	Unavailable []string    `json:"unavailable" doc:"The kinds that could not be searched just now."`
}
