package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// Register mounts every page of the portal on e. Each route leads to one
// handler, and each handler to the service methods it renders. The
// session middleware is attached per route: on a group, echo would route
// every unknown path (API ones too) through it.
func (h *Handlers) Register(e *echo.Echo) {
	forget := page.ForgetSecretPages(h.baseURL)
	e.GET("/auth/login", h.login, forget)
	e.GET("/auth/callback", h.callback, forget)
	e.POST("/auth/logout", h.logout, forget)
	e.GET("/signed-out", h.signedOut, forget)

	route := func(method, path string, handler echo.HandlerFunc) {
		if strings.HasPrefix(path, "/:bu/:stage/") {
			// The scope is parsed once here, after the session is known;
			// then large bodies take their lane.
			mw := []echo.MiddlewareFunc{forget, h.requireSession, httpserver.ParseScope}
			if h.lane != nil {
				mw = append(mw, h.lane.Middleware)
			}
			e.Add(method, path, handler, mw...)
			return
		}
		e.Add(method, path, handler, forget, h.requireSession)
	}
	route(http.MethodGet, "/", h.home)
	route(http.MethodGet, "/context", h.switchContext)
	route(http.MethodGet, "/me/access", h.myAccess)
	route(http.MethodGet, "/me/sessions", h.mySessions)
	route(http.MethodPost, "/me/session/:id/end", h.endMySession)

	// The platform admin area: NotFound for everyone who may not use it.
	h.admin.Register(route)

	h.identity.Register(route)
	route(http.MethodGet, "/:bu/:stage/search", h.search)
	route(http.MethodGet, "/:bu/:stage/topics", h.listTopics)
	route(http.MethodGet, "/:bu/:stage/export", h.exportDocument)
	route(http.MethodGet, "/:bu/:stage/topics/new", h.newTopic)
	route(http.MethodPost, "/:bu/:stage/topics", h.createTopic)
	route(http.MethodGet, "/:bu/:stage/topic/:name", h.showTopic)
	route(http.MethodGet, "/:bu/:stage/topic/:name/edit", h.editTopic)
	route(http.MethodPost, "/:bu/:stage/topic/:name/edit", h.updateTopic)
	route(http.MethodGet, "/:bu/:stage/topic/:name/delete", h.confirmDelete)
	route(http.MethodPost, "/:bu/:stage/topic/:name/delete", h.deleteTopic)

	route(http.MethodGet, "/:bu/:stage/topic/:name/records", h.readRecords)
	route(http.MethodGet, "/:bu/:stage/topic/:name/settings", h.topicSettings)
	route(http.MethodGet, "/:bu/:stage/topic/:name/consumers", h.topicConsumers)
	route(http.MethodGet, "/:bu/:stage/topic/:name/records/download", h.downloadRecords)
	route(http.MethodGet, "/:bu/:stage/topic/:name/records/tail", h.tailRecords)
	route(http.MethodGet, "/:bu/:stage/topic/:name/produce", h.produceForm)
	route(http.MethodPost, "/:bu/:stage/topic/:name/produce", h.produceForm)

	route(http.MethodGet, "/:bu/:stage/consumer-groups", h.listGroups)
	route(http.MethodGet, "/:bu/:stage/consumer-group/:id", h.showGroup)
	route(http.MethodPost, "/:bu/:stage/consumer-group/:id/reset", h.resetGroup)
	route(http.MethodGet, "/:bu/:stage/consumer-group/:id/delete", h.confirmDeleteGroup)
	route(http.MethodPost, "/:bu/:stage/consumer-group/:id/delete", h.deleteGroup)

	route(http.MethodGet, "/:bu/:stage/metrics", h.clusterMetrics)
	route(http.MethodGet, "/:bu/:stage/costs", h.costs)
	route(http.MethodGet, "/:bu/:stage/budget", h.unitBudget)
	route(http.MethodGet, "/:bu/:stage/change-requests", h.listRequests)
	route(http.MethodPost, "/:bu/:stage/change-requests", h.fileRequest)
	route(http.MethodGet, "/:bu/:stage/change-requests/new", h.newRequest)
	route(http.MethodPost, "/:bu/:stage/change-requests/draft", h.draftRequest)
	route(http.MethodGet, "/:bu/:stage/change-request/:id", h.showRequest)
	route(http.MethodPost, "/:bu/:stage/change-request/:id/:action", h.decideRequest)
	route(http.MethodGet, "/:bu/:stage/change-requests/:id", moved("/change-requests/", "/change-request/"))
	route(http.MethodGet, "/:bu/:stage/alerts", h.alertsPage)
	route(http.MethodPost, "/:bu/:stage/alerts/rules", h.saveAlertRule)
	route(http.MethodPost, "/:bu/:stage/alerts/rule/:name/silence", h.silenceAlertRule)
	route(http.MethodPost, "/:bu/:stage/alerts/channels", h.addAlertChannel)
	route(http.MethodPost, "/:bu/:stage/alerts/channel/:id/delete", h.deleteAlertChannel)
	route(http.MethodGet, "/:bu/:stage/catalog", h.catalogPage)
	route(http.MethodGet, "/:bu/:stage/catalog/:name", h.catalogEntry)
	route(http.MethodPost, "/:bu/:stage/catalog/:name", h.describeTopic)
	route(http.MethodGet, "/:bu/:stage/grants", h.listGrants)
	route(http.MethodPost, "/:bu/:stage/grants", h.requestGrant)
	route(http.MethodGet, "/:bu/:stage/grants/new", h.newGrant)
	route(http.MethodGet, "/:bu/:stage/grant/:id", h.showGrant)
	route(http.MethodPost, "/:bu/:stage/grant/:id/:action", h.grantStep)
	route(http.MethodGet, "/:bu/:stage/grants/:id", moved("/grants/", "/grant/"))
	route(http.MethodGet, "/:bu/:stage/topic/:name/metrics", h.topicMetrics)

	route(http.MethodGet, "/:bu/:stage/connectors", h.listConnectors)
	route(http.MethodGet, "/:bu/:stage/connectors/new", h.newConnector)
	route(http.MethodPost, "/:bu/:stage/connectors", h.createConnector)
	route(http.MethodGet, "/:bu/:stage/connector/:name", h.showConnector)
	route(http.MethodGet, "/:bu/:stage/connector/:name/edit", h.editConnector)
	route(http.MethodPost, "/:bu/:stage/connector/:name/edit", h.updateConnector)
	route(http.MethodGet, "/:bu/:stage/connector/:name/delete", h.confirmDeleteConnector)
	route(http.MethodPost, "/:bu/:stage/connector/:name/delete", h.deleteConnector)
	route(http.MethodPost, "/:bu/:stage/connector/:name/auto-restart", h.setAutoRestart)
	route(http.MethodPost, "/:bu/:stage/connector/:name/:action", h.connectorLifecycle)

	route(http.MethodGet, "/:bu/:stage/schemas", h.listSchemas)
	route(http.MethodGet, "/:bu/:stage/schemas/new", h.newSchema)
	route(http.MethodPost, "/:bu/:stage/schemas", h.createSchema)
	route(http.MethodGet, "/:bu/:stage/schema/:subject", h.showSubject)
	route(http.MethodGet, "/:bu/:stage/schema/:subject/new-version", h.newVersion)
	route(http.MethodPost, "/:bu/:stage/schema/:subject/new-version", h.registerVersion)
	route(http.MethodPost, "/:bu/:stage/schema/:subject/check", h.checkVersion)
	route(http.MethodGet, "/:bu/:stage/schema/:subject/:version/delete", h.confirmDeleteVersion)
	route(http.MethodPost, "/:bu/:stage/schema/:subject/:version/delete", h.deleteVersion)

}

// moved answers an item page's earlier address (plural, as its list's)
// with its address now, spelt as the API spells it: bookmarks and links
// in old messages still lead to the page.
func moved(old, now string) echo.HandlerFunc {
	return func(c echo.Context) error {
		u := *c.Request().URL
		u.Path = strings.Replace(u.Path, old, now, 1)
		if strings.HasPrefix(u.Path, "//") {
			// Never a redirect to another host ("//host/...").
			return echo.ErrNotFound
		}
		return c.Redirect(http.StatusMovedPermanently, u.RequestURI())
	}
}
