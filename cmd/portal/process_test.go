package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
	binDir    string
)

// portalBinary builds the portal once per test run and returns its path.
// It is built as it ships, without the race detector even when the
// tests run under it: nothing read a child's race reports, and with it
// this package's run took about a quarter more processor time. The same
// code runs under the detector in this package's in-process portals and
// in every service and door test.
func portalBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "rms-portal-bin-")
		if buildErr != nil {
			return
		}
		binary = filepath.Join(binDir, "portal")
		out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// logBuffer collects a process's output safely across goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(b)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// process is a portal process started by a test.
type process struct {
	t    testing.TB
	name string
	cmd  *exec.Cmd
	log  *logBuffer
	url  string
	args []string
	env  []string
	done chan struct{}
	// binary, when set, is run instead of the test build.
	binary string
	// apart, when set, runs it at the lowest priority (every thread of
	// it): lowPriority.
	apart bool
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startProcess runs the portal binary with args and extra environment,
// on a free port whose URL is the process's base URL, and waits until it
// is ready. It is killed when the test ends.
func startProcess(t testing.TB, name string, args []string, env ...string) *process {
	t.Helper()
	return startBinary(t, "", name, args, env...)
}

// startBinary is startProcess with another binary than the test build
// ("" for the test build).
func startBinary(t testing.TB, binary, name string, args []string, env ...string) *process {
	t.Helper()
	return startAt(t, false, binary, name, args, env...)
}

// startAt is startBinary, at the lowest priority when apart: for what
// stands in for other machines (lowPriority).
func startAt(t testing.TB, apart bool, binary, name string, args []string, env ...string) *process {
	t.Helper()
	port := freePort(t)
	p := &process{t: t, name: name, binary: binary, url: fmt.Sprintf("http://127.0.0.1:%d", port), args: args, apart: apart,
		env: append([]string{fmt.Sprintf("PORT=%d", port), fmt.Sprintf("BASE_URL=http://127.0.0.1:%d", port)}, env...)}
	p.start()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("log of %s:\n%s", p.name, p.log.String())
		}
	})
	return p
}

func (p *process) start() {
	p.t.Helper()
	p.log = &logBuffer{}
	bin := p.binary
	if bin == "" {
		bin = portalBinary(p.t)
	}
	p.cmd = exec.Command(bin, p.args...)
	if p.apart {
		p.cmd = lowPriority(bin, p.args...)
	}
	p.cmd.Env = append(os.Environ(), p.env...)
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.done = make(chan struct{})
	go func() {
		_ = p.cmd.Wait()
		close(p.done)
	}()
	p.waitReady(90 * time.Second)
}

// waitReady polls /readyz until it answers 200.
func (p *process) waitReady(limit time.Duration) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url+"/readyz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-p.done:
			p.t.Fatalf("%s exited before it was ready:\n%s", p.name, p.log.String())
		case <-ctx.Done():
			p.t.Fatalf("%s was not ready within %v:\n%s", p.name, limit, p.log.String())
		case <-tick.C:
		}
	}
}

// kill stops the process at once, as a crash would.
func (p *process) kill() {
	if p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// terminate stops the process as an orchestrator does (SIGTERM), and
// waits for its end.
func (p *process) terminate() {
	p.t.Helper()
	if p.cmd.Process == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(2 * time.Minute):
		p.t.Fatalf("%s did not stop within 2 minutes of SIGTERM", p.name)
	}
}

// restart kills the process and starts it again on the same port.
func (p *process) restart() {
	p.t.Helper()
	p.kill()
	p.start()
}

// lowPriority is a command that runs at the lowest priority (SCHED_IDLE
// with chrt, else nice 19), for what a benchmark runs on this machine but
// a platform runs on others (a tenant's clients, Confluent's clusters):
// it gets the processors only when the measured process leaves them.
func lowPriority(bin string, args ...string) *exec.Cmd {
	if _, err := exec.LookPath("chrt"); err == nil {
		return exec.Command("chrt", append([]string{"--idle", "0", bin}, args...)...)
	}
	return exec.Command("nice", append([]string{"-n", "19", bin}, args...)...)
}
