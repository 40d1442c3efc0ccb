package portal_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/edh-platform/rms-portal/"

// doors are the front doors and their views: they reach behaviour only
// through this package's interfaces, and authenticate through auth.
var doors = []string{"api", "handlers", "views"}

// doorMay lists the project packages a door may import; anything else of
// the project (services, platform ports and adapters, stores, the policy,
// configuration) is a forbidden edge.
var doorMay = []string{"internal/portal", "internal/document", "internal/auth", "internal/auditfile", "internal/httpserver", "internal/requestid", "internal/version", "static", "views"}

// kafkaClients may be imported only by the adapters named here.
var kafkaClients = map[string][]string{
	"github.com/confluentinc/confluent-kafka-go/v2/kafka":          {"internal/platform/kafkaadmin"},
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry": {"internal/platform/schemareg"},
	"github.com/twmb/franz-go/pkg/kfake":                           {"internal/platform/embedded"},
}

type pkg struct {
	ImportPath string
	Imports    []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", module+"...")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(out)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		p.ImportPath = strings.TrimPrefix(p.ImportPath, module)
		pkgs = append(pkgs, p)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestImportRules reads the real import graph (go list) and fails on a
// forbidden edge: a door importing below the contract, the contract
// importing anything of the project, or a Kafka client outside its adapter.
func TestImportRules(t *testing.T) {
	pkgs := listPackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			own, ok := strings.CutPrefix(imp, module)
			switch {
			case slices.Contains(doors, p.ImportPath) && ok && !slices.Contains(doorMay, own):
				t.Errorf("%s imports %s: the front doors reach behaviour only through internal/portal", p.ImportPath, own)
			case p.ImportPath == "internal/portal" && ok:
				t.Errorf("internal/portal imports %s: the contract depends on nothing of the project", own)
			}
			for client, allowed := range kafkaClients {
				if strings.HasPrefix(imp, client) && !slices.Contains(allowed, p.ImportPath) {
					t.Errorf("%s imports %s, which only %v may", p.ImportPath, imp, allowed)
				}
			}
		}
	}
}
