package cloud

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
)

// setting is one setting of a catalogued connector class.
type setting struct {
	name     string
	typ      string // STRING, INT, PASSWORD, LIST
	required bool
	def      string
	doc      string
	enum     []string
	min, max int
}

// plugin is a fully-managed connector class the stand-in offers.
type plugin struct {
	class    string
	typ      string
	settings []setting
}

// common settings every managed connector has.
var common = []setting{
	{name: "name", typ: "STRING", required: true, doc: "The connector's name."},
	{name: "connector.class", typ: "STRING", required: true, doc: "The connector class."},
	{name: "kafka.auth.mode", typ: "STRING", def: "KAFKA_API_KEY", enum: []string{"KAFKA_API_KEY", "SERVICE_ACCOUNT"},
		doc: "How the connector authenticates to Kafka."},
	{name: "kafka.api.key", typ: "PASSWORD", doc: "Kafka API key (with KAFKA_API_KEY)."},
	{name: "kafka.api.secret", typ: "PASSWORD", doc: "Kafka API secret (with KAFKA_API_KEY)."},
	{name: "kafka.service.account.id", typ: "STRING", doc: "Service account id, sa-... (with SERVICE_ACCOUNT)."},
	{name: "tasks.max", typ: "INT", def: "1", min: 1, max: 10, doc: "Maximum number of tasks."},
	{name: "dev.failure", typ: "STRING", def: "none", enum: []string{"none", "task", "connector", "task-always", "connector-always"},
		doc: "Dev stand-in only: make a task or the connector fail a few seconds after it starts, to try restart (a restart cures it; the -always kinds fail again after each restart, to try auto-restart giving up)."},
}

var formats = []string{"AVRO", "JSON_SR", "PROTOBUF", "JSON", "BYTES"}

// catalogue lists the classes the stand-in knows, with their own settings.
var catalogue = []plugin{
	{class: "DatagenSource", typ: "source", settings: []setting{
		{name: "kafka.topic", typ: "STRING", required: true, doc: "Topic to write generated records to."},
		{name: "output.data.format", typ: "STRING", required: true, enum: []string{"AVRO", "JSON_SR", "PROTOBUF", "JSON"}, doc: "Format of the records."},
		{name: "quickstart", typ: "STRING", required: true, enum: []string{"ORDERS", "USERS", "PAGEVIEWS", "STOCK_TRADES", "INVENTORY", "CLICKSTREAM"}, doc: "Data set to generate."},
		{name: "max.interval", typ: "INT", def: "1000", min: 1, max: 3600000, doc: "Maximum interval between records, in milliseconds."},
	}},
	{class: "HttpSink", typ: "sink", settings: []setting{
		{name: "topics", typ: "LIST", required: true, doc: "Topics to read."},
		{name: "input.data.format", typ: "STRING", required: true, enum: formats, doc: "Format of the records read."},
		{name: "http.api.url", typ: "STRING", required: true, doc: "URL of the HTTP endpoint (http or https)."},
		{name: "request.method", typ: "STRING", def: "POST", enum: []string{"POST", "PUT", "PATCH"}, doc: "HTTP method."},
		{name: "auth.type", typ: "STRING", def: "NONE", enum: []string{"NONE", "BASIC", "OAUTH2"}, doc: "How to authenticate to the endpoint."},
		{name: "connection.user", typ: "STRING", doc: "User name with BASIC."},
		{name: "connection.password", typ: "PASSWORD", doc: "Password with BASIC."},
	}},
	{class: "S3_SINK", typ: "sink", settings: []setting{
		{name: "topics", typ: "LIST", required: true, doc: "Topics to read."},
		{name: "input.data.format", typ: "STRING", required: true, enum: formats, doc: "Format of the records read."},
		{name: "output.data.format", typ: "STRING", required: true, enum: []string{"AVRO", "JSON", "PARQUET", "BYTES"}, doc: "Format of the objects written."},
		{name: "aws.access.key.id", typ: "PASSWORD", required: true, doc: "AWS access key id."},
		{name: "aws.secret.access.key", typ: "PASSWORD", required: true, doc: "AWS secret access key."},
		{name: "s3.bucket.name", typ: "STRING", required: true, doc: "Bucket to write to."},
		{name: "time.interval", typ: "STRING", required: true, enum: []string{"HOURLY", "DAILY"}, doc: "How objects are partitioned by time."},
		{name: "flush.size", typ: "INT", def: "1000", min: 1, max: 100000, doc: "Records per object."},
	}},
	{class: "SnowflakeSink", typ: "sink", settings: []setting{
		{name: "topics", typ: "LIST", required: true, doc: "Topics to read."},
		{name: "input.data.format", typ: "STRING", required: true, enum: []string{"AVRO", "JSON_SR", "PROTOBUF", "JSON"}, doc: "Format of the records read."},
		{name: "snowflake.url.name", typ: "STRING", required: true, doc: "Snowflake URL, such as https://account.snowflakecomputing.com:443."},
		{name: "snowflake.user.name", typ: "STRING", required: true, doc: "Snowflake user."},
		{name: "snowflake.private.key", typ: "PASSWORD", required: true, doc: "The user's private key."},
		{name: "snowflake.database.name", typ: "STRING", required: true, doc: "Database."},
		{name: "snowflake.schema.name", typ: "STRING", required: true, doc: "Schema."},
	}},
}

