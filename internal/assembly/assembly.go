// Package assembly builds the portal's services from their dependencies,
// in one place, for cmd/portal and for the tests of the services and of
// both front doors: the same wiring everywhere.
package assembly

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/admin"
	"github.com/edh-platform/rms-portal/internal/alerts"
	"github.com/edh-platform/rms-portal/internal/apikeys"
	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/changerequests"
	"github.com/edh-platform/rms-portal/internal/connectors"
	"github.com/edh-platform/rms-portal/internal/contract"
	"github.com/edh-platform/rms-portal/internal/costs"
	"github.com/edh-platform/rms-portal/internal/events"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/grants"
	"github.com/edh-platform/rms-portal/internal/groups"
	"github.com/edh-platform/rms-portal/internal/guardrails"
	"github.com/edh-platform/rms-portal/internal/identity"
	"github.com/edh-platform/rms-portal/internal/jobs"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
	"github.com/edh-platform/rms-portal/internal/records"
	"github.com/edh-platform/rms-portal/internal/schemas"
	"github.com/edh-platform/rms-portal/internal/service"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/topics"
)

// Deps are what the services are built from.
type Deps struct {
	Guard *gate.Guard
	Store store.Store
	// Sampler keeps growth samples of viewed topics (worker.Sampler).
	Sampler topics.Sampler
	// Charts answers the Metrics API's charts, cached in the store.
	Charts *topics.MetricCache
	// Jobs runs background jobs (bulk creates) journalled in Store.
	Jobs *jobs.Runner
	// Admin configures the admin area (its store is Store).
	Admin admin.Options
	// ClusterLimit gives the clusters' partition limits for the budget
	// overview (nil: none known).
	ClusterLimit guardrails.ClusterLimit
	// Webhooks configure the webhooks' admin (receivers, sealing).
	Webhooks events.ServiceOptions
	// RequestMaxAge is how long a change request stays open (7 days when
	// 0).
	RequestMaxAge time.Duration
	// Costly bounds the work that costs the replica's processors
	// (filtered record reads); nil for the defaults.
	Costly *ratelimit.Concurrency
	// KeySecrets seals new API keys' secrets until a check with them
	// succeeds; nil: new keys are recorded unverified.
	KeySecrets apikeys.KeySecrets
	// Backoff paces the restarts of connectors whose auto-restart is on.
	Backoff connectors.Backoff
	// AlertDefaults are every unit's alert rules until it saves its own.
	AlertDefaults []store.AlertRuleRecord
	// Classes are the data classifications of the catalog (the defaults
	// when zero); GrantWarnBefore is how long before its expiry a grant is
	// announced.
	Classes         catalog.Classes
	GrantWarnBefore time.Duration
	// BindingDelay is how long the platform takes to enforce a removed
	// role binding: a delete that ended grants waits it out.
	BindingDelay time.Duration
	// CostBaseRule splits shared clusters' base capacity across their
	// units (costs.BaseEqual when "").
	CostBaseRule string
	// Masking is which schema tags mask a field in the stages that mask,
	// and the lowest role that reads such fields whole.
	Masking records.Masking
}

// Built holds every service, by its own type.
type Built struct {
	Topics     *topics.Service
	Connectors *connectors.Service
	Schemas    *schemas.Service
	Accounts   *identity.Accounts
	APIKeys    *apikeys.Service
	Pools      *identity.Pools
	Groups     *groups.Service
	Messages   *records.Service
	Me         *service.Me
	Trail      *service.AuditTrail
	Admin      *admin.Admin
	Plans      *plans.Service
	Rules      *guardrails.Service
	Webhooks   *events.Service
	Requests   *changerequests.Service
	Grants     *grants.Service
	Find       *service.Finder
	Alerts     *alerts.Service
	Catalog    *catalog.Service
	Costs      *costs.Service
}

