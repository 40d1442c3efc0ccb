// Command mkimage assembles the portal's container image without a
// container engine: one layer on an empty base holding the static binary,
// CA certificates, a non-root user and writable /tmp and /var/lib/portal,
// written as an OCI image layout and as a tarball that `docker load` and
// `podman load` accept.
//
//	go run ./cmd/mkimage --binary build/portal --out build/image --version 1.4.0 --commit abc --date 2026-11-22T20:00:00Z
//
// With --binary-arm64 the layout holds an image index of both
// architectures (and a second tarball, portal-image-arm64.tar).
//
// The layer's files carry the build date, so the same inputs give the
// same image digest.
package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The user the portal runs as: no shell, no home, no privileges.
const (
	uid      = 65532
	user     = "portal"
	binPath  = "usr/bin/portal"
	dataPath = "var/lib/portal"
	certPath = "etc/ssl/certs/ca-certificates.crt"
)

// options are the command's flags.
type options struct {
	binary, certs, out string
	// binaryARM64, when set, adds a linux/arm64 image under an index.
	binaryARM64          string
	version, commit      string
	date, source, repo   string
	platformOS, platArch string
}

func main() {
	var o options
	flag.StringVar(&o.binary, "binary", "build/portal", "the static portal binary")
	flag.StringVar(&o.certs, "certs", "/etc/ssl/certs/ca-certificates.crt", "CA certificates bundle to include")
	flag.StringVar(&o.out, "out", "build/image", "output directory (oci/ layout and portal-image.tar)")
	flag.StringVar(&o.version, "version", "dev", "version label and tag")
	flag.StringVar(&o.commit, "commit", "", "commit label")
	flag.StringVar(&o.date, "date", "", "build date (RFC 3339); the files' times and the created label")
	flag.StringVar(&o.source, "source", "https://github.com/edh-platform/rms-portal", "source label")
	flag.StringVar(&o.repo, "repository", "rms-portal", "repository name of the tarball's tag")
	flag.StringVar(&o.platformOS, "os", "linux", "image OS")
	flag.StringVar(&o.platArch, "arch", "amd64", "image architecture")
	flag.StringVar(&o.binaryARM64, "binary-arm64", "", "the static portal binary for linux/arm64: the layout then holds an index of both images")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "mkimage:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	img, err := build(o)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(o.out); err != nil {
		return err
	}
	lp, err := layout.Write(filepath.Join(o.out, "oci"), empty.Index)
	if err != nil {
		return fmt.Errorf("OCI layout: %w", err)
	}
	ref := o.repo + ":" + tagOf(o.version)
	refName := layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref})
	images := map[string]v1.Image{o.platArch: img}
	if o.binaryARM64 == "" {
		err = lp.AppendImage(img, refName)
	} else {
		arm := o
		arm.binary, arm.platArch = o.binaryARM64, "arm64"
		if images["arm64"], err = build(arm); err != nil {
			return err
		}
		idx := v1.ImageIndex(empty.Index)
		for _, arch := range []string{o.platArch, "arm64"} {
			idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: images[arch],
				Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: o.platformOS, Architecture: arch}}})
		}
		idx = mutate.IndexMediaType(idx, types.OCIImageIndex)
		err = lp.AppendIndex(idx, refName)
		if err == nil {
			d, _ := idx.Digest()
			fmt.Printf("index %s %s (%s, arm64)\n", ref, d, o.platArch)
		}
	}
	if err != nil {
		return fmt.Errorf("OCI layout: %w", err)
	}
	tag, err := name.NewTag(ref)
	if err != nil {
		return err
	}
	for _, arch := range []string{o.platArch, "arm64"} {
		img, ok := images[arch]
		if !ok {
			continue
		}
		tarPath := filepath.Join(o.out, "portal-image.tar")
		if arch != o.platArch {
			tarPath = filepath.Join(o.out, "portal-image-"+arch+".tar")
		}
		if err := tarball.WriteToFile(tarPath, tag, img); err != nil {
			return fmt.Errorf("tarball: %w", err)
		}
		digest, err := img.Digest()
		if err != nil {
			return err
		}
		size, err := imageSize(img)
		if err != nil {
			return err
		}
		fmt.Printf("image %s %s %s\n  layout  %s\n  tarball %s\n  size    %.1f MB compressed\n", ref, arch, digest, filepath.Join(o.out, "oci"), tarPath,
			float64(size)/1e6)
	}
	return nil
}

