package portal

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind classifies a domain error. The values double as the "type" of the
// error record of the REST API, so they are part of the public contract.
type Kind string

// Kinds in use. Each front door maps a kind to one HTTP status.
const (
	MissingParameter    Kind = "MISSING_PARAMETER"
	InvalidParameter    Kind = "INVALID_PARAMETER"
	MalformedBody       Kind = "MALFORMED_BODY"
	Unauthenticated     Kind = "UNAUTHENTICATED"
	InsufficientRole    Kind = "INSUFFICIENT_ROLE"
	ReadOnlyEnvironment Kind = "READ_ONLY_ENVIRONMENT"
	NotFound            Kind = "NOT_FOUND"
	AlreadyExists       Kind = "ALREADY_EXISTS"
	IncompatibleSchema  Kind = "INCOMPATIBLE_SCHEMA"
	RateLimited         Kind = "RATE_LIMITED"
	UpstreamUnavailable Kind = "UPSTREAM_UNAVAILABLE"
	UpstreamTimeout     Kind = "UPSTREAM_TIMEOUT"
	Internal            Kind = "INTERNAL"
	// CSRFRejected refuses a browser form that did not come from the
	// portal (another site, or an expired page).
	CSRFRejected Kind = "CSRF_REJECTED"
	// Conflict refuses a change that the current state does not allow
	// (a consumer group with active members, a stale plan).
	Conflict Kind = "CONFLICT"
	// DataAccessDisabled refuses reading a topic's records in a stage
	// whose data_access switch does not allow it.
	DataAccessDisabled Kind = "DATA_ACCESS_DISABLED"
	// ProduceDisabled refuses writing records by hand in a stage whose
	// produce switch is off.
	ProduceDisabled Kind = "PRODUCE_DISABLED"
	// QuotaExceeded refuses a create that would exceed one of the
	// platform's quotas (Confluent Cloud's 402), named in the message.
	QuotaExceeded Kind = "QUOTA_EXCEEDED"
	// PreconditionFailed refuses a write whose If-Match names a version
	// of the resource that is no longer the current one.
	PreconditionFailed Kind = "PRECONDITION_FAILED"
	// PolicyViolation refuses a write that breaks an enforced policy of
	// the platform (Error.Rule names the policy).
	PolicyViolation Kind = "POLICY_VIOLATION"
	// BudgetExceeded refuses a write that would take a unit beyond one of
	// its budgets (Error.Rule names the dimension).
	BudgetExceeded Kind = "BUDGET_EXCEEDED"
	// UpstreamPermission: an upstream refused the portal's own
	// credentials for an operation (its key lacks a role). It is the
	// platform's configuration, not the caller's request and not an
	// outage; the message names the operation and the role it needs.
	UpstreamPermission Kind = "UPSTREAM_PERMISSION"
)

// Kinds lists every kind, for documentation and exhaustive tests.
var Kinds = []Kind{MissingParameter, InvalidParameter, MalformedBody, Unauthenticated, InsufficientRole,
	ReadOnlyEnvironment, NotFound, AlreadyExists, IncompatibleSchema, RateLimited, UpstreamUnavailable,
	UpstreamTimeout, Internal, CSRFRejected, Conflict, DataAccessDisabled, ProduceDisabled, QuotaExceeded, PreconditionFailed,
	PolicyViolation, BudgetExceeded, UpstreamPermission}

// Status is the HTTP status of errors of kind k. It is the one mapping
// from kind to status; both front doors use it.
func (k Kind) Status() int {
	switch k {
	case MissingParameter, InvalidParameter, MalformedBody:
		return http.StatusBadRequest
	case Unauthenticated:
		return http.StatusUnauthorized
	case InsufficientRole, ReadOnlyEnvironment, CSRFRejected, DataAccessDisabled, ProduceDisabled:
		return http.StatusForbidden
	case NotFound:
		return http.StatusNotFound
	case AlreadyExists, IncompatibleSchema, Conflict, QuotaExceeded:
		return http.StatusConflict
	case PreconditionFailed:
		return http.StatusPreconditionFailed
	case PolicyViolation, BudgetExceeded:
		return http.StatusUnprocessableEntity
	case RateLimited:
		return http.StatusTooManyRequests
	case UpstreamUnavailable:
		return http.StatusServiceUnavailable
	case UpstreamTimeout:
		return http.StatusGatewayTimeout
	case UpstreamPermission:
		return http.StatusBadGateway
	}
	return http.StatusInternalServerError
}

// StatusOf is the HTTP status of any error: its kind's for domain errors,
// 500 for anything else.
func StatusOf(err error) int { return KindOf(err).Status() }

