package cloud

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
)

func datagen(name string) map[string]string {
	return map[string]string{"name": name, "connector.class": "DatagenSource", "kafka.topic": "t", "output.data.format": "JSON",
		"quickstart": "ORDERS", "kafka.api.key": "KEY", "kafka.api.secret": "SECRET", "tasks.max": "2"}
}

func TestStandInStatesAndRestart(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1000, 0)
	k := NewConnect()
	k.now = func() time.Time { return now }
	cfg := datagen("c")
	cfg["dev.failure"] = "task"
	c, err := k.CreateConnector(ctx, "c", cfg)
	if err != nil || c.State != connect.StateProvisioning || !strings.HasPrefix(c.ID, "lcc-") {
		t.Fatalf("create: %+v %v", c, err)
	}
	if c.Config["kafka.api.secret"] != secretMask || c.Config["kafka.topic"] != "t" {
		t.Errorf("config %v", c.Config)
	}
	state := func() platform.Connector {
		got, err := k.GetConnector(ctx, "c")
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	now = now.Add(k.Provision)
	if s := state(); s.State != connect.StateRunning || len(s.Tasks) != 2 {
		t.Errorf("after provisioning: %+v", s)
	}
	_ = k.PauseConnector(ctx, "c")
	if s := state(); s.State != connect.StatePaused || s.Tasks[0].State != connect.StatePaused {
		t.Errorf("paused: %+v", s)
	}
	_ = k.ResumeConnector(ctx, "c")
	now = now.Add(k.FailAfter)
	s := state()
	if s.State != connect.StateDegraded || s.Tasks[0].State != connect.StateFailed || s.Tasks[0].Trace == "" || s.Tasks[1].State != connect.StateRunning {
		t.Errorf("after the simulated failure: %+v", s)
	}
	if err := k.RestartConnector(ctx, "c", true); err != nil {
		t.Fatal(err)
	}
	if s := state(); s.State != connect.StateRunning || s.Tasks[0].State != connect.StateRunning {
		t.Errorf("after restart: %+v", s)
	}
}

func TestStandInKeepsSecretsAndValidates(t *testing.T) {
	ctx := context.Background()
	k := NewConnect()
	if _, err := k.CreateConnector(ctx, "c", datagen("c")); err != nil {
		t.Fatal(err)
	}
	cfg := datagen("c")
	cfg["kafka.api.secret"] = "ignored"
	cfg["kafka.topic"] = "t2"
	if _, err := k.UpdateConnector(ctx, "c", cfg, []string{"kafka.api.secret"}); err != nil {
		t.Fatal(err)
	}
	if got := k.connectors["c"].config; got["kafka.api.secret"] != "SECRET" || got["kafka.topic"] != "t2" {
		t.Errorf("stored config %v", got)
	}

	bad := map[string]string{"name": "d", "connector.class": "DatagenSource", "quickstart": "NOPE", "tasks.max": "99", "colour": "red"}
	_, err := k.CreateConnector(ctx, "d", bad)
	var fields []string
	for _, p := range portal.Problems(err) {
		fields = append(fields, p.Field)
	}
	if got := strings.Join(fields, " "); got != "config.colour config.kafka.api.key config.kafka.api.secret config.kafka.topic config.output.data.format config.quickstart config.tasks.max" {
		t.Errorf("problems: %s", got)
	}
	if _, err := k.CreateConnector(ctx, "e", map[string]string{"connector.class": "MysterySource"}); !portal.Is(err, portal.InvalidParameter) ||
		!strings.Contains(err.Error(), "available: DatagenSource, HttpSink, S3_SINK, SnowflakeSink") {
		t.Errorf("unknown class: %v", err)
	}
	if _, err := k.CreateConnector(ctx, "c", datagen("c")); !portal.Is(err, portal.AlreadyExists) {
		t.Errorf("duplicate: %v", err)
	}
	d, _ := k.Definition(ctx, "S3_SINK")
	if strings.Join(d.Sensitive, ",") != "kafka.api.key,kafka.api.secret,aws.access.key.id,aws.secret.access.key" {
		t.Errorf("sensitive %v", d.Sensitive)
	}
}