// tagOf makes a version usable as a tag (no "+", at most 128 characters).
func tagOf(v string) string {
	v = strings.NewReplacer("+", "_", "/", "-").Replace(v)
	if len(v) > 128 {
		v = v[:128]
	}
	return v
}

// build assembles the image.
func build(o options) (v1.Image, error) {
	created := time.Unix(0, 0).UTC()
	if o.date != "" {
		t, err := time.Parse(time.RFC3339, o.date)
		if err != nil {
			return nil, fmt.Errorf("--date: %w", err)
		}
		created = t.UTC()
	}
	bin, err := os.ReadFile(o.binary)
	if err != nil {
		return nil, fmt.Errorf("the binary: %w (make static builds it)", err)
	}
	certs, err := os.ReadFile(o.certs)
	if err != nil {
		return nil, fmt.Errorf("CA certificates: %w (install Debian's ca-certificates)", err)
	}
	fs, err := rootFS(created, bin, certs)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(fs)), nil },
		tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	if img, err = mutate.AppendLayers(img, layer); err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = o.platformOS, o.platArch
	cf.Created = v1.Time{Time: created}
	cf.Config = v1.Config{
		Entrypoint:   []string{"/" + binPath},
		Cmd:          []string{"serve"},
		User:         fmt.Sprintf("%d:%d", uid, uid),
		WorkingDir:   "/" + dataPath,
		Env:          []string{"RMS_CONFIG=/etc/portal/config.yaml", "TMPDIR=/tmp"},
		ExposedPorts: map[string]struct{}{"8080/tcp": {}},
		Labels:       labels(o, created),
	}
	return mutate.ConfigFile(img, cf)
}

func labels(o options, created time.Time) map[string]string {
	l := map[string]string{
		"org.opencontainers.image.title":       "rms-portal",
		"org.opencontainers.image.description": "Self-service portal and REST API for the tenants of a managed Kafka platform",
		"org.opencontainers.image.version":     o.version,
		"org.opencontainers.image.created":     created.Format(time.RFC3339),
		"org.opencontainers.image.source":      o.source,
	}
	if o.commit != "" {
		l["org.opencontainers.image.revision"] = o.commit
	}
	return l
}

// rootFS is the layer's tar: directories first, every entry stamped with
// the build date.
func rootFS(at time.Time, bin, certs []byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := func(p string, mode int64, owner int) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: p + "/", Mode: mode, Uid: owner, Gid: owner, ModTime: at, Format: tar.FormatPAX})
	}
	file := func(p string, mode int64, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: p, Mode: mode, Size: int64(len(data)), ModTime: at, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:rms-portal:/%s:/sbin/nologin\n", user, uid, uid, dataPath)
	group := fmt.Sprintf("root:x:0:\n%s:x:%d:\n", user, uid)
	// /etc/hosts lets the binary resolve localhost where the runtime does
	// not provide the file (Kubernetes and Docker mount their own).
	hosts := "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"
	steps := []error{
		dir("etc", 0o755, 0), dir("etc/portal", 0o755, 0), dir("etc/ssl", 0o755, 0), dir("etc/ssl/certs", 0o755, 0),
		file("etc/passwd", 0o644, []byte(passwd)), file("etc/group", 0o644, []byte(group)),
		file("etc/hosts", 0o644, []byte(hosts)), file(certPath, 0o644, certs),
		dir("tmp", 0o1777, 0), dir("usr", 0o755, 0), dir("usr/bin", 0o755, 0), file(binPath, 0o755, bin),
		dir("var", 0o755, 0), dir("var/lib", 0o755, 0), dir(dataPath, 0o750, uid),
		tw.Close(),
	}
	if err := errors.Join(steps...); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// imageSize is the sum of the compressed layers and the config.
func imageSize(img v1.Image) (int64, error) {
	m, err := img.Manifest()
	if err != nil {
		return 0, err
	}
	n := m.Config.Size
	for _, l := range m.Layers {
		n += l.Size
	}
	return n, nil
}
