package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakeBenchRunsItsBenchmarks: every benchmark `make bench` names is
// found in the packages it names, so that a benchmark moved with its code
// is not silently left out (go test -bench passes when nothing matches).
func TestMakeBenchRunsItsBenchmarks(t *testing.T) {
	raw, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	target := regexp.MustCompile(`(?s)\nbench:[^\n]*\n(.*?)\n\n`).FindSubmatch(raw)
	if target == nil {
		t.Fatal("no bench target in the Makefile")
	}
	line := regexp.MustCompile(`-bench '([^']+)'|-bench (\S+)`)
	funcs := regexp.MustCompile(`(?m)^func (Benchmark\w+)\(`)
	checked := 0
	for _, l := range strings.Split(string(target[1]), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		pattern := m[1] + m[2]
		var names []string
		for _, f := range strings.Fields(l) {
			if !strings.HasPrefix(f, "./") {
				continue
			}
			dir := filepath.Join("..", "..", strings.TrimSuffix(strings.TrimSuffix(f, "..."), "/"))
			_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
					return err
				}
				if !strings.HasSuffix(f, "...") && filepath.Dir(path) != filepath.Clean(dir) {
					return nil
				}
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				for _, fm := range funcs.FindAllStringSubmatch(string(src), -1) {
					names = append(names, strings.TrimPrefix(fm[1], "Benchmark"))
				}
				return nil
			})
		}
		for _, alt := range alternatives(pattern) {
			re := regexp.MustCompile(alt)
			found := false
			for _, n := range names {
				found = found || re.MatchString(n)
			}
			if !found {
				t.Errorf("make bench asks for %q, which no benchmark of its packages matches: %s", alt, strings.TrimSpace(l))
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d benchmarks checked: the bench target's shape changed", checked)
	}
}

// alternatives splits a pattern at its top-level bars.
func alternatives(p string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range p {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, p[start:i])
				start = i + 1
			}
		}
	}
	return append(out, p[start:])
}
