package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
)

func compiler(t *testing.T) *Compiler {
	t.Helper()
	c, err := NewCompiler()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func topic(partitions int, cfg map[string]string) *Topic {
	return &Topic{Name: "edh.scada.dev.t", Identifier: "t", Partitions: partitions, Config: cfg}
}

// The examples, each with a change it keeps and one it breaks.
func TestPolicyExamples(t *testing.T) {
	dev := Scope{Zone: "edh-shared", Unit: "scada", Stage: "dev", Prefix: "edh.scada.dev."}
	run := dev
	run.Stage = "run"
	cases := []struct {
		name, kind, expr, msg string
		keeps, breaks         Change
		want                  string
	}{
		{"name pattern", KindTopic, `resource.identifier.matches('^[a-z][a-z0-9-]*$')`, "topic names are lower-case, not ${resource.identifier}",
			Change{Resource: &Topic{Identifier: "orders"}}, Change{Resource: &Topic{Identifier: "Orders_1"}}, "topic names are lower-case, not Orders_1"},
		{"partitions in dev", KindTopic, `scope.stage != 'dev' || (resource.partitions >= 1 && resource.partitions <= 12)`, "at most 12 partitions in dev, not ${resource.partitions}",
			Change{Resource: topic(6, nil), Scope: dev}, Change{Resource: topic(24, nil), Scope: dev}, "at most 12 partitions in dev, not 24"},
		{"retention in dev", KindTopic, `!('retention.ms' in resource.config) || (int(resource.config['retention.ms']) != -1 && int(resource.config['retention.ms']) <= 604800000)`,
			"retention.ms is ${resource.config[?'retention.ms'].orValue('unset')}",
			Change{Resource: topic(1, map[string]string{"retention.ms": "86400000"})}, Change{Resource: topic(1, map[string]string{"retention.ms": "-1"})}, "retention.ms is -1"},
		{"cleanup.policy set", KindTopic, `'cleanup.policy' in resource.config`, "set cleanup.policy",
			Change{Resource: topic(1, map[string]string{"cleanup.policy": "delete"})}, Change{Resource: topic(1, map[string]string{})}, "set cleanup.policy"},
		{"connector classes", KindConnector, `scope.stage != 'run' || resource.class in ['io.confluent.connect.s3.S3SinkConnector']`, "${resource.class} is not allowed in run",
			Change{Resource: &Connector{Class: "io.confluent.connect.s3.S3SinkConnector"}, Scope: run}, Change{Resource: &Connector{Class: "DatagenSource"}, Scope: run}, "DatagenSource is not allowed in run"},
		{"compatibility in run", KindSchema, `scope.stage != 'run' || resource.compatibility in ['BACKWARD', 'BACKWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE']`, "compatibility ${resource.compatibility} is too weak",
			Change{Resource: &Schema{Compatibility: "FULL"}, Scope: run}, Change{Resource: &Schema{Compatibility: "NONE"}, Scope: run}, "compatibility NONE is too weak"},
		{"pool claim", KindIdentityPool, `resource.filter.contains('claims.department')`, "the filter must mention claims.department",
			Change{Resource: &IdentityPool{Filter: `claims.department == "ops"`}}, Change{Resource: &IdentityPool{Filter: `true`}}, "the filter must mention claims.department"},
		{"no worse than before", KindTopic, `before == null || resource.partitions >= before.partitions`, "from ${before.partitions}",
			Change{Resource: topic(3, nil)}, Change{Resource: topic(2, nil), Before: topic(3, nil)}, "from 3"},
	}
	c := compiler(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Compile(policy.Policy{ID: "p", Zone: "z", Kind: tc.kind, Expression: tc.expr, Message: tc.msg, Action: Enforce})
			if err != nil {
				t.Fatal(err)
			}
			if v := r.Judge(context.Background(), tc.keeps); !v.Kept {
				t.Errorf("broken by what it should keep: %s", v.Message)
			}
			v := r.Judge(context.Background(), tc.breaks)
			if v.Kept || v.Message != tc.want {
				t.Errorf("verdict %+v, want broken with %q", v, tc.want)
			}
		})
	}
}

