package seed

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/hamba/avro/v2"

	"github.com/edh-platform/rms-portal/internal/dev/clusters"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// demoConnector is a seeded connector: identifier and configuration, with
// topic settings given as identifiers.
type demoConnector struct {
	id     string
	config map[string]string
	topics map[string]string
}

var demoConnectors = map[string]demoConnector{
	"scada": {id: "pump-datagen", topics: map[string]string{"kafka.topic": "pump-telemetry"}, config: map[string]string{
		"connector.class": "DatagenSource", "output.data.format": "JSON", "quickstart": "INVENTORY", "tasks.max": "2",
		"kafka.api.key": "DEVKEYSCADA", "kafka.api.secret": "dev-secret-scada"}},
	"crm": {id: "orders-webhook", topics: map[string]string{"topics": "orders"}, config: map[string]string{
		"connector.class": "HttpSink", "input.data.format": "JSON", "http.api.url": "https://hooks.example.com/orders",
		"auth.type": "BASIC", "connection.user": "crm-hook", "connection.password": "dev-password-crm", "tasks.max": "2",
		"kafka.api.key": "DEVKEYCRM", "kafka.api.secret": "dev-secret-crm", "dev.failure": "task"}},
	"sales": {id: "leads-snowflake", topics: map[string]string{"topics": "leads"}, config: map[string]string{
		"connector.class": "SnowflakeSink", "input.data.format": "JSON", "snowflake.url.name": "https://sales.snowflakecomputing.com:443",
		"snowflake.user.name": "LOADER", "snowflake.private.key": "dev-private-key", "snowflake.database.name": "SALES",
		"snowflake.schema.name": "RAW", "kafka.auth.mode": "SERVICE_ACCOUNT", "kafka.service.account.id": "sa-dev001"}},
}

// demoSchemas are two versions of one subject per tenant unit.
var demoSchemas = map[string]struct {
	topic, typ string
	versions   []string
	// sample makes the i-th demo value of the latest version.
	sample func(i int) map[string]any
}{
	"scada": {topic: "sensor-readings", typ: schema.SchemaAvro, versions: []string{
		`{"type":"record","name":"SensorReading","namespace":"scada","fields":[{"name":"sensor","type":"string"},{"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}}]}`,
		`{"type":"record","name":"SensorReading","namespace":"scada","fields":[{"name":"sensor","type":"string"},{"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},{"name":"value","type":"double","default":0.0}]}`,
	}, sample: func(i int) map[string]any {
		return map[string]any{"sensor": fmt.Sprintf("pump-%02d", i%12), "ts": time.Now().UTC().Truncate(time.Millisecond),
			"value": 20 + float64(i%50)/10}
	}},
	"crm": {topic: "orders", typ: schema.SchemaAvro, versions: []string{
		`{"type":"record","name":"Order","namespace":"crm","fields":[{"name":"id","type":"string"},{"name":"amount","type":"double"}]}`,
		`{"type":"record","name":"Order","namespace":"crm","fields":[{"name":"id","type":"string"},{"name":"amount","type":"double"},{"name":"currency","type":"string","default":"EUR"}]}`,
	}},
	"sales": {topic: "leads", typ: schema.SchemaJSON, versions: []string{
		`{"$schema":"http://json-schema.org/draft-07/schema#","title":"Lead","type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","title":"Lead","type":"object","properties":{"id":{"type":"string"},"source":{"type":"string"}},"required":["id"]}`,
	}},
}

// seedCloud gives every tenant unit one connector and one subject with two
// versions in the scope's environment.
func seedCloud(ctx context.Context, scope tenancy.Scope, env *platform.Environment, cl *clusters.Cluster) error {
	if d, ok := demoConnectors[scope.Unit.ID]; ok {
		cfg := map[string]string{}
		for k, v := range d.config {
			cfg[k] = v
		}
		for k, id := range d.topics {
			cfg[k] = scope.Qualify(id)
		}
		name := scope.QualifyConnector(d.id)
		cfg["name"] = name
		if _, err := env.Connectors.CreateConnector(ctx, name, cfg); err != nil && !portal.Is(err, portal.AlreadyExists) {
			return fmt.Errorf("seed connector %s: %w", name, err)
		}
	}
	if s, ok := demoSchemas[scope.Unit.ID]; ok {
		subject := tenancy.SubjectName(scope.Qualify(s.topic), "value")
		var latest schema.SchemaVersion
		for _, text := range s.versions {
			v, err := env.Schemas.Register(ctx, subject, platform.SchemaDef{Type: s.typ, Schema: text})
			if err != nil {
				return fmt.Errorf("seed schema %s: %w", subject, err)
			}
			latest = v
		}
		if s.sample != nil && cl != nil && latest.Type == schema.SchemaAvro {
			schema, err := avro.Parse(s.versions[len(s.versions)-1])
			if err != nil {
				return fmt.Errorf("seed schema %s: %w", subject, err)
			}
			id := uint32(latest.ID)
			cl.Encode(scope.Qualify(s.topic), func(i int) []byte {
				body, err := avro.Marshal(schema, s.sample(i))
				if err != nil {
					return []byte(err.Error())
				}
				// The wire format: magic byte 0, the schema id, the body.
				return append(binary.BigEndian.AppendUint32([]byte{0}, id), body...)
			})
		}
	}
	return nil
}
