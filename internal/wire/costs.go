package wire

// UsageReport is a unit's usage in a stage, by hour or by day, summed
// over its topics or topic by topic.
type UsageReport struct {
	BusinessUnit string       `json:"business_unit"`
	Stage        string       `json:"stage"`
	From         string       `json:"from" format:"date-time"`
	To           string       `json:"to" format:"date-time" doc:"The end of the range (not included)."`
	Granularity  string       `json:"granularity" enum:"hour,day"`
	GroupBy      string       `json:"group_by,omitempty" enum:"topic"`
	Source       string       `json:"source"`
	Points       []UsagePoint `json:"points"`
	Gaps         []UsageGap   `json:"gaps" doc:"Hours the Metrics API did not give (down, or the request budget spent): shown as gaps, never as zero, and read again while the API holds them."`
}

// UsagePoint is one bucket of usage.
type UsagePoint struct {
	Time          string  `json:"time" format:"date-time" doc:"The start of the hour or day."`
	Topic         string  `json:"topic,omitempty"`
	RetainedBytes float64 `json:"retained_bytes" doc:"The mean of the hours' retained bytes."`
	BytesIn       float64 `json:"bytes_in"`
	BytesOut      float64 `json:"bytes_out"`
	Partitions    float64 `json:"partitions" doc:"The mean over the hours known."`
	Hours         int     `json:"hours" doc:"How many of the bucket's hours are known."`
}

// UsageGap is an hour whose usage is not known.
type UsageGap struct {
	Hour   string `json:"hour" format:"date-time"`
	Reason string `json:"reason"`
}

// CostReport is a unit's costs in a stage: by day and category, its
// share of each cost line with the rule and the inputs (group_by line),
// or its month's topics (group_by topic), and the month's forecast.
type CostReport struct {
	BusinessUnit string             `json:"business_unit"`
	Stage        string             `json:"stage"`
	From         string             `json:"from" format:"date" doc:"The first day (UTC)."`
	To           string             `json:"to" format:"date" doc:"The day after the last (UTC)."`
	GroupBy      string             `json:"group_by,omitempty" enum:"line,topic"`
	Currency     string             `json:"currency" example:"USD"`
	BaseRule     string             `json:"base_rule" enum:"equal,partitions,bytes" doc:"How a shared cluster's base capacity and Schema Registry are split across its units."`
	Total        float64            `json:"total"`
	ByCategory   map[string]float64 `json:"by_category" doc:"storage, network, partitions, base, connect, other."`
	Days         []CostDay          `json:"days"`
	Lines        []CostShare        `json:"lines,omitempty" doc:"With group_by=line: each share, amount = line_amount x unit_use / total_use."`
	Topics       []TopicCost        `json:"topics,omitempty" doc:"With group_by=topic: the month's costliest topics."`
	Forecast     CostForecast       `json:"forecast"`
	Gaps         []UsageGap         `json:"gaps" doc:"Hours of the range whose usage is not known: their days' shares leave out what was used then."`
}

// CostDay is a day's costs by category.
type CostDay struct {
	Day        string             `json:"day" format:"date"`
	Amount     float64            `json:"amount"`
	ByCategory map[string]float64 `json:"by_category"`
}

// CostShare is a unit's share of one cost line of a day.
type CostShare struct {
	Day          string  `json:"day" format:"date"`
	LineType     string  `json:"line_type" example:"KAFKA_STORAGE"`
	Category     string  `json:"category" enum:"storage,network,partitions,base,connect,other"`
	ResourceID   string  `json:"resource_id,omitempty" example:"lkc-abc123"`
	ResourceName string  `json:"resource_name,omitempty"`
	Rule         string  `json:"rule" doc:"What the line was split by: retained bytes, bytes in, bytes out, partitions, bytes in and out, equal among units, dedicated cluster, connector's unit, no usage known."`
	LineAmount   float64 `json:"line_amount" doc:"The line's amount, as the Billing API gave it."`
	UnitUse      float64 `json:"unit_use"`
	TotalUse     float64 `json:"total_use"`
	Amount       float64 `json:"amount"`
}

// TopicCost is a topic's share of its unit's month.
type TopicCost struct {
	Topic      string  `json:"topic"`
	Amount     float64 `json:"amount"`
	Storage    float64 `json:"storage"`
	Network    float64 `json:"network"`
	Partitions float64 `json:"partitions"`
	Base       float64 `json:"base"`
}

// CostForecast is a month-end estimate.
type CostForecast struct {
	Month      string  `json:"month" example:"2026-12"`
	SoFar      float64 `json:"so_far"`
	Amount     float64 `json:"amount"`
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	DailyMean  float64 `json:"daily_mean"`
	DaysBilled int     `json:"days_billed"`
	DaysLeft   int     `json:"days_left"`
	Method     string  `json:"method"`
	Budget     float64 `json:"budget,omitempty" doc:"The monthly amount of the unit's budget in the stage (limits.monthly_cost)."`
	Over       bool    `json:"over_budget,omitempty"`
}

// ZoneCostReport is a zone's units side by side for a month; units,
// unallocated, organisation and other zones add up to total.
type ZoneCostReport struct {
	LandingZone  string     `json:"landing_zone"`
	Month        string     `json:"month" example:"2026-12"`
	Currency     string     `json:"currency"`
	BaseRule     string     `json:"base_rule"`
	Units        []UnitCost `json:"units"`
	Unallocated  float64    `json:"unallocated" doc:"What topics of no unit used, and lines of no usage known."`
	Organisation float64    `json:"organisation" doc:"Lines of no cluster (support, credits)."`
	OtherZones   float64    `json:"other_zones"`
	Total        float64    `json:"total" doc:"The organisation's costs of the month so far."`
}

// UnitCost is one unit's month.
type UnitCost struct {
	BusinessUnit string             `json:"business_unit"`
	Amount       float64            `json:"amount"`
	ByStage      map[string]float64 `json:"by_stage"`
	ByCategory   map[string]float64 `json:"by_category"`
	Forecast     float64            `json:"forecast"`
}
