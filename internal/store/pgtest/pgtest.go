// Package pgtest gives tests a real PostgreSQL: the server named by
// TEST_DATABASE_URL, or a throwaway one started from the system's initdb
// and pg_ctl in a temporary directory on a free loopback port (dropping
// root privileges to the postgres user, as initdb refuses root). Each test
// gets a database of its own on that server.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Server is a PostgreSQL server for tests.
type Server struct {
	// URL connects to the server's postgres database as a superuser.
	URL  string
	stop func()
	// ctl runs pg_ctl on the server's data directory (own servers only).
	ctl func(args ...string) error
}

var (
	once    sync.Once
	shared  *Server
	initErr error
)

// Main runs a package's tests and stops the throwaway server, if one was
// started, when they end; call it from TestMain.
func Main(m interface{ Run() int }) int {
	code := m.Run()
	if shared != nil && shared.stop != nil {
		shared.stop()
	}
	return code
}

// Start returns the package's server, starting it on first use. It fails
// the test when no server can be had.
func Start(t testing.TB) *Server {
	t.Helper()
	once.Do(func() { shared, initErr = start() })
	if initErr != nil {
		t.Fatalf("PostgreSQL for tests: %v (install the postgresql package, or set TEST_DATABASE_URL)", initErr)
	}
	return shared
}

// Database creates an empty database for one test and returns its URL; it
// is dropped when the test ends.
func Database(t testing.TB) string {
	t.Helper()
	s := Start(t)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "test_" + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, s.URL)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, _ := url.Parse(s.URL)
	u.Path = "/" + name
	return u.String()
}

func start() (*Server, error) {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return &Server{URL: u}, nil
	}
	return startServer()
}

// Own starts a server for one test alone, which the test may stop and
// start again (a database outage); it is removed when the test ends.
func Own(t testing.TB) *Server {
	t.Helper()
	s, err := startServer()
	if err != nil {
		t.Fatalf("PostgreSQL for tests: %v (install the postgresql package)", err)
	}
	t.Cleanup(s.stop)
	return s
}

// Stop stops an own server at once, as a crash would.
func (s *Server) Stop() error { return s.ctl("-m", "immediate", "-w", "stop") }

// Start starts an own server again after Stop, on the same address.
func (s *Server) Start() error { return s.ctl("-w", "-t", "60", "start") }

func startServer() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "rms-portal-pg-")
	if err != nil {
		return nil, err
	}
	run, err := runner(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if out, err := run(filepath.Join(bin, "initdb"), "-D", data, "-U", "portal", "--auth=trust", "-E", "UTF8", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200", port, dir)
	ctl := func(args ...string) error {
		all := append([]string{"-D", data, "-o", opts, "-l", filepath.Join(dir, "log")}, args...)
		if out, err := run(filepath.Join(bin, "pg_ctl"), all...); err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			return fmt.Errorf("pg_ctl %s: %v: %s %s", strings.Join(args, " "), err, out, log)
		}
		return nil
	}
	if err := ctl("-w", "-t", "60", "start"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	stop := func() {
		_ = ctl("-m", "immediate", "-w", "stop")
		os.RemoveAll(dir)
	}
	return &Server{URL: fmt.Sprintf("postgres://portal@127.0.0.1:%d/postgres?sslmode=disable", port), stop: stop, ctl: ctl}, nil
}

// Tool is the path of one of PostgreSQL's programs (pg_dump, pg_restore)
// beside the server binaries.
func Tool(name string) (string, error) {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(matches) > 0 {
		return matches[len(matches)-1], nil
	}
	return exec.LookPath(name)
}

// binDir finds the server binaries: on PATH, or Debian's versioned
// directories.
func binDir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p), nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(matches) == 0 {
		return "", errors.New("no PostgreSQL server binaries (pg_ctl) found")
	}
	return filepath.Dir(matches[len(matches)-1]), nil
}

// runner runs server commands, as the postgres user when this process is
// root; dir is made theirs.
func runner(dir string) (func(name string, args ...string) ([]byte, error), error) {
	if os.Geteuid() != 0 {
		return func(name string, args ...string) ([]byte, error) {
			return exec.Command(name, args...).CombinedOutput()
		}, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, errors.New("running as root and there is no postgres user to run the server as")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	return func(name string, args ...string) ([]byte, error) {
		cmd := exec.Command("setpriv", append([]string{"--reuid=" + u.Uid, "--regid=" + u.Gid, "--init-groups", "--", name}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir)
		out, err := cmd.CombinedOutput()
		return []byte(strings.TrimSpace(string(out))), err
	}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
