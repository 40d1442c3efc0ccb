package topics_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

func TestCreateQualifiesAndValidates(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	d, err := w.Topics.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "crm_orders", Partitions: intp(6),
		Config: map[string]string{"retention.ms": "604800000", "cleanup.policy": "delete, compact"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "edh-shared-scada-dev-crm-orders" || d.Identifier != "crm-orders" || d.Partitions != 6 || d.ReplicationFactor != 3 {
		t.Errorf("created %+v", d.Topic)
	}
	if fmt.Sprint(d.Config) != "map[cleanup.policy:delete,compact retention.ms:604800000]" {
		t.Errorf("config %v", d.Config)
	}
	_, err = w.Topics.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "edh-shared-scada-dev-crm-orders"})
	if !portal.Is(err, portal.AlreadyExists) {
		t.Errorf("full name of an existing topic: %v", err)
	}

	calls := w.Cluster("edh-shared", "dev").Calls()
	_, err = w.Topics.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Partitions: intp(0), Config: map[string]string{
		"retention.ms": "soon", "segment.bytes": "1", "cleanup.policy": "delete,delete", "foo.bar": "1", "min.insync.replicas": "2",
	}})
	want := strings.Join([]string{
		"MISSING_PARAMETER name: name is required",
		"INVALID_PARAMETER partitions_count: must be between 1 and 100, not 0",
		"INVALID_PARAMETER config.cleanup.policy: cleanup.policy must be a comma-separated list of distinct values from delete, compact, not \"delete,delete\"",
		"INVALID_PARAMETER config.foo.bar: foo.bar is not an editable topic setting; editable settings are " + settingKeys(),
		"INVALID_PARAMETER config.retention.ms: retention.ms must be a whole number (milliseconds), not \"soon\"",
		"INVALID_PARAMETER config.segment.bytes: segment.bytes must be between 52428800 and 1073741824 (bytes)",
	}, "\n")
	if got := servicetest.Problems(err); got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
	if n := w.Cluster("edh-shared", "dev").Calls(); n != calls {
		t.Errorf("invalid input made %d upstream calls", n-calls)
	}
	for _, bad := range []string{"a/b", "-x", "ümlaut", strings.Repeat("x", 240)} {
		_, err := w.Topics.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: bad})
		if ps := portal.Problems(err); len(ps) != 1 || ps[0].Field != "name" || ps[0].Kind != portal.InvalidParameter {
			t.Errorf("name %q: %v", bad, err)
		}
	}
}

