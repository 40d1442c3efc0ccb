package upstream

import (
	"context"
	"errors"
)

// An upstream's answer is either the request's outcome (the caller's
// business: a topic that does not exist, a record too large, a schema
// that is not compatible, a quota) or a sign that the upstream itself is
// unwell (it cannot be reached, it fails, a cheap call took too long).
// Only the second kind counts toward an upstream's health and its
// breaker: one caller's bad request must never take an upstream away
// from everyone else. Each adapter decides, in one table of its
// upstream's errors, which of its errors are signs; everything else is
// the request's.

// unwell marks an error as a sign that the upstream is unwell.
type unwell struct{ err error }

func (u *unwell) Error() string { return u.err.Error() }
func (u *unwell) Unwrap() error { return u.err }

// Unwell marks err as a sign that the upstream is unwell: it counts
// toward the upstream's breaker and health. nil stays nil.
func Unwell(err error) error {
	if err == nil || IsOutage(err) {
		return err
	}
	return &unwell{err: err}
}

// IsOutage reports whether err is a sign that the upstream is unwell (an
// adapter marked it Unwell), rather than the request's own outcome. A
// canceled call says nothing about the upstream.
func IsOutage(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var u *unwell
	return errors.As(err, &u)
}

// Answered takes the Unwell mark off err: an adapter that learns the
// failure was the request's after all (a timeout of a call whose time
// follows what its caller asked for) says so.
func Answered(err error) error {
	for {
		u, marked := err.(*unwell)
		if !marked {
			return err
		}
		err = u.err
	}
}
