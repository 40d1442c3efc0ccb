package catalog

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits of what an owner says about a topic.
const (
	MaxDescription = 2000
	MaxContact     = 200
	MaxTags        = 20
	maxTag         = 40
)

// Metadata is what an owner says about a topic.
type Metadata struct {
	Description    string
	Contact        string
	Tags           []string
	Classification string
}

// Problem is one field's problem with metadata.
type Problem struct {
	Field, Message string
}

// Check normalises metadata (trimmed, tags lower-cased, sorted and
// unique) and lists its problems by field.
func (c Classes) Check(m Metadata) (Metadata, []Problem) {
	var ps []Problem
	m.Description = strings.TrimSpace(m.Description)
	m.Contact = strings.TrimSpace(m.Contact)
	m.Classification = strings.TrimSpace(strings.ToLower(m.Classification))
	if n := utf8.RuneCountInString(m.Description); n > MaxDescription {
		ps = append(ps, Problem{"description", "a description is at most 2000 characters"})
	}
	if strings.ContainsAny(m.Contact, "\n\r\t") || utf8.RuneCountInString(m.Contact) > MaxContact {
		ps = append(ps, Problem{"owner", "an owner contact is one line of at most 200 characters"})
	}
	tags := make([]string, 0, len(m.Tags))
	for _, t := range m.Tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "" {
			continue
		}
		if !isTag(t) {
			ps = append(ps, Problem{"tags", "tag " + quote(t) + " is not a tag: lower-case letters, digits, '-', '_' or '.', at most 40"})
			continue
		}
		tags = append(tags, t)
	}
	slices.Sort(tags)
	m.Tags = slices.Compact(tags)
	if len(m.Tags) > MaxTags {
		ps = append(ps, Problem{"tags", "a topic has at most 20 tags"})
	}
	if m.Classification != "" && !c.Known(m.Classification) {
		ps = append(ps, Problem{"classification", "classification " + quote(m.Classification) + " is not one of " + strings.Join(c.Names(), ", ")})
	}
	return m, ps
}

func isTag(s string) bool {
	if s == "" || len(s) > maxTag {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

func quote(s string) string { return `"` + clip(s) + `"` }
