package present

import (
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Grant is a grant of access to a topic, asked or given.
func Grant(g grant.TopicGrant) wire.Grant {
	return wire.Grant{ID: g.ID, Zone: g.Zone, Stage: g.Stage, Owner: g.Owner, Grantee: g.Grantee, Principal: g.Principal, PrincipalName: g.PrincipalName,
		Topic: g.Topic, Prefix: g.Prefix, Access: g.Access, State: g.State, Requester: g.Requester, Reason: g.Reason, Created: Stamp(g.Created),
		DecidedBy: g.DecidedBy, Decided: Stamp(g.Decided), Comment: g.Comment, RoleBindings: Bindings(g.Bindings), Reviewable: g.Reviewable,
		Withdrawable: g.Withdrawable, Revocable: g.Revocable, Duration: Duration(g.Duration), Expires: Stamp(g.Expires), Expiring: g.Expiring,
		Classification: g.Classification, Approvals: Strings(g.Approvals), ApprovalsNeeded: g.ApprovalsNeeded, Renews: g.Renews}
}

// Duration is a grant's duration as requests give it (topiccatalog.FormatDuration), "" for none.
func Duration(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return topiccatalog.FormatDuration(d)
}

// Strings is s, or an empty list for none: the wire writes [] rather than null.
func Strings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
