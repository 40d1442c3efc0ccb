package portal

// The alert channel's actions, with the past tenses that name their CloudEvents
// (alertChannelKind lists them).
var (
	ActAlertChannelCreate = Action{"alert-channel.create", "created"}
	ActAlertChannelDelete = Action{"alert-channel.delete", "deleted"}
)

// alertChannelKind declares the alert channel: see KindInfo.
var alertChannelKind = KindInfo{
	Change: "alert-channel", Title: "Alert channel",
	Plural: "alert-channels", Item: "alert-channel", Aliases: []string{"channels"},
	Columns: []string{"id", "format", "url", "created_by"},
	Verbs:   []Action{ActAlertChannelCreate, ActAlertChannelDelete},
}
