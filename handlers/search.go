package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/views"
)

// search finds the unit's resources named like q, and the portal's pages
// titled so: under the search box (htmx), or as a page of its own.
func (h *Handlers) search(c echo.Context) error {
	q := strings.TrimSpace(c.QueryParam("q"))
	if q == "" && page.IsHTMX(c) {
		return c.NoContent(http.StatusOK) // the box emptied: no results shown
	}
	r, err := h.Find.Find(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	p, err := h.Scoped(c, "", "Search")
	if err != nil {
		return err
	}
	p.Nav = "search"
	pages := pagesNamed(p, q)
	if page.IsHTMX(c) && !page.IsMainSwap(c) {
		return page.Fragment(c, http.StatusOK, views.SearchResults(p.Context, q, r, pages))
	}
	p.Title = "Search: " + q
	return h.Render(c, http.StatusOK, p, views.SearchPage(p, q, r, pages))
}

// pagesNamed are the unit's pages, and the admin area's for those who
// may open it, whose title contains q.
func pagesNamed(p views.Page, q string) []views.SearchPageLink {
	q = strings.ToLower(q)
	var out []views.SearchPageLink
	for _, r := range views.Resources() {
		if strings.Contains(strings.ToLower(r.Label), q) {
			out = append(out, views.SearchPageLink{Label: r.Label, Href: p.Context.Path(r.ID)})
		}
	}
	if p.User.Admin {
		for _, t := range views.AdminTabs {
			if !t.Zone && !p.User.PlatformAdmin {
				continue // the platform team's pages
			}
			if strings.Contains(strings.ToLower(t.Label), q) || strings.Contains("admin area", q) {
				out = append(out, views.SearchPageLink{Label: "Admin area: " + t.Label, Href: t.Href})
			}
		}
	}
	return out
}
