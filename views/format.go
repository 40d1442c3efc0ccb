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

// humanBytes renders a size in readable units ("1.5 MB").
func humanBytes(n float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB"}
	i := 0
	for n >= 1000 && i < len(units)-1 {
		n /= 1000
		i++
	}
	if i == 0 || n >= 100 {
		return strconv.FormatFloat(n, 'f', 0, 64) + " " + units[i]
	}
	return strconv.FormatFloat(n, 'f', 1, 64) + " " + units[i]
}

// humanCount renders a count in readable units ("12.3k", "4.1M").
func humanCount(n float64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(n/1e9, 'f', 1, 64) + "G"
	case n >= 1e6:
		return strconv.FormatFloat(n/1e6, 'f', 1, 64) + "M"
	case n >= 1e4:
		return strconv.FormatFloat(n/1e3, 'f', 1, 64) + "k"
	}
	return thousands(int64(n))
}
