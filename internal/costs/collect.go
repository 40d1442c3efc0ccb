package costs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Options configure the collector.
type Options struct {
	Store   store.Store
	Tenancy func() *tenancy.Tenancy
	Envs    func() []*platform.Environment
	// Billing is the Billing API (nil: costs are not read, usage is).
	Billing platform.Billing
	// BaseRule splits shared clusters' base capacity (BaseEqual when "").
	BaseRule string
	// Backfill is how far back a stage's usage and the costs are read the
	// first time (and how long a gap is read again): the Metrics API's
	// retention.
	Backfill time.Duration
	// Admit takes requests from the Metrics API's budget (nil: none is
	// kept): a stage's queries are taken together.
	Admit func(ctx context.Context, requests int, owed, urgent bool) error
	// StagesPerRound bounds the stages read a round (the longest unread
	// first), so that a round takes few Metrics API requests.
	StagesPerRound int
	// HourlyRetention and DailyRetention bound what the database keeps.
	HourlyRetention, DailyRetention time.Duration
	Now                             func() time.Time
	Log                             *slog.Logger
}

// Collector reads usage and costs, one replica at a time (a leased
// round).
type Collector struct {
	o Options
	// tried is when each stage was last tried on this replica, so that
	// stages that keep failing do not hold the others back.
	mu    sync.Mutex
	tried map[string]time.Time
}

