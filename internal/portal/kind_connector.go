package portal

// KindConnector is the connector as documents and policies name it.
const KindConnector = "Connector"

// The connector's actions, with the past tenses that name their CloudEvents
// (connectorKind lists them).
var (
	ActConnectorCreate         = Action{"connector.create", "created"}
	ActConnectorUpdate         = Action{"connector.update", "updated"}
	ActConnectorDelete         = Action{"connector.delete", "deleted"}
	ActConnectorPause          = Action{"connector.pause", "paused"}
	ActConnectorResume         = Action{"connector.resume", "resumed"}
	ActConnectorRestart        = Action{"connector.restart", "restarted"}
	ActConnectorAutoRestart    = Action{"connector.auto-restart", "auto-restarted"}
	ActConnectorGiveUp         = Action{"connector.give-up", "given-up"}
	ActConnectorSetAutoRestart = Action{"connector.set-auto-restart", "auto-restart-set"}
)

// connectorKind declares the connector: see KindInfo.
var connectorKind = KindInfo{
	Document: KindConnector, Change: "connector", Title: "Connector", Titles: "Connectors",
	Plural: "connectors", Item: "connector", Readable: true,
	Columns: []string{"name", "type", "class", "state"},
	Nav:     3, Icon: "plug",
	Decl: (*ConnectorDecl)(nil), Policy: KindConnector, PolicyView: (*ConnectorView)(nil),
	About: "A fully-managed connector of the unit.",
	Verbs: []Action{ActConnectorCreate, ActConnectorUpdate, ActConnectorDelete, ActConnectorPause, ActConnectorResume, ActConnectorRestart, ActConnectorAutoRestart, ActConnectorGiveUp, ActConnectorSetAutoRestart},
}

// ConnectorDecl is a connector's desired class and configuration; secrets
// are given apart, by reference.
type ConnectorDecl struct {
	Class   string
	Config  map[string]string
	Secrets map[string]SecretRef
	// AutoRestart switches the portal's restarts of the connector; nil
	// leaves the switch as it is.
	AutoRestart *AutoRestartSpec
}

// SecretRef names the environment variable that holds a secret setting;
// clients fill Value from it when they send the document, and the portal
// never returns it.
type SecretRef struct {
	FromEnv string
	Value   string
}

// ConnectorView is a connector as policies see it; secret settings are
// masked ("********"), so that no message can repeat them.
type ConnectorView struct {
	Name       string            `cel:"name" json:"name"`
	Identifier string            `cel:"identifier" json:"identifier"`
	Class      string            `cel:"class" json:"class"`
	Tasks      int               `cel:"tasks" json:"tasks"`
	Topics     []string          `cel:"topics" json:"topics"`
	Config     map[string]string `cel:"config" json:"config"`
}
