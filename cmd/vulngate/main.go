// Command vulngate reads govulncheck's JSON findings and fails when a
// vulnerability the code reaches is not accepted: each accepted one is
// listed, with its reason, in a file (.govulncheck-accepted: an ID, then
// why it does not apply or what stands in for the fix). Accepted ones no
// longer found are reported, so that the list shrinks when a fix lands.
//
//	govulncheck -format json ./... > findings.json
//	go run ./cmd/vulngate --accepted .govulncheck-accepted findings.json
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

func main() {
	accepted := flag.String("accepted", ".govulncheck-accepted", "the accepted vulnerabilities, one ID and its reason per line")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: vulngate [--accepted FILE] FINDINGS.json")
		os.Exit(2)
	}
	if err := run(*accepted, flag.Arg(0), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "vulngate:", err)
		os.Exit(1)
	}
}

// osv is the part of an OSV entry the report shows.
type osv struct {
	ID       string `json:"id"`
	Summary  string `json:"summary"`
	Affected []struct {
		Package struct {
			Name string `json:"name"`
		} `json:"package"`
	} `json:"affected"`
}

// message is one of govulncheck's JSON messages.
type message struct {
	OSV     *osv `json:"osv"`
	Finding *struct {
		OSV          string `json:"osv"`
		FixedVersion string `json:"fixed_version"`
		Trace        []struct {
			Module   string `json:"module"`
			Version  string `json:"version"`
			Function string `json:"function"`
		} `json:"trace"`
	} `json:"finding"`
}

// reached is a vulnerability the code calls.
type reached struct {
	id, module, version, fixed, summary string
}

func run(acceptedPath, findingsPath string, out io.Writer) error {
	accepted, err := readAccepted(acceptedPath)
	if err != nil {
		return err
	}
	f, err := os.Open(findingsPath)
	if err != nil {
		return err
	}
	defer f.Close()
	found, err := readFindings(f)
	if err != nil {
		return err
	}
	var refused []string
	for _, id := range slices.Sorted(mapKeys(found)) {
		r := found[id]
		fixed := "no fixed version"
		if r.fixed != "" {
			fixed = "fixed in " + r.fixed
		}
		line := fmt.Sprintf("%s %s@%s (%s): %s", r.id, r.module, r.version, fixed, r.summary)
		if reason, ok := accepted[id]; ok {
			fmt.Fprintf(out, "accepted  %s\n          because: %s\n", line, reason)
			continue
		}
		fmt.Fprintf(out, "REACHABLE %s\n", line)
		refused = append(refused, id)
	}
	for _, id := range slices.Sorted(mapKeys(accepted)) {
		if _, ok := found[id]; !ok {
			fmt.Fprintf(out, "no longer found: %s (remove it from %s)\n", id, acceptedPath)
		}
	}
	if len(refused) > 0 {
		return fmt.Errorf("%d reachable vulnerabilities not accepted: %s", len(refused), strings.Join(refused, ", "))
	}
	fmt.Fprintf(out, "no reachable vulnerability but the %d accepted\n", len(found))
	return nil
}

// readFindings keeps the vulnerabilities whose trace reaches a function:
// the code calls them, rather than only importing their package.
func readFindings(r io.Reader) (map[string]reached, error) {
	dec := json.NewDecoder(r)
	entries := map[string]*osv{}
	found := map[string]reached{}
	for {
		var m message
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("govulncheck's output: %w", err)
		}
		if m.OSV != nil {
			entries[m.OSV.ID] = m.OSV
		}
		if m.Finding == nil || len(m.Finding.Trace) == 0 || m.Finding.Trace[0].Function == "" {
			continue
		}
		t := m.Finding.Trace[0]
		found[m.Finding.OSV] = reached{id: m.Finding.OSV, module: t.Module, version: t.Version, fixed: m.Finding.FixedVersion}
	}
	for id, r := range found {
		if e := entries[id]; e != nil {
			r.summary = e.Summary
			found[id] = r
		}
	}
	return found, nil
}

// readAccepted reads "ID reason" lines; # starts a comment.
func readAccepted(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, " ")
		if strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: %s has no reason", path, n, id)
		}
		out[id] = strings.TrimSpace(reason)
	}
	return out, sc.Err()
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
