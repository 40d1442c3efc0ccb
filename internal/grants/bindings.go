package grants

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// wanted are the role bindings a grant stands for: DeveloperRead on the
// topic (or prefix) and on the grantee's consumer groups for read access,
// DeveloperWrite on the topic for write access.
func wanted(r store.GrantRecord, granteePrefix string) []iam.RoleBinding {
	pattern := r.Pattern
	if r.Prefixed {
		pattern += "*"
	}
	if r.Access == grant.AccessWrite {
		return []iam.RoleBinding{{Role: "DeveloperWrite", Resource: iam.ResourceTopic, Pattern: pattern}}
	}
	return []iam.RoleBinding{{Role: "DeveloperRead", Resource: iam.ResourceTopic, Pattern: pattern},
		{Role: "DeveloperRead", Resource: iam.ResourceGroup, Pattern: granteePrefix + "*"}}
}

func sameBinding(a, b iam.RoleBinding) bool {
	return a.Role == b.Role && a.Resource == b.Resource && a.Pattern == b.Pattern
}

// encodeBinding keeps a binding in a record as "id role resource pattern"
// (topic names and prefixes hold no space and no comma).
func encodeBinding(b iam.RoleBinding) string {
	return strings.Join([]string{b.ID, b.Role, b.Resource, b.Pattern}, " ")
}

func decodeBindings(enc []string) []iam.RoleBinding {
	out := []iam.RoleBinding{}
	for _, e := range enc {
		if f := strings.SplitN(e, " ", 4); len(f) == 4 {
			out = append(out, iam.RoleBinding{ID: f[0], Role: f[1], Resource: f[2], Pattern: f[3]})
		}
	}
	return out
}

// toMake is the id of a binding a grant being approved is still to make.
const toMake = "-"

// journal lists the bindings an approval of r makes, before it makes
// any: the wanted ones the principal has not, with the id toMake. A
// wanted binding the principal has already is not made again: on the
// topic it is the grant's (adopted); on the consumer groups it is someone
// else's (the principal's type gives it, or another grant) and stays
// theirs.
func (s *Service) journal(ctx context.Context, call *gate.Call, r store.GrantRecord) ([]string, error) {
	have, err := call.Env.IAM.RoleBindings(ctx, "User:"+r.Principal)
	if err != nil {
		return nil, err
	}
	u, ok := s.guard.Tenancy().Unit(r.Grantee)
	if !ok {
		return nil, portal.New(portal.Conflict, "business unit %s, which asked for grant %s, is no longer onboarded", r.Grantee, r.ID)
	}
	grantee := tenancy.Scope{Unit: u, Stage: call.Scope.Stage}
	var out []string
	for _, want := range wanted(r, grantee.Prefix()) {
		i := slices.IndexFunc(have, func(b iam.RoleBinding) bool { return sameBinding(b, want) })
		switch {
		case i >= 0 && want.Resource == iam.ResourceTopic:
			out = append(out, encodeBinding(have[i]))
		case i < 0:
			want.ID = toMake
			out = append(out, encodeBinding(want))
		}
	}
	return out, nil
}

// bind makes the bindings r's journal lists as still to make. One that
// is there already was made by an approval whose replica stopped before
// it was recorded: it is taken. When one fails, every binding of the
// journal's made ones is removed again and the grant holds none.
func (s *Service) bind(ctx context.Context, call *gate.Call, r store.GrantRecord) ([]string, error) {
	principal := "User:" + r.Principal
	have, err := call.Env.IAM.RoleBindings(ctx, principal)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(r.Bindings))
	var made []iam.RoleBinding
	for _, b := range decodeBindings(r.Bindings) {
		if b.ID != toMake {
			out = append(out, encodeBinding(b))
			continue
		}
		want := b
		if i := slices.IndexFunc(have, func(h iam.RoleBinding) bool { return sameBinding(h, want) }); i >= 0 {
			b = have[i]
		} else {
			err := call.Pace(ctx)
			if err == nil {
				b, err = call.Env.IAM.CreateRoleBinding(ctx, principal, iam.RoleBinding{Role: want.Role, Resource: want.Resource, Pattern: want.Pattern})
			}
			if err != nil {
				s.undo(ctx, r, made)
				return nil, err
			}
		}
		made = append(made, b)
		out = append(out, encodeBinding(b))
	}
	return out, nil
}

// undo removes the bindings an approval that failed made.
func (s *Service) undo(ctx context.Context, r store.GrantRecord, made []iam.RoleBinding) {
	env, err := s.guard.Environments().Get(r.Zone, r.Stage)
	if err != nil {
		return
	}
	for _, m := range made {
		if derr := env.IAM.DeleteRoleBinding(context.WithoutCancel(ctx), m.ID); derr != nil && !portal.Is(derr, portal.NotFound) {
			s.guard.Log().Error("a grant's binding could not be removed after a failure", "grant", r.ID, "binding", m.ID, "err", derr)
		}
	}
}

// strays removes the topic binding r stands for that the principal holds
// although no record says so (an approval stopped between making it and
// recording it, before the journal): a revoke removes what exists, by
// looking. Another active grant never holds the same binding (duplicates
// are refused).
func (s *Service) strays(ctx context.Context, call *gate.Call, r store.GrantRecord) error {
	have, err := call.Env.IAM.RoleBindings(ctx, "User:"+r.Principal)
	if err != nil {
		return err
	}
	topic := wanted(r, "")[0]
	for _, b := range have {
		if !sameBinding(b, topic) {
			continue
		}
		err := call.Pace(ctx)
		if err == nil {
			err = call.Env.IAM.DeleteRoleBinding(ctx, b.ID)
		}
		if err != nil && !portal.Is(err, portal.NotFound) {
			return err
		}
	}
	return nil
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
		if b.ID == toMake {
			continue
		}
		if b.Resource == iam.ResourceGroup {
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
		if o.ID == r.ID || o.State != grant.GrantActive || o.Principal != r.Principal || o.Access != grant.AccessRead || o.Zone != r.Zone {
			continue
		}
		o.Bindings = append(o.Bindings, enc)
		ok, err := s.store.UpdateGrant(ctx, o, grant.GrantActive)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
