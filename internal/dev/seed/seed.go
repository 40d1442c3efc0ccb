// Package seed is dev mode's demo data: topics in every unit and stage,
// records, consumer groups, a connector and a subject per tenant unit.
package seed

import (
	"context"
	"fmt"

	"github.com/edh-platform/rms-portal/internal/dev/clusters"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// demoTopic is a seeded topic: identifier, partitions, overrides, and how
// many records to produce into it in the first stage.
type demoTopic struct {
	id         string
	partitions int
	config     map[string]string
	records    int
}

var demoTopics = map[string][]demoTopic{
	"platform": {{id: "audit-events", partitions: 3, records: 40}},
	"scada": {
		{id: "sensor-readings", partitions: 6, config: map[string]string{"retention.ms": "259200000"}, records: 1200},
		{id: "alarms", partitions: 3, config: map[string]string{"cleanup.policy": "compact"}, records: 60},
		{id: "pump-telemetry", partitions: 12},
	},
	"crm": {
		{id: "orders", partitions: 6, records: 300},
		{id: "customers", partitions: 3, config: map[string]string{"cleanup.policy": "compact"}},
	},
	"mfg": {{id: "plant-events", partitions: 3, records: 20}},
	"plant": {
		{id: "line-status", partitions: 3, records: 80},
		{id: "work-orders", partitions: 2, config: map[string]string{"cleanup.policy": "compact"}},
	},
	"sales": {
		{id: "leads", partitions: 3, records: 150},
		{id: "opportunities", partitions: 3},
	},
}

// stageTraffic scales the demo topics' past by stage (dev, qas, run):
// production takes the most.
var stageTraffic = []float64{1, 0.6, 2.5}

// LegacyTopic lies outside the naming convention on every shared cluster.
const LegacyTopic = "legacy-orders"

// Options tune the demo data.
type Options struct {
	// BulkTopics adds this many extra topics in each of BulkScopes (on
	// their clusters), to try the portal with large clusters.
	BulkTopics int
	BulkScopes []tenancy.Scope
}

// Seed creates the demo topics through the platform's Topics port (so
// through confluent-kafka-go, like any other topic) and produces records.
func Seed(ctx context.Context, t *tenancy.Tenancy, envs *platform.Environments, clusters map[string]*clusters.Cluster, o Options) error {
	for _, z := range t.LandingZones() {
		for i, st := range t.Stages() {
			env, err := envs.Get(z.ID, st.Name)
			if err != nil {
				return err
			}
			cl := clusters[env.Name()]
			if !z.Dedicated {
				if err := create(ctx, env, platform.TopicSpec{Name: LegacyTopic, Partitions: 2}); err != nil {
					return err
				}
				if cl != nil && cl.Telemetry() != nil {
					// Traffic of no unit: what a shared cluster's split leaves unallocated.
					cl.Telemetry().Remember(LegacyTopic, 0.3)
				}
			}
			for _, id := range z.BusinessUnits {
				u, _ := t.Unit(id)
				scope := tenancy.Scope{Unit: u, Stage: st}
				// Schemas first, so that the records of a topic with an
				// Avro schema carry values in the Schema Registry's wire
				// format, as real producers' do.
				if i == 0 && !u.IsMain() {
					if err := seedCloud(ctx, scope, env, cl); err != nil {
						return err
					}
				}
				for _, d := range demoTopics[id] {
					name := scope.Qualify(d.id)
					if err := create(ctx, env, platform.TopicSpec{Name: name, Partitions: d.partitions, Config: d.config}); err != nil {
						return err
					}
					if cl != nil && cl.Telemetry() != nil {
						// A month of believable usage before now, for the
						// usage and cost pages.
						cl.Telemetry().Remember(name, stageTraffic[i%len(stageTraffic)])
					}
					if d.records > 0 && cl != nil {
						if err := cl.Produce(ctx, name, d.records/(i+1)); err != nil {
							return fmt.Errorf("seed %s: %w", name, err)
						}
					}
				}
				if i == 0 && id == "scada" && cl != nil {
					if err := seedGroups(ctx, scope, cl); err != nil {
						return err
					}
				}
			}
		}
	}
	for _, sc := range o.BulkScopes {
		if o.BulkTopics <= 0 {
			break
		}
		cl := clusters[sc.Zone().ID+"/"+sc.Stage.Name]
		if cl == nil {
			return fmt.Errorf("bulk topics: %s is not an embedded cluster", sc)
		}
		names := make([]string, o.BulkTopics)
		for i := range names {
			names[i] = sc.Qualify(fmt.Sprintf("load-%05d", i))
		}
		if err := cl.CreateTopics(ctx, names, 1); err != nil {
			return err
		}
	}
	return nil
}

func create(ctx context.Context, env *platform.Environment, spec platform.TopicSpec) error {
	err := env.Topics.CreateTopic(ctx, spec)
	if err != nil && !portal.Is(err, portal.AlreadyExists) {
		return fmt.Errorf("seed %s in %s: %w", spec.Name, env.Name(), err)
	}
	return nil
}

// Demo consumer groups of scada's first stage, on sensor-readings.
const (
	// DemoSlowGroup keeps consuming, more slowly than the demo producer
	// writes, so that its lag shows and moves.
	DemoSlowGroup = "billing"
	// DemoIdleGroup has committed offsets behind the end and no member, so
	// that a reset can be tried at once.
	DemoIdleGroup = "replay"
)

// seedGroups starts the slow consumer and commits the idle group's
// offsets at 40% of each partition.
func seedGroups(ctx context.Context, scope tenancy.Scope, cl *clusters.Cluster) error {
	topic := scope.Qualify("sensor-readings")
	offsets := map[int32]int64{}
	per := int64(1200 / 6)
	for p := range int32(6) {
		offsets[p] = per * 4 / 10
	}
	if err := cl.Commit(ctx, scope.Qualify(DemoIdleGroup), topic, offsets); err != nil {
		return fmt.Errorf("seed group %s: %w", DemoIdleGroup, err)
	}
	return cl.Consume(ctx, scope.Qualify(DemoSlowGroup), topic, 3)
}
