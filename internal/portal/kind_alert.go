package portal

// The alert's actions, with the past tenses that name their CloudEvents
// (alertKind lists them).
var (
	ActAlertFire    = Action{"alert.fire", "fired"}
	ActAlertResolve = Action{"alert.resolve", "resolved"}
)

// alertKind declares the alert: see KindInfo.
var alertKind = KindInfo{
	Change: "alert", Title: "Alert", Titles: "Alerts",
	Plural:  "alerts",
	Columns: []string{"state", "rule", "subject", "value", "fired_at", "resolved_at"},
	Nav:     9, Icon: "bell",
	Verbs: []Action{ActAlertFire, ActAlertResolve},
}
