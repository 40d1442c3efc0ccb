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

// needNamed reads an operation's need as the API document states it
// (x-portal-need, declared beside the operation in api/operations).
var needNamed = map[string]need{
	"anyone": anyone, "reads": reads, "records": records, "produces": produces, "writes": writes, "requests": requests,
	"manages": manages, "grants": grants, "reviews": reviews, "zone-admin": zoneAdmin, "platform": platform, "withheld": withheld,
}
