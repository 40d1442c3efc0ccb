// Package admin is the portal's admin area in the HTML front door:
// business units, read-only stages, the audit trail, upstream health,
// configuration, sessions, the access preview, policies, budgets,
// webhooks and costs by unit. The service answers NotFound to everyone
// who may not use a page.
package admin

import (
	"net/http"

	"github.com/edh-platform/rms-portal/handlers/page"
)

// Pages serve the area's pages.
type Pages struct{ *page.Kit }

// New returns the area's pages on the front door's kit.
func New(k *page.Kit) *Pages { return &Pages{Kit: k} }

// Register mounts every page of the area through route.
func (h *Pages) Register(route page.Route) {
	route(http.MethodGet, "/admin", h.adminHome)
	route(http.MethodGet, "/admin/business-units", h.listAdminUnits)
	route(http.MethodPost, "/admin/business-units", h.onboardUnit)
	route(http.MethodGet, "/admin/business-unit/:id", h.showAdminUnit)
	route(http.MethodPost, "/admin/business-unit/:id", h.updateAdminUnit)
	route(http.MethodGet, "/admin/business-unit/:id/offboard", h.confirmOffboard)
	route(http.MethodPost, "/admin/business-unit/:id/offboard", h.offboardUnit)
	route(http.MethodGet, "/admin/read-only", h.listReadOnly)
	route(http.MethodPost, "/admin/read-only/:landing_zone/:stage", h.setReadOnly)
	route(http.MethodGet, "/admin/audit", h.adminAudit)
	route(http.MethodGet, "/admin/audit/export", h.exportAudit)
	route(http.MethodGet, "/admin/upstreams", h.adminUpstreams)
	route(http.MethodGet, "/admin/costs", h.zoneCosts)
	route(http.MethodGet, "/admin/config", h.adminConfig)
	route(http.MethodGet, "/admin/sessions", h.adminSessions)
	route(http.MethodPost, "/admin/session/:id/end", h.endSession)
	route(http.MethodGet, "/admin/access", h.accessPreview)
	route(http.MethodPost, "/admin/access", h.accessPreview)
	route(http.MethodGet, "/admin/policies", h.listPolicies)
	route(http.MethodPost, "/admin/policies", h.savePolicy)
	route(http.MethodGet, "/admin/policies/new", h.newPolicy)
	route(http.MethodPost, "/admin/policies/test", h.testPolicy)
	route(http.MethodGet, "/admin/policy/:id", h.showPolicy)
	route(http.MethodPost, "/admin/policy/:id", h.savePolicy)
	route(http.MethodGet, "/admin/policy/:id/report", h.policyReport)
	route(http.MethodPost, "/admin/policy/:id/delete", h.deletePolicy)
	route(http.MethodGet, "/admin/budgets", h.listBudgets)
	route(http.MethodPost, "/admin/budgets/:bu/:stage", h.setBudget)
	route(http.MethodGet, "/admin/webhooks", h.listWebhooks)
	route(http.MethodPost, "/admin/webhooks", h.createWebhook)
	route(http.MethodGet, "/admin/webhooks/:id", h.webhookDeliveries)
	route(http.MethodPost, "/admin/webhooks/:id/delete", h.deleteWebhook)
}
