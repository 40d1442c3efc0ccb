package confluent

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// Billing reads the organisation's costs from the Confluent Cloud
// Billing API (GET /billing/v1/costs), through the Cloud API's client.
type Billing struct {
	c *Client
}

var _ platform.Billing = (*Billing)(nil)

// NewBilling returns the Billing API adapter.
func NewBilling(c *Client) *Billing { return &Billing{c: c} }

// costList is the API's billing.v1.CostList.
type costList struct {
	Data []struct {
		ID             string  `json:"id"`
		StartDate      string  `json:"start_date"`
		EndDate        string  `json:"end_date"`
		Granularity    string  `json:"granularity"`
		Product        string  `json:"product"`
		LineType       string  `json:"line_type"`
		Price          float64 `json:"price"`
		Unit           string  `json:"unit"`
		Quantity       float64 `json:"quantity"`
		OriginalAmount float64 `json:"original_amount"`
		DiscountAmount float64 `json:"discount_amount"`
		Amount         float64 `json:"amount"`
		Description    string  `json:"description"`
		Resource       *struct {
			ID          string `json:"id"`
			DisplayName string `json:"display_name"`
			Environment *struct {
				ID string `json:"id"`
			} `json:"environment"`
		} `json:"resource"`
	} `json:"data"`
	Metadata struct {
		Next string `json:"next"`
	} `json:"metadata"`
}

// maxCostPages bounds the pages read for one range (10,000 lines a page).
const maxCostPages = 50

// Costs reads every page of the costs of [start, end).
func (b *Billing) Costs(ctx context.Context, start, end time.Time) ([]platform.CostLine, error) {
	q := url.Values{"start_date": {start.UTC().Format(time.DateOnly)}, "end_date": {end.UTC().Format(time.DateOnly)},
		"page_size": {"10000"}}
	var out []platform.CostLine
	for range maxCostPages {
		var page costList
		// A read changes nothing: it may be retried.
		if err := b.c.do(ctx, call{method: "GET", path: "/billing/v1/costs", query: q, out: &page, safe: true}); err != nil {
			return nil, err
		}
		for _, d := range page.Data {
			day, err := time.Parse(time.DateOnly, d.StartDate)
			if err != nil {
				return nil, fmt.Errorf("billing API: a cost's start_date %q: %w", d.StartDate, err)
			}
			l := platform.CostLine{ID: d.ID, Day: day, Product: d.Product, LineType: d.LineType, Unit: d.Unit, Quantity: d.Quantity,
				Price: d.Price, Original: d.OriginalAmount, Discount: d.DiscountAmount, Amount: d.Amount, Description: d.Description}
			if r := d.Resource; r != nil {
				l.ResourceID, l.ResourceName = r.ID, r.DisplayName
				if r.Environment != nil {
					l.EnvironmentID = r.Environment.ID
				}
			}
			out = append(out, l)
		}
		next, err := url.Parse(page.Metadata.Next)
		if page.Metadata.Next == "" || err != nil || next.Query().Get("page_token") == "" {
			return out, nil
		}
		q.Set("page_token", next.Query().Get("page_token"))
	}
	return out, nil
}
