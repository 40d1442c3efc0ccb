package tenancy

import (
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Scope is the context of a request: one business unit in one stage.
type Scope struct {
	Unit  *BusinessUnit
	Stage Stage
}

// String renders the scope as "bu/stage".
func (s Scope) String() string { return s.Unit.ID + "/" + s.Stage.Name }

// Zone returns the landing zone whose cluster serves the scope.
func (s Scope) Zone() *LandingZone { return s.Unit.LandingZone }

// Prefix is the tenant boundary on the cluster: "{lz}-{bu}-{stage}-" on a
// shared landing zone and "{bu}-{stage}-" on a dedicated one.
func (s Scope) Prefix() string {
	if s.Unit.LandingZone.Dedicated {
		return s.Unit.ID + "-" + s.Stage.Name + "-"
	}
	return s.Unit.LandingZone.ID + "-" + s.Unit.ID + "-" + s.Stage.Name + "-"
}

// Normalise lower-cases an identifier and turns '_', '.' and spaces into
// '-' (portal.Normalise).
func Normalise(id string) string { return portal.Normalise(id) }

// Qualify turns an identifier into the full name in this scope. A name that
// already carries the scope's prefix is kept, so full names round-trip.
func (s Scope) Qualify(id string) string {
	n := Normalise(id)
	if strings.HasPrefix(n, s.Prefix()) {
		return n
	}
	return s.Prefix() + n
}

// Owns reports whether a full name lies inside the scope's boundary.
func (s Scope) Owns(name string) bool { return strings.HasPrefix(name, s.Prefix()) }

// Identifier strips the scope's prefix from a full name.
func (s Scope) Identifier(name string) string { return strings.TrimPrefix(name, s.Prefix()) }

// ConnectorSuffix ends every connector name.
const ConnectorSuffix = "-connector"

// QualifyConnector gives the full connector name for an identifier:
// "{prefix}{id}-connector". Full names are kept as they are.
func (s Scope) QualifyConnector(id string) string {
	n := s.Qualify(id)
	if strings.HasSuffix(n, ConnectorSuffix) {
		return n
	}
	return n + ConnectorSuffix
}

// ServiceAccountPrefix starts every service account display name in the
// scope: "sa-{lz}-{bu}-{stage}-usr-". On a dedicated cluster the landing
// zone is the unit, so the unit appears twice ("sa-sales-sales-dev-usr-"),
// as the naming convention of DESIGN section 2 gives it: account names are
// organisation-wide, unlike topics, and keep the same shape everywhere.
func (s Scope) ServiceAccountPrefix() string {
	return "sa-" + s.Unit.LandingZone.ID + "-" + s.Unit.ID + "-" + s.Stage.Name + "-usr-"
}

// QualifyServiceAccount gives the display name of a service account:
// "sa-{lz}-{bu}-{stage}-usr-{id}-{type}". Full names are kept.
func (s Scope) QualifyServiceAccount(id, kind string) string {
	n := Normalise(id)
	if strings.HasPrefix(n, s.ServiceAccountPrefix()) {
		return n
	}
	return s.ServiceAccountPrefix() + n + "-" + kind
}

// SubjectName gives the Schema Registry subject of a topic under the
// TopicNameStrategy: "{topic}-key" or "{topic}-value".
func SubjectName(topic, part string) string { return topic + "-" + part }

// IdentifierProblem returns a message describing why a normalised
// identifier is unusable, or "" when it is fine.
func IdentifierProblem(id string) string {
	switch {
	case id == "":
		return "must not be empty"
	case !isIdentifier(id):
		return "may contain only letters, digits, '-', '_', '.' and spaces, and must start and end with a letter or digit"
	}
	return ""
}

func isIdentifier(id string) bool {
	if id == "" || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// QualifyPool gives the display name of an identity pool:
// "{prefix}{id}-{type}". Full names are kept.
func (s Scope) QualifyPool(id, kind string) string {
	n := Normalise(id)
	if strings.HasPrefix(n, s.Prefix()) && strings.HasSuffix(n, "-"+kind) {
		return n
	}
	return s.Qualify(n) + "-" + kind
}
