package api

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/cost"
)

// timeParam reads a date (yyyy-mm-dd) or a date-time (RFC 3339).
func timeParam(c echo.Context, name string) (time.Time, error) {
	v := c.QueryParam(name)
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, portal.Invalid(name, "%s is a date (2026-11-01) or a date-time (2026-11-01T10:00:00Z), not %q", name, v)
	}
	return t.UTC(), nil
}

func rangeParams(c echo.Context) (time.Time, time.Time, error) {
	from, err := timeParam(c, "from")
	if err != nil {
		return from, from, err
	}
	to, err := timeParam(c, "to")
	return from, to, err
}

func csvWanted(c echo.Context) (bool, error) {
	switch c.QueryParam("format") {
	case "", "json":
		return false, nil
	case "csv":
		return true, nil
	}
	return false, portal.Invalid("format", "format is json or csv, not %q", c.QueryParam("format"))
}

func writeCSV(c echo.Context, name string, rows [][]string) error {
	c.Response().Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	w := csv.NewWriter(c.Response())
	if err := w.WriteAll(rows); err != nil {
		return err
	}
	return w.Error()
}

func (a *API) getUsage(c echo.Context) error {
	from, to, err := rangeParams(c)
	if err != nil {
		return err
	}
	asCSV, err := csvWanted(c)
	if err != nil {
		return err
	}
	r, err := a.Costs.Usage(c.Request().Context(), httpserver.ScopeOf(c),
		cost.UsageQuery{From: from, To: to, Granularity: c.QueryParam("granularity"), GroupBy: c.QueryParam("group_by")})
	if err != nil {
		return err
	}
	out := present.Usage(r)
	if asCSV {
		rows := [][]string{{"time", "topic", "retained_bytes", "bytes_in", "bytes_out", "partitions", "hours"}}
		for _, p := range out.Points {
			rows = append(rows, []string{p.Time, p.Topic, present.Number(p.RetainedBytes), present.Number(p.BytesIn), present.Number(p.BytesOut), present.Number(p.Partitions), strconv.Itoa(p.Hours)})
		}
		return writeCSV(c, "usage-"+r.Unit+"-"+r.Stage, rows)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getCosts(c echo.Context) error {
	from, to, err := rangeParams(c)
	if err != nil {
		return err
	}
	asCSV, err := csvWanted(c)
	if err != nil {
		return err
	}
	limit, err := intParam(c, "limit")
	if err != nil {
		return err
	}
	r, err := a.Costs.Costs(c.Request().Context(), httpserver.ScopeOf(c), cost.CostQuery{From: from, To: to, GroupBy: c.QueryParam("group_by"), Limit: limit})
	if err != nil {
		return err
	}
	out := present.Costs(r)
	if asCSV {
		return writeCSV(c, "costs-"+r.Unit+"-"+r.Stage, r.Rows())
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) adminZoneCosts(c echo.Context) error {
	var month time.Time
	if m := c.QueryParam("month"); m != "" {
		t, err := time.Parse("2006-01", m)
		if err != nil {
			return portal.Invalid("month", "month is yyyy-mm (2026-11), not %q", m)
		}
		month = t
	}
	asCSV, err := csvWanted(c)
	if err != nil {
		return err
	}
	r, err := a.Costs.ZoneCosts(c.Request().Context(), c.Param("landing_zone"), month)
	if err != nil {
		return err
	}
	out := present.ZoneCosts(r)
	if asCSV {
		return writeCSV(c, "costs-"+out.LandingZone+"-"+out.Month, r.Rows())
	}
	return c.JSON(http.StatusOK, out)
}
