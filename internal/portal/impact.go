package portal

// Dependant is something that depends on a resource about to be deleted:
// a consumer group reading a topic, another unit's grant, a connector, a
// subject, an API key or a role binding of a principal. Live dependants
// break when the resource goes (a group with members or records left to
// read, a grant, a running connector, a key); the others go with it or
// are left unused.
type Dependant struct {
	// Kind is consumer_group, grant, connector, subject, api_key or
	// role_binding.
	Kind string
	Name string
	// Unit owns the dependant ("" outside the naming convention).
	Unit   string
	Detail string
	Live   bool
}

// Impact is what a delete would break.
type Impact struct {
	Kind, Name string
	Dependants []Dependant
}

// Live lists the dependants that break.
func (i Impact) Live() []Dependant {
	var out []Dependant
	for _, d := range i.Dependants {
		if d.Live {
			out = append(out, d)
		}
	}
	return out
}

// DeleteOptions are how a delete is asked for. With live dependants, only
// an Admin deletes, naming the resource (Confirm: its identifier or full
// name) and a Reason; Developers are refused.
type DeleteOptions struct {
	IfMatch IfMatch
	Confirm string
	Reason  string
	// Forced: an Admin's plan says force (its reason is the plan's).
	Forced bool
	// WithKeys deletes a service account's API keys with it (otherwise
	// an account that owns keys is not deleted).
	WithKeys bool
}
