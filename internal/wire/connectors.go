package wire

import "encoding/json"

// Connector is a connector with its state and tasks; secrets are never shown.
type Connector struct {
	Name              string            `json:"name" example:"edh-shared-scada-dev-pump-datagen-connector"`
	Identifier        string            `json:"identifier" example:"pump-datagen"`
	BusinessUnit      string            `json:"business_unit,omitempty"`
	OutsideConvention bool              `json:"outside_convention"`
	ID                string            `json:"id,omitempty" example:"lcc-abc123"`
	Type              string            `json:"type,omitempty" enum:"source,sink"`
	Class             string            `json:"class" example:"DatagenSource"`
	State             string            "json:\"state\" enum:\"PROVISIONING,RUNNING,DEGRADED,PAUSED,FAILED,DELETED,UNKNOWN\" doc:\"`PROVISIONING` (being created or changed), `RUNNING`, `DEGRADED` (some\\ntasks failed), `PAUSED`, `FAILED` (the connector or every task\\nfailed), `DELETED`, or `UNKNOWN`.\""
	Trace             string            `json:"trace,omitempty" doc:"Why the connector failed."`
	Tasks             []ConnectorTask   `json:"tasks"`
	Config            map[string]string "json:\"config,omitempty\" doc:\"Only with `show_config=true`; sensitive values are `********`.\""
	Sensitive         []string          `json:"sensitive,omitempty" doc:"The masked settings."`
	AutoRestart       AutoRestart       `json:"auto_restart"`
}

// ConnectorTask is one task of a connector.
type ConnectorTask struct {
	ID    int    `json:"id"`
	State string `json:"state"`
	Trace string `json:"trace,omitempty"`
}

// ConnectorCreate asks for a connector.
type ConnectorCreate struct {
	Name   string            `json:"name" oa:"required" doc:"Identifier; the full name is qualified and ends with -connector."`
	Config map[string]string "json:\"config\" oa:\"required\" doc:\"The plugin's settings, including `connector.class`.\""
}

// ConnectorUpdate carries the new configuration; fields a GET returns are
// accepted and ignored, so a GET response can be edited and sent back.
type ConnectorUpdate struct {
	Config map[string]string `json:"config" oa:"required"`

	Name              json.RawMessage `json:"name" oa:"readonly"`
	Identifier        json.RawMessage `json:"identifier" oa:"readonly"`
	BusinessUnit      json.RawMessage `json:"business_unit" oa:"readonly"`
	OutsideConvention json.RawMessage `json:"outside_convention" oa:"readonly"`
	ID                json.RawMessage `json:"id" oa:"readonly"`
	Type              json.RawMessage `json:"type" oa:"readonly"`
	Class             json.RawMessage `json:"class" oa:"readonly"`
	State             json.RawMessage `json:"state" oa:"readonly"`
	Trace             json.RawMessage `json:"trace" oa:"readonly"`
	Tasks             json.RawMessage `json:"tasks" oa:"readonly"`
	Sensitive         json.RawMessage `json:"sensitive" oa:"readonly"`
	// AutoRestart has its own request (PUT .../auto-restart).
	AutoRestart json.RawMessage `json:"auto_restart" oa:"readonly"`
}

// ConnectorPlugin is a connector class the cluster can run.
type ConnectorPlugin struct {
	Class string `json:"class" example:"DatagenSource"`
	Type  string `json:"type" enum:"source,sink"`
}

// ConnectorAction is the answer to a connector's pause, resume or
// restart, which Confluent Cloud carries out after answering.
type ConnectorAction struct {
	Name   string `json:"name"`
	Action string `json:"action" enum:"pause,resume,restart"`
	Status string `json:"status" example:"accepted"`
}

// ConnectorList is a page of Connector.
type ConnectorList = List[Connector]

// ConnectorPluginList is a page of ConnectorPlugin.
type ConnectorPluginList = List[ConnectorPlugin]
