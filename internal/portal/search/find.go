// Package search is the contract of the search across a unit's resources
// by name.
package search

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// What a search finds (FindHit.Kind): the resource types of a unit, named
// as their pages are.
const (
	FindTopic          = "topic"
	FindConnector      = "connector"
	FindSubject        = "schema"
	FindServiceAccount = "service-account"
	FindIdentityPool   = "identity-pool"
	FindConsumerGroup  = "consumer-group"
)

// FindHit is one resource a search found: its kind, the name its page is
// reached by (a topic's or group's full name, an account's or pool's id)
// and what to show.
type FindHit struct {
	Kind, Key, Label string
}

// FindResult is what a search found, a few of each kind in the order of
// FindKinds; Unavailable names the kinds that could not be searched in
// time (their upstream was slow or down), so that no answer claims more
// than it looked at.
type FindResult struct {
	Hits        []FindHit
	Unavailable []string
}

// FindKinds are the kinds a search looks at, in the order it shows them.
func FindKinds() []string {
	return []string{FindTopic, FindConsumerGroup, FindConnector, FindSubject, FindServiceAccount, FindIdentityPool}
}

// FindService finds a unit's resources by name, across its kinds: the
// search box.
type FindService interface {
	// Find returns up to a few resources of each kind of the unit in the
	// stage whose name contains q, ignoring case. Errors: what entering
	// the scope gives (NotFound, InsufficientRole), InvalidParameter (q).
	Find(ctx context.Context, scope portal.Scope, q string) (FindResult, error)
}
