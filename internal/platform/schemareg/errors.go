package schemareg

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry/rest"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// answer is what one of the registry's error codes means for the portal:
// the kind the caller gets (and the field it is about), or that the
// registry is unwell (a sign for its breaker and health), or that the
// portal's own key lacks a permission.
type answer struct {
	kind  portal.Kind
	field string
	// unwell: the registry fails; permission: the portal's key lacks a
	// role (neither the caller's request nor an outage).
	unwell, permission bool
}

// registryErrors are the error codes Schema Registry documents (its
// rest/exceptions/Errors.java; older releases answered some with the bare
// HTTP status, such as 409 for an incompatible schema), and the statuses
// Confluent Cloud's front answers with its own body. A code not listed
// is read by its HTTP status (statusAnswer).
// TestEveryRegistryErrorIsClassified checks them all.
var registryErrors = map[int]answer{
	40401: {kind: portal.NotFound},                                 // subject not found
	40402: {kind: portal.NotFound, field: "version"},               // version not found
	40403: {kind: portal.NotFound},                                 // schema not found
	40404: {kind: portal.NotFound},                                 // subject soft-deleted
	40405: {kind: portal.Conflict, field: "permanent"},             // subject not soft-deleted before a permanent delete
	40406: {kind: portal.InvalidParameter, field: "permanent"},     // version soft-deleted
	40407: {kind: portal.InvalidParameter, field: "permanent"},     // version not soft-deleted before a permanent delete
	40408: {kind: portal.NotFound},                                 // no subject-level compatibility
	40409: {kind: portal.NotFound},                                 // no subject-level mode
	40410: {kind: portal.NotFound},                                 // association not found
	409:   {kind: portal.IncompatibleSchema, field: "schema"},      // incompatible schema (older releases)
	40901: {kind: portal.IncompatibleSchema, field: "schema"},      // incompatible schema
	40902: {kind: portal.Conflict},                                 // too many associations
	40903: {kind: portal.Conflict},                                 // association exists for the resource
	40904: {kind: portal.Conflict},                                 // association exists for the subject
	40905: {kind: portal.Conflict},                                 // strong association exists
	40907: {kind: portal.Conflict},                                 // no active version
	40908: {kind: portal.Conflict},                                 // association frozen
	422:   {kind: portal.InvalidParameter, field: "schema"},        // invalid schema (older releases)
	42201: {kind: portal.InvalidParameter, field: "schema"},        // invalid schema
	42202: {kind: portal.InvalidParameter, field: "version"},       // invalid version
	42203: {kind: portal.InvalidParameter, field: "compatibility"}, // invalid compatibility level
	42204: {kind: portal.InvalidParameter, field: "mode"},          // invalid mode
	42205: {kind: portal.Conflict},                                 // operation not permitted (read-only or import mode)
	42206: {kind: portal.Conflict},                                 // the schema is referenced by others
	42207: {kind: portal.Conflict},                                 // id does not match
	42208: {kind: portal.InvalidParameter, field: "subject"},       // invalid subject
	42209: {kind: portal.InvalidParameter, field: "schema"},        // schema too large
	42210: {kind: portal.InvalidParameter, field: "schema"},        // invalid rule set
	42211: {kind: portal.Conflict},                                 // context not empty
	42212: {kind: portal.InvalidParameter},                         // invalid association
	42213: {kind: portal.InvalidParameter},                         // association batch too large
	401:   {permission: true},                                      // the portal's key is not accepted
	40101: {permission: true},
	403:   {permission: true}, // the portal's key lacks a role
	40301: {permission: true},
	429:   {kind: portal.RateLimited},
	42901: {kind: portal.RateLimited},
	50001: {unwell: true}, // store error
	50002: {unwell: true}, // operation timeout
	50003: {unwell: true}, // request forwarding failed
	50004: {unwell: true}, // unknown leader
	50005: {unwell: true}, // an answer the client could not read
}

// statusAnswer reads a code the table does not list by its HTTP status
// (a five-digit code starts with it): a 4xx is the request's, anything
// else says the registry fails.
func statusAnswer(code int) answer {
	status := code
	for status >= 1000 {
		status /= 10
	}
	switch {
	case status == 404:
		return answer{kind: portal.NotFound}
	case status == 409:
		return answer{kind: portal.Conflict}
	case status == 401 || status == 403:
		return answer{permission: true}
	case status == 429:
		return answer{kind: portal.RateLimited}
	case status >= 400 && status < 500:
		return answer{kind: portal.InvalidParameter}
	}
	return answer{unwell: true}
}

func answerFor(code int) answer {
	if a, known := registryErrors[code]; known {
		return a
	}
	return statusAnswer(code)
}

// retryError is a registry error with the Retry-After of its answer.
type retryError struct {
	err   *rest.Error
	after time.Duration
}

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

// translate maps registry errors to fault errors by the table; only the
// registry's own failures (and its silence) are marked Unwell.
func (r *Registry) translate(err error, subject string) error {
	if err == nil {
		return nil
	}
	var re *rest.Error
	if errors.As(err, &re) {
		return r.answer(err, re, subject)
	}
	if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout") {
		return upstream.Unwell(portal.Wrap(err, portal.UpstreamTimeout, "schema registry %s did not answer in time", r.name))
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return upstream.Unwell(portal.Wrap(err, portal.UpstreamUnavailable, "schema registry %s cannot be reached", r.name))
}

func (r *Registry) answer(err error, re *rest.Error, subject string) error {
	a := answerFor(re.Code)
	switch {
	case a.unwell:
		return upstream.Unwell(portal.Wrap(err, portal.UpstreamUnavailable, "schema registry %s failed: %s", r.name, re.Message))
	case a.permission:
		return portal.Wrap(err, portal.UpstreamPermission,
			"schema registry %s refused the portal's own key (%d: %s): it needs the ResourceOwner role on the registry's subjects of the environment; ask the platform team",
			r.name, re.Code, re.Message)
	case a.kind == portal.RateLimited:
		e := portal.Wrap(err, portal.RateLimited, "schema registry %s is throttling requests; try again shortly", r.name)
		e.RetryAfter = 5 * time.Second
		var ra *retryError
		if errors.As(err, &ra) && ra.after > 0 {
			e.RetryAfter = ra.after
		}
		return e
	case re.Code == 40401:
		return portal.Wrap(err, portal.NotFound, "subject %s not found", subject)
	}
	e := portal.Wrap(err, a.kind, "%s", re.Message)
	e.Field = a.field
	return e
}
