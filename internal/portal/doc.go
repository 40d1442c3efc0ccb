// Package portal is the common part of the contract below both front doors
// (the HTML pages in handlers/ and the JSON API in api/) and the views:
// the scope, the principal and its roles, the caller, the typed error
// every operation returns, lists and pages, the kind table with each
// kind's actions (declared once, with their past tenses; only this package
// makes an Action), and the resources that documents declare. Each kind's
// or concept's contract (its types and service interface) is a package of
// its own below this one: topic, schema, connect, iam (service accounts,
// API keys, identity pools), group, record, grant, alert, policy, cost,
// metric, ascode (documents and plans), changerequest, trail (the audit
// trail), adminarea, topiccatalog, topicconfig, webhook and search. They
// import only this package and each other; internal/contract gathers every
// service for the doors. The kinds' packages (internal/topics,
// internal/connectors, internal/schemas, internal/identity,
// internal/apikeys, internal/grants, internal/alerts, internal/costs, ...)
// and internal/service, internal/plans and internal/admin implement the
// interfaces, assembled in internal/assembly; the doors import the
// contracts (and internal/auth) and nothing below them, which
// TestImportRules in this package enforces.
//
// Every service method takes the caller from its context
// (WithPrincipal) and checks access before anything else, failing closed
// with Unauthenticated when no principal is present. Besides the kinds
// named on each method, any method may return Unauthenticated, NotFound
// (the business unit or stage does not exist or the caller has no role
// there), RateLimited, UpstreamUnavailable, UpstreamTimeout and Internal.
package portal
