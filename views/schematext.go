package views

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"

	"github.com/a-h/templ"
)

// prettySchema indents a JSON schema text; other text is returned as is.
func prettySchema(text string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(text), "", "  "); err != nil {
		return text
	}
	return buf.String()
}

// highlight renders JSON with spans for keys, strings, numbers and
// literals. Every piece of text is escaped before it is wrapped.
func highlight(text string) templ.Component {
	var b strings.Builder
	s := prettySchema(text)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			class := "text-emerald-700"
			if k := strings.TrimLeft(s[j:], " "); strings.HasPrefix(k, ":") {
				class = "text-indigo-700"
			}
			b.WriteString(`<span class="` + class + `">` + html.EscapeString(s[i:j]) + `</span>`)
			i = j
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && strings.IndexByte("0123456789.eE+-", s[j]) >= 0 {
				j++
			}
			b.WriteString(`<span class="text-amber-700">` + html.EscapeString(s[i:j]) + `</span>`)
			i = j
		case strings.HasPrefix(s[i:], "true") || strings.HasPrefix(s[i:], "false") || strings.HasPrefix(s[i:], "null"):
			n := 4
			if s[i] == 'f' {
				n = 5
			}
			b.WriteString(`<span class="text-rose-700">` + s[i:i+n] + `</span>`)
			i += n
		default:
			b.WriteString(html.EscapeString(string(c)))
			i++
		}
	}
	return templ.Raw(b.String())
}

// DiffLine is one line of a diff: ' ' kept, '-' removed, '+' added.
type DiffLine struct {
	Kind byte
	Text string
}

// diffLines compares two texts line by line (longest common subsequence).
func diffLines(a, b string) []DiffLine {
	x, y := strings.Split(prettySchema(a), "\n"), strings.Split(prettySchema(b), "\n")
	// lcs[i][j] is the common length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []DiffLine
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] == y[j]:
			out = append(out, DiffLine{' ', x[i]})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, DiffLine{'-', x[i]})
			i++
		default:
			out = append(out, DiffLine{'+', y[j]})
			j++
		}
	}
	for ; i < len(x); i++ {
		out = append(out, DiffLine{'-', x[i]})
	}
	for ; j < len(y); j++ {
		out = append(out, DiffLine{'+', y[j]})
	}
	return out
}

// Pretty indents a JSON schema for editing.
func Pretty(text string) string { return prettySchema(text) }