// New builds the services.
func New(d Deps) (*Built, error) {
	g := d.Guard
	filters, err := identity.NewFilters()
	if err != nil {
		return nil, err
	}
	b := &Built{
		Topics:     topics.New(g, d.Sampler, d.Charts).WithImpact(d.Store),
		Connectors: connectors.New(g).WithAutoRestart(d.Store, d.Backoff).WithSecretDigests(d.Store),
		Schemas:    schemas.New(g),
		Accounts:   identity.NewAccounts(g, d.Jobs, d.Store),
		APIKeys:    apikeys.New(g, d.Store),
		Pools:      identity.NewPools(g, filters),
		Groups:     groups.New(g),
		Messages:   records.New(g, d.Costly).MaskWith(d.Masking),
		Me:         service.NewMe(g, d.Store),
		Trail:      service.NewAuditTrail(g, d.Store),
	}
	if d.KeySecrets != nil {
		b.APIKeys.CheckKeysWith(d.KeySecrets)
	}
	d.Admin.Store = d.Store
	b.Admin = admin.New(g, d.Admin)
	// Every write is judged by the guardrails in force, whichever door or
	// job makes it.
	b.Rules, err = guardrails.New(g, guardrails.Options{Store: d.Store, ClusterLimit: d.ClusterLimit, Holders: []gate.Holder{
		b.Topics.Holder(), b.Schemas.Holder(), b.Connectors.Holder(), b.Accounts.Holder(), b.Pools.Holder(), b.APIKeys.Holder()}})
	if err != nil {
		return nil, err
	}
	g.UseRules(b.Rules)
	b.Alerts = alerts.New(g, d.Store, d.AlertDefaults, b.Groups, b.Rules)
	b.Webhooks = events.NewService(g, d.Store, d.Webhooks)
	// Creates and updates are applied in this order (what others need
	// first), deletes the other way round. Policies come last: a plan is
	// judged by the policies in force, and so are its changes.
	classes := d.Classes
	if len(classes.Names()) == 0 {
		if classes, err = catalog.NewClasses(nil, ""); err != nil {
			return nil, err
		}
	}
	b.Catalog = catalog.New(g, d.Store, classes)
	b.Topics.WithCatalog(b.Catalog)
	b.Grants = grants.New(g, d.Store).ClassifyWith(b.Catalog, d.GrantWarnBefore).WaitForBindings(d.BindingDelay)
	b.Me.ExplainGrantsWith(b.Grants.Explain)
	// A delete ends the grants that name what it deletes, first.
	endPrincipal := func(ctx context.Context, call *gate.Call, principal, cause string) ([]trail.Change, error) {
		return b.Grants.End(ctx, call, grants.Ends{Principal: principal}, cause)
	}
	b.Accounts.WithImpact(d.Store, endPrincipal)
	b.Pools.WithImpact(d.Store, endPrincipal)
	b.Topics.EndGrantsWith(func(ctx context.Context, call *gate.Call, topic, cause string) ([]trail.Change, error) {
		return b.Grants.End(ctx, call, grants.Ends{Topic: topic}, cause)
	})
	b.Admin.ExplainGrantsWith(b.Grants.Explain)
	b.Plans = plans.New(g, b.Topics.AsCode(), b.Schemas.AsCode(), b.Connectors.AsCode(), b.Accounts.AsCode(b.APIKeys), b.Pools.AsCode(),
		b.Grants.AsCode(), b.Alerts.AsCode(), b.Rules.AsCode())
	b.Plans.Journal(d.Store)
	b.Requests = changerequests.New(g, b.Plans, d.Store, d.RequestMaxAge)
	b.Costs = costs.NewService(g, d.Store, d.CostBaseRule, nil)
	b.Alerts.WithForecasts(b.Costs)
	b.Find = service.NewFinder(g, b.Services())
	return b, nil
}

// Services are the services as the front doors take them.
func (b *Built) Services() contract.Services {
	return contract.Services{Topics: b.Topics, Metrics: b.Topics, Connectors: b.Connectors, Schemas: b.Schemas, Accounts: b.Accounts, APIKeys: b.APIKeys,
		Pools: b.Pools, Groups: b.Groups, Messages: b.Messages, Me: b.Me, Audit: b.Trail, Admin: b.Admin, Plans: b.Plans, Guardrails: b.Rules, Webhooks: b.Webhooks, Requests: b.Requests,
		Grants: b.Grants, Find: b.Find, Alerts: b.Alerts, Channels: b.Webhooks, Catalog: b.Catalog, Costs: b.Costs}
}
