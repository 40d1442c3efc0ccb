package portal

import "strings"

// IfMatch is a write's precondition: the versions (ETags, without their
// quotes) of the resource one of which must be the current one, as the
// If-Match header lists them; "" for none, "*" for any.
type IfMatch string

// Check refuses a change to what (named for the message) unless its
// current version is one the precondition names.
func (m IfMatch) Check(what, current string) error {
	if m == "" {
		return nil
	}
	for _, v := range strings.Split(string(m), ",") {
		if v = strings.TrimSpace(v); v == "*" || v == current {
			return nil
		}
	}
	return New(PreconditionFailed, "%s changed since you read it (it is now version %s, not %s): read it again and send the change if it still applies", what, current, m)
}

// ParseIfMatch reads an If-Match header: its entity tags, without quotes
// and weakness markers.
func ParseIfMatch(header string) IfMatch {
	var out []string
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		t = strings.TrimPrefix(t, "W/")
		if t = strings.Trim(t, `"`); t != "" {
			out = append(out, t)
		}
	}
	return IfMatch(strings.Join(out, ","))
}