// IsValidation reports whether errors of kind k describe bad input (a 400).
func (k Kind) IsValidation() bool {
	return k == MissingParameter || k == InvalidParameter || k == MalformedBody
}

// Error is one domain error: what kind of failure, a message meant for the
// caller, and the input field it concerns (if any). Cause carries the
// underlying error for logs; it is never shown to callers.
type Error struct {
	Kind    Kind
	Message string
	Field   string
	// Rule names the policy or budget a POLICY_VIOLATION or
	// BUDGET_EXCEEDED is about.
	Rule       string
	RetryAfter time.Duration
	Cause      error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Kind))
	if e.Field != "" {
		b.WriteString(" (" + e.Field + ")")
	}
	b.WriteString(": " + e.Message)
	if e.Cause != nil {
		b.WriteString(": " + e.Cause.Error())
	}
	return b.String()
}

// Unwrap gives access to the cause for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Cause }

// New returns an error of the given kind.
func New(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: message(format, args)}
}

// Wrap returns an error of the given kind that keeps cause for the logs.
func Wrap(cause error, kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: message(format, args), Cause: cause}
}

// Missing reports a required field that was not given.
func Missing(field string) *Error {
	field = Clip(field, MaxField)
	return &Error{Kind: MissingParameter, Field: field, Message: field + " is required"}
}

// Bounds of what an error repeats of a caller's input: messages quote
// names and values, and a megabyte name must not come back (or reach a
// log) as a megabyte message.
const (
	MaxMessage = 1024
	MaxField   = 256
)

// message formats a message and bounds it.
func message(format string, args []any) string { return Clip(fmt.Sprintf(format, args...), MaxMessage) }

// Clip shortens s to at most n bytes at a character boundary, saying so:
// "abc… (1048000 more bytes)".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "… (" + strconv.Itoa(len(s)-end) + " more bytes)"
}

// Invalid reports a field whose value is not acceptable.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Kind: InvalidParameter, Field: Clip(field, MaxField), Message: message(format, args)}
}

// Validation collects every problem found in one input, so that a caller
// learns about all offending fields at once.
type Validation struct {
	Problems []*Error
}

// Add records a problem; nil is ignored so callers can write v.Add(check(x)).
func (v *Validation) Add(e *Error) {
	if e != nil {
		v.Problems = append(v.Problems, e)
	}
}

// Err returns nil when no problem was recorded, the single problem when there
// is one, and the whole Validation otherwise.
func (v *Validation) Err() error {
	switch len(v.Problems) {
	case 0:
		return nil
	case 1:
		return v.Problems[0]
	}
	return v
}

func (v *Validation) Error() string {
	parts := make([]string, len(v.Problems))
	for i, p := range v.Problems {
		parts[i] = p.Error()
	}
	return strings.Join(parts, "; ")
}

// Problems returns the domain errors carried by err: every problem of a
// Validation, the Error itself, or nil when err is not a domain error.
func Problems(err error) []*Error {
	var v *Validation
	if errors.As(err, &v) {
		return v.Problems
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}

// KindOf returns the kind of a domain error, or Internal for any other error.
func KindOf(err error) Kind {
	if ps := Problems(err); len(ps) > 0 {
		return ps[0].Kind
	}
	return Internal
}

// Is reports whether err is a domain error of kind k.
func Is(err error, k Kind) bool {
	return err != nil && KindOf(err) == k
}

// MessageOf is what a caller may read of an error: a domain error's
// message, or a generic one for anything else (whose text may hold
// details meant for the logs only).
func MessageOf(err error) string {
	if ps := Problems(err); len(ps) > 0 {
		return ps[0].Message
	}
	return "an internal error"
}

// FirstMessage is the message of an error's first problem (or the error's
// text): what one line of a report or an audit event says of it.
func FirstMessage(err error) string {
	if ps := Problems(err); len(ps) > 0 {
		return ps[0].Message
	}
	return err.Error()
}

// ItemError is how one item of a batch (a bulk create, an apply) reports
// its failure: the first problem's kind and message, without internals.
func ItemError(err error) *Error {
	e := &Error{Kind: KindOf(err), Message: FirstMessage(err)}
	if e.Kind == Internal {
		e.Message = "internal error"
	}
	return e
}

// Partial explains that part of a change was made before err.
func Partial(err error, format string, args ...any) error {
	if ps := Problems(err); len(ps) == 1 {
		e := *ps[0]
		e.Message = fmt.Sprintf(format, args...) + ": " + e.Message
		return &e
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
