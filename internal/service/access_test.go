package service_test

import (
	"context"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/topics"
)

// topicOps are every topic operation, each with valid input, so that the
// only reason to fail is the policy.
var topicOps = []struct {
	name  string
	write bool
	run   func(ctx context.Context, s *topics.Service, stage string) error
}{
	{"list", false, func(ctx context.Context, s *topics.Service, st string) error {
		_, err := s.List(ctx, portal.Scope{BU: "scada", Stage: st}, portal.ListQuery{})
		return err
	}},
	{"get", false, func(ctx context.Context, s *topics.Service, st string) error {
		_, err := s.Get(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", true)
		return err
	}},
	{"cluster metrics", false, func(ctx context.Context, s *topics.Service, st string) error {
		_, err := s.ClusterMetrics(ctx, portal.Scope{BU: "scada", Stage: st}, "")
		return err
	}},
	{"topic metrics", false, func(ctx context.Context, s *topics.Service, st string) error {
		_, err := s.TopicMetrics(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", "")
		return err
	}},
	{"create", true, func(ctx context.Context, s *topics.Service, st string) error {
		_, err := s.Create(ctx, portal.Scope{BU: "scada", Stage: st}, topic.NewTopic{Name: "fresh", Partitions: intp(2)})
		return err
	}},
	{"replace", true, func(ctx context.Context, s *topics.Service, st string) error {
		_, err := s.Replace(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", topic.TopicState{Partitions: intp(2), Config: map[string]string{}, ConfigGiven: true})
		return err
	}},
	{"patch", true, func(ctx context.Context, s *topics.Service, st string) error {
		_, err := s.Patch(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", topic.TopicPatch{Config: map[string]*string{"retention.ms": strp("1000")}})
		return err
	}},
	{"delete", true, func(ctx context.Context, s *topics.Service, st string) error {
		return s.Delete(ctx, portal.Scope{BU: "scada", Stage: st}, "existing", portal.DeleteOptions{})
	}},
}

// expected outcome by role for reads and writes, in a writable stage and in
// a read-only one ("" means allowed).
var topicPolicy = map[portal.Role]map[string][2]portal.Kind{
	portal.NoRole:     {"dev": {portal.NotFound, portal.NotFound}, "run": {portal.NotFound, portal.NotFound}},
	portal.Viewer:     {"dev": {"", portal.InsufficientRole}, "run": {"", portal.InsufficientRole}},
	portal.Developer:  {"dev": {"", ""}, "run": {"", portal.ReadOnlyEnvironment}},
	portal.Admin:      {"dev": {"", ""}, "run": {"", ""}},
	portal.SuperAdmin: {"dev": {"", ""}, "run": {"", ""}},
}

// TestTopicAccessMatrix checks every role × stage × topic operation, and
// that a refusal asks nothing upstream. The reads share one world per role
// and stage, and so do the writes
// (create, replace, patch, then delete, each finding what it needs): the
// policy decides per reads and writes, so in each world either every
// operation is allowed or every one must be refused with no upstream call.
func TestTopicAccessMatrix(t *testing.T) {
	for _, role := range access.Roles {
		for _, stage := range []string{"dev", "run"} {
			worlds := map[bool]*servicetest.World{}
			for _, op := range topicOps {
				w := worlds[op.write]
				if w == nil {
					w = servicetest.New(t, "edh-shared-scada-"+stage+"-existing")
					worlds[op.write] = w
				}
				cluster := w.Cluster("edh-shared", stage)
				want := topicPolicy[role][stage][map[bool]int{false: 0, true: 1}[op.write]]
				err := op.run(servicetest.As("scada", role), w.Topics, stage)
				switch {
				case want == "" && err != nil:
					t.Errorf("%s %s in %s: refused: %v", role, op.name, stage, err)
				case want != "" && portal.KindOf(err) != want:
					t.Errorf("%s %s in %s: got %v, want %s", role, op.name, stage, err, want)
				case want != "" && cluster.Calls() != 0:
					t.Errorf("%s %s in %s: refused, yet %d upstream calls were made", role, op.name, stage, cluster.Calls())
				}
			}
		}
	}
}

func TestNoPrincipalFailsClosed(t *testing.T) {
	w := servicetest.New(t, "edh-shared-scada-dev-existing")
	for _, op := range topicOps {
		err := op.run(context.Background(), w.Topics, "dev")
		if !portal.Is(err, portal.Unauthenticated) {
			t.Errorf("%s without a principal: %v", op.name, err)
		}
	}
	if n := w.Cluster("edh-shared", "dev").Calls(); n != 0 {
		t.Errorf("%d upstream calls without a principal", n)
	}
}

func TestUnknownScopes(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Admin)
	_, err := w.Topics.List(ctx, portal.Scope{BU: "nope", Stage: "dev"}, portal.ListQuery{})
	if ps := portal.Problems(err); len(ps) != 1 || ps[0].Kind != portal.NotFound || ps[0].Field != "bu" {
		t.Errorf("unknown unit: %v", err)
	}
	// A unit of the caller's landing zone in which they have no role is
	// not found either, saying it is a role they lack; one of a zone they
	// do not work in looks as one that does not exist.
	_, err2 := w.Topics.List(ctx, portal.Scope{BU: "crm", Stage: "dev"}, portal.ListQuery{})
	if err2 == nil || err2.Error() != `NOT_FOUND (bu): you have no role in crm: its Admins can add you to one of its groups` {
		t.Errorf("unit without a role: %v", err2)
	}
	_, err3 := w.Topics.List(ctx, portal.Scope{BU: "plant", Stage: "dev"}, portal.ListQuery{})
	if err3 == nil || err3.Error() != `NOT_FOUND (bu): business unit "plant" not found` {
		t.Errorf("unit of another zone: %v", err3)
	}
	_, err = w.Topics.List(ctx, portal.Scope{BU: "scada", Stage: "prod"}, portal.ListQuery{})
	if ps := portal.Problems(err); len(ps) != 1 || ps[0].Field != "stage" || ps[0].Message != `stage "prod" not found; stages are dev, qas, run` {
		t.Errorf("unknown stage: %v", err)
	}
}

func TestWritesAreAudited(t *testing.T) {
	w := servicetest.New(t)
	if _, err := w.Topics.Create(servicetest.As("scada", portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "a"}); err != nil {
		t.Fatal(err)
	}
	_, _ = w.Topics.Create(servicetest.As("scada", portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "a"})
	_, _ = w.Topics.Create(servicetest.As("scada", portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "b"})
	_, _ = w.Topics.Patch(servicetest.As("scada", portal.Developer), portal.Scope{BU: "scada", Stage: "dev"}, "a",
		topic.TopicPatch{Config: map[string]*string{"retention.ms": strp("1000")}})
	ev := w.AuditEvents(t)
	if len(ev) != 4 {
		t.Fatalf("audit %+v", ev)
	}
	patch, refused, dup, created := ev[0], ev[1], ev[2], ev[3]
	if created.Outcome != "ok" || created.Resource != "edh-shared-scada-dev-a" || created.Action != portal.ActTopicCreate ||
		created.BU != "scada" || created.Stage != "dev" || created.Actor != "tester" || created.ActorRole != "developer" {
		t.Errorf("create %+v", created)
	}
	if dup.Outcome != "ALREADY_EXISTS" || !strings.Contains(dup.Detail, "already exists") {
		t.Errorf("duplicate %+v", dup)
	}
	if refused.Outcome != "INSUFFICIENT_ROLE" || refused.Resource != "b" || refused.ActorRole != "viewer" {
		t.Errorf("refusal %+v", refused)
	}
	if patch.Action != portal.ActTopicConfig || len(patch.Changes) != 1 || patch.Changes[0] != (trail.Change{Field: "config.retention.ms", After: "1000"}) {
		t.Errorf("patch %+v", patch)
	}
}