func findPlugin(class string) (plugin, bool) {
	for _, p := range catalogue {
		if p.class == class {
			return p, true
		}
	}
	return plugin{}, false
}

func (p plugin) all() []setting { return append(slices.Clone(common), p.settings...) }

func (p plugin) setting(name string) (setting, bool) {
	for _, s := range p.all() {
		if s.name == name {
			return s, true
		}
	}
	return setting{}, false
}

// validate checks a configuration the way the managed service does.
func (p plugin) validate(cfg map[string]string) []platform.ConfigProblem {
	var out []platform.ConfigProblem
	add := func(k, f string, a ...any) {
		out = append(out, platform.ConfigProblem{Key: k, Message: fmt.Sprintf(f, a...)})
	}
	for _, s := range p.all() {
		v, given := cfg[s.name]
		if !given || v == "" {
			if s.required {
				add(s.name, "Missing required configuration %q which has no default value.", s.name)
			}
			continue
		}
		switch {
		case len(s.enum) > 0 && !slices.Contains(s.enum, v):
			add(s.name, "Invalid value %s for configuration %s: must be one of %s.", v, s.name, strings.Join(s.enum, ", "))
		case s.typ == "INT":
			n, err := strconv.Atoi(v)
			if err != nil {
				add(s.name, "Invalid value %s for configuration %s: not a number.", v, s.name)
			} else if n < s.min || n > s.max {
				add(s.name, "Invalid value %d for configuration %s: must be between %d and %d.", n, s.name, s.min, s.max)
			}
		}
	}
	for k := range cfg {
		if _, ok := p.setting(k); !ok {
			add(k, "Unknown configuration %q for %s.", k, p.class)
		}
	}
	switch cfg["kafka.auth.mode"] {
	case "", "KAFKA_API_KEY":
		for _, k := range []string{"kafka.api.key", "kafka.api.secret"} {
			if cfg[k] == "" {
				add(k, "Missing required configuration %q with kafka.auth.mode KAFKA_API_KEY.", k)
			}
		}
	case "SERVICE_ACCOUNT":
		if !strings.HasPrefix(cfg["kafka.service.account.id"], "sa-") {
			add("kafka.service.account.id", "Missing or invalid service account id (sa-...) with kafka.auth.mode SERVICE_ACCOUNT.")
		}
	}
	if u := cfg["http.api.url"]; u != "" {
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			add("http.api.url", "Invalid value %s for configuration http.api.url: must be an http(s) URL.", u)
		}
	}
	if cfg["auth.type"] == "BASIC" && (cfg["connection.user"] == "" || cfg["connection.password"] == "") {
		add("connection.password", "connection.user and connection.password are required with auth.type BASIC.")
	}
	slices.SortFunc(out, func(a, b platform.ConfigProblem) int { return strings.Compare(a.Key, b.Key) })
	return out
}

func (p plugin) definition() connect.ConnectorDefinition {
	d := connect.ConnectorDefinition{Class: p.class, Type: p.typ}
	for _, s := range p.all() {
		d.Settings = append(d.Settings, connect.ConnectorSetting{Name: s.name, Type: s.typ, Required: s.required,
			Default: s.def, Documentation: s.doc, DisplayName: s.name, Recommended: s.enum})
		if s.typ == "PASSWORD" {
			d.Sensitive = append(d.Sensitive, s.name)
		}
		if s.required {
			d.Required = append(d.Required, s.name)
		}
	}
	return d
}
