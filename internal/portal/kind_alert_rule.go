package portal

// KindAlertRule is how documents name one of the unit's alert rules in
// the stage.
const KindAlertRule = "AlertRule"

// The alert rule's actions, with the past tenses that name their CloudEvents
// (alertRuleKind lists them).
var (
	ActAlertRuleUpdate  = Action{"alert-rule.update", "updated"}
	ActAlertRuleDelete  = Action{"alert-rule.delete", "deleted"}
	ActAlertRuleSilence = Action{"alert-rule.silence", "silenced"}
)

// alertRuleKind declares the alert rule: see KindInfo.
var alertRuleKind = KindInfo{
	Document: KindAlertRule, Change: "alert-rule", Title: "Alert rule",
	Plural: "alert-rules", Item: "alert-rule", Aliases: []string{"rules"},
	Columns: []string{"name", "kind", "target", "threshold", "for_seconds", "enabled", "default", "silenced_until"},
	Decl:    (*AlertRuleDecl)(nil),
	About:   "One of the plan's unit's alert rules in the stage (metadata.name is the rule's name; a rule of a platform default's name replaces it): fired when its condition holds for spec.for, resolved when it has ended as long, told to the unit's channels.",
	Verbs:   []Action{ActAlertRuleUpdate, ActAlertRuleDelete, ActAlertRuleSilence},
}

// AlertRuleDecl is one of the unit's alert rules (the resource's name is
// the rule's): a rule of a platform default's name replaces it.
type AlertRuleDecl struct {
	Kind, Target string
	Threshold    float64
	// For is a duration as written ("5m"; "" for none).
	For string
	// Enabled is true when nil.
	Enabled *bool
}
