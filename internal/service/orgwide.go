package service

import (
	"context"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// orgOwner is who owns an organisation-wide resource (a service account,
// an identity pool, an API key through its account) as a call sees it.
type orgOwner struct {
	// scope is the owner's unit in the call's stage; zero when outside.
	scope tenancy.Scope
	// outside is true for a name outside every zone's naming convention.
	outside bool
}

// readOnly tells whether call may see but never change the resource.
func (o orgOwner) readOnly(call *Call) bool { return o.outside && !call.Principal.PlatformAdmin }

// unit is the owning unit's id, "" outside every convention.
func (o orgOwner) unit() string {
	if o.outside {
		return ""
	}
	return o.scope.Unit.ID
}

// identifier is what the name carries after its owner's prefix (and
// before kind's type suffix); a name outside every convention is its own.
func (o orgOwner) identifier(k tenancy.OrgKind, name string) string {
	if o.outside {
		return name
	}
	id := strings.TrimPrefix(name, o.scope.OrgPrefix(k))
	if t := typeOf(name); t != "" {
		id = strings.TrimSuffix(id, "-"+t)
	}
	return id
}

// orgOwnerOf decides whether call may see an organisation-wide resource
// named name, and who owns it. These resources are not on the zone's
// cluster: one organisation and one identity provider serve every zone
// and stage, so the rule is the name's, looked up across the tenancy. A
// unit sees its own in its stage. A zone's whole-cluster view sees the
// zone's own in its stage and those outside every zone's convention, never
// one that carries another zone's or another stage's prefix.
func (g *Guard) orgOwnerOf(call *Call, k tenancy.OrgKind, name string) (orgOwner, bool) {
	s, found := g.tenancy.Current().OwnerOf(k, name)
	switch {
	case !found:
		return orgOwner{outside: true}, call.WholeCluster
	case s.Stage.Name != call.Scope.Stage.Name:
		return orgOwner{}, false
	case call.WholeCluster && s.Zone().ID == call.Scope.Zone().ID, s.Unit.ID == call.Scope.Unit.ID:
		// The call's stage as it applies now (read-only switches).
		return orgOwner{scope: tenancy.Scope{Unit: s.Unit, Stage: call.Scope.Stage}}, true
	}
	return orgOwner{}, false
}

// enterOwner authorizes action on an existing organisation-wide resource
// that call can see: it needs a role on the unit whose prefix the name
// carries. From a whole-cluster view that is another unit of the zone, and
// the write continues in that unit's scope (its trail records it). A
// resource outside every convention is read-only for a zone's Super
// Admins: only platform admins change it. event and resource name the
// refusal in the audit trail.
func (g *Guard) enterOwner(ctx context.Context, call *Call, o orgOwner, action access.Action, what, event, resource string) (*Call, error) {
	if o.outside {
		if call.Principal.PlatformAdmin {
			return call, nil
		}
		err := portal.New(portal.InsufficientRole, "%s is outside every landing zone's naming convention: only platform admins may %s it", resource, what)
		g.record(ctx, call, event, resource, err)
		return nil, err
	}
	if o.scope.Unit.ID == call.Scope.Unit.ID {
		return call, nil
	}
	if err := access.Check(call.Principal, o.scope, action, what); err != nil {
		g.record(ctx, call, event, resource, err)
		return nil, err
	}
	return &Call{Principal: call.Principal, Scope: o.scope, Role: call.Principal.Role(o.scope.Unit.ID), Env: call.Env,
		pace: call.pace}, nil
}
