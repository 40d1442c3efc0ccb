package handlers

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Handlers) clusterMetrics(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	p, err := h.Page(c, "Cluster metrics", "metrics", scope)
	if err != nil {
		return err
	}
	m, err := h.Metrics.ClusterMetrics(c.Request().Context(), scope, c.QueryParam("range"))
	if err != nil {
		return err
	}
	p.Subtitle = "cluster of " + p.Context.LandingZone + " in " + scope.Stage
	return h.Render(c, http.StatusOK, p, views.ClusterMetricsPage(p, m))
}

func (h *Handlers) topicMetrics(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	p, err := h.Page(c, "Topic metrics", "topics", scope)
	if err != nil {
		return err
	}
	m, err := h.Metrics.TopicMetrics(c.Request().Context(), scope, c.Param("name"), c.QueryParam("range"))
	if err != nil {
		return err
	}
	p.Title, p.Subtitle = m.Topic.Identifier+" · metrics", m.Topic.Name
	p.Crumbs = page.Crumbs(p.Context, "topics",
		views.Crumb{Label: m.Topic.Identifier, Href: p.Context.Path("topic", m.Topic.Name)}, views.Crumb{Label: "metrics"})
	return h.Render(c, http.StatusOK, p, templ.Join(views.TopicTabs(p, m.Topic.Name, "metrics"), views.TopicMetricsPage(p, m)))
}
