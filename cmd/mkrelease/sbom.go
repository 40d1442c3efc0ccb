package main

import (
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	cdx "github.com/CycloneDX/cyclonedx-go"
)

// sbomInput is what the SBOM is made from.
type sbomInput struct {
	binary, gomod, version, date string
	// musl is the C library's version (the static binary links it).
	musl string
	// certs is the image's CA bundle, certsVersion its package's version.
	certs, certsVersion string
}

// bundled is a C library that librdkafka's static bundle holds, found by
// the archive member that carries its version string.
type bundled struct {
	name, license, purl, member string
	// version finds the version in the member's bytes.
	version *regexp.Regexp
	// marker, with %s for the version, is a string the binary holds when
	// the library is linked into it.
	marker string
}

// semver is a C string that is a bare version ("1.5.6"): after a byte no
// text has, ended by NUL.
var semver = regexp.MustCompile(`[^ -~](\d+\.\d+\.\d+)\x00`)

var bundledLibraries = []bundled{
	{name: "openssl", license: "Apache-2.0", purl: "pkg:generic/openssl@%s", member: "libcrypto-lib-cversion.o",
		version: regexp.MustCompile(`OpenSSL (\d+\.\d+\.\d+)`), marker: "OpenSSL %s"},
	{name: "zlib", license: "Zlib", purl: "pkg:generic/zlib@%s", member: "zutil.o", version: semver, marker: "deflate %s"},
	{name: "zstd", license: "BSD-3-Clause OR GPL-2.0-only", purl: "pkg:github/facebook/zstd@v%s", member: "zstd_common.o", version: semver, marker: "%s\x00"},
	{name: "lz4", license: "BSD-2-Clause", purl: "pkg:github/lz4/lz4@v%s", member: "lz4.o", version: semver, marker: "%s\x00"},
	{name: "curl", license: "curl", purl: "pkg:generic/curl@%s", member: "libcurl_la-version.o", version: semver, marker: "libcurl"},
}

