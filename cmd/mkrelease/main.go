// Command mkrelease writes a release's documents from its built files: a
// CycloneDX SBOM of the portal binary (its Go modules as built, the Go
// toolchain, and the librdkafka that confluent-kafka-go bundles into it)
// and the release notes (the commits since the previous tag).
//
//	go run ./cmd/mkrelease sbom  --binary build/release/portal-linux-amd64 --version v1.4.0 --out build/release/sbom.cdx.json
//	go run ./cmd/mkrelease notes --version v1.4.0 --out build/release/RELEASE_NOTES.md
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "mkrelease:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: mkrelease sbom|notes [flags]")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	binary := fs.String("binary", "", "sbom: the portal binary")
	version := fs.String("version", "", "the release's version (vX.Y.Z)")
	out := fs.String("out", "", "the file to write")
	date := fs.String("date", "", "the release's time (RFC 3339; the commit's)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *version == "" || *out == "" {
		return errors.New("--version and --out are required")
	}
	switch args[0] {
	case "sbom":
		b, err := sbom(*binary, *version, *date)
		if err != nil {
			return err
		}
		return os.WriteFile(*out, b, 0o644)
	case "notes":
		b, err := notes(*version)
		if err != nil {
			return err
		}
		return os.WriteFile(*out, b, 0o644)
	}
	return fmt.Errorf("unknown command %q", args[0])
}

// component is a CycloneDX component.
type component struct {
	Type    string `json:"type"`
	BOMRef  string `json:"bom-ref,omitempty"`
	Name    string `json:"name"`
	Version string `json:"version"`
	PURL    string `json:"purl,omitempty"`
	Hashes  []hash `json:"hashes,omitempty"`
	// Description says where a component comes from when its package
	// manager does not (the bundled C library).
	Description string `json:"description,omitempty"`
}

type hash struct {
	Alg     string `json:"alg"`
	Content string `json:"content"`
}

// sbom describes the binary: its module, each dependency module as linked
// (debug/buildinfo), the Go toolchain, and librdkafka at the version the
// linked confluent-kafka-go bundles (read from its rdkafka.h).
func sbom(binary, version, date string) ([]byte, error) {
	info, err := buildinfo.ReadFile(binary)
	if err != nil {
		return nil, fmt.Errorf("reading the binary's build information: %w", err)
	}
	data, err := os.ReadFile(binary)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	ts := time.Now().UTC()
	if date != "" {
		if ts, err = time.Parse(time.RFC3339, date); err != nil {
			return nil, fmt.Errorf("--date: %w", err)
		}
	}
	main := component{Type: "application", BOMRef: info.Main.Path, Name: "rms-portal", Version: version,
		PURL: "pkg:golang/" + info.Main.Path + "@" + version, Hashes: []hash{{Alg: "SHA-256", Content: fmt.Sprintf("%x", sum)}}}
	comps := []component{{Type: "platform", Name: "go", Version: strings.TrimPrefix(info.GoVersion, "go"), PURL: "pkg:golang/stdlib@" + info.GoVersion}}
	kafkaDir := ""
	for _, d := range info.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		comps = append(comps, component{Type: "library", BOMRef: m.Path, Name: m.Path, Version: m.Version, PURL: "pkg:golang/" + m.Path + "@" + m.Version})
		if m.Path == "github.com/confluentinc/confluent-kafka-go/v2" {
			kafkaDir = moduleDir(m.Path, m.Version)
		}
	}
	if kafkaDir == "" {
		return nil, errors.New("the binary does not link confluent-kafka-go, or its module is not in the module cache")
	}
	rdk, err := librdkafkaVersion(filepath.Join(kafkaDir, "kafka", "librdkafka_vendor", "rdkafka.h"))
	if err != nil {
		return nil, err
	}
	comps = append(comps, component{Type: "library", BOMRef: "librdkafka", Name: "librdkafka", Version: rdk,
		PURL: "pkg:github/confluentinc/librdkafka@v" + rdk, Description: "C library linked statically, bundled by confluent-kafka-go"})
	doc := map[string]any{
		"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1,
		"serialNumber": fmt.Sprintf("urn:uuid:%s", uuidFrom(sum[:])),
		"metadata": map[string]any{
			"timestamp": ts.Format(time.RFC3339),
			"component": main,
			"tools":     []map[string]string{{"vendor": "rms-portal", "name": "mkrelease"}},
		},
		"components": comps,
	}
	return json.MarshalIndent(doc, "", "  ")
}

// moduleDir finds a module's directory in the module cache.
func moduleDir(path, version string) string {
	out, err := exec.Command("go", "mod", "download", "-json", path+"@"+version).Output()
	if err != nil {
		return ""
	}
	var m struct{ Dir string }
	if json.Unmarshal(out, &m) != nil {
		return ""
	}
	return m.Dir
}

var rdkafkaVersion = regexp.MustCompile(`(?m)^#define RD_KAFKA_VERSION\s+0x([0-9a-fA-F]{8})`)

// librdkafkaVersion reads RD_KAFKA_VERSION (0xMMmmrrpp) from rdkafka.h.
func librdkafkaVersion(header string) (string, error) {
	b, err := os.ReadFile(header)
	if err != nil {
		return "", fmt.Errorf("librdkafka's header: %w", err)
	}
	m := rdkafkaVersion.FindSubmatch(b)
	if m == nil {
		return "", errors.New("librdkafka's header names no RD_KAFKA_VERSION")
	}
	n, _ := strconv.ParseUint(string(m[1]), 16, 32)
	return fmt.Sprintf("%d.%d.%d", n>>24&0xff, n>>16&0xff, n>>8&0xff), nil
}

// uuidFrom shapes a version-4-looking UUID from a digest, so that the same
// binary gets the same serial number.
func uuidFrom(b []byte) string {
	u := make([]byte, 16)
	copy(u, b)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
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
