package api

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// Register mounts every route of the API, and its documentation, on e.
// Each route leads to one handler, and each handler to one service method.
func (a *API) Register(e *echo.Echo) {
	// Middleware is attached per route rather than to a group: group
	// middleware makes echo route every unknown method to a catch-all 404,
	// which would hide 405 Method Not Allowed.
	route := func(method, path string, h echo.HandlerFunc) {
		e.Add(method, Base+path, h, a.scoped(path, a.authenticate, requireJSON)...)
	}
	route(http.MethodGet, "/me", a.getMe)
	// The version needs no token: operators and probes ask for it.
	e.GET(Base+"/version", a.getVersion)

	route(http.MethodGet, "/:bu/:stage/search", a.search)
	route(http.MethodGet, "/:bu/:stage/topics", a.listTopics)
	route(http.MethodPost, "/:bu/:stage/topic", a.createTopic)
	route(http.MethodGet, "/:bu/:stage/topic/:name", a.getTopic)
	route(http.MethodPut, "/:bu/:stage/topic/:name", a.replaceTopic)
	route(http.MethodPatch, "/:bu/:stage/topic/:name", a.patchTopic)
	route(http.MethodDelete, "/:bu/:stage/topic/:name", a.deleteTopic)
	route(http.MethodGet, "/:bu/:stage/topic/:name/impact", a.topicImpact)

	route(http.MethodGet, "/:bu/:stage/topic/:name/messages", a.readMessages)
	route(http.MethodPost, "/:bu/:stage/topic/:name/records", a.produce)

	route(http.MethodGet, "/:bu/:stage/consumer-groups", a.listGroups)
	route(http.MethodGet, "/:bu/:stage/consumer-group/:id", a.getGroup)
	route(http.MethodDelete, "/:bu/:stage/consumer-group/:id", a.deleteGroup)
	route(http.MethodPost, "/:bu/:stage/consumer-group/:id/reset-offsets", a.resetOffsets)

	route(http.MethodGet, "/:bu/:stage/metrics", a.clusterMetrics)
	route(http.MethodGet, "/:bu/:stage/topic/:name/metrics", a.topicMetrics)
	route(http.MethodGet, "/:bu/:stage/usage", a.getUsage)
	route(http.MethodGet, "/:bu/:stage/costs", a.getCosts)

	route(http.MethodGet, "/:bu/:stage/connectors", a.listConnectors)
	route(http.MethodGet, "/:bu/:stage/connector-plugins", a.listConnectorPlugins)
	route(http.MethodPost, "/:bu/:stage/connector", a.createConnector)
	route(http.MethodGet, "/:bu/:stage/connector/:name", a.getConnector)
	route(http.MethodPut, "/:bu/:stage/connector/:name", a.updateConnector)
	route(http.MethodDelete, "/:bu/:stage/connector/:name", a.deleteConnector)
	route(http.MethodPost, "/:bu/:stage/connector/:name/pause", a.pauseConnector)
	route(http.MethodPost, "/:bu/:stage/connector/:name/resume", a.resumeConnector)
	route(http.MethodPost, "/:bu/:stage/connector/:name/restart", a.restartConnector)
	route(http.MethodPut, "/:bu/:stage/connector/:name/auto-restart", a.setAutoRestart)
	route(http.MethodGet, "/:bu/:stage/connector/:name/restarts", a.restartHistory)
	route(http.MethodGet, "/:bu/:stage/connector/:name/impact", a.connectorImpact)
	route(http.MethodGet, "/:bu/:stage/alert-rules", a.listAlertRules)
	route(http.MethodPut, "/:bu/:stage/alert-rule/:name", a.putAlertRule)
	route(http.MethodDelete, "/:bu/:stage/alert-rule/:name", a.deleteAlertRule)
	route(http.MethodPost, "/:bu/:stage/alert-rule/:name/silence", a.silenceAlertRule)
	route(http.MethodGet, "/:bu/:stage/alerts", a.listAlerts)
	route(http.MethodGet, "/:bu/:stage/alert-channels", a.listChannels)
	route(http.MethodPost, "/:bu/:stage/alert-channel", a.createChannel)
	route(http.MethodDelete, "/:bu/:stage/alert-channel/:id", a.deleteChannel)

	route(http.MethodGet, "/:bu/:stage/schemas", a.listSchemas)
	route(http.MethodPost, "/:bu/:stage/schema", a.createSchema)
	route(http.MethodPut, "/:bu/:stage/schema/:subject", a.updateSchema)
	route(http.MethodGet, "/:bu/:stage/schema/:subject/versions", a.schemaVersions)
	route(http.MethodGet, "/:bu/:stage/schema/:subject/impact", a.subjectImpact)
	route(http.MethodPost, "/:bu/:stage/schema/:subject/compatibility", a.checkSchema)
	route(http.MethodGet, "/:bu/:stage/schema/:subject/:version", a.getSchema)
	route(http.MethodDelete, "/:bu/:stage/schema/:subject/:version", a.deleteSchema)

	route(http.MethodGet, "/:bu/:stage/service-accounts", a.listAccounts)
	route(http.MethodPost, "/:bu/:stage/service-accounts/bulk", a.bulkCreateAccounts)
	route(http.MethodGet, "/:bu/:stage/service-accounts/bulk/:job", a.bulkJob)
	route(http.MethodPost, "/:bu/:stage/service-account", a.createAccount)
	route(http.MethodGet, "/:bu/:stage/service-account/:id", a.getAccount)
	route(http.MethodPatch, "/:bu/:stage/service-account/:id", a.updateAccount)
	route(http.MethodDelete, "/:bu/:stage/service-account/:id", a.deleteAccount)
	route(http.MethodGet, "/:bu/:stage/service-account/:id/used-by", a.accountUse)
	route(http.MethodGet, "/:bu/:stage/service-account/:id/impact", a.accountImpact)
	route(http.MethodGet, "/:bu/:stage/service-account/:id/api-keys", a.listAPIKeys)
	route(http.MethodPost, "/:bu/:stage/service-account/:id/api-keys", a.createAPIKey)

	route(http.MethodGet, "/:bu/:stage/api-keys", a.listAPIKeys)
	route(http.MethodGet, "/:bu/:stage/api-key/:id", a.getAPIKey)
	route(http.MethodPatch, "/:bu/:stage/api-key/:id", a.updateAPIKey)
	route(http.MethodDelete, "/:bu/:stage/api-key/:id", a.deleteAPIKey)
	route(http.MethodPost, "/:bu/:stage/api-key/:id/rotate", a.rotateAPIKey)

	route(http.MethodGet, "/:bu/:stage/identity-pools", a.listPools)
	route(http.MethodPost, "/:bu/:stage/identity-pools/test-filter", a.testFilter)
	route(http.MethodPost, "/:bu/:stage/identity-pool", a.createPool)
	route(http.MethodGet, "/:bu/:stage/identity-pool/:id", a.getPool)
	route(http.MethodPatch, "/:bu/:stage/identity-pool/:id", a.updatePool)
	route(http.MethodDelete, "/:bu/:stage/identity-pool/:id", a.deletePool)
	route(http.MethodGet, "/:bu/:stage/identity-pool/:id/impact", a.poolImpact)

	route(http.MethodGet, "/:bu/:stage/audit", a.listAudit)
	route(http.MethodGet, "/:bu/:stage/budget", a.unitBudget)

	// Plans (resources as code): the document may be YAML, so these routes read
	// the media type themselves.
	e.Add(http.MethodPost, Base+"/:bu/:stage/plan", a.planDocument, a.scoped("/:bu/:stage/", a.authenticate)...)
	e.Add(http.MethodPost, Base+"/:bu/:stage/apply", a.applyDocument, a.scoped("/:bu/:stage/", a.authenticate)...)
	route(http.MethodPost, "/:bu/:stage/export", a.exportDocument)
	e.Add(http.MethodPost, Base+"/:bu/:stage/change-requests", a.fileRequest, a.scoped("/:bu/:stage/", a.authenticate)...)
	route(http.MethodGet, "/:bu/:stage/change-requests", a.listRequests)
	route(http.MethodGet, "/:bu/:stage/change-request/:id", a.getRequest)
	route(http.MethodPost, "/:bu/:stage/change-request/:id/approve", a.approveRequest)
	route(http.MethodPost, "/:bu/:stage/change-request/:id/reject", a.rejectRequest)
	route(http.MethodPost, "/:bu/:stage/change-request/:id/withdraw", a.withdrawRequest)

	// Access across units: the grantee asks, the owner reviews, either
	// side revokes.
	route(http.MethodGet, "/classifications", a.listClassifications)
	route(http.MethodGet, "/:bu/:stage/catalog", a.listCatalog)
	route(http.MethodGet, "/:bu/:stage/catalog/:name", a.getCatalogEntry)
	route(http.MethodPut, "/:bu/:stage/topic/:name/catalog", a.describeTopic)
	route(http.MethodGet, "/:bu/:stage/grants", a.listGrants)
	route(http.MethodPost, "/:bu/:stage/grants", a.requestGrant)
	route(http.MethodGet, "/:bu/:stage/grant/:id", a.getGrant)
	route(http.MethodPost, "/:bu/:stage/grant/:id/approve", a.grantStep(approveGrant))
	route(http.MethodPost, "/:bu/:stage/grant/:id/reject", a.grantStep(rejectGrant))
	route(http.MethodPost, "/:bu/:stage/grant/:id/withdraw", a.grantStep(withdrawGrant))
	route(http.MethodPost, "/:bu/:stage/grant/:id/revoke", a.grantStep(revokeGrant))

	// The platform admin area: NotFound for everyone who may not use it.
	route(http.MethodGet, "/admin", a.adminArea)
	route(http.MethodGet, "/admin/business-units", a.listAdminUnits)
	route(http.MethodPost, "/admin/business-units", a.onboardUnit)
	route(http.MethodGet, "/admin/business-unit/:id", a.getAdminUnit)
	route(http.MethodPut, "/admin/business-unit/:id", a.updateAdminUnit)
	route(http.MethodDelete, "/admin/business-unit/:id", a.offboardUnit)
	route(http.MethodGet, "/admin/read-only", a.listReadOnly)
	route(http.MethodPut, "/admin/read-only/:landing_zone/:stage", a.setReadOnly)
	route(http.MethodGet, "/admin/audit", a.adminAudit)
	route(http.MethodGet, "/admin/audit/export", a.exportAudit)
	route(http.MethodGet, "/admin/upstreams", a.adminUpstreams)
	route(http.MethodGet, "/admin/costs/:landing_zone", a.zoneCosts)
	route(http.MethodGet, "/admin/config", a.adminConfig)
	route(http.MethodGet, "/admin/sessions", a.adminSessions)
	route(http.MethodDelete, "/admin/session/:id", a.endSession)
	route(http.MethodPost, "/admin/access-preview", a.previewAccess)
	route(http.MethodGet, "/admin/policies", a.listPolicies)
	route(http.MethodPost, "/admin/policies", a.createPolicy)
	route(http.MethodPost, "/admin/policies/test", a.testPolicy)
	route(http.MethodGet, "/admin/policy/:id", a.getPolicy)
	route(http.MethodPut, "/admin/policy/:id", a.putPolicy)
	route(http.MethodDelete, "/admin/policy/:id", a.deletePolicy)
	route(http.MethodGet, "/admin/policy/:id/report", a.policyReport)
	route(http.MethodGet, "/admin/budgets", a.listBudgets)
	route(http.MethodPut, "/admin/budget/:bu/:stage", a.setBudget)
	route(http.MethodGet, "/admin/webhooks", a.listWebhooks)
	route(http.MethodPost, "/admin/webhooks", a.createWebhook)
	route(http.MethodDelete, "/admin/webhook/:id", a.deleteWebhook)
	route(http.MethodGet, "/admin/webhook/:id/deliveries", a.webhookDeliveries)

	if a.docs != nil {
		a.docs.Register(e)
	}
}

// scoped adds, to the routes of a scope, the parsing of the scope after
// the caller is known (an unauthenticated caller learns nothing of which
// scopes are well-formed), then the lane of large bodies.
func (a *API) scoped(path string, mw ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
	if strings.HasPrefix(path, "/:bu/:stage/") {
		after := []echo.MiddlewareFunc{httpserver.ParseScope}
		if a.lane != nil {
			after = append(after, a.lane.Middleware)
		}
		return append(mw[:1:1], append(after, mw[1:]...)...)
	}
	return mw
}
