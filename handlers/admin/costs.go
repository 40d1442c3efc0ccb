package admin

import (
	"encoding/csv"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/views"
)

// zoneCosts is a zone's units side by side for a month (the zone's
// Super Admins, platform admins); ?format=csv has the same numbers.
func (h *Pages) zoneCosts(c echo.Context) error {
	p, area, err := h.adminPage(c, "Costs by unit")
	if err != nil {
		return err
	}
	zones := area.Zones
	zone := c.QueryParam("zone")
	if zone == "" && len(zones) > 0 {
		zone = zones[0]
	}
	var month time.Time
	if m := c.QueryParam("month"); m != "" {
		if month, err = time.Parse("2006-01", m); err != nil {
			return portal.Invalid("month", "month is yyyy-mm (2026-11), not %q", m)
		}
	}
	r, err := h.Costs.ZoneCosts(c.Request().Context(), zone, month)
	if err != nil {
		return err
	}
	if c.QueryParam("format") == "csv" {
		c.Response().Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
		c.Response().Header().Set("Content-Disposition", `attachment; filename="costs-`+r.Zone+"-"+r.Month.Format("2006-01")+`.csv"`)
		c.Response().WriteHeader(http.StatusOK)
		return csv.NewWriter(c.Response()).WriteAll(r.Rows())
	}
	return h.Render(c, http.StatusOK, p, views.ZoneCostsPage(p, area, zones, r))
}
