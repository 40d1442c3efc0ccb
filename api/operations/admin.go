package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// admin are the operations of the admin tag.
func admin() []Operation {
	return []Operation{
		{
			ID: "adminArea", Method: http.MethodGet, Path: "/admin",
			Need:    NeedZoneAdmin,
			Tags:    []string{"admin"},
			Summary: "What of the admin area you may use.",
			Doc: "Platform admins use all of it; a landing zone's Super Admins read\n" +
				"the audit trail and upstream health of their zones. Everyone else\n" +
				"gets 404 on every admin route: the area does not reveal itself.\n",
			Answers: []Answer{{Status: 200, Doc: "Your share of the area.", Of: wire.AdminArea{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "listAdminUnits", Method: http.MethodGet, Path: "/admin/business-units",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Every landing zone's business units with groups, clusters and resource counts.",
			Answers: []Answer{{Status: 200, Doc: "The units.", Of: wire.AdminUnitList{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "onboardUnit", Method: http.MethodPost, Path: "/admin/business-units",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Onboard a business unit into a shared landing zone.",
			Doc: "The unit is kept in the database and is in force at once on every\n" +
				"replica (within a second), for new requests: roles are resolved per\n" +
				"request from the token's groups, so the people in its groups need\n" +
				"no new sign-in. The id follows the naming rules, must be unique\n" +
				"across the deployment and must not overlap another unit's prefix.\n" +
				"Audited with the groups given.\n",
			Body:    &Body{Of: wire.UnitOnboard{}, Required: true},
			Answers: []Answer{{Status: 201, Doc: "Onboarded; Location names the unit.", Of: wire.AdminUnit{}, Headers: []Header{{Name: "Location", Schema: "{type: string, example: /api/v1/admin/business-unit/billing}"}}}},
			Fails:   []Failure{BadRequest, NotFound, Conflict},
		},
		{
			ID: "getAdminUnit", Method: http.MethodGet, Path: "/admin/business-unit/{id}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "One business unit.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string, example: billing}"}},
			Answers: []Answer{{Status: 200, Doc: "The unit.", Of: wire.AdminUnit{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "updateAdminUnit", Method: http.MethodPut, Path: "/admin/business-unit/{id}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Replace an onboarded unit's groups.",
			Doc:     "Units of the configuration file are changed there (409). Audited before and after.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string, example: billing}"}},
			Body:    &Body{Of: wire.UnitGroupsUpdate{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The unit.", Of: wire.AdminUnit{}}},
			Fails:   []Failure{BadRequest, NotFound, Conflict},
		},
		{
			ID: "offboardUnit", Method: http.MethodDelete, Path: "/admin/business-unit/{id}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Offboard an onboarded unit.",
			Doc: "The unit disappears from every selector and role at once. Nothing\n" +
				"upstream is deleted: what still carries its names is listed for the\n" +
				"platform team to clean up.\n",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string, example: billing}"}},
			Answers: []Answer{{Status: 200, Doc: "Offboarded.", Of: wire.UnitOffboard{}}},
			Fails:   []Failure{NotFound, Conflict},
		},
		{
			ID: "listReadOnly", Method: http.MethodGet, Path: "/admin/read-only",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Every landing zone's stages, read-only or writable, and why.",
			Answers: []Answer{{Status: 200, Doc: "The states.", Of: wire.ReadOnlyStateList{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "setReadOnly", Method: http.MethodPut, Path: "/admin/read-only/{landing_zone}/{stage}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Switch one landing zone's stage read-only or writable.",
			Doc: "Overrides the stage's configured default for that landing zone, with\n" +
				"a reason (shown in the banner and in every refusal) and an optional\n" +
				"end, after which the default applies again. In force on every\n" +
				"replica within a second; audited before and after.\n",
			Params:  []Param{{Name: "landing_zone", In: "path", Required: true, Schema: "{type: string, example: edh-shared}"}},
			Body:    &Body{Of: wire.ReadOnlySet{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The new state.", Of: wire.ReadOnlyState{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "adminAudit", Method: http.MethodGet, Path: "/admin/audit",
			Need:    NeedZoneAdmin,
			Tags:    []string{"admin"},
			Summary: "The audit trail across units, newest first, paged by key.",
			Doc:     "Platform admins read everything; a landing zone's Super Admins their zones only.",
			Params:  []Param{{Name: "landing_zone", In: "query", Schema: "{type: string}"}, {Name: "business_unit", In: "query", Schema: "{type: string}"}, {Name: "stage", In: "query", Schema: "{type: string}"}, {Name: "actor", In: "query", Schema: "{type: string}"}, {Name: "action", In: "query", Schema: "{type: string, example: business_unit.onboard}"}, {Name: "resource", In: "query", Schema: "{type: string}"}, {Name: "outcome", In: "query", Schema: "{type: string}"}, {Name: "since", In: "query", Schema: "{type: string, format: date-time}"}, {Name: "until", In: "query", Schema: "{type: string, format: date-time}"}, Ref("page_size"), Ref("page_token")},
			Answers: []Answer{{Status: 200, Doc: "One page of events.", Of: wire.AuditPage{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "exportAudit", Method: http.MethodGet, Path: "/admin/audit/export",
			Need:    NeedZoneAdmin,
			Tags:    []string{"admin"},
			Summary: "Download the filtered trail as CSV or JSON (at most 100,000 events).",
			Params:  []Param{{Name: "format", In: "query", Required: true, Schema: "{type: string, enum: [csv, json]}"}, {Name: "landing_zone", In: "query", Schema: "{type: string}"}, {Name: "business_unit", In: "query", Schema: "{type: string}"}, {Name: "stage", In: "query", Schema: "{type: string}"}, {Name: "actor", In: "query", Schema: "{type: string}"}, {Name: "action", In: "query", Schema: "{type: string}"}, {Name: "resource", In: "query", Schema: "{type: string}"}, {Name: "outcome", In: "query", Schema: "{type: string}"}, {Name: "since", In: "query", Schema: "{type: string, format: date-time}"}, {Name: "until", In: "query", Schema: "{type: string, format: date-time}"}},
			Answers: []Answer{{Status: 200, Doc: "The events, newest first.", Text: "text/csv", Of: *new(wire.AuditExport)}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "adminUpstreams", Method: http.MethodGet, Path: "/admin/upstreams",
			Need:    NeedZoneAdmin,
			Tags:    []string{"admin"},
			Summary: "Each upstream's state, latency, last error and since when.",
			Doc:     "A landing zone's Super Admins see their zones' clusters and registries.",
			Answers: []Answer{{Status: 200, Doc: "The upstreams.", Of: wire.UpstreamList{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "adminZoneCosts", Method: http.MethodGet, Path: "/admin/costs/{landing_zone}",
			Need:    NeedZoneAdmin,
			Tags:    []string{"admin", "costs"},
			Summary: "Every business unit of a landing zone side by side for a month.",
			Doc: "The units' costs, what no unit used, the organisation's own lines\n" +
				"and the other zones' add up to `total`, the organisation's costs of\n" +
				"the month. A landing zone's Super Admins and platform admins.\n",
			Params:  []Param{{Name: "landing_zone", In: "path", Required: true, Schema: "{type: string}"}, {Name: "month", In: "query", Doc: "The month, yyyy-mm; this month when left out.", Schema: "{type: string, example: 2026-11}"}, Ref("costFormat")},
			Answers: []Answer{{Status: 200, Doc: "The zone's month.", Of: wire.ZoneCostReport{}, Text: "text/csv"}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "adminConfig", Method: http.MethodGet, Path: "/admin/config",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "The configuration in force, with every secret redacted.",
			Doc: "The file after environment overrides and defaults, with the business\n" +
				"units onboarded here (`source: portal`) and the read-only switches.\n" +
				"Secrets show as `[redacted]`; API keys keep their first four\n" +
				"characters; a database URL's password is masked. `ignored_keys`\n" +
				"(not a configuration key) lists the keys of the file this release\n" +
				"does not know and ignores, as `path (line N)`.\n",
			Answers: []Answer{{Status: 200, Doc: "The configuration, as a JSON object.", Of: *new(wire.AdminConfig)}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "adminSessions", Method: http.MethodGet, Path: "/admin/sessions",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Live browser sessions of a user (by username or subject), or everyone's.",
			Params:  []Param{{Name: "user", In: "query", Schema: "{type: string, example: carol}"}},
			Answers: []Answer{{Status: 200, Doc: "The sessions, newest first; no secret is included.", Of: wire.SessionList{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "endSession", Method: http.MethodDelete, Path: "/admin/session/{id}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "End a browser session, on every replica at once (audited).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Answers: []Answer{{Status: 204, Doc: "Ended."}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "previewAccess", Method: http.MethodPost, Path: "/admin/access-preview",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "The access a list of groups, or a token's claims, would give.",
			Body:    &Body{Of: wire.AccessPreview{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "Roles per unit and why.", Of: wire.AccessReport{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "listPolicies", Method: http.MethodGet, Path: "/admin/policies",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "The guardrail policies of every landing zone you may read.",
			Doc:     "Platform admins see every zone's; a landing zone's Super Admins read their zone's.",
			Params:  []Param{{Name: "landing_zone", In: "query", Doc: "Only this zone's policies.", Schema: "{type: string, example: edh-shared}"}},
			Answers: []Answer{{Status: 200, Doc: "The policies.", Of: wire.PolicyList{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "createPolicy", Method: http.MethodPost, Path: "/admin/policies",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Create a policy (platform admins).",
			Doc: "The expression is type-checked against the kind's declared fields\n" +
				"(errors name the position). Save it as `report` first: its report\n" +
				"lists the existing resources that break it. Audited with its fields.\n",
			Body:    &Body{Of: wire.Policy{}, Required: true},
			Answers: []Answer{{Status: 201, Doc: "Created.", Of: wire.Policy{}}},
			Fails:   []Failure{BadRequest, NotFound, Conflict},
		},
		{
			ID: "testPolicy", Method: http.MethodPost, Path: "/admin/policies/test",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Judge a sample change with a policy as written (saved or not).",
			Body:    &Body{Of: wire.PolicyTest{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The verdict.", Of: wire.PolicyTestResult{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "getPolicy", Method: http.MethodGet, Path: "/admin/policy/{id}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "One policy.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string, example: dev-partitions}"}},
			Answers: []Answer{{Status: 200, Doc: "The policy.", Of: wire.Policy{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "putPolicy", Method: http.MethodPut, Path: "/admin/policy/{id}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Create or replace a policy (platform admins); 201 when created.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string, example: dev-partitions}"}},
			Body:    &Body{Of: wire.Policy{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "Replaced.", Of: wire.Policy{}}, {Status: 201, Doc: "Created.", Of: wire.Policy{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "deletePolicy", Method: http.MethodDelete, Path: "/admin/policy/{id}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Delete a policy (platform admins); audited with what it was.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string, example: dev-partitions}"}},
			Answers: []Answer{{Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "policyReport", Method: http.MethodGet, Path: "/admin/policy/{id}/report",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "The existing resources in the policy's scope that break it.",
			Doc: "Each existing resource of the policy's kind in its units and stages\n" +
				"is judged as if it were created now. The portal changes none of\n" +
				"them. `unread` names the units and stages whose resources could not\n" +
				"be read.\n",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string, example: dev-partitions}"}, {Name: "format", In: "query", Doc: "csv: a file with one violator per line.", Schema: "{type: string, enum: [json, csv]}"}},
			Answers: []Answer{{Status: 200, Doc: "The report.", Of: wire.PolicyReport{}, Text: "text/csv"}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "listBudgets", Method: http.MethodGet, Path: "/admin/budgets",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Every unit's use against its budgets, and each cluster's partitions against its limit.",
			Doc: "A cluster's limit comes from `partition_limit` in the configuration,\n" +
				"or from Confluent Cloud's Service Quotas API\n" +
				"(`kafka.max_partitions.per_cluster`); `warning` is set at 80%.\n",
			Answers: []Answer{{Status: 200, Doc: "The budgets.", Of: wire.BudgetOverview{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "setBudget", Method: http.MethodPut, Path: "/admin/budget/{bu}/{stage}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Set a unit's budget in a stage (platform admins); no limits removes it.",
			Doc: "A limit below today's use is kept, with a warning: writes that add to\n" +
				"it are refused (422 `BUDGET_EXCEEDED`), nothing is deleted. Audited\n" +
				"with the limits before and after.\n",
			Body:    &Body{Of: wire.BudgetSet{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The budget with its use.", Of: wire.Budget{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "listWebhooks", Method: http.MethodGet, Path: "/admin/webhooks",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "The webhooks events are delivered to (platform admins).",
			Answers: []Answer{{Status: 200, Doc: "The webhooks, without their secrets.", Of: wire.WebhookList{}}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "createWebhook", Method: http.MethodPost, Path: "/admin/webhooks",
			Need:    NeedWithheld,
			Tags:    []string{"admin"},
			Summary: "Send a landing zone's (or one unit's) events to a URL.",
			Doc: "Every change, refused write and failed write from then on is POSTed\n" +
				"as a CloudEvents 1.0 event (structured JSON, `type` such as\n" +
				"`portal.topic.created` or `portal.topic.create.refused`), at least\n" +
				"once and in order, with the Standard Webhooks headers `webhook-id`,\n" +
				"`webhook-timestamp` and `webhook-signature` (`v1,` and the base64\n" +
				"HMAC-SHA256 of `id.timestamp.body` with the secret's key). Failed\n" +
				"deliveries are retried with backoff for up to a day. The URL must\n" +
				"use https outside dev mode. The secret is in this answer only.\n",
			Body:    &Body{Of: wire.WebhookCreate{}, Required: true},
			Answers: []Answer{{Status: 201, Doc: "Created, with its secret.", Of: wire.Webhook{}}},
			Fails:   []Failure{BadRequest, NotFound},
		},
		{
			ID: "deleteWebhook", Method: http.MethodDelete, Path: "/admin/webhook/{id}",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "Stop sending events to a webhook (its deliveries go too).",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Answers: []Answer{{Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{NotFound},
		},
		{
			ID: "webhookDeliveries", Method: http.MethodGet, Path: "/admin/webhook/{id}/deliveries",
			Need:    NeedPlatform,
			Tags:    []string{"admin"},
			Summary: "A webhook's latest 200 deliveries, newest first.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Answers: []Answer{{Status: 200, Doc: "The deliveries.", Of: wire.WebhookDeliveries{}}},
			Fails:   []Failure{NotFound},
		},
	}
}
