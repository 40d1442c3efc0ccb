package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// costs are the operations of the costs tag.
func costs() []Operation {
	return []Operation{
		{
			ID: "getUsage", Method: http.MethodGet, Path: "/{bu}/{stage}/usage",
			Need:    NeedReads,
			Tags:    []string{"costs"},
			Summary: "The business unit's usage in a stage, by hour or by day, summed or by topic.",
			Doc: "Read from the portal's rollups of the Metrics API (never from the\n" +
				"API at request time). Hours the API did not give are listed in\n" +
				"`gaps`, never shown as zero.\n",
			Params:  []Param{Ref("costFrom"), Ref("costTo"), {Name: "granularity", In: "query", Doc: "Hourly (31 days at most; by topic, a day) or daily (400 days at most; by topic, 31 days). Left out, from is the start of the month, or as far back as the range allows.", Schema: "{type: string, enum: [hour, day], default: day}"}, {Name: "group_by", In: "query", Doc: "By topic; summed over the unit's topics when left out.", Schema: "{type: string, enum: [topic]}"}, Ref("costFormat")},
			Answers: []Answer{{Status: 200, Doc: "The usage.", Of: wire.UsageReport{}, Text: "text/csv"}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable},
		},
		{
			ID: "getCosts", Method: http.MethodGet, Path: "/{bu}/{stage}/costs",
			Need:    NeedReads,
			Tags:    []string{"costs"},
			Summary: "The business unit's costs in a stage, by day and category, with the month's forecast.",
			Doc: "Each share of a cost line is `line_amount x unit_use / total_use`,\n" +
				"with the rule that chose the use (`group_by=line` lists them, so\n" +
				"a bill can be checked by hand). `group_by=topic` lists the month's\n" +
				"costliest topics. The forecast is the month so far plus the mean of\n" +
				"the last 7 days billed times the days left, with the range of those\n" +
				"days' least and most.\n",
			Params:  []Param{Ref("costFrom"), Ref("costTo"), {Name: "group_by", In: "query", Schema: "{type: string, enum: [line, topic]}"}, {Name: "limit", In: "query", Doc: "The topics listed with group_by=topic (100 by default, at most 1000).", Schema: "{type: integer, minimum: 1, maximum: 1000}"}, Ref("costFormat")},
			Answers: []Answer{{Status: 200, Doc: "The costs.", Of: wire.CostReport{}, Text: "text/csv"}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable},
		},
	}
}
