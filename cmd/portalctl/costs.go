package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/edh-platform/rms-portal/client"
)

// reports are the types get answers with one report (usage, costs)
// rather than a list of resources: --where sets the report's parameters.
var reports = map[string]func(ctx context.Context, c *client.Client, bu, stage string, params map[string]string) (any, []any, []string, error){
	"usage": func(ctx context.Context, c *client.Client, bu, stage string, params map[string]string) (any, []any, []string, error) {
		var p client.GetUsageParams
		if err := setAll(&p, params); err != nil {
			return nil, nil, nil, err
		}
		r, _, err := c.GetUsage(ctx, bu, stage, &p)
		columns := []string{"time", "retained_bytes", "bytes_in", "bytes_out", "partitions", "hours"}
		if r.GroupBy == "topic" {
			columns = append([]string{"time", "topic"}, columns[1:]...)
		}
		return r, each(r.Points), columns, err
	},
	"costs": func(ctx context.Context, c *client.Client, bu, stage string, params map[string]string) (any, []any, []string, error) {
		var p client.GetCostsParams
		if err := setAll(&p, params); err != nil {
			return nil, nil, nil, err
		}
		r, _, err := c.GetCosts(ctx, bu, stage, &p)
		switch r.GroupBy {
		case "line":
			return r, each(r.Lines), []string{"day", "line_type", "resource_name", "rule", "line_amount", "unit_use", "total_use", "amount"}, err
		case "topic":
			return r, each(r.Topics), []string{"topic", "amount", "storage", "network", "partitions", "base"}, err
		}
		return r, each(r.Days), []string{"day", "amount", "by_category.storage", "by_category.network", "by_category.partitions",
			"by_category.base", "by_category.connect", "by_category.other"}, err
	},
}

type setter interface {
	Set(name, value string) error
}

func setAll(p setter, params map[string]string) error {
	for k, v := range params {
		if err := p.Set(k, v); err != nil {
			return fmt.Errorf("--where %s=%s: %w", k, v, err)
		}
	}
	return nil
}

func each[T any](in []T) []any {
	out := make([]any, len(in))
	for i, v := range in {
		out[i] = v
	}
	return out
}

// getReport prints a report: its rows as a table, or the whole report.
func (o *options) getReport(ctx context.Context, name, bu, stage, format string, where []string) error {
	params := map[string]string{}
	for _, w := range where {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return fmt.Errorf("--where takes key=value (from=, to=, granularity=, group_by=), not %q", w)
		}
		params[k] = v
	}
	c, err := o.api(ctx)
	if err != nil {
		return err
	}
	whole, rows, columns, err := reports[name](ctx, c, bu, stage, params)
	if err != nil {
		return err
	}
	shownRows := make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		m, err := shown(r)
		if err != nil {
			return err
		}
		shownRows = append(shownRows, m)
	}
	item, err := shown(whole)
	if err != nil {
		return err
	}
	if err := write(o.stdout, format, item, shownRows, columns); err != nil {
		return err
	}
	if format == "table" {
		if f, ok := item["forecast"].(map[string]any); ok {
			fmt.Fprintf(o.stdout, "\ntotal %v %v; month-end forecast %v (%v to %v): %v\n", item["total"], item["currency"], f["amount"], f["low"], f["high"], f["method"])
		}
		if gaps, ok := item["gaps"].([]any); ok && len(gaps) > 0 {
			fmt.Fprintf(o.stdout, "%d hours of usage unknown (gaps): their figures leave out what was used then\n", len(gaps))
		}
	}
	return nil
}
