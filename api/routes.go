package api

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/operations"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// Register mounts every operation of the API (api/operations) and its
// documentation on e. Each operation leads to one handler, and each
// handler to one service method.
func (a *API) Register(e *echo.Echo) {
	handlers := a.handlers()
	for _, op := range operations.All() {
		h, ok := handlers[op.ID]
		if !ok {
			// A programming error that any test of the API finds.
			panic("api: no handler for the operation " + op.ID)
		}
		delete(handlers, op.ID)
		path := Base + op.RouterPath()
		switch {
		case op.Public:
			// The version needs no token: operators and probes ask for it.
			e.Add(op.Method, path, h)
		case op.Body != nil && op.Body.Document:
			// Resources as code: the document may be YAML, so these
			// handlers read the media type themselves.
			e.Add(op.Method, path, h, a.scoped(op.Path, a.authenticate)...)
		default:
			// Middleware is attached per route rather than to a group:
			// group middleware makes echo route every unknown method to a
			// catch-all 404, which would hide 405 Method Not Allowed.
			e.Add(op.Method, path, h, a.scoped(op.Path, a.authenticate, requireJSON)...)
		}
	}
	for id := range handlers {
		panic("api: a handler for no operation: " + id)
	}
	if a.docs != nil {
		a.docs.Register(e)
	}
}

