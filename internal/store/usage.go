package store

import (
	"context"
	"time"
)

// UsageHour is a topic's usage in one hour on a stage's cluster: its
// mean retained bytes, the bytes written to and read from it, its
// partitions; BU is its unit by the naming convention ("" for none).
type UsageHour struct {
	Zone, Stage, Topic, BU string
	Hour                   time.Time
	RetainedBytes          float64
	BytesIn, BytesOut      float64
	Partitions             int
}

// UsageDay is a day of usage rolled up from its hours: the mean of the
// retained bytes and of the partitions over the hours known, the sums of
// the bytes in and out. Hours is how many of the day's hours are known
// (fewer while the day lasts, or where the Metrics API left a gap).
// Topics counts a unit's topics (a unit's day, Topic "").
type UsageDay struct {
	Zone, Stage, Topic, BU string
	Day                    time.Time
	RetainedBytes          float64
	BytesIn, BytesOut      float64
	Partitions             float64
	Hours, Topics          int
}

// UsageGap is an hour of a stage's cluster whose usage could not be read
// (the Metrics API down, the request budget spent): shown as a gap, never
// as zero, and read again while the API still holds the hour.
type UsageGap struct {
	Zone, Stage string
	Hour        time.Time
	Reason      string
	Tries       int
}

// AllUnits asks for the rows of every unit (and of the topics of none).
const AllUnits = "*"

// Usage keeps the usage the collector reads from the Metrics API, by
// topic and by unit, by hour and by day.
type Usage interface {
	// PutUsageHours saves a stage's hours of usage (replacing the same
	// topic-hours), rolls up their days (the topics' and the units'),
	// and removes the gaps of those hours.
	PutUsageHours(ctx context.Context, zone, stage string, hours []time.Time, rows []UsageHour) error
	// UsageMark is the last hour collected of a stage (zero: none yet);
	// SetUsageMark moves it.
	UsageMark(ctx context.Context, zone, stage string) (time.Time, error)
	SetUsageMark(ctx context.Context, zone, stage string, hour time.Time) error
	// AddUsageGaps records hours that could not be read (a gap already
	// recorded counts one more try).
	AddUsageGaps(ctx context.Context, gaps []UsageGap) error
	// UsageGaps lists the gaps of [from, to), of a stage or ("") of all.
	UsageGaps(ctx context.Context, zone, stage string, from, to time.Time) ([]UsageGap, error)
	// UnitUsageHours and UnitUsageDays are a unit's usage summed over its
	// topics (bu "" the topics of no unit; AllUnits every unit's and
	// those, each apart).
	UnitUsageHours(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]UsageHour, error)
	UnitUsageDays(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]UsageDay, error)
	// TopicUsageDays are a unit's topics' days, and TopicUsageHours their
	// hours.
	TopicUsageDays(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]UsageDay, error)
	TopicUsageHours(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]UsageHour, error)
	// DeleteUsageBefore drops the hours before hours and the days (and
	// their costs) before days.
	DeleteUsageBefore(ctx context.Context, hours, days time.Time) (int, error)
}

// CostRecord is a line of the organisation's daily costs (the Billing
// API's), kept as it came.
type CostRecord struct {
	Day                                         time.Time
	ID, Product, LineType                       string
	ResourceID, ResourceName, EnvironmentID     string
	Unit                                        string
	Quantity, Price, Original, Discount, Amount float64
	Description                                 string
}

// CostShare is a unit's share of a cost line of a day: the rule that
// split it and the inputs, so that the figure can be checked (Amount =
// LineAmount x UnitUse / TotalUse). BU "" is what no unit used (topics
// outside the convention) or, with Zone "", the organisation's lines.
type CostShare struct {
	Zone, Stage, BU string
	Day             time.Time
	LineType        string
	ResourceID      string
	ResourceName    string
	Rule            string
	LineAmount      float64
	UnitUse         float64
	TotalUse        float64
	Amount          float64
}

// TopicCost is a topic's share of its unit's costs in a month: the lines
// split by usage (storage, network, partitions) and the base capacity
// where the rule splits it by what topics use.
type TopicCost struct {
	Zone, Stage, BU, Topic string
	Month                  time.Time
	Amount                 float64
	Storage, Network       float64
	Partitions, Base       float64
}

// Costs keeps the organisation's cost lines and their split by unit.
type Costs interface {
	// PutCostDays replaces the lines of the given days with lines.
	PutCostDays(ctx context.Context, days []time.Time, lines []CostRecord) error
	// CostLines lists the lines of [from, to).
	CostLines(ctx context.Context, from, to time.Time) ([]CostRecord, error)
	// CostDays lists the days of [from, to) that have lines.
	CostDays(ctx context.Context, from, to time.Time) ([]time.Time, error)
	// PutCostShares replaces the shares of a day.
	PutCostShares(ctx context.Context, day time.Time, shares []CostShare) error
	// CostShares lists shares of [from, to); "" is any zone, stage or
	// unit (a unit's own with bu set).
	CostShares(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]CostShare, error)
	// PutTopicCosts replaces a stage's topics' costs of a month.
	PutTopicCosts(ctx context.Context, zone, stage string, month time.Time, costs []TopicCost) error
	// TopicCosts lists a unit's topics' costs of a month, the costliest
	// first, at most limit.
	TopicCosts(ctx context.Context, zone, stage, bu string, month time.Time, limit int) ([]TopicCost, error)
}
