package cloud

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/clusters"
)

// Billed is a cluster the Billing API stand-in bills: its ids, whether
// it is a dedicated cluster (billed by the CKU) or a shared one (a base
// rate), and where its usage, partitions and connectors come from.
type Billed struct {
	EnvironmentID, ClusterID, RegistryID, Name string
	Dedicated                                  bool
	Telemetry                                  *clusters.Telemetry
	Partitions                                 func(ctx context.Context) (map[string]int, error)
	Connect                                    *Connect
}

// AddBilled bills a cluster.
func (c *CloudAPI) AddBilled(b Billed) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.billed = append(c.billed, b)
}

// The stand-in's list prices in USD, of the order of Confluent Cloud's
// published ones.
const (
	priceBaseHour      = 1.50        // KAFKA_BASE: a shared (Standard) cluster, an hour
	priceCKUHour       = 2.25        // KAFKA_NUM_CKUS: a dedicated cluster's CKU, an hour
	pricePartitionHour = 0.0015      // KAFKA_PARTITION
	priceStorageGBHour = 0.10 / 730  // KAFKA_STORAGE: $0.10 a GB-month
	priceNetworkGB     = 0.05        // KAFKA_NETWORK_READ and _WRITE
	priceTaskHour      = 0.034       // CONNECT_NUM_TASKS
	priceThroughputGB  = 0.025       // CONNECT_THROUGHPUT
	priceRegistryHour  = 0.0208      // GOVERNANCE_BASE: a Schema Registry, an hour
	priceSupportDay    = 1000.0 / 30 // SUPPORT: the organisation's plan
)

// billingCosts serves GET /billing/v1/costs (billing/v1 CostList): the
// organisation's daily cost lines of [start_date, end_date), a month at
// most and a year back at most, paged; a day is billed once it is over.
// The lines are priced from the clusters' usage as the Metrics API
// stand-in answers it, so that the portal's split of a shared cluster's
// lines can be checked against the same numbers.
func (c *CloudAPI) billingCosts(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	start, serr := time.Parse(time.DateOnly, q.Get("start_date"))
	end, eerr := time.Parse(time.DateOnly, q.Get("end_date"))
	now := time.Now().UTC()
	switch {
	case serr != nil || eerr != nil:
		writeError(w, http.StatusBadRequest, "start_date and end_date are required, as yyyy-mm-dd")
		return
	case !start.Before(end):
		writeError(w, http.StatusBadRequest, "end_date must be after start_date")
		return
	case end.Sub(start) > 31*24*time.Hour:
		writeError(w, http.StatusBadRequest, "the maximum window between start_date and end_date is one month")
		return
	case start.Before(now.AddDate(-1, 0, -1)):
		writeError(w, http.StatusBadRequest, "start_date can be at most one year in the past")
		return
	}
	size := 5000
	if s := q.Get("page_size"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 10000 {
			writeError(w, http.StatusBadRequest, "page_size must be from 1 to 10000")
			return
		}
		size = n
	}
	c.mu.Lock()
	billed := append([]Billed(nil), c.billed...)
	down := c.down["billing"]
	c.mu.Unlock()
	if down {
		writeError(w, http.StatusServiceUnavailable, "the Billing API is unavailable (stopped stand-in)")
		return
	}
	var lines []map[string]any
	for day := start; day.Before(end); day = day.AddDate(0, 0, 1) {
		if day.Add(24 * time.Hour).After(now) {
			break // not over yet
		}
		for _, b := range billed {
			lines = append(lines, b.costs(r.Context(), day)...)
		}
		lines = append(lines, costLine(day, "SUPPORT", "SUPPORT_CLOUD_BUSINESS", "", "", "", "Day", 1, priceSupportDay))
	}
	from, _ := strconv.Atoi(q.Get("page_token"))
	from = min(max(from, 0), len(lines))
	to := min(from+size, len(lines))
	body := map[string]any{"api_version": "billing/v1", "kind": "CostList", "data": lines[from:to], "metadata": map[string]any{}}
	if to < len(lines) {
		next := *r.URL
		nq := next.Query()
		nq.Set("page_token", strconv.Itoa(to))
		next.RawQuery = nq.Encode()
		body["metadata"] = map[string]any{"next": "https://api.confluent.cloud" + next.Path + "?" + next.RawQuery}
	}
	writeJSON(w, http.StatusOK, body)
}

