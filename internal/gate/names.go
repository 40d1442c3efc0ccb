package gate

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// MaxSubject bounds a subject: a topic's longest name and "-value".
const MaxSubject = portal.MaxTopicName + len("-value")

// Topic is the full name of the caller's topic name: qualified by the
// scope, or, for a Super Admin viewing the whole cluster, a topic's name
// as it is.
func (c *Call) Topic(ctx context.Context, name string) (string, error) {
	if len(name) > portal.MaxTopicName {
		return "", portal.Invalid("name", "a topic name is %d characters at most; this one has %d", portal.MaxTopicName, len(name))
	}
	if c.WholeCluster {
		all, err := c.Env.Topics.ListTopics(ctx)
		if err != nil {
			return "", err
		}
		if _, found := slices.BinarySearchFunc(all, name, func(t platform.TopicInfo, n string) int { return strings.Compare(t.Name, n) }); found {
			return name, nil
		}
	}
	if p := tenancy.IdentifierProblem(tenancy.Normalise(name)); p != "" {
		return "", portal.Invalid("name", "topic name %q %s", name, p)
	}
	return c.Scope.Qualify(name), nil
}

// Subject is the full name of the caller's subject: qualified by the
// scope, or as it is for a Super Admin viewing the whole cluster.
func (c *Call) Subject(subject string) (string, error) {
	if len(subject) > MaxSubject {
		return "", portal.Invalid("subject", "subject is %d characters long; at most %d", len(subject), MaxSubject)
	}
	if c.WholeCluster && subject != "" {
		return subject, nil
	}
	if p := tenancy.IdentifierProblem(tenancy.Normalise(subject)); p != "" {
		return "", portal.Invalid("subject", "subject %q %s", subject, p)
	}
	if full := c.Scope.Qualify(subject); len(full) <= MaxSubject {
		return full, nil
	}
	return "", portal.Invalid("subject", "subject %s is longer than %d characters", c.Scope.Qualify(subject), MaxSubject)
}

// MaxIdentifier bounds any identifier a caller sends: no resource name (a
// topic's 249 characters at most, with its prefix) can hold a longer one.
const MaxIdentifier = 200

// Identifier adds to v what is wrong with an identifier sent as field
// (missing, or not usable in a name; label starts the message), and says
// whether it can be qualified.
func Identifier(v *portal.Validation, field, label, name string) bool {
	if strings.TrimSpace(name) == "" {
		v.Add(portal.Missing(field))
		return false
	}
	if len(name) > MaxIdentifier {
		v.Add(portal.Invalid(field, "%s is %d characters long; at most %d", label, len(name), MaxIdentifier))
		return false
	}
	if p := tenancy.IdentifierProblem(tenancy.Normalise(name)); p != "" {
		v.Add(portal.Invalid(field, "%s %s", label, p))
		return false
	}
	return true
}
