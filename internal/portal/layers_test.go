package portal_test

import (
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/edh-platform/rms-portal/"

// doors are the front doors and their views: they reach behaviour only
// through this package's interfaces, and authenticate through auth.
var doors = []string{"api", "api/openapi", "api/present", "handlers", "handlers/page", "handlers/admin", "handlers/identity", "views", "assistants"}

// doorMay lists the project packages a door may import; anything else of
// the project (services, platform ports and adapters, stores, the policy,
// configuration) is a forbidden edge.
var doorMay = []string{"internal/portal", "internal/portal/", "internal/contract", "internal/wire", "internal/jsonbody", "internal/document", "internal/auth", "internal/auditfile", "internal/httpserver", "internal/requestid", "internal/version", "static", "views"}

// trailMay are the packages that may reach the audit trail's recorder:
// the guard, which every write and event passes, and the wiring that
// makes it (the binary's and the tests' world).
var trailMay = []string{"internal/gate", "cmd/portal", "internal/servicetest"}

// kafkaClients may be imported only by the adapters named here.
var kafkaClients = map[string][]string{
	"github.com/confluentinc/confluent-kafka-go/v2/kafka":          {"internal/platform/kafkaadmin"},
	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry": {"internal/platform/schemareg"},
	"github.com/twmb/franz-go/pkg/kfake":                           {"internal/dev/clusters"},
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

// rooms are the rules between the project's own packages besides the
// doors': a package (or any package below a prefix ending in "/") may not
// import the listed ones.
var rooms = []struct {
	from, why string
	never     []string
}{
	{"internal/gate", "entering a call comes before any service", append([]string{"internal/service", "internal/plans", "internal/admin", "internal/worker", "internal/assembly"}, kinds...)},
	{"internal/plans", "plans reach the services only through their plans.Kind parts", append([]string{"internal/service", "internal/admin", "internal/assembly"}, kinds...)},
	{"internal/service", "services do not know who wires them, nor the admin area or the background work", []string{"internal/admin", "internal/assembly", "internal/worker"}},
	// The services of one concept each (change requests, grants, the
	// catalog, guardrail policies and budgets, events) stand beside
	// internal/service: none reaches into it, the admin area, the wiring
	// or the background work.
	{"internal/changerequests", "a concept's service knows only the gate, the policy, the plans and the store", conceptNever},
	{"internal/grants", "a concept's service knows only the gate, the policy, the plans and the store", conceptNever},
	{"internal/identity", "a kind's service knows the gate, the policy and the platform's ports, never the other services", conceptNever},
	{"internal/apikeys", "a kind's service knows the gate, the policy and the platform's ports, never the other services", append(conceptNever, "internal/identity")},
	{"internal/alerts", "a kind's service knows the gate, the policy and the platform's ports, never the other services", conceptNever},
	{"internal/topics", "a kind's service knows the gate, the policy and the platform's ports, never the other services", conceptNever},
	{"internal/connectors", "a kind's service knows the gate, the policy and the platform's ports, never the other services", conceptNever},
	{"internal/schemas", "a kind's service knows the gate, the policy and the platform's ports, never the other services", conceptNever},
	{"internal/groups", "a kind's service knows the gate, the policy and the platform's ports, never the other services", conceptNever},
	{"internal/records", "a kind's service knows the gate, the policy, the platform's ports and record encoding, never the other services", conceptNever},
	{"internal/catalog", "a concept's service knows only the gate, the policy and the store", append(conceptNever, "internal/plans")},
	{"internal/guardrails", "a concept's service knows only the gate, the policy, the plans and the store", conceptNever},
	{"internal/events", "a concept's service knows only the gate, the policy and the store", append(conceptNever, "internal/plans")},
	{"internal/worker", "background work is started by cmd and calls no service", append([]string{"internal/service", "internal/plans", "internal/admin", "internal/assembly"}, kinds...)},
	{"internal/platform/", "the production adapters know nothing of dev mode", []string{"internal/dev"}},
	{"internal/guardrails/rules", "the guardrails' rules are pure: they judge what they are given",
		[]string{"internal/access", "internal/gate", "internal/service", "internal/store", "internal/platform", "internal/tenancy", "internal/guardrails"}},
	{"internal/recordcodec", "encoding knows schemas and values, not who writes them nor where",
		[]string{"internal/access", "internal/gate", "internal/service", "internal/tenancy", "internal/platform", "internal/store"}},
	{"internal/jsonbody", "decoding a body knows the error record, nothing of who sent it nor what it asks",
		[]string{"internal/access", "internal/gate", "internal/service", "internal/tenancy", "internal/platform", "internal/store", "internal/wire"}},
	{"internal/masking", "masking knows schemas and values, not who reads them (the service and the policy decide)",
		[]string{"internal/portal", "internal/access", "internal/gate", "internal/service", "internal/tenancy", "internal/config"}},
}

// kinds are the packages of the kinds' services.
var kinds = []string{"internal/topics", "internal/records", "internal/groups", "internal/schemas", "internal/connectors", "internal/identity", "internal/apikeys", "internal/alerts"}

// conceptNever are what a concept's own service package never imports.
var conceptNever = []string{"internal/service", "internal/admin", "internal/assembly", "internal/worker"}

// devMay are the packages that may import internal/dev (dev mode): the
// binary's dev wiring, dev mode itself, and the tests' world.
var devMay = []string{"cmd/portal", "internal/servicetest"}

func under(pkg, prefix string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(pkg, prefix) || pkg == strings.TrimSuffix(prefix, "/")
	}
	return pkg == prefix
}

// TestImportRules reads the real import graph (go list) and fails on a
// forbidden edge: a door importing below the contract, the contract
// importing anything of the project, a room importing what it must not,
// dev mode outside its wiring, or a Kafka client outside its adapter.
func TestImportRules(t *testing.T) {
	pkgs := listPackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			own, ok := strings.CutPrefix(imp, module)
			switch {
			case p.ImportPath == "api" && (own == "api/openapi" || own == "api/present" || own == "api/operations"):
				// The API mounts its operations, serves its document, and
				// writes its answers.
			case p.ImportPath == "api/openapi" && own == "api/operations":
				// The document's paths are written from the operations.
			case p.ImportPath == "handlers" && under(own, "handlers/"):
				// The pages mount their areas, each on the one page kit.
			case under(p.ImportPath, "handlers/") && own == "handlers/page":
				// An area's pages are built on the kit; areas do not import
				// each other (the door rule below refuses it).
			case p.ImportPath == "assistants" && (own == "api" || own == "api/openapi"):
				// The assistants' door is made of the API's operations, and
				// calls them.
			case slices.Contains(doors, p.ImportPath) && ok && !slices.ContainsFunc(doorMay, func(m string) bool { return under(own, m) }):
				t.Errorf("%s imports %s: the front doors reach behaviour only through internal/portal", p.ImportPath, own)
			case p.ImportPath == "internal/portal" && ok:
				t.Errorf("internal/portal imports %s: the contract depends on nothing of the project", own)
			case under(p.ImportPath, "internal/portal/") && ok && !under(own, "internal/portal/"):
				t.Errorf("%s imports %s: a kind's contract stands on internal/portal (and other contracts) only", p.ImportPath, own)
			case p.ImportPath == "internal/contract" && ok && !under(own, "internal/portal/"):
				t.Errorf("internal/contract imports %s: it only gathers the contracts", own)
			case own == "internal/audit" && !slices.Contains(trailMay, p.ImportPath):
				t.Errorf("%s imports internal/audit: the trail is the guard's (internal/gate); services record through it", p.ImportPath)
			case p.ImportPath == "api/operations" && ok && own != "internal/wire":
				t.Errorf("api/operations imports %s: the operations table describes the API in wire types only", own)
			case p.ImportPath == "internal/wire" && ok:
				t.Errorf("internal/wire imports %s: the wire contract depends on nothing of the project", own)
			case p.ImportPath == "client" && ok && own != "internal/wire":
				t.Errorf("client imports %s: the typed client is the API's operations over the wire types, nothing else of the project", own)
			case under(p.ImportPath, "tfprovider/") && ok && own != "internal/wire" && own != "client" && !under(own, "tfprovider/"):
				t.Errorf("tfprovider imports %s: the Terraform provider speaks the API through the typed client, as any client does", own)
			case ok && under(own, "internal/dev/") && !under(p.ImportPath, "internal/dev/") && !slices.Contains(devMay, p.ImportPath):
				t.Errorf("%s imports %s: only cmd/portal's dev wiring (and the tests' world) may import dev mode", p.ImportPath, own)
			}
			for _, r := range rooms {
				if !ok || !under(p.ImportPath, r.from) {
					continue
				}
				for _, never := range r.never {
					if under(own, never) || under(own, strings.TrimSuffix(never, "/")+"/") {
						t.Errorf("%s imports %s: %s", p.ImportPath, own, r.why)
					}
				}
			}
			for client, allowed := range kafkaClients {
				if strings.HasPrefix(imp, client) && !slices.Contains(allowed, p.ImportPath) {
					t.Errorf("%s imports %s, which only %v may", p.ImportPath, imp, allowed)
				}
			}
		}
	}
}