func TestListIsolationAndWholeClusterView(t *testing.T) {
	w := servicetest.New(t, "legacy-orders", "_schemas", "edh-shared-scada-dev-a", "edh-shared-scada-dev-b",
		"edh-shared-crm-dev-orders", "edh-shared-platform-dev-audit", "edh-shared-scada-qas-a")
	list := func(bu string, role portal.Role) string {
		p, err := w.Topics.List(servicetest.As(bu, role), portal.Scope{BU: bu, Stage: "dev"}, portal.ListQuery{})
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, it := range p.Items {
			s := it.Name + "(" + it.BU + ":" + it.Identifier + ")"
			if it.OutsideConvention {
				s += "!"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " ")
	}
	cases := []struct {
		bu   string
		role portal.Role
		want string
	}{
		{"scada", portal.Viewer, "edh-shared-scada-dev-a(scada:a) edh-shared-scada-dev-b(scada:b)"},
		{"scada", portal.SuperAdmin, "edh-shared-scada-dev-a(scada:a) edh-shared-scada-dev-b(scada:b)"},
		{"crm", portal.Developer, "edh-shared-crm-dev-orders(crm:orders)"},
		{"platform", portal.Admin, "edh-shared-platform-dev-audit(platform:audit)"},
		{"platform", portal.SuperAdmin, "edh-shared-crm-dev-orders(crm:orders) edh-shared-platform-dev-audit(platform:audit) " +
			"edh-shared-scada-dev-a(scada:a) edh-shared-scada-dev-b(scada:b) " +
			// Another stage's name is outside this stage's convention.
			"edh-shared-scada-qas-a(:edh-shared-scada-qas-a)! legacy-orders(:legacy-orders)!"},
	}
	for _, c := range cases {
		if got := list(c.bu, c.role); got != c.want {
			t.Errorf("%s as %s:\n got %s\nwant %s", c.bu, c.role, got, c.want)
		}
	}
	// The whole-cluster view addresses topics outside the convention by name.
	d, err := w.Topics.Get(servicetest.As("platform", portal.SuperAdmin), portal.Scope{BU: "platform", Stage: "dev"}, "legacy-orders", false)
	if err != nil || d.Name != "legacy-orders" || !d.OutsideConvention {
		t.Errorf("legacy-orders from platform: %+v %v", d.Topic, err)
	}
	// A tenant cannot: the name is qualified into its own prefix.
	if _, err := w.Topics.Get(servicetest.As("scada", portal.Admin), portal.Scope{BU: "scada", Stage: "dev"}, "legacy-orders", false); !portal.Is(err, portal.NotFound) {
		t.Errorf("legacy-orders from scada: %v", err)
	}
	if _, err := w.Topics.Get(servicetest.As("scada", portal.Admin), portal.Scope{BU: "scada", Stage: "dev"}, "edh-shared-crm-dev-orders", false); !portal.Is(err, portal.NotFound) {
		t.Errorf("crm's topic from scada: %v", err)
	}
}

func TestPaging(t *testing.T) {
	var seed []string
	for i := 0; i < 250; i++ {
		seed = append(seed, fmt.Sprintf("edh-shared-scada-dev-t%03d", i))
	}
	w := servicetest.New(t, seed...)
	ctx := servicetest.As("scada", portal.Viewer)
	var all []string
	q := portal.ListQuery{}
	pages := 0
	for {
		p, err := w.Topics.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, q)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		all = append(all, names(p.Items)...)
		if p.Total != 250 {
			t.Errorf("total %d", p.Total)
		}
		if p.NextPageToken == "" {
			break
		}
		q.PageToken = p.NextPageToken
	}
	if pages != 3 || len(all) != 250 || all[0] != seed[0] || all[249] != seed[249] {
		t.Errorf("%d pages, %d items", pages, len(all))
	}
	p, _ := w.Topics.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{PageSize: 5, Search: "T12", Descending: true})
	if got := strings.Join(names(p.Items), " "); got != "edh-shared-scada-dev-t129 edh-shared-scada-dev-t128 edh-shared-scada-dev-t127 edh-shared-scada-dev-t126 edh-shared-scada-dev-t125" || p.Total != 10 {
		t.Errorf("search desc: %s (total %d)", got, p.Total)
	}
	p2, _ := w.Topics.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{PageSize: 5, Search: "T12", Descending: true, PageToken: p.NextPageToken})
	if got := strings.Join(names(p2.Items), " "); !strings.HasPrefix(got, "edh-shared-scada-dev-t124") ||
		!strings.HasSuffix(got, "t120") || len(p2.Items) != 5 || p2.NextPageToken != "" {
		t.Errorf("last desc page: %s next %q", got, p2.NextPageToken)
	}
	exact, _ := w.Topics.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{PageSize: 250})
	if exact.NextPageToken != "" || len(exact.Items) != 250 {
		t.Errorf("a page holding everything offers a next page %q", exact.NextPageToken)
	}
	_, err := w.Topics.List(ctx, portal.Scope{BU: "scada", Stage: "dev"}, portal.ListQuery{PageSize: 1001, PageToken: "%%%"})
	if got := servicetest.Problems(err); !strings.Contains(got, "page_size: must be between 1 and 1000") || !strings.Contains(got, "page_token: is not a token") {
		t.Errorf("bad paging: %s", got)
	}
}

