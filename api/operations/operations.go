// Package operations is the API's table of operations: for each, its
// method and path, what the reference says of it, its parameters, its
// body and its answers. The router mounts one handler per operation from
// it, and `make docs` writes the API document's paths from it and the
// wire types, so the routes and the document cannot disagree.
package operations

import "regexp"

// Operation is one operation of the API.
type Operation struct {
	// ID is the document's operationId, and the key the router finds the
	// operation's handler by.
	ID string
	// Method and Path (under the API's base path, with {name} parameters)
	// locate it.
	Method, Path string
	Tags         []string
	Summary      string
	// Doc is the operation's description (Markdown), if it needs one.
	Doc string
	// Public operations need no token.
	Public bool
	// Need is what a caller must be able to do somewhere for the
	// assistants' door to offer the operation as a tool (the document's
	// x-portal-need); the service layer still decides every call.
	Need Need
	// Params are its parameters beyond the shared path parameters that its
	// path names ({bu}, {stage}, {name}, {subject}), which are derived.
	Params []Param
	Body   *Body
	// Answers are its own answers (2xx, 202's shared Accepted).
	Answers []Answer
	// Fails are the shared error answers it may give beyond 401 (for an
	// operation that needs a token) and the default, which every one has.
	Fails []Failure
}

// Param is a parameter: a shared one by Ref (the document's
// components.parameters), or one of its own.
type Param struct {
	Ref      string
	Name, In string
	Doc      string
	Required bool
	// Schema is the parameter's schema, in YAML's flow style.
	Schema string
}

// Ref is the shared parameter of that name.
func Ref(name string) Param { return Param{Ref: name} }

// Body is an operation's request body: a wire type, or the resources as
// code document (JSON or YAML, whose media type the handler reads).
type Body struct {
	Of       any
	Required bool
	// Example is an example body, in YAML's flow style.
	Example  string
	Document bool
}

// Answer is one answer of an operation.
type Answer struct {
	Status int
	// Ref is a shared answer (components.responses) instead of the rest.
	Ref string
	Doc string
	// Of is the wire type of its JSON body; JSONSchema a schema instead
	// (YAML's flow style), for a body that is not a named type.
	Of         any
	JSONSchema string
	// Text is another media type its body may have, as a string (text/csv).
	Text    string
	Headers []Header
}

// Header is a header of an answer: a shared one by Ref
// (components.headers), or one of its own.
type Header struct {
	Name, Ref, Doc string
	// Schema is the header's schema, in YAML's flow style.
	Schema string
}

// Failure is a shared error answer: its status and its name in the
// document's components.responses.
type Failure string

// The shared error answers.
const (
	BadRequest           Failure = "400 BadRequest"
	Forbidden            Failure = "403 Forbidden"
	NotFound             Failure = "404 NotFound"
	Conflict             Failure = "409 Conflict"
	Busy                 Failure = "409 Busy"
	PreconditionFailed   Failure = "412 PreconditionFailed"
	PayloadTooLarge      Failure = "413 PayloadTooLarge"
	UnsupportedMediaType Failure = "415 UnsupportedMediaType"
	// UnsupportedDocument is a 415 for a document neither JSON nor YAML.
	UnsupportedDocument Failure = "415 Error"
	Unavailable         Failure = "503 Unavailable"
	Timeout             Failure = "504 Timeout"
)

// Need is what calling an operation takes, as the assistants' door
// reads it: a role's answer in one of the caller's contexts
// (portal.Outlook).
type Need string

// The needs.
const (
	// NeedAnyone: anyone signed in (the caller, the version).
	NeedAnyone Need = "anyone"
	// NeedReads: a role in a unit (lists, details, metrics, plans, checks).
	NeedReads Need = "reads"
	// NeedRecords: a stage whose data_access lets the role read records.
	NeedRecords Need = "records"
	// NeedProduces: a stage whose produce switch lets the role write records.
	NeedProduces Need = "produces"
	// NeedWrites: changing topics, connectors, schemas, groups and alerts
	// (Developers and up, where the stage lets them).
	NeedWrites Need = "writes"
	// NeedRequests: filing (or withdrawing) a change request.
	NeedRequests Need = "requests"
	// NeedManages: service accounts, identity pools, their role bindings
	// and API keys (Admins and up).
	NeedManages Need = "manages"
	// NeedGrants: asking another unit for access, and deciding such
	// requests (Admins and up).
	NeedGrants Need = "grants"
	// NeedReviews: deciding change requests, reading the unit's trail
	// (Admins and up).
	NeedReviews Need = "reviews"
	// NeedZoneAdmin: the admin area's views a zone's Super Admin has.
	NeedZoneAdmin Need = "zone-admin"
	// NeedPlatform: the platform admins' own operations.
	NeedPlatform Need = "platform"
	// NeedWithheld: never a tool, as the answer hands out a secret (a new
	// API key's, a webhook's), which belongs to a person's screen, not to
	// an assistant's transcript.
	NeedWithheld Need = "withheld"
)

// All is every operation of the API, in the document's order.
func All() []Operation {
	var out []Operation
	for _, part := range [][]Operation{
		caller(), admin(), topics(), catalog(), consumerGroups(), metrics(), costs(),
		connectors(), alerts(), schemas(), serviceAccounts(), resourcesAsCode(),
		resources(), grants(), audit(), apiKeys(), identityPools(),
	} {
		out = append(out, part...)
	}
	return out
}

// pathParam is a {name} parameter of an operation's path.
var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

// PathParams are the names of the {name} parameters of the operation's
// path, in order.
func (o Operation) PathParams() []string {
	var names []string
	for _, m := range pathParam.FindAllStringSubmatch(o.Path, -1) {
		names = append(names, m[1])
	}
	return names
}

// RouterPath is the operation's path as the router writes it (:name).
func (o Operation) RouterPath() string { return pathParam.ReplaceAllString(o.Path, ":$1") }
