package portal

// Scope is the context a caller names on every request: a business unit
// and a stage. The front doors parse it once from the path (ParseScope);
// the services resolve it against the tenancy in force, which decides
// whether it exists for the caller.
type Scope struct {
	BU    string
	Stage string
}

// String renders the scope as "bu/stage".
func (s Scope) String() string { return s.BU + "/" + s.Stage }

// maxScopeID bounds a unit's or stage's id in a path.
const maxScopeID = 63

// ParseScope checks that bu and stage are ids as the tenancy writes them
// (lower-case letters, digits and inner dashes). A malformed one is as
// unknown as one that does not exist: NotFound, so that a caller learns
// nothing about which units exist.
func ParseScope(bu, stage string) (Scope, error) {
	if !isScopeID(bu) {
		e := New(NotFound, "business unit %q not found", bu)
		e.Field = "bu"
		return Scope{}, e
	}
	if !isScopeID(stage) {
		e := New(NotFound, "stage %q not found", stage)
		e.Field = "stage"
		return Scope{}, e
	}
	return Scope{BU: bu, Stage: stage}, nil
}

func isScopeID(id string) bool {
	if id == "" || len(id) > maxScopeID || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// ZoneStage names one stage of a landing zone: one cluster, one
// environment. It is comparable, so maps of stages key by it rather than
// by a "zone/stage" string that must be cut apart again.
type ZoneStage struct {
	Zone, Stage string
}

// String renders it as "zone/stage", for logs, labels and pages.
func (z ZoneStage) String() string { return z.Zone + "/" + z.Stage }
