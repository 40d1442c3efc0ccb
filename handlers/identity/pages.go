// Package identity is the HTML front door's pages of a unit's identities:
// service accounts (one by one and in bulk), their API keys (a secret shown
// once, on a page never cached) and identity pools with their filters.
package identity

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
	route(http.MethodGet, "/:bu/:stage/service-accounts", h.listAccounts)
	route(http.MethodGet, "/:bu/:stage/service-accounts/new", h.newAccount)
	route(http.MethodPost, "/:bu/:stage/service-accounts", h.createAccount)
	route(http.MethodGet, "/:bu/:stage/service-accounts/bulk", h.bulkForm)
	route(http.MethodPost, "/:bu/:stage/service-accounts/bulk", h.bulkCreate)
	route(http.MethodGet, "/:bu/:stage/service-accounts/bulk/:job", h.bulkProgress)
	route(http.MethodGet, "/:bu/:stage/service-account/:id", h.showAccount)
	route(http.MethodPost, "/:bu/:stage/service-account/:id/edit", h.updateAccount)
	route(http.MethodGet, "/:bu/:stage/service-account/:id/delete", h.confirmAccountDelete)
	route(http.MethodPost, "/:bu/:stage/service-account/:id/delete", h.deleteAccount)
	route(http.MethodPost, "/:bu/:stage/service-account/:id/api-keys", h.createKey)
	route(http.MethodGet, "/:bu/:stage/api-keys", h.listKeys)
	route(http.MethodPost, "/:bu/:stage/api-key/:id/rotate", h.rotateKey)
	route(http.MethodGet, "/:bu/:stage/api-key/:id/secret", h.keySecret)
	route(http.MethodGet, "/:bu/:stage/api-key/:id/delete", h.confirmKeyDelete)
	route(http.MethodPost, "/:bu/:stage/api-key/:id/delete", h.deleteKey)
	route(http.MethodGet, "/:bu/:stage/identity-pools", h.listPools)
	route(http.MethodGet, "/:bu/:stage/identity-pools/new", h.newPool)
	route(http.MethodPost, "/:bu/:stage/identity-pools", h.createPool)
	route(http.MethodGet, "/:bu/:stage/identity-pool/:id", h.showPool)
	route(http.MethodPost, "/:bu/:stage/identity-pool/:id/filter", h.poolFilter)
	route(http.MethodGet, "/:bu/:stage/identity-pool/:id/delete", h.confirmDeletePool)
	route(http.MethodPost, "/:bu/:stage/identity-pool/:id/delete", h.deletePool)
}
