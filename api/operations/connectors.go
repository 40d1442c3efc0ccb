package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// connectors are the operations of the connectors tag.
func connectors() []Operation {
	return []Operation{
		{
			ID: "listConnectors", Method: http.MethodGet, Path: "/{bu}/{stage}/connectors",
			Need:    NeedReads,
			Tags:    []string{"connectors"},
			Summary: "List the business unit's connectors with their states and task states.",
			Doc:     "One request upstream (Connect v1 `expand=info,status,id`). Configurations are not listed.",
			Params:  []Param{Ref("page_size"), Ref("unit"), Ref("page_token"), Ref("search"), Ref("order")},
			Answers: []Answer{{Status: 200, Doc: "One page of connectors.", Of: wire.ConnectorList{}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "listConnectorPlugins", Method: http.MethodGet, Path: "/{bu}/{stage}/connector-plugins",
			Need:    NeedReads,
			Tags:    []string{"connectors"},
			Summary: "List the connector classes offered.",
			Answers: []Answer{{Status: 200, Doc: "Connector classes.", Of: wire.ConnectorPluginList{}}},
			Fails:   []Failure{NotFound, Unavailable},
		},
		{
			ID: "createConnector", Method: http.MethodPost, Path: "/{bu}/{stage}/connector",
			Need:    NeedWrites,
			Tags:    []string{"connectors"},
			Summary: "Create a connector.",
			Doc:     "The configuration is checked by the connector plugin first; each problem is reported on its setting (`config.<key>`).",
			Body:    &Body{Of: wire.ConnectorCreate{}, Required: true, Example: "{name: pump-datagen, config: {connector.class: DatagenSource, kafka.topic: pump-telemetry, output.data.format: JSON, quickstart: ORDERS, kafka.api.key: KEY, kafka.api.secret: SECRET}}"},
			Answers: []Answer{{Status: 201, Doc: "Created; the connector starts PROVISIONING. `Location` names it.", Of: wire.Connector{}, Headers: []Header{{Name: "Location", Schema: "{type: string}"}}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "getConnector", Method: http.MethodGet, Path: "/{bu}/{stage}/connector/{name}",
			Need:    NeedReads,
			Tags:    []string{"connectors"},
			Summary: "Get a connector with its status and tasks.",
			Params:  []Param{{Name: "show_config", In: "query", Doc: "Add the configuration, sensitive values masked.", Schema: "{type: boolean, default: false}"}},
			Answers: []Answer{{Status: 200, Doc: "The connector.", Of: wire.Connector{}, Headers: []Header{{Name: "ETag", Ref: "ETag"}}}},
			Fails:   []Failure{BadRequest, NotFound, Unavailable, Timeout},
		},
		{
			ID: "updateConnector", Method: http.MethodPut, Path: "/{bu}/{stage}/connector/{name}",
			Need:    NeedWrites,
			Tags:    []string{"connectors"},
			Summary: "Replace a connector's configuration.",
			Doc: "`connector.class` cannot change (it defaults to the current class).\n" +
				"A sensitive setting sent as `********` keeps its stored value. On\n" +
				"Confluent Cloud, which never returns stored secrets, such an update is\n" +
				"refused with a 400 naming the settings to send again.\n",
			Params:  []Param{Ref("if_match")},
			Body:    &Body{Of: wire.ConnectorUpdate{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The updated connector.", Of: wire.Connector{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, PreconditionFailed, PayloadTooLarge, UnsupportedMediaType, Unavailable, Timeout},
		},
		{
			ID: "deleteConnector", Method: http.MethodDelete, Path: "/{bu}/{stage}/connector/{name}",
			Need:    NeedWrites,
			Tags:    []string{"connectors"},
			Summary: "Delete a connector.",
			Params:  []Param{Ref("if_match")},
			Answers: []Answer{{Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Busy, PreconditionFailed, Unavailable, Timeout},
		},
		{
			ID: "pauseConnector", Method: http.MethodPost, Path: "/{bu}/{stage}/connector/{name}/pause",
			Need:    NeedWrites,
			Tags:    []string{"connectors"},
			Summary: "Pause a connector (asynchronous).",
			Answers: []Answer{{Status: 202, Ref: "Accepted"}},
			Fails:   []Failure{Forbidden, NotFound, Unavailable},
		},
		{
			ID: "resumeConnector", Method: http.MethodPost, Path: "/{bu}/{stage}/connector/{name}/resume",
			Need:    NeedWrites,
			Tags:    []string{"connectors"},
			Summary: "Resume a paused connector (asynchronous).",
			Answers: []Answer{{Status: 202, Ref: "Accepted"}},
			Fails:   []Failure{Forbidden, NotFound, Unavailable},
		},
		{
			ID: "restartConnector", Method: http.MethodPost, Path: "/{bu}/{stage}/connector/{name}/restart",
			Need:    NeedWrites,
			Tags:    []string{"connectors"},
			Summary: "Restart a connector and its tasks (asynchronous).",
			Doc:     "Confluent Cloud restarts the connector and all its tasks together; it has no restart of one task.",
			Params:  []Param{{Name: "only_failed", In: "query", Doc: "Restart only when the connector or one of its tasks has failed; otherwise nothing is restarted.", Schema: "{type: boolean, default: false}"}},
			Answers: []Answer{{Status: 202, Ref: "Accepted"}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable},
		},
		{
			ID: "setConnectorAutoRestart", Method: http.MethodPut, Path: "/{bu}/{stage}/connector/{name}/auto-restart",
			Need:    NeedWrites,
			Tags:    []string{"connectors"},
			Summary: "Turn a connector's auto-restart on (its backoff from the start) or off.",
			Doc:     "A change of the connector (Developers and up; in read-only stages Admins), audited as connector.set-auto-restart.",
			Body:    &Body{Of: wire.AutoRestartUpdate{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The auto-restart as it is now.", Of: wire.AutoRestart{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable},
		},
		{
			ID: "connectorImpact", Method: http.MethodGet, Path: "/{bu}/{stage}/connector/{name}/impact",
			Need:    NeedReads,
			Tags:    []string{"connectors"},
			Summary: "What deleting the connector would break: the topics it reads or writes, with the groups reading those it writes.",
			Answers: []Answer{{Status: 200, Doc: "The dependants.", Of: wire.Impact{}}},
			Fails:   []Failure{NotFound, Unavailable},
		},
		{
			ID: "listConnectorRestarts", Method: http.MethodGet, Path: "/{bu}/{stage}/connector/{name}/restarts",
			Need:    NeedReads,
			Tags:    []string{"connectors"},
			Summary: "The portal's latest restarts of a connector (up to 50), and its giving up, newest first.",
			Answers: []Answer{{Status: 200, Doc: "The restarts.", Of: wire.RestartList{}}},
			Fails:   []Failure{Forbidden, NotFound, Unavailable},
		},
	}
}
