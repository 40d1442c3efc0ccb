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
)

// imageDir is where `make image` writes the image.
const imageDir = "../../build/image"

// TestImageServes opens the image `make image` built, checks its
// configuration (entrypoint, non-root user, version labels), unpacks its
// filesystem and runs the entrypoint in dev mode inside it (chroot, as the
// image's user, when the test runs as root): /readyz must answer 200.
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

	port := freePort(t)
	ctx, cancel := context.WithCancel(t.Context())
	var cmd *exec.Cmd
	env := append(slices.Clone(c.Env), "PORT="+port, "BASE_URL=http://127.0.0.1:"+port)
	if os.Geteuid() == 0 {
		// The unpacked root is the process's whole filesystem, and it runs
		// as the image's user: nothing of the host is reachable.
		if err := os.Chmod(root, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(filepath.Join(root, dataPath), uid, uid); err != nil {
			t.Fatal(err)
		}
		cmd = exec.CommandContext(ctx, c.Entrypoint[0], "dev")
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		cmd.Dir = c.WorkingDir
	} else {
		t.Log("not root: running the image's binary without chroot")
		cmd = exec.CommandContext(ctx, filepath.Join(root, c.Entrypoint[0]), "dev")
		env = append(env, "TMPDIR="+t.TempDir())
	}
	cmd.Env = env
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

	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get("http://127.0.0.1:" + port + "/readyz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
			err = errors.New(resp.Status + " " + string(body))
		}
		select {
		case e := <-exited:
			t.Fatalf("the entrypoint exited: %v\n%s", e, logs.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz did not answer 200 within a minute: %v\n%s", err, logs.String())
		}
	}
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
