package portal

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Bounds of what people write into the portal.
const (
	// MaxText bounds a free-text field (a reason, a comment, a
	// description).
	MaxText = 2000
	// MaxURL bounds a URL (a webhook's receiver).
	MaxURL = 2048
	// MaxID bounds an identifier (a unit id, a name).
	MaxID = 100
)

// CheckText refuses a value longer than max bytes, not UTF-8, or holding
// control characters (newline and tab only where multiline is true): a
// free-text field ends up in pages, logs, the audit trail and events, and
// neither a megabyte nor an escape sequence belongs there. nil when the
// value is fine.
func CheckText(field, value string, max int, multiline bool) *Error {
	switch {
	case len(value) > max:
		return Invalid(field, "%s is %d bytes long; at most %d", field, len(value), max)
	case !utf8.ValidString(value):
		return Invalid(field, "%s is not valid UTF-8", field)
	}
	for _, r := range value {
		if (r == '\n' || r == '\t') && multiline {
			continue
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			return Invalid(field, "%s holds a control character (%U); only text%s is accepted", field, r, map[bool]string{true: ", tabs and new lines", false: ""}[multiline])
		}
	}
	return nil
}

// Count says n with its noun in the right number ("1 member", "3
// members").
func Count[T ~int | ~int64](n T, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return strconv.FormatInt(int64(n), 10) + " " + plural
}
