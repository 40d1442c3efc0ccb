// Package portal is the contract below both front doors (the HTML pages in
// handlers/ and the JSON API in api/) and the views: the domain types they
// show, the typed error every operation returns, and one interface per
// service, with each kind's actions (declared once, with their past
// tenses; only this package makes an Action). The kinds' packages
// (internal/topics, internal/connectors, internal/schemas,
// internal/identity, internal/apikeys, internal/grants, internal/alerts,
// internal/costs, ...) and internal/service, internal/plans and
// internal/admin implement the interfaces, assembled in
// internal/assembly; the doors import this package (and internal/auth)
// and nothing below it, which TestImportRules in this package enforces.
//
// Every service method takes the caller from its context
// (WithPrincipal) and checks access before anything else, failing closed
// with Unauthenticated when no principal is present. Besides the kinds
// named on each method, any method may return Unauthenticated, NotFound
// (the business unit or stage does not exist or the caller has no role
// there), RateLimited, UpstreamUnavailable, UpstreamTimeout and Internal.
package portal

// Services are the services both front doors call, one per resource type
// and the caller's, the audit trail's, the admin area's and resources as
// code: listed once here, built once (internal/assembly) and handed to
// each door whole.
type Services struct {
	Topics     TopicService
	Metrics    MetricsService
	Connectors ConnectorService
	Schemas    SchemaService
	Accounts   AccountService
	APIKeys    APIKeyService
	Pools      PoolService
	Groups     GroupService
	Messages   MessageService
	Me         CallerService
	Audit      AuditService
	Admin      AdminService
	Plans      PlanService
	Guardrails GuardrailService
	Webhooks   WebhookService
	Requests   RequestService
	Grants     GrantService
	Find       FindService
	Alerts     AlertService
	Channels   AlertChannelService
	Catalog    CatalogService
	Costs      CostService
}