// costs are a cluster's lines of a day: capacity, partitions, storage
// and network by its topics' usage, its Schema Registry, and each of its
// connectors' tasks and throughput.
func (b Billed) costs(ctx context.Context, day time.Time) []map[string]any {
	end := day.Add(24 * time.Hour)
	sum := func(metric string) (total float64, byTopic map[string]float64) {
		byTopic = map[string]float64{}
		if b.Telemetry == nil {
			return 0, byTopic
		}
		for _, p := range b.Telemetry.Query(metric, day, end, time.Hour, "", "") {
			total += p.Value
			byTopic[p.Topic] += p.Value
		}
		return total, byTopic
	}
	in, inByTopic := sum("received_bytes")
	out, _ := sum("sent_bytes")
	retained, _ := sum("retained_bytes") // byte-hours: a gauge an hour
	partitions := 0
	if b.Partitions != nil {
		if parts, err := b.Partitions(ctx); err == nil {
			for _, n := range parts {
				partitions += n
			}
		}
	}
	env, cl, name := b.EnvironmentID, b.ClusterID, b.Name
	var lines []map[string]any
	if b.Dedicated {
		lines = append(lines, costLine(day, "KAFKA", "KAFKA_NUM_CKUS", cl, name, env, "CKU-hour", 24, priceCKUHour))
	} else {
		lines = append(lines, costLine(day, "KAFKA", "KAFKA_BASE", cl, name, env, "Hour", 24, priceBaseHour))
	}
	lines = append(lines,
		costLine(day, "KAFKA", "KAFKA_PARTITION", cl, name, env, "Partition-hour", float64(partitions*24), pricePartitionHour),
		costLine(day, "KAFKA", "KAFKA_STORAGE", cl, name, env, "GB-hour", retained/1e9, priceStorageGBHour),
		costLine(day, "KAFKA", "KAFKA_NETWORK_WRITE", cl, name, env, "GB", in/1e9, priceNetworkGB),
		costLine(day, "KAFKA", "KAFKA_NETWORK_READ", cl, name, env, "GB", out/1e9, priceNetworkGB))
	if b.RegistryID != "" {
		lines = append(lines, costLine(day, "STREAM_GOVERNANCE", "GOVERNANCE_BASE", b.RegistryID, name+" schema registry", env, "Hour", 24, priceRegistryHour))
	}
	if b.Connect != nil {
		connectors := b.Connect.Billed()
		sort.Slice(connectors, func(i, j int) bool { return connectors[i].Name < connectors[j].Name })
		for _, k := range connectors {
			if !k.Since.IsZero() && !k.Since.Before(end) {
				continue
			}
			hours := 24.0
			if k.Since.After(day) {
				hours = math.Ceil(end.Sub(k.Since).Hours())
			}
			through := 0.0
			for _, t := range k.Topics {
				through += inByTopic[t] * hours / 24
			}
			lines = append(lines,
				costLine(day, "CONNECT", "CONNECT_NUM_TASKS", k.ID, k.Name, env, "Task-hour", float64(k.Tasks)*hours, priceTaskHour),
				costLine(day, "CONNECT", "CONNECT_THROUGHPUT", k.ID, k.Name, env, "GB", through/1e9, priceThroughputGB))
		}
	}
	return lines
}

// costLine is one billing.v1.Cost of a day.
func costLine(day time.Time, product, lineType, resource, name, env, unit string, quantity, price float64) map[string]any {
	h := fnv.New64a()
	fmt.Fprint(h, day.Format(time.DateOnly), lineType, resource)
	amount := math.Round(quantity*price*1e6) / 1e6
	line := map[string]any{"api_version": "billing/v1", "kind": "Cost", "id": fmt.Sprintf("dlz-%012x", h.Sum64()&0xffffffffffff),
		"start_date": day.Format(time.DateOnly), "end_date": day.AddDate(0, 0, 1).Format(time.DateOnly), "granularity": "DAILY",
		"product": product, "line_type": lineType, "price": price, "unit": unit, "quantity": math.Round(quantity*1e6) / 1e6,
		"original_amount": amount, "discount_amount": 0.0, "amount": amount, "network_access_type": "INTERNET"}
	if resource != "" {
		line["resource"] = map[string]any{"id": resource, "display_name": name, "environment": map[string]any{"id": env}}
	}
	return line
}
