package tenancy

import (
	"strings"
	"sync"
)

// OrgKind is a kind of resource that lives at the organisation level in
// Confluent Cloud (service accounts, identity pools, API keys through their
// owners) rather than on one cluster. One organisation, and one identity
// provider, may serve several landing zones and every stage, so such a
// resource belongs to the scope whose prefix its name carries, looked up
// across the whole tenancy, not to the cluster of the caller's zone.
type OrgKind int

// Organisation-wide kinds, by the shape of their names.
const (
	// OrgAccount names are "sa-{lz}-{bu}-{stage}-usr-{id}-{type}".
	OrgAccount OrgKind = iota
	// OrgPool names are "{prefix}{id}-{type}", like topics.
	OrgPool
)

// OrgPrefix is the prefix of the scope's names of kind k.
func (s Scope) OrgPrefix(k OrgKind) string {
	if k == OrgAccount {
		return s.ServiceAccountPrefix()
	}
	return s.Prefix()
}

// orgPrefixes are every scope of a tenancy with its prefixes, computed once
// per tenancy (a tenancy never changes).
type orgPrefixes struct {
	once   sync.Once
	scopes []Scope
}

// OwnerOf finds the scope (a unit in a stage, of any landing zone) whose
// prefix a name of kind k carries; false when the name is outside every
// zone's naming convention. New refuses tenancies in which two scopes'
// prefixes overlap, so at most one scope matches.
func (t *Tenancy) OwnerOf(k OrgKind, name string) (Scope, bool) {
	t.org.once.Do(func() {
		for _, u := range t.Units() {
			for _, st := range t.stages {
				t.org.scopes = append(t.org.scopes, Scope{Unit: u, Stage: st})
			}
		}
	})
	for _, s := range t.org.scopes {
		if strings.HasPrefix(name, s.OrgPrefix(k)) {
			return s, true
		}
	}
	return Scope{}, false
}

// Same reports whether two scopes are the same unit in the same stage.
func (s Scope) Same(o Scope) bool {
	return s.Unit != nil && o.Unit != nil && s.Unit.ID == o.Unit.ID && s.Stage.Name == o.Stage.Name
}

// Rebase turns a name of unit u in any stage into its identifier, so that
// a document written for one stage plans in another; other names are
// kept as they are.
func (t *Tenancy) Rebase(u *BusinessUnit, name string) string {
	n := Normalise(name)
	for _, st := range t.stages {
		if p := (Scope{Unit: u, Stage: st}).Prefix(); strings.HasPrefix(n, p) && len(n) > len(p) {
			return n[len(p):]
		}
	}
	return name
}

// RebaseOrg is Rebase for a name of an organisation-wide kind, whose
// identifier also leaves out the type suffix typ the convention adds.
func (t *Tenancy) RebaseOrg(k OrgKind, u *BusinessUnit, name, typ string) string {
	n := Normalise(name)
	for _, st := range t.stages {
		if rest, ok := strings.CutPrefix(n, (Scope{Unit: u, Stage: st}).OrgPrefix(k)); ok && rest != "" {
			return strings.TrimSuffix(rest, "-"+typ)
		}
	}
	return name
}