func TestReplaceAndPatch(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	if _, err := w.Topics.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "t", Partitions: intp(3),
		Config: map[string]string{"retention.ms": "1000", "cleanup.policy": "compact"}}); err != nil {
		t.Fatal(err)
	}
	// A platform-set override outside the allow-list survives a PUT.
	w.Cluster("edh-shared", "dev").SetConfig("edh-shared-scada-dev-t", "unclean.leader.election.enable", "false")

	_, err := w.Topics.Replace(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "t", topic.TopicState{Partitions: intp(3)})
	if got := servicetest.Problems(err); !strings.HasPrefix(got, "MISSING_PARAMETER config: config is required") {
		t.Errorf("PUT without config: %s", got)
	}
	d, err := w.Topics.Replace(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "t", topic.TopicState{Partitions: intp(4), ConfigGiven: true,
		Config: map[string]string{"retention.ms": "2000"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Partitions != 4 || fmt.Sprint(d.Config) != "map[retention.ms:2000 unclean.leader.election.enable:false]" {
		t.Errorf("after PUT: %d partitions, config %v", d.Partitions, d.Config)
	}
	_, err = w.Topics.Replace(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "t", topic.TopicState{Partitions: intp(2), ConfigGiven: true})
	if got := servicetest.Problems(err); got != "INVALID_PARAMETER partitions_count: topic edh-shared-scada-dev-t has 4 partitions; Kafka cannot remove partitions, so 2 is not possible" {
		t.Errorf("decrease: %s", got)
	}
	// Every problem in one round: a bad setting and a decrease together.
	_, err = w.Topics.Patch(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "t", topic.TopicPatch{Partitions: intp(2), Config: map[string]*string{"retention.ms": strp("x")}})
	if got := servicetest.Problems(err); !strings.Contains(got, "config.retention.ms") || !strings.Contains(got, "partitions_count: topic edh-shared-scada-dev-t has 4 partitions") {
		t.Errorf("bad setting and decrease: %s", got)
	}
	d, err = w.Topics.Patch(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "edh-shared-scada-dev-t", topic.TopicPatch{
		Config: map[string]*string{"retention.ms": nil, "compression.type": strp("zstd")}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Partitions != 4 || fmt.Sprint(d.Config) != "map[compression.type:zstd unclean.leader.election.enable:false]" {
		t.Errorf("after PATCH: %d partitions, config %v", d.Partitions, d.Config)
	}
	_, err = w.Topics.Patch(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "t", topic.TopicPatch{Config: map[string]*string{"bogus": nil, "retention.ms": strp("x")}})
	if got := servicetest.Problems(err); !strings.Contains(got, "config.bogus") || !strings.Contains(got, "config.retention.ms") {
		t.Errorf("bad patch: %s", got)
	}
	if _, err := w.Topics.Patch(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "missing", topic.TopicPatch{Partitions: intp(2)}); !portal.Is(err, portal.NotFound) {
		t.Errorf("patch of a missing topic: %v", err)
	}
	d, _ = w.Topics.Get(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "t", true)
	if d.Defaults["retention.ms"] != "604800000" || d.Defaults["compression.type"] != "" {
		t.Errorf("defaults %v", d.Defaults)
	}
	if err := w.Topics.Delete(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "T", portal.DeleteOptions{}); err != nil {
		t.Errorf("delete by identifier in another case: %v", err)
	}
	if err := w.Topics.Delete(ctx, portal.Scope{BU: "scada", Stage: "dev"}, "t", portal.DeleteOptions{}); !portal.Is(err, portal.NotFound) {
		t.Errorf("second delete: %v", err)
	}
}

// slowCluster times out on writes: applied says whether the write still
// happened upstream (as with a broker that answers too late).
type slowCluster struct {
	*servicetest.Cluster
	applied bool
}

func (c *slowCluster) CreateTopic(ctx context.Context, s platform.TopicSpec) error {
	if c.applied {
		_ = c.Cluster.CreateTopic(ctx, s)
	}
	return portal.New(portal.UpstreamTimeout, "cluster edh-shared/dev did not answer in time")
}

// frozenCluster takes requests and answers none while frozen (a broker
// stopped with SIGSTOP): calls wait for their deadline. A create made
// while frozen is applied when it thaws, as a broker that resumes does.
type frozenCluster struct {
	*servicetest.Cluster
	thawed  chan struct{}
	pending []platform.TopicSpec
	mu      sync.Mutex
}

func (c *frozenCluster) wait(ctx context.Context) error {
	select {
	case <-c.thawed:
		return nil
	case <-ctx.Done():
		return portal.New(portal.UpstreamTimeout, "cluster edh-shared/dev did not answer in time")
	}
}

func (c *frozenCluster) CreateTopic(ctx context.Context, s platform.TopicSpec) error {
	c.mu.Lock()
	c.pending = append(c.pending, s)
	c.mu.Unlock()
	return c.wait(ctx)
}

func (c *frozenCluster) DescribeTopic(ctx context.Context, name string) (platform.TopicDetail, error) {
	if err := c.wait(ctx); err != nil {
		return platform.TopicDetail{}, err
	}
	return c.Cluster.DescribeTopic(ctx, name)
}

func (c *frozenCluster) thaw(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.pending {
		_ = c.Cluster.CreateTopic(ctx, s)
	}
	close(c.thawed)
}

// TestWriteAnswersWithinItsBudget: a create on a frozen cluster answers
// within the upstream timeout (the call and the check after it share it),
// as pending; the portal keeps checking and settles the audit event once
// the topic is there.
func TestWriteAnswersWithinItsBudget(t *testing.T) {
	w := servicetest.New(t)
	env := w.Env("edh-shared", "dev")
	frozen := &frozenCluster{Cluster: w.Cluster("edh-shared", "dev"), thawed: make(chan struct{})}
	env.Topics = frozen
	ctx := servicetest.As("scada", portal.Developer)
	start := time.Now()
	_, err := w.Topics.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "frozen"})
	took := time.Since(start)
	if !portal.Is(err, portal.UpstreamTimeout) || !strings.Contains(servicetest.Problems(err), "not known yet") {
		t.Fatalf("create on a frozen cluster: %v", err)
	}
	if took > servicetest.Budget+200*time.Millisecond {
		t.Errorf("answered after %v; the budget is %v", took, servicetest.Budget)
	}
	event := func() trail.AuditEvent {
		for _, e := range w.AuditEvents(t) {
			if e.Action == portal.ActTopicCreate {
				return e
			}
		}
		return trail.AuditEvent{}
	}
	if e := event(); e.Outcome != "unknown" {
		t.Fatalf("the pending create's event: %+v", e)
	}
	frozen.thaw(context.Background())
	deadline := time.Now().Add(15 * time.Second)
	for event().Outcome != "ok" {
		if time.Now().After(deadline) {
			t.Fatalf("the create, done after the answer, is still %+v", event())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestTimedOutWriteIsChecked: a create answered by a timeout is checked:
// a topic that exists with the requested partitions is a success; one
// that does not is a 504 saying that the outcome is unknown and how to
// find out, audited as unknown.
func TestTimedOutWriteIsChecked(t *testing.T) {
	w := servicetest.New(t)
	env := w.Env("edh-shared", "dev")
	slow := &slowCluster{Cluster: w.Cluster("edh-shared", "dev"), applied: true}
	env.Topics = slow
	ctx := servicetest.As("scada", portal.Developer)
	d, err := w.Topics.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "late", Partitions: intp(3)})
	if err != nil || d.Name != "edh-shared-scada-dev-late" || d.Partitions != 3 {
		t.Fatalf("applied late: %+v %v", d, err)
	}
	slow.applied = false
	_, err = w.Topics.Create(ctx, portal.Scope{BU: "scada", Stage: "dev"}, topic.NewTopic{Name: "lost"})
	if !portal.Is(err, portal.UpstreamTimeout) || !strings.Contains(servicetest.Problems(err), "is not known yet: it may still happen (the audit trail says once the portal knows); GET the topic to see") {
		t.Fatalf("not applied: %v", err)
	}
	ev := w.AuditEvents(t)
	if ev[0].Outcome != "unknown" || ev[1].Outcome != "ok" {
		t.Errorf("audit outcomes %s, %s", ev[0].Outcome, ev[1].Outcome)
	}
}