// handlers are the API's handlers by operation id.
func (a *API) handlers() map[string]echo.HandlerFunc {
	return map[string]echo.HandlerFunc{
		"getMe":                     a.getMe,
		"search":                    a.search,
		"listTopics":                a.listTopics,
		"createTopic":               a.createTopic,
		"getTopic":                  a.getTopic,
		"replaceTopic":              a.replaceTopic,
		"patchTopic":                a.patchTopic,
		"deleteTopic":               a.deleteTopic,
		"topicImpact":               a.topicImpact,
		"readMessages":              a.readMessages,
		"produceRecords":            a.produce,
		"listGroups":                a.listGroups,
		"getGroup":                  a.getGroup,
		"deleteGroup":               a.deleteGroup,
		"resetOffsets":              a.resetOffsets,
		"getClusterMetrics":         a.clusterMetrics,
		"getTopicMetrics":           a.topicMetrics,
		"getUsage":                  a.getUsage,
		"getCosts":                  a.getCosts,
		"listConnectors":            a.listConnectors,
		"listConnectorPlugins":      a.listConnectorPlugins,
		"createConnector":           a.createConnector,
		"getConnector":              a.getConnector,
		"updateConnector":           a.updateConnector,
		"deleteConnector":           a.deleteConnector,
		"pauseConnector":            a.pauseConnector,
		"resumeConnector":           a.resumeConnector,
		"restartConnector":          a.restartConnector,
		"setConnectorAutoRestart":   a.setAutoRestart,
		"listConnectorRestarts":     a.restartHistory,
		"connectorImpact":           a.connectorImpact,
		"listAlertRules":            a.listAlertRules,
		"putAlertRule":              a.putAlertRule,
		"deleteAlertRule":           a.deleteAlertRule,
		"silenceAlertRule":          a.silenceAlertRule,
		"listAlerts":                a.listAlerts,
		"listAlertChannels":         a.listChannels,
		"createAlertChannel":        a.createChannel,
		"deleteAlertChannel":        a.deleteChannel,
		"listSchemas":               a.listSchemas,
		"createSchema":              a.createSchema,
		"updateSchema":              a.updateSchema,
		"listSchemaVersions":        a.schemaVersions,
		"subjectImpact":             a.subjectImpact,
		"checkSchemaCompatibility":  a.checkSchema,
		"getSchema":                 a.getSchema,
		"deleteSchema":              a.deleteSchema,
		"listServiceAccounts":       a.listAccounts,
		"bulkCreateServiceAccounts": a.bulkCreateAccounts,
		"getBulkServiceAccountJob":  a.bulkJob,
		"createServiceAccount":      a.createAccount,
		"getServiceAccount":         a.getAccount,
		"updateServiceAccount":      a.updateAccount,
		"deleteServiceAccount":      a.deleteAccount,
		"serviceAccountUsedBy":      a.accountUse,
		"serviceAccountImpact":      a.accountImpact,
		"listServiceAccountAPIKeys": a.listAPIKeys,
		"createAPIKey":              a.createAPIKey,
		"listAPIKeys":               a.listAPIKeys,
		"getAPIKey":                 a.getAPIKey,
		"updateAPIKey":              a.updateAPIKey,
		"deleteAPIKey":              a.deleteAPIKey,
		"rotateAPIKey":              a.rotateAPIKey,
		"listIdentityPools":         a.listPools,
		"testIdentityPoolFilter":    a.testFilter,
		"createIdentityPool":        a.createPool,
		"getIdentityPool":           a.getPool,
		"updateIdentityPoolFilter":  a.updatePool,
		"deleteIdentityPool":        a.deletePool,
		"identityPoolImpact":        a.poolImpact,
		"listAudit":                 a.listAudit,
		"unitBudget":                a.unitBudget,
		"exportResources":           a.exportDocument,
		"listChangeRequests":        a.listRequests,
		"getChangeRequest":          a.getRequest,
		"approveChangeRequest":      a.approveRequest,
		"rejectChangeRequest":       a.rejectRequest,
		"withdrawChangeRequest":     a.withdrawRequest,
		"listClassifications":       a.listClassifications,
		"listCatalog":               a.listCatalog,
		"getCatalogEntry":           a.getCatalogEntry,
		"describeTopic":             a.describeTopic,
		"listGrants":                a.listGrants,
		"requestGrant":              a.requestGrant,
		"getGrant":                  a.getGrant,
		"approveGrant":              a.grantStep(approveGrant),
		"rejectGrant":               a.grantStep(rejectGrant),
		"withdrawGrant":             a.grantStep(withdrawGrant),
		"revokeGrant":               a.grantStep(revokeGrant),
		"adminArea":                 a.adminArea,
		"listAdminUnits":            a.listAdminUnits,
		"onboardUnit":               a.onboardUnit,
		"getAdminUnit":              a.getAdminUnit,
		"updateAdminUnit":           a.updateAdminUnit,
		"offboardUnit":              a.offboardUnit,
		"listReadOnly":              a.listReadOnly,
		"setReadOnly":               a.setReadOnly,
		"adminAudit":                a.adminAudit,
		"exportAudit":               a.exportAudit,
		"adminUpstreams":            a.adminUpstreams,
		"adminZoneCosts":            a.zoneCosts,
		"adminConfig":               a.adminConfig,
		"adminSessions":             a.adminSessions,
		"endSession":                a.endSession,
		"previewAccess":             a.previewAccess,
		"listPolicies":              a.listPolicies,
		"createPolicy":              a.createPolicy,
		"testPolicy":                a.testPolicy,
		"getPolicy":                 a.getPolicy,
		"putPolicy":                 a.putPolicy,
		"deletePolicy":              a.deletePolicy,
		"policyReport":              a.policyReport,
		"listBudgets":               a.listBudgets,
		"setBudget":                 a.setBudget,
		"listWebhooks":              a.listWebhooks,
		"createWebhook":             a.createWebhook,
		"deleteWebhook":             a.deleteWebhook,
		"webhookDeliveries":         a.webhookDeliveries,
		"planResources":             a.planDocument,
		"applyResources":            a.applyDocument,
		"fileChangeRequest":         a.fileRequest,
		"getVersion":                a.getVersion,
	}
}

// scoped adds, to the routes of a scope, the parsing of the scope after
// the caller is known (an unauthenticated caller learns nothing of which
// scopes are well-formed), then the lane of large bodies.
func (a *API) scoped(path string, mw ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
	if strings.HasPrefix(path, "/{bu}/{stage}/") {
		after := []echo.MiddlewareFunc{httpserver.ParseScope}
		if a.lane != nil {
			after = append(after, a.lane.Middleware)
		}
		return append(mw[:1:1], append(after, mw[1:]...)...)
	}
	return mw
}