// NewCollector returns a collector.
func NewCollector(o Options) *Collector {
	if o.BaseRule == "" {
		o.BaseRule = BaseEqual
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.StagesPerRound <= 0 {
		o.StagesPerRound = 3
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Collector{o: o, tried: map[string]time.Time{}}
}

// hoursPerQuery bounds one query's span: a month of hourly points of a
// thousand topics a page.
const hoursPerQuery = 31 * 24

// settleDelay is how long after an hour ends the Metrics API's figures
// of it are complete.
const settleDelay = 5 * time.Minute

// usageMetrics are the metrics a usage hour is made of.
var usageMetrics = []string{platform.MetricRetainedBytes, platform.MetricReceivedBytes, platform.MetricSentBytes}

// Round reads the hours not read yet of the stages read longest ago
// (StagesPerRound of them; a month at most a stage a round); then the
// costs, splitting again the days whose usage it read. A spent request
// budget ends the stages' part of the round (its hours are gaps, read
// again next round). Its count is the hours read.
func (c *Collector) Round(ctx context.Context) (int, error) {
	n := 0
	var errs []error
	envs, err := c.oldestFirst(ctx)
	if err != nil {
		return 0, err
	}
	touched := map[time.Time]bool{}
	for _, env := range envs {
		hours, err := c.collectStage(ctx, env)
		n += len(hours)
		for _, h := range hours {
			touched[h.Truncate(24*time.Hour)] = true
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", env.Name(), err))
			if portal.Is(err, portal.RateLimited) {
				break
			}
		}
	}
	if c.o.Billing != nil {
		if _, err := c.CollectCosts(ctx, touched); err != nil {
			errs = append(errs, err)
		}
	}
	now := c.o.Now().UTC()
	if c.o.HourlyRetention > 0 && c.o.DailyRetention > 0 {
		if _, err := c.o.Store.DeleteUsageBefore(ctx, now.Add(-c.o.HourlyRetention), now.Add(-c.o.DailyRetention)); err != nil {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}

// oldestFirst are the stages tried longest ago, and among those the
// ones read longest ago, at most StagesPerRound; they count as tried.
func (c *Collector) oldestFirst(ctx context.Context) ([]*platform.Environment, error) {
	type marked struct {
		env         *platform.Environment
		tried, mark time.Time
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var all []marked
	for _, env := range c.o.Envs() {
		m, err := c.o.Store.UsageMark(ctx, env.Zone, env.Stage)
		if err != nil {
			return nil, err
		}
		all = append(all, marked{env, c.tried[env.Name()], m})
	}
	slices.SortStableFunc(all, func(a, b marked) int {
		if n := a.tried.Compare(b.tried); n != 0 {
			return n
		}
		return a.mark.Compare(b.mark)
	})
	var out []*platform.Environment
	now := c.o.Now()
	for _, m := range all[:min(len(all), c.o.StagesPerRound)] {
		out = append(out, m.env)
		c.tried[m.env.Name()] = now
	}
	return out, nil
}

// collectStage reads a stage's hours since its mark (a month at most)
// and moves the mark past them. Hours it could not read (the API down,
// the budget spent) are recorded as gaps and the mark stays, so the next
// round reads them again: filled while the API still holds them, and
// kept as gaps, with their reason, once they fall out of its retention.
// It answers the hours read.
func (c *Collector) collectStage(ctx context.Context, env *platform.Environment) ([]time.Time, error) {
	if env.Metrics == nil || env.ClusterID == "" {
		return nil, nil
	}
	if _, ok := env.Metrics.(platform.Unconfigured); ok {
		return nil, nil
	}
	now := c.o.Now().UTC()
	end := now.Add(-settleDelay).Truncate(time.Hour)
	mark, err := c.o.Store.UsageMark(ctx, env.Zone, env.Stage)
	if err != nil {
		return nil, err
	}
	start := mark.Add(time.Hour)
	if mark.IsZero() || start.Before(end.Add(-c.o.Backfill)) {
		start = end.Add(-c.o.Backfill)
	}
	if !start.Before(end) {
		return nil, nil
	}
	stop := minTime(end, start.Add(hoursPerQuery*time.Hour))
	hours := hoursOf(start, stop)
	if err := c.readHours(ctx, env, start, stop, hours); err != nil {
		return nil, errors.Join(err, c.o.Store.AddUsageGaps(ctx, gapsOf(env, hours, err)))
	}
	return hours, c.o.Store.SetUsageMark(ctx, env.Zone, env.Stage, stop.Add(-time.Hour))
}

// readHours queries [start, stop) grouped by topic (each metric's pages:
// a thousand topics a page) and saves the hours asked for.
func (c *Collector) readHours(ctx context.Context, env *platform.Environment, start, stop time.Time, hours []time.Time) error {
	listed, err := env.Topics.ListTopics(ctx)
	if err != nil {
		return err
	}
	partitions := map[string]int{}
	for _, t := range listed {
		if !t.Internal {
			partitions[t.Name] = t.Partitions
		}
	}
	pages := max(1, int(math.Ceil(float64(len(partitions))/1000)))
	// The three queries of the hours go together or not at all: a budget
	// that runs out between them would have them read again, and spent.
	prepaid := false
	if c.o.Admit != nil {
		if err := c.o.Admit(ctx, pages*len(usageMetrics), false, false); err != nil {
			return err
		}
		prepaid = true
	}
	type key struct {
		topic string
		hour  time.Time
	}
	values := map[key]*store.UsageHour{}
	for _, metric := range usageMetrics {
		points, err := env.Metrics.QueryMetric(ctx, platform.MetricQuery{Metric: metric, ClusterID: env.ClusterID,
			GroupBy: []string{platform.LabelTopic}, Granularity: "PT1H", Start: start, End: stop, Limit: 1000, ExpectPages: pages, Prepaid: prepaid})
		if err != nil {
			return err
		}
		for _, p := range points {
			topic := p.Labels[platform.LabelTopic]
			if topic == "" || strings.HasPrefix(topic, "_") {
				continue
			}
			k := key{topic, p.At.UTC().Truncate(time.Hour)}
			v := values[k]
			if v == nil {
				v = &store.UsageHour{Topic: topic, Hour: k.hour, Partitions: partitions[topic]}
				values[k] = v
			}
			switch metric {
			case platform.MetricRetainedBytes:
				v.RetainedBytes += p.Value
			case platform.MetricReceivedBytes:
				v.BytesIn += p.Value
			case platform.MetricSentBytes:
				v.BytesOut += p.Value
			}
		}
	}
	// A topic that exists holds its partitions in every hour, used or not.
	for topic, n := range partitions {
		for _, h := range hours {
			if values[key{topic, h}] == nil {
				values[key{topic, h}] = &store.UsageHour{Topic: topic, Hour: h, Partitions: n}
			}
		}
	}
	owner := Owners(c.o.Tenancy(), env.Zone, env.Stage)
	var rows []store.UsageHour
	for k, v := range values {
		if !slices.ContainsFunc(hours, k.hour.Equal) {
			continue
		}
		v.BU = owner(k.topic)
		rows = append(rows, *v)
	}
	return c.o.Store.PutUsageHours(ctx, env.Zone, env.Stage, hours, rows)
}

// Owners gives the unit whose prefix a name (topic, connector) of a
// zone's stage starts with ("" for none).
func Owners(t *tenancy.Tenancy, zone, stage string) func(name string) string {
	z, ok := t.LandingZone(zone)
	st, sok := t.Stage(stage)
	if !ok || !sok {
		return func(string) string { return "" }
	}
	var scopes []tenancy.Scope
	for _, id := range z.BusinessUnits {
		if u, ok := t.Unit(id); ok {
			scopes = append(scopes, tenancy.Scope{Unit: u, Stage: st})
		}
	}
	// The longest prefix first: "edh-shared-a-b-dev-" is not "a"'s.
	slices.SortFunc(scopes, func(a, b tenancy.Scope) int { return len(b.Prefix()) - len(a.Prefix()) })
	return func(name string) string {
		for _, s := range scopes {
			if s.Owns(name) {
				return s.Unit.ID
			}
		}
		return ""
	}
}

func hoursOf(start, stop time.Time) []time.Time {
	var out []time.Time
	for h := start; h.Before(stop); h = h.Add(time.Hour) {
		out = append(out, h)
	}
	return out
}

func gapsOf(env *platform.Environment, hours []time.Time, err error) []store.UsageGap {
	reason := "the Metrics API is unavailable"
	switch {
	case portal.Is(err, portal.RateLimited):
		reason = "the Metrics API's request budget was spent"
	case portal.Is(err, portal.UpstreamTimeout):
		reason = "the Metrics API timed out"
	}
	out := make([]store.UsageGap, 0, len(hours))
	for _, h := range hours {
		out = append(out, store.UsageGap{Zone: env.Zone, Stage: env.Stage, Hour: h, Reason: reason})
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
