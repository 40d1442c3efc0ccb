package gate

import (
	"context"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// OrgOwner is who owns an organisation-wide resource (a service account,
// an identity pool, an API key through its account) as a call sees it.
type OrgOwner struct {
	// Scope is the owner's unit in the call's stage; zero when Outside.
	Scope tenancy.Scope
	// Outside is true for a name outside every zone's naming convention.
	Outside bool
}

// ReadOnly tells whether call may see but never change the resource.
func (o OrgOwner) ReadOnly(call *Call) bool { return o.Outside && !call.Principal.PlatformAdmin }

// Unit is the owning unit's id, "" outside every convention.
func (o OrgOwner) Unit() string {
	if o.Outside {
		return ""
	}
	return o.Scope.Unit.ID
}

// Identifier is what the name carries after its owner's prefix (and
// before the type suffix); a name outside every convention is its own.
func (o OrgOwner) Identifier(k tenancy.OrgKind, name string) string {
	if o.Outside {
		return name
	}
	id := strings.TrimPrefix(name, o.Scope.OrgPrefix(k))
	if t := iam.AccountTypeOf(name); t != "" {
		id = strings.TrimSuffix(id, "-"+t)
	}
	return id
}

// OrgOwner decides whether the call may see an organisation-wide resource
// named name, and who owns it. These resources are not on the zone's
// cluster: one organisation and one identity provider serve every zone
// and stage, so the rule is the name's, looked up across the tenancy. A
// unit sees its own in its stage. A zone's whole-cluster view sees the
// zone's own in its stage and those outside every zone's convention, never
// one that carries another zone's or another stage's prefix.
func (c *Call) OrgOwner(k tenancy.OrgKind, name string) (OrgOwner, bool) {
	s, found := c.g.tenancy.Current().OwnerOf(k, name)
	switch {
	case !found:
		return OrgOwner{Outside: true}, c.WholeCluster
	case s.Stage.Name != c.Scope.Stage.Name:
		return OrgOwner{}, false
	case c.WholeCluster && s.Zone().ID == c.Scope.Zone().ID, s.Unit.ID == c.Scope.Unit.ID:
		// The call's stage as it applies now (read-only switches).
		return OrgOwner{Scope: tenancy.Scope{Unit: s.Unit, Stage: c.Scope.Stage}}, true
	}
	return OrgOwner{}, false
}

// Account reads the service account id if the call may see it (see
// OrgOwner), with its owner; NotFound when it may not.
func (c *Call) Account(ctx context.Context, id string) (platform.ServiceAccount, OrgOwner, error) {
	a, err := c.Env.IAM.GetServiceAccount(ctx, id)
	if err != nil && !portal.Is(err, portal.NotFound) {
		return a, OrgOwner{}, err
	}
	o, visible := c.OrgOwner(tenancy.OrgAccount, a.DisplayName)
	if err != nil || !visible {
		return a, o, portal.New(portal.NotFound, "service account %s not found", id)
	}
	return a, o, nil
}

// EnterOwner authorizes action on an existing organisation-wide resource
// that call can see: it needs a role on the unit whose prefix the name
// carries. From a whole-cluster view that is another unit of the zone, and
// the write continues in that unit's scope (its trail records it). A
// resource outside every convention is read-only for a zone's Super
// Admins: only platform admins change it. event and resource name the
// refusal in the audit trail.
func (g *Guard) EnterOwner(ctx context.Context, call *Call, o OrgOwner, action access.Action, what string, event portal.Action, resource string) (*Call, error) {
	if o.Outside {
		if call.Principal.PlatformAdmin {
			return call, nil
		}
		err := portal.New(portal.InsufficientRole, "%s is outside every landing zone's naming convention: only platform admins may %s it", resource, what)
		g.Record(ctx, call, event, resource, err)
		return nil, err
	}
	if o.Scope.Unit.ID == call.Scope.Unit.ID {
		return call, nil
	}
	if err := access.Check(call.Principal, approved(ctx, o.Scope), action, what); err != nil {
		g.Record(ctx, call, event, resource, err)
		return nil, err
	}
	return &Call{Principal: call.Principal, Scope: o.Scope, Role: call.Principal.Role(o.Scope.Unit.ID), Env: call.Env,
		pace: call.pace, g: g, write: call.write}, nil
}
