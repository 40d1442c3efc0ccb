package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkedLibraries reads librdkafka's real bundle from the module
// cache: each C library it holds is named with its version when the
// binary holds it, and left out when it does not.
func TestLinkedLibraries(t *testing.T) {
	dir := moduleDir("github.com/confluentinc/confluent-kafka-go/v2", kafkaVersion(t))
	if dir == "" {
		t.Fatal("confluent-kafka-go is not in the module cache")
	}
	archive, err := os.ReadFile(filepath.Join(dir, "kafka", "librdkafka_vendor", "librdkafka_musl_linux_amd64.a"))
	if err != nil {
		t.Fatal(err)
	}
	// A binary that holds OpenSSL and zlib, not the rest.
	all, _, err := linkedLibraries(archive, []byte("\x00OpenSSL 3.0.15 3 Sep 2024\x00 deflate 1.3.1 Copyright\x00libcurl\x001.5.6\x001.9.4\x00"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range all {
		got = append(got, c.Name+"@"+c.Version)
		if c.Licenses == nil || len(*c.Licenses) == 0 {
			t.Errorf("%s has no licence", c.Name)
		}
	}
	if strings.Join(got, " ") != "openssl@3.0.15 zlib@1.3.1 zstd@1.5.6 lz4@1.9.4 curl@8.10.1" {
		t.Errorf("linked libraries %v", got)
	}
	some, refs, err := linkedLibraries(archive, []byte("OpenSSL 3.0.15 ... deflate 1.3.1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(some) != 2 || some[0].Name != "openssl" || some[1].Name != "zlib" || refs[0] != "pkg:generic/openssl@3.0.15" {
		t.Errorf("a binary with two of them: %v", some)
	}
	if _, _, err := linkedLibraries([]byte("not an archive"), nil); err == nil {
		t.Error("a file that is no archive was read")
	}
}

// kafkaVersion is confluent-kafka-go's version in go.mod.
func kafkaVersion(t *testing.T) string {
	raw, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(raw, []byte("\n")) {
		if f := strings.Fields(string(line)); len(f) >= 2 && f[0] == "github.com/confluentinc/confluent-kafka-go/v2" {
			return f[1]
		}
	}
	t.Fatal("go.mod does not require confluent-kafka-go")
	return ""
}
