package portal

import (
	"fmt"
	"strconv"
	"strings"
)

// Normalise lower-cases an identifier and turns '_', '.' and spaces into
// '-', so that "CRM_Orders" and "crm.orders" name the same resource. It is
// the first step of the naming convention, which pages also use to preview
// full names.
func Normalise(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '.', ' ':
			return '-'
		}
		return r
	}, id)
}

// MaxTopicName is the longest topic name Kafka accepts.
const MaxTopicName = 249

// TopicNameProblem says why a literal topic name (or a prefix of one) is
// not one Kafka takes ("" when it is): at most 249 of letters, digits,
// '.', '_' and '-', and not "." or "..". Callers refuse an empty name
// themselves, with their own field.
func TopicNameProblem(name string) string {
	switch {
	case len(name) > MaxTopicName:
		return fmt.Sprintf("is %d characters long; Kafka allows %d", len(name), MaxTopicName)
	case name == "." || name == "..":
		return "is not a topic name"
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return "may contain only letters, digits, '.', '_' and '-'"
		}
	}
	return ""
}

// ParseSchemaVersion reads a schema version as a caller names it: a
// positive number, or "latest" (or nothing), which is 0.
func ParseSchemaVersion(raw string) (int, error) {
	if raw == "" || raw == "latest" {
		return 0, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		return 0, Invalid("version", "version must be a positive number or \"latest\", not %q", raw)
	}
	return n, nil
}
