// Command mkrelease writes a release's documents from its built files: a
// CycloneDX SBOM of the portal binary and image (cyclonedx-gomod's account
// of the Go modules as built, completed with the C libraries linked into
// the static binary and the image's CA bundle) and the release notes (the
// commits since the previous tag).
//
//	go run ./cmd/mkrelease sbom  --binary build/release/portal-linux-amd64 --gomod gomod.cdx.json \
//	    --musl 1.2.3 --certs /etc/ssl/certs/ca-certificates.crt --certs-version 20230311 \
//	    --version v1.4.0 --out build/release/sbom.cdx.json
//	go run ./cmd/mkrelease notes --version v1.4.0 --out build/release/RELEASE_NOTES.md
//	go run ./cmd/mkrelease osvdb --vulns DIR --version - --out build/osvdb/osv-scanner
//	go run ./cmd/mkrelease provider --version v1.4.0 --out build/release/terraform-provider \
//	    --mirror build/release/terraform-mirror/registry.terraform.io/edh-platform/portal linux_amd64=bin1 darwin_arm64=bin2 ...
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "mkrelease:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: mkrelease sbom|notes|osvdb|provider [flags]")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	var in sbomInput
	fs.StringVar(&in.binary, "binary", "", "sbom: the portal binary")
	fs.StringVar(&in.gomod, "gomod", "", "sbom: cyclonedx-gomod's SBOM of the binary (bin -json)")
	fs.StringVar(&in.musl, "musl", "", "sbom: the musl version the binary links statically")
	fs.StringVar(&in.certs, "certs", "", "sbom: the CA bundle the image holds")
	fs.StringVar(&in.certsVersion, "certs-version", "", "sbom: the CA bundle's version (Debian's ca-certificates)")
	version := fs.String("version", "", "the release's version (vX.Y.Z)")
	out := fs.String("out", "", "the file to write")
	vulns := fs.String("vulns", "", "osvdb: the directory of OSV files")
	date := fs.String("date", "", "the release's time (RFC 3339; the commit's)")
	mirror := fs.String("mirror", "", "provider: the filesystem mirror's directory of the provider")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *version == "" || *out == "" {
		return errors.New("--version and --out are required")
	}
	switch args[0] {
	case "sbom":
		in.version, in.date = *version, *date
		b, err := sbom(in)
		if err != nil {
			return err
		}
		return os.WriteFile(*out, b, 0o644)
	case "provider":
		bins := map[string]string{}
		for _, a := range fs.Args() {
			target, bin, ok := strings.Cut(a, "=")
			if !ok {
				return fmt.Errorf("provider takes OS_ARCH=BINARY, not %q", a)
			}
			bins[target] = bin
		}
		if len(bins) == 0 || *mirror == "" {
			return errors.New("provider needs --mirror and OS_ARCH=BINARY for each platform")
		}
		return packProvider(*out, *mirror, *version, bins)
	case "osvdb":
		return osvDatabase(*vulns, *out)
	case "notes":
		b, err := notes(*version)
		if err != nil {
			return err
		}
		return os.WriteFile(*out, b, 0o644)
	}
	return fmt.Errorf("unknown command %q", args[0])
}

// notes lists the commits since the previous tag (all without one).
func notes(version string) ([]byte, error) {
	rng := "HEAD"
	if prev, err := exec.Command("git", "describe", "--tags", "--abbrev=0", "HEAD^").Output(); err == nil {
		rng = strings.TrimSpace(string(prev)) + "..HEAD"
	}
	out, err := exec.Command("git", "log", "--no-merges", "--format=%s", rng).Output()
	if err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	var b bytes.Buffer
	since := "the first commit (no earlier tag)"
	if rng != "HEAD" {
		since = strings.TrimSuffix(rng, "..HEAD")
	}
	fmt.Fprintf(&b, "# rms-portal %s\n\nChanges since %s:\n\n", version, since)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if len(line) > 300 {
			line = line[:297] + "..."
		}
		fmt.Fprintf(&b, "- %s\n", line)
	}
	b.WriteString("\nArtifacts: the portal's static binaries (linux/amd64, and linux/arm64 where the build had the aarch64 toolchain), " +
		"portalctl for Linux, macOS and Windows (amd64, arm64), the OCI image (an index of both architectures when there are two), " +
		"the Helm chart, a CycloneDX SBOM and SHA256SUMS.\n")
	return b.Bytes(), sc.Err()
}
