// Package catalog is the zone's catalog of topics: what each topic's
// owner unit says about it (a description, a contact, tags, a data
// classification), with what the clusters and the registry say (its
// partitions, its subjects and their fields) and who reads it. Tenants
// search it to find what to ask access for; the classification decides
// how long a grant lasts and how many of the owner's Admins approve it.
package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
)

// Class is a data classification and what it allows grants to do.
type Class struct {
	Name string
	// MaxGrant is the longest a grant on such a topic lasts (and what a
	// request that names no duration gets).
	MaxGrant time.Duration
	// Write: other units may ask for write access.
	Write bool
	// Approvals is how many of the owner's Admins approve a grant (1 or
	// 2), never its requester.
	Approvals int
}

// Classes are the classifications in force, least strict first.
type Classes struct {
	list []Class
	def  string
}

// DefaultClasses are the classifications when the platform names none.
func DefaultClasses() []Class {
	day := 24 * time.Hour
	return []Class{
		{Name: "public", MaxGrant: 365 * day, Write: true, Approvals: 1},
		{Name: "internal", MaxGrant: 90 * day, Write: true, Approvals: 1},
		{Name: "confidential", MaxGrant: 30 * day, Write: false, Approvals: 1},
		{Name: "restricted", MaxGrant: 7 * day, Write: false, Approvals: 2},
	}
}

// DefaultClass is the classification of a topic its owner has not
// classified, unless the platform names another.
const DefaultClass = "internal"

// NewClasses checks a platform's classifications (least strict first)
// and the one unclassified topics have.
func NewClasses(list []Class, def string) (Classes, error) {
	if len(list) == 0 {
		list = DefaultClasses()
	}
	if def == "" {
		def = DefaultClass
		if !slices.ContainsFunc(list, func(c Class) bool { return c.Name == def }) {
			def = list[0].Name
		}
	}
	seen := map[string]bool{}
	for _, c := range list {
		switch {
		case !isTag(c.Name):
			return Classes{}, fmt.Errorf("classification %q: a name is lower-case letters, digits, '-', '_' or '.', at most %d", c.Name, maxTag)
		case seen[c.Name]:
			return Classes{}, fmt.Errorf("classification %q is named twice", c.Name)
		case c.MaxGrant < time.Hour:
			return Classes{}, fmt.Errorf("classification %q: max_grant must be at least 1h", c.Name)
		case c.Approvals < 1 || c.Approvals > 2:
			return Classes{}, fmt.Errorf("classification %q: approvals must be 1 or 2", c.Name)
		}
		seen[c.Name] = true
	}
	if !seen[def] {
		return Classes{}, fmt.Errorf("the default classification %q is not one of the classifications", def)
	}
	return Classes{list: slices.Clone(list), def: def}, nil
}

// Of is a classification by name; "" (or one no longer configured) is
// the default's.
func (c Classes) Of(name string) Class {
	for _, k := range c.list {
		if k.Name == name {
			return k
		}
	}
	for _, k := range c.list {
		if k.Name == c.def {
			return k
		}
	}
	return Class{Name: DefaultClass, MaxGrant: 90 * 24 * time.Hour, Write: true, Approvals: 1}
}

// Known tells whether a classification is configured.
func (c Classes) Known(name string) bool {
	return slices.ContainsFunc(c.list, func(k Class) bool { return k.Name == name })
}

// Default names the classification of unclassified topics.
func (c Classes) Default() string { return c.Of("").Name }

// Names lists the classifications, least strict first.
func (c Classes) Names() []string {
	out := make([]string, len(c.list))
	for i, k := range c.list {
		out[i] = k.Name
	}
	return out
}

// Stricter returns the stricter of two classifications (a prefix grant
// takes the strictest of the topics it covers).
func (c Classes) Stricter(a, b string) string {
	rank := func(n string) int {
		return slices.IndexFunc(c.list, func(k Class) bool { return k.Name == c.Of(n).Name })
	}
	if rank(b) > rank(a) {
		return c.Of(b).Name
	}
	return c.Of(a).Name
}

// ParseDuration reads a grant's duration: days ("7d"), weeks ("2w") or a
// Go duration ("36h"), as iam.ParseSpan reads spans; at least an hour.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	span := s
	if n, ok := strings.CutSuffix(s, "w"); ok {
		if w, err := strconv.Atoi(n); err == nil && w > 0 && w <= 522 {
			span = strconv.Itoa(w*7) + "d"
		}
	}
	d, err := iam.ParseSpan(span)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: write days (7d), weeks (2w) or hours (36h)", clip(s))
	}
	if d < time.Hour {
		return 0, fmt.Errorf("a grant lasts at least an hour, not %s", clip(s))
	}
	return d, nil
}

// FormatDuration writes a duration as ParseDuration reads it (whole days
// as days).
func FormatDuration(d time.Duration) string { return topiccatalog.FormatDuration(d) }

func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}