func TestCompileRefusesBadPolicies(t *testing.T) {
	c := compiler(t)
	good := policy.Policy{ID: "p", Zone: "z", Kind: KindTopic, Expression: "true", Message: "m", Action: Warn}
	cases := []struct {
		name  string
		edit  func(*policy.Policy)
		field string
		has   string
	}{
		{"syntax", func(p *policy.Policy) { p.Expression = "resource.partitions <" }, "expression", "at 1:"},
		{"unknown field", func(p *policy.Policy) { p.Expression = "resource.partitons > 1" }, "expression", "partitons"},
		{"not boolean", func(p *policy.Policy) { p.Expression = "resource.partitions" }, "expression", "true or false"},
		{"unknown variable", func(p *policy.Policy) { p.Expression = "topic.partitions > 1" }, "expression", "undeclared reference"},
		{"unknown kind", func(p *policy.Policy) { p.Kind = "Cluster" }, "kind", "not one of"},
		{"action", func(p *policy.Policy) { p.Action = "block" }, "action", "enforce, warn, report"},
		{"id", func(p *policy.Policy) { p.ID = "Bad Id" }, "id", "lower-case"},
		{"message expr", func(p *policy.Policy) { p.Message = "was ${resource.nope}" }, "message", "nope"},
		{"message open", func(p *policy.Policy) { p.Message = "was ${resource.partitions" }, "message", "no closing"},
		{"operation", func(p *policy.Policy) { p.Operations = []string{"read"} }, "operations[0]", "create, update or delete"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := good
			tc.edit(&p)
			_, err := c.Compile(p)
			ps := portal.Problems(err)
			if len(ps) == 0 || ps[0].Field != tc.field || !strings.Contains(ps[0].Message, tc.has) {
				t.Fatalf("got %v, want a problem on %s mentioning %q", err, tc.field, tc.has)
			}
		})
	}
	if _, err := c.Compile(good); err != nil {
		t.Fatal(err)
	}
}

// An evaluation that fails (a missing key) does not keep the rule.
func TestFailingEvaluationRefuses(t *testing.T) {
	r, err := compiler(t).Compile(policy.Policy{ID: "retention", Zone: "z", Kind: KindTopic, Expression: "int(resource.config['retention.ms']) > 0", Message: "m", Action: Enforce})
	if err != nil {
		t.Fatal(err)
	}
	v := r.Judge(context.Background(), Change{Name: "t", Resource: topic(1, map[string]string{})})
	if v.Kept || !strings.Contains(v.Message, "could not be evaluated") {
		t.Fatalf("got %+v", v)
	}
	// A delete has no resource: a policy that reads it does not keep.
	if v := r.Judge(context.Background(), Change{Name: "t", Before: topic(1, nil)}); v.Kept {
		t.Fatal("a null resource kept the rule")
	}
}

func TestCovers(t *testing.T) {
	p := policy.Policy{Kind: KindTopic, Zone: "z", Units: []string{"scada"}, Stages: []string{"dev"}}
	s := Scope{Zone: "z", Unit: "scada", Stage: "dev"}
	if !Covers(p, KindTopic, s, OpCreate) || !Covers(p, KindTopic, s, OpUpdate) || Covers(p, KindTopic, s, OpDelete) {
		t.Fatal("default operations are create and update")
	}
	for _, other := range []Scope{{Zone: "y", Unit: "scada", Stage: "dev"}, {Zone: "z", Unit: "crm", Stage: "dev"}, {Zone: "z", Unit: "scada", Stage: "run"}} {
		if Covers(p, KindTopic, other, OpCreate) {
			t.Errorf("covers %+v", other)
		}
	}
	if Covers(p, KindConnector, s, OpCreate) {
		t.Error("covers another kind")
	}
}

func TestBudgets(t *testing.T) {
	d := Delta(Change{Resource: topic(24, map[string]string{"retention.bytes": "1024"})})
	if d[Topics] != 1 || d[Partitions] != 24 || d[StorageBytes] != 24*1024 {
		t.Fatalf("create delta %v", d)
	}
	d = Delta(Change{Resource: topic(6, nil), Before: topic(4, nil)})
	if d[Topics] != 0 || d[Partitions] != 2 {
		t.Fatalf("update delta %v", d)
	}
	if d := Delta(Change{Before: &Connector{Tasks: 3}}); d[Connectors] != -1 || d[ConnectorTasks] != -3 {
		t.Fatalf("delete delta %v", d)
	}
	limits := Usage{Partitions: 20}
	if dim, after, over := Exceeded(limits, Usage{Partitions: 18}, Usage{Topics: 1, Partitions: 3}); !over || dim != Partitions || after != 21 {
		t.Fatalf("got %s %d %v", dim, after, over)
	}
	if _, _, over := Exceeded(limits, Usage{Partitions: 18}, Usage{Partitions: 2}); over {
		t.Fatal("refused a change that reaches the limit")
	}
	// Over the limit already (the budget was lowered): freeing is allowed.
	if _, _, over := Exceeded(limits, Usage{Partitions: 30}, Usage{Partitions: -3, Topics: -1}); over {
		t.Fatal("refused a delete over the limit")
	}
	if Show(StorageBytes, 3*1024*1024*1024) != "3.0 GiB" || Show(Topics, 7) != "7" {
		t.Fatal(Show(StorageBytes, 3*1024*1024*1024))
	}
}
