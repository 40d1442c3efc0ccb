package portal

import "testing"

func TestIfMatch(t *testing.T) {
	cases := []struct {
		header, current string
		ok              bool
	}{
		{"", "v1", true},
		{`"v1"`, "v1", true},
		{`W/"v1"`, "v1", true},
		{`"v0", "v1"`, "v1", true},
		{"*", "v1", true},
		{`"v0"`, "v1", false},
		{`"v1"`, "v2", false},
	}
	for _, c := range cases {
		err := ParseIfMatch(c.header).Check("topic t", c.current)
		if (err == nil) != c.ok {
			t.Errorf("If-Match %q on %s: %v", c.header, c.current, err)
		}
		if err != nil && (!Is(err, PreconditionFailed) || StatusOf(err) != 412) {
			t.Errorf("If-Match %q: %v is not a 412", c.header, err)
		}
	}
}
