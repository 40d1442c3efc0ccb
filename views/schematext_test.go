package views

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestDiffLines(t *testing.T) {
	a := `{"type":"record","name":"A","fields":[{"name":"id","type":"string"}]}`
	b := `{"type":"record","name":"A","fields":[{"name":"id","type":"string"},{"name":"n","type":"int"}]}`
	var added, removed []string
	for _, l := range diffLines(a, b) {
		switch l.Kind {
		case '+':
			added = append(added, strings.TrimSpace(l.Text))
		case '-':
			removed = append(removed, strings.TrimSpace(l.Text))
		}
	}
	if len(removed) != 0 || strings.Join(added, "|") != "},|{|\"name\": \"n\",|\"type\": \"int\"" {
		t.Errorf("added %q removed %q", added, removed)
	}
}

func TestHighlightEscapes(t *testing.T) {
	var buf bytes.Buffer
	_ = highlight(`{"doc":"<script>alert(1)</script>","n":-1.5,"ok":true}`).Render(context.Background(), &buf)
	out := buf.String()
	if strings.Contains(out, "<script>") || !strings.Contains(out, "&lt;script&gt;") ||
		!strings.Contains(out, `<span class="text-amber-700">-1.5</span>`) || !strings.Contains(out, `<span class="text-rose-700">true</span>`) {
		t.Errorf("highlighted: %s", out)
	}
}
