package wire

// Components lists the API document's named schemas: every type of the
// package (declared, which make docs writes from the source), with what
// their Go types cannot say (notes).
func Components() []Component {
	n := notes()
	out := declared()
	for i, c := range out {
		if more, ok := n[c.Name]; ok {
			more.Name, more.Value = c.Name, c.Value
			out[i] = more
		}
	}
	return out
}

// notes are what some schemas say beyond their types and tags: a
// description of the whole, an example, a scalar's values, or that an
// object refuses properties it does not have.
func notes() map[string]Component {
	return map[string]Component{
		"ResourceDocument": {Doc: "See /api-docs/schemas/document.json for each kind's spec."},
		"ErrorRecord":      {Example: "{code: 400, errors: [{field: name, message: name is required, type: MISSING_PARAMETER}], status: BAD_REQUEST, timestamp: '2026-11-21T22:43:37.123Z'}"},
		"UnitGroups":       {Doc: "Identity-provider groups (ids or names) per role; at least one group in some role."},
		"LagTime":          {Doc: "How late a group is in time (on a partition, or for a group its latest partition): the age of the oldest record it has not consumed and when it catches up at its recent pace. The portal learns both from the offsets it sees over time (it samples groups shown in the last ten minutes every 10 s); null until it has."},
		"TopicConfig":      {Doc: "Setting overrides; values are strings. Editable settings and their rules:\n{{TOPIC_SETTINGS}}\n"},
		"AlertKind":        {Doc: "lag_time, a group's lag in time above the threshold (seconds); stalled, a group whose commits did not move while records arrived; connector_failed, a connector or task failed (or its auto-restart gave up); key_expiring, an API key of the unit expires within the threshold (days); budget_headroom, less than the threshold (percent) of a budget limit left; topic_growth, a topic written faster than the threshold (records a second); cost_forecast, the month-end forecast of the unit's costs in the stage above the threshold (percent of its budget's monthly_cost).", Enum: []string{"lag_time", "stalled", "connector_failed", "key_expiring", "budget_headroom", "topic_growth", "cost_forecast"}},
		"AutoRestart":      {Doc: "A connector's auto-restart. When on, the portal restarts the connector (or its failed tasks) when it fails: first a minute after the failure was seen, then after twice the last wait, up to an hour (connector_auto_restart in the configuration), until max_restarts restarts have not brought it back (0: no limit); then it gives up (given_up) and says so in an event. A person's pause, resume or restart starts the backoff again. Each restart is audited as the portal's (GET .../restarts)."},
		"BulkResults":      {Example: "{done: 2, id: 7KQX2M4A, results: [{index: 0, item: {id: sa-1a2b3c, name: sa-edh-shared-scada-dev-usr-billing-app-producer, type: producer}, name: sa-edh-shared-scada-dev-usr-billing-app-producer, outcome: created, status: 201}, {error: {message: service account sa-edh-shared-scada-dev-usr-demo-app-producer already exists (sa-9x8y7z), type: ALREADY_EXISTS}, index: 1, name: demo-app, status: 409}], state: done, total: 2}"},
		"ProduceRecord":    {Closed: true},
		"PolicyKind":       {Doc: "A kind a policy may be about.", Enum: []string{"{{POLICY_KINDS}}"}},
	}
}
