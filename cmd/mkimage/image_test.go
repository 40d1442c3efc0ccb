package main

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// imageDir is where `make image` writes the image.
const imageDir = "../../build/image"

// TestImageServes opens the image `make image` built, checks its
// configuration (entrypoint, non-root user, version labels), unpacks its
// filesystem and runs the entrypoint inside it (chroot, as the image's
// user, when the test runs as root): `portal dev` says that dev mode is
// not in this binary, and `portal serve` with a configuration whose
// platform is a dev instance (started from a normal build) answers
// /readyz 200 and its version.
func TestImageServes(t *testing.T) {
	if testing.Short() {
		t.Skip("short: the image test runs the static binary")
	}
	img := openImage(t)
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cf.Config
	if c.User != "65532:65532" {
		t.Errorf("user %q, want the non-root 65532:65532", c.User)
	}
	if !slices.Equal(c.Entrypoint, []string{"/usr/bin/portal"}) {
		t.Errorf("entrypoint %v", c.Entrypoint)
	}
	for _, l := range []string{"org.opencontainers.image.version", "org.opencontainers.image.revision", "org.opencontainers.image.created"} {
		if c.Labels[l] == "" {
			t.Errorf("label %s is missing", l)
		}
	}
	if cf.OS != "linux" {
		t.Errorf("os %q", cf.OS)
	}

	root := t.TempDir()
	unpack(t, img, root)
	for _, p := range []string{"usr/bin/portal", "etc/ssl/certs/ca-certificates.crt", "etc/passwd", "tmp"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("the image lacks /%s: %v", p, err)
		}
	}
	out, err := exec.Command("file", filepath.Join(root, "usr/bin/portal")).Output()
	if err == nil && !strings.Contains(string(out), "statically linked") {
		t.Errorf("the binary is not static: %s", out)
	}
	chrooted := os.Geteuid() == 0
	if chrooted {
		// The unpacked root is the process's whole filesystem, and it runs
		// as the image's user: nothing of the host is reachable.
		if err := os.Chmod(root, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(filepath.Join(root, dataPath), uid, uid); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Log("not root: running the image's binary without chroot")
	}
	inImage := func(ctx context.Context, env []string, args ...string) *exec.Cmd {
		var cmd *exec.Cmd
		if chrooted {
			cmd = exec.CommandContext(ctx, c.Entrypoint[0], args...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: uid, Gid: uid}}
			cmd.Dir = c.WorkingDir
		} else {
			cmd = exec.CommandContext(ctx, filepath.Join(root, c.Entrypoint[0]), args...)
			env = append(env, "TMPDIR="+t.TempDir())
		}
		cmd.Env = append(slices.Clone(c.Env), env...)
		return cmd
	}

	// The image's binary has no dev mode: nobody is signed in without a
	// password by it.
	devOut, err := inImage(t.Context(), nil, "dev").CombinedOutput()
	if err == nil || !strings.Contains(string(devOut), "dev mode is not in this binary") {
		t.Errorf("portal dev in the image: %v\n%s", err, devOut)
	}

	// A platform for it: a dev instance from a normal build.
	platform := startDevInstance(t)
	configDir := filepath.Join(root, "tmp")
	if err := os.WriteFile(filepath.Join(configDir, "serve.yaml"), platform.serveConfig, 0o644); err != nil {
		t.Fatal(err)
	}
	configPath := filepath.Join(configDir, "serve.yaml")
	dbPath := filepath.Join(t.TempDir(), "portal.db")
	if chrooted {
		configPath, dbPath = "/tmp/serve.yaml", "/"+dataPath+"/portal.db"
	}
	port := freePort(t)
	ctx, cancel := context.WithCancel(t.Context())
	cmd := inImage(ctx, []string{"PORT=" + port, "BASE_URL=http://127.0.0.1:" + port, "DATABASE_URL=sqlite:" + dbPath},
		"serve", "--config", configPath)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cancel()
		<-exited
	})
	waitReady(t, "http://127.0.0.1:"+port, exited, &logs)
	resp, err := http.Get("http://127.0.0.1:" + port + "/api/v1/version")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"version":"`+c.Labels["org.opencontainers.image.version"]+`"`) {
		t.Errorf("the binary's version %s differs from the label %s", body, c.Labels["org.opencontainers.image.version"])
	}
}

// devInstance is a dev-mode portal from a normal build, as a platform.
type devInstance struct {
	serveConfig []byte
}

// startDevInstance builds cmd/portal as usual (with dev mode), runs it on
// a loopback port and reads the serve configuration it writes.
func startDevInstance(t *testing.T) devInstance {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "portal")
	if out, err := exec.Command("go", "build", "-o", bin, "../portal").CombinedOutput(); err != nil {
		t.Fatalf("building the dev instance: %v\n%s", err, out)
	}
	port := freePort(t)
	serveConfig := filepath.Join(dir, "serve.yaml")
	ctx, cancel := context.WithCancel(t.Context())
	cmd := exec.CommandContext(ctx, bin, "dev", "--data", filepath.Join(dir, "data"), "--write-serve-config", serveConfig)
	cmd.Env = append(os.Environ(), "PORT="+port, "BASE_URL=http://127.0.0.1:"+port)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cancel()
		<-exited
	})
	waitReady(t, "http://127.0.0.1:"+port, exited, &logs)
	b, err := os.ReadFile(serveConfig)
	if err != nil {
		t.Fatal(err)
	}
	return devInstance{serveConfig: b}
}

// waitReady waits for base's /readyz to answer 200, failing when the
// process exits first or a minute passes.
func waitReady(t *testing.T, base string, exited chan error, logs *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
			err = errors.New(resp.Status + " " + string(body))
		}
		select {
		case e := <-exited:
			exited <- e // the cleanup waits for it too
			t.Fatalf("the process exited: %v\n%s", e, logs.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s/readyz did not answer 200 in time: %v\n%s", base, err, logs.String())
		}
	}
}

// openImage reads the image from the OCI layout. `make test` builds it
// first and sets PORTAL_IMAGE_REQUIRED, so that a missing image fails
// there; a bare `go test` without one skips.
func openImage(t *testing.T) v1.Image {
	t.Helper()
	idx, err := layout.ImageIndexFromPath(filepath.Join(imageDir, "oci"))
	if err != nil {
		if os.Getenv("PORTAL_IMAGE_REQUIRED") != "" {
			t.Fatalf("no image: %v (make image builds it)", err)
		}
		t.Skipf("no image (make image builds it): %v", err)
	}
	m, err := idx.IndexManifest()
	if err != nil || len(m.Manifests) != 1 {
		t.Fatalf("index: %v, %d manifests", err, len(m.Manifests))
	}
	img, err := idx.Image(m.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// unpack writes the image's flattened filesystem under root.
func unpack(t *testing.T, img v1.Image, root string) {
	t.Helper()
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, os.FileMode(h.Mode).Perm()|modeBits(h.Mode)); err != nil {
				t.Fatal(err)
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode).Perm())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(f, tr); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("unexpected entry %s (type %c)", h.Name, h.Typeflag)
		}
	}
}

// modeBits carries the sticky bit of /tmp.
func modeBits(mode int64) os.FileMode {
	if mode&0o1000 != 0 {
		return os.ModeSticky
	}
	return 0
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// TestBuildIsReproducible: the same inputs give the same digest, the
// layer holds the files with their owners and modes, and a missing binary
// is a clear error.
func TestBuildIsReproducible(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "portal")
	if err := os.WriteFile(bin, []byte("#!/bin/false\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	certs := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(certs, []byte("-----BEGIN CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options{binary: bin, certs: certs, version: "1.2.3", commit: "abc", date: "2026-11-22T20:00:00Z", platformOS: "linux", platArch: "amd64"}
	a, err := build(o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := build(o)
	if err != nil {
		t.Fatal(err)
	}
	da, _ := a.Digest()
	db, _ := b.Digest()
	if da != db {
		t.Errorf("two builds differ: %s %s", da, db)
	}
	rc := mutate.Extract(a)
	defer rc.Close()
	tr := tar.NewReader(rc)
	got := map[string]*tar.Header{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got[strings.TrimSuffix(h.Name, "/")] = h
	}
	for name, want := range map[string]struct {
		mode int64
		uid  int
	}{
		"usr/bin/portal": {0o755, 0}, "tmp": {0o1777, 0}, "var/lib/portal": {0o750, uid}, "etc/ssl/certs/ca-certificates.crt": {0o644, 0},
	} {
		h := got[name]
		if h == nil {
			t.Errorf("no %s in the layer", name)
			continue
		}
		if h.Mode != want.mode || h.Uid != want.uid || !h.ModTime.Equal(time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)) {
			t.Errorf("%s: mode %o uid %d time %s", name, h.Mode, h.Uid, h.ModTime)
		}
	}
	o.binary = filepath.Join(dir, "missing")
	if _, err := build(o); err == nil || !strings.Contains(err.Error(), "make static") {
		t.Errorf("missing binary: %v", err)
	}
}

// TestTwoArchitecturesMakeAnIndex: with an arm64 binary too, the layout's
// one reference is an image index of a linux/amd64 and a linux/arm64
// image, each with its own binary and the version in its labels, and each
// architecture has its tarball.
func TestTwoArchitecturesMakeAnIndex(t *testing.T) {
	dir := t.TempDir()
	bins := map[string]string{}
	for _, arch := range []string{"amd64", "arm64"} {
		bins[arch] = filepath.Join(dir, "portal-"+arch)
		if err := os.WriteFile(bins[arch], []byte("#!/bin/false "+arch+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	certs := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(certs, []byte("-----BEGIN CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "image")
	o := options{binary: bins["amd64"], binaryARM64: bins["arm64"], certs: certs, out: out, version: "v1.2.3", commit: "abc",
		date: "2026-11-22T20:00:00Z", platformOS: "linux", platArch: "amd64", repo: "rms-portal"}
	if err := run(o); err != nil {
		t.Fatal(err)
	}
	top, err := layout.ImageIndexFromPath(filepath.Join(out, "oci"))
	if err != nil {
		t.Fatal(err)
	}
	tm, err := top.IndexManifest()
	if err != nil || len(tm.Manifests) != 1 || tm.Manifests[0].MediaType != types.OCIImageIndex {
		t.Fatalf("the layout's reference: %+v %v", tm, err)
	}
	idx, err := top.ImageIndex(tm.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	m, err := idx.IndexManifest()
	if err != nil || len(m.Manifests) != 2 {
		t.Fatalf("the index: %+v %v", m, err)
	}
	for _, d := range m.Manifests {
		img, err := idx.Image(d.Digest)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := img.ConfigFile()
		if err != nil || cf.Architecture != d.Platform.Architecture || cf.OS != "linux" || cf.Config.Labels["org.opencontainers.image.version"] != "v1.2.3" {
			t.Fatalf("%s: %+v %v", d.Platform.Architecture, cf, err)
		}
		root := t.TempDir()
		unpack(t, img, root)
		if bin, _ := os.ReadFile(filepath.Join(root, "usr/bin/portal")); !strings.Contains(string(bin), d.Platform.Architecture) {
			t.Errorf("the %s image holds %q", d.Platform.Architecture, bin)
		}
	}
	for _, f := range []string{"portal-image.tar", "portal-image-arm64.tar"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
