// Package contract is the whole of what both front doors (and the
// assistants' door) are handed: every service of the portal, one field
// each, built once in internal/assembly. The services' interfaces and
// their types are the contract packages under internal/portal (and
// internal/portal itself for what every kind shares); this package only
// gathers them, so that no contract package has to import another to be
// listed.
package contract

import (
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/portal/alert"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/cost"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/metric"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/search"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
)

// Services are the services both front doors call, one per resource type
// and the caller's, the audit trail's, the admin area's and resources as
// code: listed once here, built once (internal/assembly) and handed to
// each door whole.
type Services struct {
	Topics     topic.TopicService
	Metrics    metric.MetricsService
	Connectors connect.ConnectorService
	Schemas    schema.SchemaService
	Accounts   iam.AccountService
	APIKeys    iam.APIKeyService
	Pools      iam.PoolService
	Groups     group.GroupService
	Messages   record.MessageService
	Me         portal.CallerService
	Audit      trail.AuditService
	Admin      adminarea.AdminService
	Plans      ascode.PlanService
	Guardrails policy.GuardrailService
	Webhooks   webhook.WebhookService
	Requests   changerequest.RequestService
	Grants     grant.GrantService
	Find       search.FindService
	Alerts     alert.AlertService
	Channels   alert.AlertChannelService
	Catalog    topiccatalog.CatalogService
	Costs      cost.CostService
}
