package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// floodProcess is scada's flood in a process of its own (floodApart),
// told to pause and resume through its standard input.
type floodProcess struct {
	b     *testing.B
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	log   *logBuffer
}

// floodApart starts scada's flood, paused, in a process of its own at the
// lowest priority (TestNoisyFlood): on a platform the noisy unit's
// clients are its own machines, so their work (writing megabyte bodies,
// reading answers) must not be scheduled with crm's readers, whose
// latency is measured, nor given the processors ahead of the portal.
func (n *noisyUnit) floodApart(b *testing.B) *floodProcess {
	cmd := lowPriority(os.Args[0], "-test.run=^TestNoisyFlood$", "-test.count=1")
	cmd.Env = append(os.Environ(), "NOISY_FLOOD_URL="+n.tp.url, "NOISY_FLOOD_TOKEN="+n.token,
		"NOISY_FLOOD_TOPICS="+n.small+","+n.big+","+n.sfx)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	f := &floodProcess{b: b, cmd: cmd, stdin: stdin, lines: make(chan string, 16), log: &logBuffer{}}
	cmd.Stderr = f.log
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() {
		defer close(f.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			fmt.Fprintln(f.log, sc.Text())
			f.lines <- sc.Text()
		}
	}()
	b.Cleanup(func() { _ = cmd.Process.Kill() })
	return f
}

// pause returns once none of the flood's requests is in flight.
func (f *floodProcess) pause() { f.tell("pause", "paused") }

// resume returns once the flood's workers are sending again.
func (f *floodProcess) resume() { f.tell("go", "going") }

// tell sends the flood a command and waits for its answer.
func (f *floodProcess) tell(command, answer string) {
	if _, err := fmt.Fprintln(f.stdin, command); err != nil {
		f.b.Fatalf("the flood's process: %v\n%s", err, f.log.String())
	}
	for line := range f.lines {
		if line == answer {
			return
		}
	}
	f.b.Fatalf("the flood's process ended before it said %q:\n%s", answer, f.log.String())
}

// stop ends the flood and says how its requests were answered.
func (f *floodProcess) stop() string {
	f.stdin.Close()
	answers := "(not reported)"
	for line := range f.lines {
		if a, ok := strings.CutPrefix(line, "answered: "); ok {
			answers = a
		}
	}
	if err := f.cmd.Wait(); err != nil {
		f.b.Fatalf("the flood's process: %v\n%s", err, f.log.String())
	}
	return answers
}

// TestNoisyFlood is BenchmarkNoisyNeighbour's flood when that benchmark
// runs it (floodApart). It starts paused and reads commands from its
// standard input, answering each once it holds: "go" (going), "pause"
// (paused: none of its requests in flight). When its input closes it
// stops and says how its requests were answered.
func TestNoisyFlood(t *testing.T) {
	base := os.Getenv("NOISY_FLOOD_URL")
	if base == "" {
		t.Skip("run by BenchmarkNoisyNeighbour in a process of its own")
	}
	topics := strings.Split(os.Getenv("NOISY_FLOOD_TOPICS"), ",")
	n := &noisyUnit{tp: &testPortal{t: t, url: base}, token: os.Getenv("NOISY_FLOOD_TOKEN"), small: topics[0], big: topics[1],
		sfx: topics[2], huge: hugeEnum(), counts: map[string]map[int]int{}}
	gate := newFloodGate()
	var wg sync.WaitGroup
	n.flood(&wg, gate)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		switch sc.Text() {
		case "go":
			gate.set(false)
			fmt.Println("going")
		case "pause":
			gate.set(true)
			fmt.Println("paused")
		}
	}
	gate.stop()
	wg.Wait()
	fmt.Printf("answered: %s\n", n.answers())
}

// floodGate holds the flood's workers while it is paused, and counts
// their requests in flight.
type floodGate struct {
	mu      sync.Mutex
	changed *sync.Cond
	paused  bool
	stopped bool
	busy    int
}

func newFloodGate() *floodGate {
	g := &floodGate{paused: true}
	g.changed = sync.NewCond(&g.mu)
	return g
}

// enter waits while the flood is paused; false once it is stopped.
func (g *floodGate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for g.paused && !g.stopped {
		g.changed.Wait()
	}
	if g.stopped {
		return false
	}
	g.busy++
	return true
}

// leave ends a request that entered.
func (g *floodGate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.busy--
	g.changed.Broadcast()
}

// set pauses or resumes the flood; a pause returns once no request is in
// flight.
func (g *floodGate) set(paused bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.paused = paused
	g.changed.Broadcast()
	for paused && g.busy > 0 {
		g.changed.Wait()
	}
}

// stop releases the workers for good.
func (g *floodGate) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
	g.changed.Broadcast()
}

// flood starts scada's workers, two each for oversized records, huge
// schemas, costly filters and tails, sending while the gate lets them.
func (n *noisyUnit) flood(wg *sync.WaitGroup, gate *floodGate) {
	base := n.tp.url + "/api/v1/scada/dev"
	filter := url.QueryEscape(`value.name.matches("^n[0-9]+-x+$") && value.amount % 3 == 1 && string(value.id).size() > 0`)
	// The bodies are made once: the load's own work must not be what
	// slows the replica it shares the machine with.
	tooLarge := fmt.Sprintf(`{"records":[{"value":%q}]}`, strings.Repeat("y", 5000))
	nearLimit := fmt.Sprintf(`{"records":[{"value":%q}]}`, strings.Repeat("y", 1_040_000))
	hugeSchema := fmt.Sprintf(`,"subject_type":"value","schema_type":"AVRO","schema":%q}`, n.huge)
	work := map[string]func(i int) (string, string, string){
		"oversized record": func(i int) (string, string, string) {
			if i%2 == 1 {
				return "POST", base + "/topic/" + n.big + "/records", nearLimit
			}
			return "POST", base + "/topic/" + n.small + "/records", tooLarge
		},
		"huge schema": func(i int) (string, string, string) {
			return "POST", base + "/schema", `{"topic":"huge-` + n.sfx + "-" + strconv.Itoa(i) + `"` + hugeSchema
		},
		"costly filter": func(int) (string, string, string) {
			return "GET", base + "/topic/" + n.big + "/messages?limit=100&filter=" + filter, ""
		},
		"tail": func(int) (string, string, string) {
			return "GET", base + "/topic/" + n.big + "/messages?after=0:0,1:0,2:0&limit=100", ""
		},
	}
	only := os.Getenv("NOISY_ONLY")
	for name, next := range work {
		if only != "" && !strings.Contains(only, name) {
			continue
		}
		for w := range 2 {
			wg.Go(func() {
				for i := w; gate.enter(); i += 2 {
					method, u, body := next(i)
					req, _ := http.NewRequest(method, u, strings.NewReader(body))
					req.Header.Set("Authorization", "Bearer "+n.token)
					req.Header.Set("Content-Type", "application/json")
					status := 0
					if resp, err := http.DefaultClient.Do(req); err == nil {
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						status = resp.StatusCode
					}
					n.mu.Lock()
					if n.counts[name] == nil {
						n.counts[name] = map[int]int{}
					}
					n.counts[name][status]++
					n.mu.Unlock()
					gate.leave()
				}
			})
		}
	}
}

func (n *noisyUnit) answers() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var parts []string
	for name, byStatus := range n.counts {
		parts = append(parts, fmt.Sprintf("%s %v", name, byStatus))
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}