// TestImageBinaryHasNoDevMode: the container image's binary is built with
// the nodev tag, and then no package of dev mode (which signs people in
// without a password) is in it.
func TestImageBinaryHasNoDevMode(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", "nodev,musl", "-deps", "./../../cmd/portal").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, module+"internal/dev") || strings.Contains(dep, "franz-go/pkg/kfake") || strings.Contains(dep, "zitadel/oidc") {
			t.Errorf("the image's binary contains %s", dep)
		}
	}
	all, err := exec.Command("go", "list", "-deps", "./../../cmd/portal").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(all), module+"internal/dev\n") {
		t.Error("the default build has no dev mode: the check above proves nothing")
	}
}

// TestOneWayIntoTheTrail: the store's append of audit events is called by
// the recorder alone, and its outbox (the events the trail announces) is
// read by the events package alone: no service writes an event, or
// delivers one, past the guard's one path.
func TestOneWayIntoTheTrail(t *testing.T) {
	only := map[string][]string{
		".AppendAudit(": {"internal/audit/"},
		".OutboxAfter(": {"internal/events/"},
		".OutboxEnd(":   {"internal/events/"},
	}
	found := map[string]int{}
	walkSources(t, func(rel string, b []byte) {
		if under(rel, "internal/store/") {
			return
		}
		for call, allowed := range only {
			if !strings.Contains(string(b), call) {
				continue
			}
			found[call]++
			if !slices.ContainsFunc(allowed, func(a string) bool { return strings.HasPrefix(rel, a) }) {
				t.Errorf("%s calls %s: only %v may", rel, strings.Trim(call, ".("), allowed)
			}
		}
	})
	for call := range only {
		if found[call] == 0 {
			t.Errorf("no file calls %s: the walk misses the code", call)
		}
	}
}

// walkSources hands fn every hand-written Go file of the module that is
// not a test, by its path from the module's root.
func walkSources(t *testing.T, fn func(rel string, src []byte)) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() || !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(rel, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
