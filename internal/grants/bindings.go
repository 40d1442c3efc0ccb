package grants

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// wanted are the role bindings a grant stands for: DeveloperRead on the
// topic (or prefix) and on the grantee's consumer groups for read access,
// DeveloperWrite on the topic for write access.
func wanted(r store.GrantRecord, granteePrefix string) []portal.RoleBinding {
	pattern := r.Pattern
	if r.Prefixed {
		pattern += "*"
	}
	if r.Access == portal.AccessWrite {
		return []portal.RoleBinding{{Role: "DeveloperWrite", Resource: portal.ResourceTopic, Pattern: pattern}}
	}
	return []portal.RoleBinding{{Role: "DeveloperRead", Resource: portal.ResourceTopic, Pattern: pattern},
		{Role: "DeveloperRead", Resource: portal.ResourceGroup, Pattern: granteePrefix + "*"}}
}

func sameBinding(a, b portal.RoleBinding) bool {
	return a.Role == b.Role && a.Resource == b.Resource && a.Pattern == b.Pattern
}

// encodeBinding keeps a binding in a record as "id role resource pattern"
// (topic names and prefixes hold no space and no comma).
func encodeBinding(b portal.RoleBinding) string {
	return strings.Join([]string{b.ID, b.Role, b.Resource, b.Pattern}, " ")
}

func decodeBindings(enc []string) []portal.RoleBinding {
	out := []portal.RoleBinding{}
	for _, e := range enc {
		if f := strings.SplitN(e, " ", 4); len(f) == 4 {
			out = append(out, portal.RoleBinding{ID: f[0], Role: f[1], Resource: f[2], Pattern: f[3]})
		}
	}
	return out
}

// bind makes the grant's bindings for its principal. A wanted binding the
// principal has already is not made again: on the topic it is adopted (a
// crash between making it and recording the grant left it there); on the
// consumer groups it is someone else's (the principal's type gives it, or
// another grant) and stays theirs. When one fails, the ones made are
// removed again and the grant makes none.
func (s *Service) bind(ctx context.Context, call *gate.Call, r store.GrantRecord) ([]string, error) {
	principal := "User:" + r.Principal
	have, err := call.Env.IAM.RoleBindings(ctx, principal)
	if err != nil {
		return nil, err
	}
	u, ok := s.guard.Tenancy().Unit(r.Grantee)
	if !ok {
		return nil, portal.New(portal.Conflict, "business unit %s, which asked for grant %s, is no longer onboarded", r.Grantee, r.ID)
	}
	grantee := tenancy.Scope{Unit: u, Stage: call.Scope.Stage}
	var made, kept []portal.RoleBinding
	for _, want := range wanted(r, grantee.Prefix()) {
		if i := slices.IndexFunc(have, func(b portal.RoleBinding) bool { return sameBinding(b, want) }); i >= 0 {
			if want.Resource == portal.ResourceTopic {
				kept = append(kept, have[i])
			}
			continue
		}
		err := call.Pace(ctx)
		var b portal.RoleBinding
		if err == nil {
			b, err = call.Env.IAM.CreateRoleBinding(ctx, principal, want)
		}
		if err != nil {
			for _, m := range made {
				if derr := call.Env.IAM.DeleteRoleBinding(context.WithoutCancel(ctx), m.ID); derr != nil && !portal.Is(derr, portal.NotFound) {
					s.guard.Log().Error("a grant's binding could not be removed after a failure", "grant", r.ID, "binding", m.ID, "err", derr)
				}
			}
			return nil, err
		}
		made = append(made, b)
	}
	var out []string
	for _, b := range append(kept, made...) {
		out = append(out, encodeBinding(b))
	}
	return out, nil
}

// unbind removes the bindings of a grant being revoked. A binding on the
// grantee's consumer groups that another active read grant of the same
// principal needs is handed to that grant instead. It returns the
// bindings it could not remove (with the first error).
func (s *Service) unbind(ctx context.Context, call *gate.Call, r store.GrantRecord) ([]string, error) {
	var left []string
	var first error
	for _, enc := range r.Bindings {
		bs := decodeBindings([]string{enc})
		if len(bs) == 0 {
			continue
		}
		b := bs[0]
		if b.Resource == portal.ResourceGroup {
			handed, err := s.handOver(ctx, r, enc)
			if err != nil || handed {
				if err != nil {
					left, first = append(left, enc), firstErr(first, err)
				}
				continue
			}
		}
		err := call.Pace(ctx)
		if err == nil {
			err = call.Env.IAM.DeleteRoleBinding(ctx, b.ID)
		}
		if err != nil && !portal.Is(err, portal.NotFound) {
			left, first = append(left, enc), firstErr(first, err)
		}
	}
	return left, first
}

// firstErr keeps the first of the errors met.
func firstErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// handOver gives a consumer-group binding to another active read grant of
// the same principal in the zone and stage, which needs it too.
func (s *Service) handOver(ctx context.Context, r store.GrantRecord, enc string) (bool, error) {
	active, err := s.store.GrantRecords(ctx, r.Grantee, r.Stage, maxListed)
	if err != nil {
		return false, err
	}
	for _, o := range active {
		if o.ID == r.ID || o.State != portal.GrantActive || o.Principal != r.Principal || o.Access != portal.AccessRead || o.Zone != r.Zone {
			continue
		}
		o.Bindings = append(o.Bindings, enc)
		ok, err := s.store.UpdateGrant(ctx, o, portal.GrantActive)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