// sbom completes cyclonedx-gomod's SBOM of the binary (Go modules with
// hashes and licences, the standard library, their graph) with what it
// cannot see: librdkafka as confluent-kafka-go bundles it, the C
// libraries linked with it (each found in the bundle and checked in the
// binary), musl and the image's CA bundle, each with its licence, and the
// graph between them.
func sbom(in sbomInput) ([]byte, error) {
	if in.binary == "" || in.gomod == "" {
		return nil, errors.New("sbom needs --binary and --gomod")
	}
	raw, err := os.ReadFile(in.gomod)
	if err != nil {
		return nil, err
	}
	var bom cdx.BOM
	if err := cdx.NewBOMDecoder(bytes.NewReader(raw), cdx.BOMFileFormatJSON).Decode(&bom); err != nil {
		return nil, fmt.Errorf("cyclonedx-gomod's SBOM: %w", err)
	}
	if bom.Metadata == nil || bom.Metadata.Component == nil || bom.Components == nil {
		return nil, errors.New("cyclonedx-gomod's SBOM names no main component or no components")
	}
	binary, err := os.ReadFile(in.binary)
	if err != nil {
		return nil, err
	}
	info, err := buildinfo.ReadFile(in.binary)
	if err != nil {
		return nil, fmt.Errorf("reading the binary's build information: %w", err)
	}
	if in.date != "" {
		ts, err := time.Parse(time.RFC3339, in.date)
		if err != nil {
			return nil, fmt.Errorf("--date: %w", err)
		}
		bom.Metadata.Timestamp = ts.UTC().Format(time.RFC3339)
	}
	sum := sha256.Sum256(binary)
	bom.SerialNumber = "urn:uuid:" + uuidFrom(sum[:])
	main := bom.Metadata.Component
	main.Name, main.Version = "rms-portal", in.version
	main.Hashes = &[]cdx.Hash{{Algorithm: cdx.HashAlgoSHA256, Value: fmt.Sprintf("%x", sum)}}

	kafka := ""
	for _, d := range info.Deps {
		m := d
		if d.Replace != nil {
			m = d.Replace
		}
		if m.Path == "github.com/confluentinc/confluent-kafka-go/v2" {
			kafka = moduleDir(m.Path, m.Version)
		}
	}
	if kafka == "" {
		return nil, errors.New("the binary does not link confluent-kafka-go, or its module is not in the module cache")
	}
	vendor := filepath.Join(kafka, "kafka", "librdkafka_vendor")
	rdk, err := librdkafkaVersion(filepath.Join(vendor, "rdkafka.h"))
	if err != nil {
		return nil, err
	}
	arch := archOf(info)
	archive, err := os.ReadFile(filepath.Join(vendor, "librdkafka_musl_linux_"+arch+".a"))
	if err != nil {
		return nil, fmt.Errorf("librdkafka's static bundle: %w", err)
	}
	archiveSum := sha256.Sum256(archive)
	rdkRef := "pkg:github/confluentinc/librdkafka@v" + rdk
	comps := []cdx.Component{{Type: cdx.ComponentTypeLibrary, BOMRef: rdkRef, Name: "librdkafka", Version: rdk, PackageURL: rdkRef,
		Licenses:    &cdx.Licenses{{License: &cdx.License{ID: "BSD-2-Clause"}}},
		Hashes:      &[]cdx.Hash{{Algorithm: cdx.HashAlgoSHA256, Value: fmt.Sprintf("%x", archiveSum)}},
		Description: "linked statically from confluent-kafka-go's bundle librdkafka_musl_linux_" + arch + ".a (the hash is the bundle's)"}}
	libs, rdkDeps, err := linkedLibraries(archive, binary)
	if err != nil {
		return nil, err
	}
	comps = append(comps, libs...)
	mainDeps := []string{rdkRef}
	if in.musl != "" {
		ref := "pkg:generic/musl@" + in.musl
		comps = append(comps, cdx.Component{Type: cdx.ComponentTypeLibrary, BOMRef: ref, Name: "musl", Version: in.musl, PackageURL: ref,
			Licenses: &cdx.Licenses{licence("MIT")}, Description: "the C library, linked statically"})
		mainDeps = append(mainDeps, ref)
	}
	if in.certs != "" {
		pem, err := os.ReadFile(in.certs)
		if err != nil {
			return nil, fmt.Errorf("the CA bundle: %w", err)
		}
		ref := "pkg:deb/debian/ca-certificates@" + strings.ReplaceAll(in.certsVersion, "+", "%2B")
		comps = append(comps, cdx.Component{Type: cdx.ComponentTypeData, BOMRef: ref, Name: "ca-certificates", Version: in.certsVersion,
			PackageURL: ref, Licenses: &cdx.Licenses{licence("MPL-2.0")},
			Hashes:      &[]cdx.Hash{{Algorithm: cdx.HashAlgoSHA256, Value: fmt.Sprintf("%x", sha256.Sum256(pem))}},
			Description: "the image's /etc/ssl/certs/ca-certificates.crt, from Debian's ca-certificates"})
		mainDeps = append(mainDeps, ref)
	}
	for i, c := range *bom.Components {
		if c.Name == "std" && c.Licenses == nil {
			(*bom.Components)[i].Licenses = &cdx.Licenses{licence("BSD-3-Clause")}
		}
	}
	*bom.Components = append(*bom.Components, comps...)
	deps := []cdx.Dependency{{Ref: rdkRef, Dependencies: &rdkDeps}}
	if bom.Dependencies == nil {
		bom.Dependencies = &[]cdx.Dependency{}
	}
	found := false
	for i, d := range *bom.Dependencies {
		if d.Ref == main.BOMRef {
			found = true
			list := append(deref(d.Dependencies), mainDeps...)
			(*bom.Dependencies)[i].Dependencies = &list
		}
	}
	if !found {
		deps = append(deps, cdx.Dependency{Ref: main.BOMRef, Dependencies: &mainDeps})
	}
	*bom.Dependencies = append(*bom.Dependencies, deps...)

	var out bytes.Buffer
	enc := cdx.NewBOMEncoder(&out, cdx.BOMFileFormatJSON)
	enc.SetPretty(true)
	if err := enc.EncodeVersion(&bom, cdx.SpecVersion1_5); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// linkedLibraries are the C libraries of librdkafka's bundle that the
// binary holds, with their references.
func linkedLibraries(archive, binary []byte) ([]cdx.Component, []string, error) {
	members, err := arMembers(archive)
	if err != nil {
		return nil, nil, fmt.Errorf("librdkafka's static bundle: %w", err)
	}
	var comps []cdx.Component
	var refs []string
	for _, lib := range bundledLibraries {
		body, ok := members[lib.member]
		if !ok {
			continue
		}
		m := lib.version.FindSubmatch(body)
		if m == nil {
			return nil, nil, fmt.Errorf("no %s version in the bundle's %s", lib.name, lib.member)
		}
		v := string(m[1])
		if !bytes.Contains(binary, []byte(strings.ReplaceAll(lib.marker, "%s", v))) {
			continue // in the bundle, not linked into this binary
		}
		ref := fmt.Sprintf(lib.purl, v)
		comps = append(comps, cdx.Component{Type: cdx.ComponentTypeLibrary, BOMRef: ref, Name: lib.name, Version: v, PackageURL: ref,
			Licenses: &cdx.Licenses{licence(lib.license)}, Description: "linked statically within librdkafka's bundle"})
		refs = append(refs, ref)
	}
	return comps, refs, nil
}

// licence is a licence choice: an SPDX id, or an expression.
func licence(spdx string) cdx.LicenseChoice {
	if strings.Contains(spdx, " ") {
		return cdx.LicenseChoice{Expression: spdx}
	}
	return cdx.LicenseChoice{License: &cdx.License{ID: spdx}}
}

func deref(p *[]string) []string {
	if p == nil {
		return nil
	}
	return *p
}

// archOf is the binary's architecture as the bundles name it.
func archOf(info *buildinfo.BuildInfo) string {
	for _, s := range info.Settings {
		if s.Key == "GOARCH" {
			return s.Value
		}
	}
	return runtime.GOARCH
}

// arMembers reads a Unix ar archive (the GNU variant, with a long-names
// table) into its members by name; a name repeated keeps its first body.
func arMembers(b []byte) (map[string][]byte, error) {
	const magic = "!<arch>\n"
	if !bytes.HasPrefix(b, []byte(magic)) {
		return nil, errors.New("not an ar archive")
	}
	out := map[string][]byte{}
	var names []byte
	for off := len(magic); off+60 <= len(b); {
		h := b[off : off+60]
		size, err := strconv.Atoi(strings.TrimSpace(string(h[48:58])))
		if err != nil || off+60+size > len(b) {
			return nil, fmt.Errorf("a malformed member header at %d", off)
		}
		name, body := strings.TrimSpace(string(h[0:16])), b[off+60:off+60+size]
		switch {
		case name == "//":
			names = body
		case name == "/" || name == "/SYM64/":
		case strings.HasPrefix(name, "/") && names != nil:
			i, err := strconv.Atoi(name[1:])
			if err != nil || i >= len(names) {
				return nil, fmt.Errorf("a member's long name %q", name)
			}
			n := names[i:]
			if j := bytes.IndexByte(n, '\n'); j >= 0 {
				n = n[:j]
			}
			name = strings.TrimSuffix(string(n), "/")
		default:
			name = strings.TrimSuffix(name, "/")
		}
		if _, seen := out[name]; !seen {
			out[name] = body
		}
		off += 60 + size + size%2
	}
	return out, nil
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
