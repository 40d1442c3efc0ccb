package views

import (
	"net/url"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

func urlQuery(s string) string { return url.QueryEscape(s) }

// thousands renders 12345 as "12,345".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := ""
	for len(s) > 3 {
		out = "," + s[len(s)-3:] + out
		s = s[:len(s)-3]
	}
	out = s + out
	if neg {
		return "-" + out
	}
	return out
}

// listURL builds a list page URL with its query.
func listURL(c *Context, search string, desc bool, token string, offset int) string {
	q := url.Values{}
	if search != "" {
		q.Set("q", search)
	}
	if desc {
		q.Set("order", "desc")
	}
	if token != "" {
		q.Set("page_token", token)
		q.Set("offset", strconv.Itoa(offset))
	}
	if len(q) == 0 {
		return c.Path("topics")
	}
	return c.Path("topics") + "?" + q.Encode()
}

func ariaSort(desc bool) string {
	if desc {
		return "descending"
	}
	return "ascending"
}

func sortArrow(desc bool) string {
	if desc {
		return "↓"
	}
	return "↑"
}

func sortNext(desc bool) string {
	if desc {
		return "A to Z"
	}
	return "Z to A"
}
