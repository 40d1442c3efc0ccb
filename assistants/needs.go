package assistants

import (
	"github.com/edh-platform/rms-portal/internal/portal"
)

// need is what a caller must be able to do somewhere for a tool to be
// offered: the policy's answer in one of its contexts (portal.Outlook),
// as the service layer gives it. The service layer still decides every
// call; a tool is only left out where it would always be refused.
type need int

const (
	// anyone signed in: the caller, the version.
	anyone need = iota
	// reads: a role in a unit (lists, details, metrics, plans, checks).
	reads
	// records: a stage whose data_access lets the role read records.
	records
	// produces: a stage whose produce switch lets the role write records.
	produces
	// writes: changing topics, connectors, schemas, groups and alerts
	// (Developers and up, where the stage lets them).
	writes
	// requests: filing (or withdrawing) a change request.
	requests
	// manages: service accounts, identity pools and API keys (Admins and
	// up).
	manages
	// grants: asking another unit for access, and deciding such requests
	// (Admins and up).
	grants
	// reviews: deciding change requests, reading the unit's trail
	// (Admins and up).
	reviews
	// zoneAdmin: the admin area's views a zone's Super Admin has.
	zoneAdmin
	// platform: the platform admins' own operations.
	platform
	// withheld: never offered, as the answer hands out a secret (a new
	// API key's, a webhook's), which belongs to a person's screen, not to
	// an assistant's transcript.
	withheld
)

// offered tells whether a caller who stands so in its contexts may use a
// tool of need n anywhere.
func (n need) offered(c portal.Caller, in []portal.Outlook) bool {
	switch n {
	case anyone:
		return true
	case withheld:
		return false
	case platform:
		return c.Principal != nil && c.Principal.PlatformAdmin
	case zoneAdmin:
		return c.Admin
	}
	for _, o := range in {
		if n.allows(o) {
			return true
		}
	}
	return false
}

// allows tells whether one context lets a tool of need n be used: a
// Developer's writes count where the stage would let them through a
// change request as well (the tool is refused with the way to one).
func (n need) allows(o portal.Outlook) bool {
	switch n {
	case reads:
		return o.Role >= portal.Viewer
	case records:
		return o.ReadRecords
	case produces:
		return o.Produce
	case writes:
		return o.CanWrite || o.WriteBlockedByStage
	case requests:
		return o.FileRequests
	case manages:
		return o.CanManage
	case grants:
		return o.AskGrants
	case reviews:
		return o.Role >= portal.Admin
	}
	return false
}

// needs are the API's operations by what they need (a test holds the
// table to the document: no operation without one).
var needs = map[string]need{
	"getVersion": anyone, "getMe": anyone,

	"adminArea": zoneAdmin, "adminAudit": zoneAdmin, "exportAudit": zoneAdmin, "adminUpstreams": zoneAdmin, "adminZoneCosts": zoneAdmin,
	"listAdminUnits": platform, "onboardUnit": platform, "getAdminUnit": platform, "updateAdminUnit": platform, "offboardUnit": platform,
	"listReadOnly": platform, "setReadOnly": platform, "adminConfig": platform, "adminSessions": platform, "endSession": platform,
	"previewAccess": platform, "listPolicies": platform, "createPolicy": platform, "testPolicy": platform, "getPolicy": platform,
	"putPolicy": platform, "deletePolicy": platform, "policyReport": platform, "listBudgets": platform, "setBudget": platform,
	"listWebhooks": platform, "createWebhook": withheld, "deleteWebhook": platform, "webhookDeliveries": platform,

	"search": reads, "listTopics": reads, "getTopic": reads, "topicImpact": reads, "listCatalog": reads, "getCatalogEntry": reads,
	"listClassifications": reads, "listGroups": reads, "getGroup": reads, "getClusterMetrics": reads, "getUsage": reads, "getCosts": reads, "getTopicMetrics": reads,
	"listConnectors": reads, "listConnectorPlugins": reads, "getConnector": reads, "connectorImpact": reads, "listConnectorRestarts": reads,
	"listAlertRules": reads, "listAlerts": reads, "listAlertChannels": reads, "listSchemas": reads, "subjectImpact": reads,
	"listSchemaVersions": reads, "checkSchemaCompatibility": reads, "getSchema": reads, "listServiceAccounts": reads,
	"planResources": reads, "exportResources": reads, "listChangeRequests": reads, "getChangeRequest": reads, "listGrants": reads,
	"getGrant": reads, "unitBudget": reads, "getBulkServiceAccountJob": reads, "getServiceAccount": reads, "serviceAccountImpact": reads,
	"serviceAccountUsedBy": reads, "listServiceAccountAPIKeys": reads, "listAPIKeys": reads, "getAPIKey": reads,
	"listIdentityPools": reads, "testIdentityPoolFilter": reads, "identityPoolImpact": reads, "getIdentityPool": reads,

	"readMessages": records, "produceRecords": produces,

	"createTopic": writes, "replaceTopic": writes, "patchTopic": writes, "deleteTopic": writes, "describeTopic": writes,
	"deleteGroup": writes, "resetOffsets": writes, "createConnector": writes, "updateConnector": writes, "deleteConnector": writes,
	"pauseConnector": writes, "resumeConnector": writes, "restartConnector": writes, "setConnectorAutoRestart": writes,
	"putAlertRule": writes, "deleteAlertRule": writes, "silenceAlertRule": writes, "createAlertChannel": writes,
	"deleteAlertChannel": writes, "createSchema": writes, "updateSchema": writes, "deleteSchema": writes, "applyResources": writes,

	"fileChangeRequest": requests, "withdrawChangeRequest": requests,
	"approveChangeRequest": reviews, "rejectChangeRequest": reviews, "listAudit": reviews,

	"requestGrant": grants, "approveGrant": grants, "rejectGrant": grants, "withdrawGrant": grants, "revokeGrant": grants,

	"createServiceAccount": manages, "bulkCreateServiceAccounts": manages, "updateServiceAccount": manages,
	"deleteServiceAccount": manages, "updateAPIKey": manages, "deleteAPIKey": manages, "createIdentityPool": manages,
	"updateIdentityPoolFilter": manages, "deleteIdentityPool": manages,
	"createAPIKey": withheld, "rotateAPIKey": withheld,
}
