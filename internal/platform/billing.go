package platform

import (
	"context"
	"time"
)

// CostLine is one line of the organisation's daily costs, as the
// Confluent Cloud Billing API (billing/v1 Cost) gives it.
type CostLine struct {
	// ID is the API's identifier of the line.
	ID string
	// Day is the line's day (its start_date, UTC midnight).
	Day      time.Time
	Product  string
	LineType string
	// ResourceID is the cluster (lkc-), connector (lcc-), Schema Registry
	// (lsrc-) or other resource billed; empty for an organisation's line
	// (support, credits).
	ResourceID    string
	ResourceName  string
	EnvironmentID string
	Unit          string
	Quantity      float64
	Price         float64
	Original      float64
	Discount      float64
	// Amount is what is paid: the original less the discount.
	Amount      float64
	Description string
}

// Billing is the port to the Confluent Cloud Billing API.
type Billing interface {
	// Costs returns the organisation's daily cost lines of the days in
	// [start, end) (UTC days; at most a month, at most a year back).
	// Errors: RateLimited (with Retry-After), UpstreamUnavailable,
	// InvalidParameter for a range the API does not take.
	Costs(ctx context.Context, start, end time.Time) ([]CostLine, error)
}
