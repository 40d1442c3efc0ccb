package wire

import "time"

// AlertRule is an alert rule; for_seconds is how long its condition
// holds before it fires.
type AlertRule struct {
	Name          string    `json:"name"`
	Kind          AlertKind `json:"kind"`
	Target        string    `json:"target,omitempty"`
	Threshold     float64   `json:"threshold"`
	ForSeconds    int64     `json:"for_seconds"`
	Enabled       bool      `json:"enabled"`
	Default       bool      `json:"default" doc:"The platform's default rule; saving one of its name replaces it for the unit."`
	Description   string    `json:"description"`
	SilencedUntil *string   `json:"silenced_until,omitempty" format:"date-time"`
	SilenceReason string    `json:"silence_reason,omitempty"`
	SilencedBy    string    `json:"silenced_by,omitempty"`
	UpdatedBy     string    `json:"updated_by,omitempty"`
	UpdatedAt     *string   `json:"updated_at,omitempty" format:"date-time"`
}

// AlertRuleUpdate is a rule to save; enabled is true when left out.
type AlertRuleUpdate struct {
	Kind       AlertKind `json:"kind" oa:"required"`
	Target     string    `json:"target" doc:"A group, connector or topic identifier of the unit, or * (the default) for all; none for key_expiring, budget_headroom and cost_forecast."`
	Threshold  float64   `json:"threshold" doc:"Seconds behind (lag_time), days before expiry (key_expiring, 1-365), percent of a limit left (budget_headroom), records a second (topic_growth), percent of the monthly amount (cost_forecast, 100: over it)."`
	ForSeconds int64     `json:"for_seconds" oa:"min=0,max=86400" doc:"How long the condition holds before the rule fires, and ends before it resolves."`
	Enabled    *bool     `json:"enabled" oa:"default=true"`
}

// AlertSilence silences a rule until a time, or ends its silence
// (until left out).
type AlertSilence struct {
	Until      *time.Time `json:"until" format:"date-time" doc:"At most 30 days ahead."`
	ForSeconds int64      `json:"for_seconds" oa:"min=0"`
	Reason     string     `json:"reason" doc:"Required with a silence."`
}

// Alert is one firing or resolved alert.
type Alert struct {
	ID         string    `json:"id"`
	Rule       string    `json:"rule"`
	Kind       AlertKind `json:"kind"`
	Subject    string    `json:"subject" doc:"The group, connector, key, topic or budget dimension."`
	State      string    `json:"state" enum:"firing,resolved"`
	Value      string    `json:"value"`
	FiredAt    string    `json:"fired_at" format:"date-time"`
	ResolvedAt *string   `json:"resolved_at,omitempty" format:"date-time"`
	Silenced   bool      `json:"silenced" doc:"It fired while its rule was silenced and was not told."`
}

// AlertChannel is where a unit's alerts are sent.
type AlertChannel struct {
	ID        string `json:"id"`
	Format    string `json:"format" enum:"cloudevents,slack,alertmanager"`
	URL       string `json:"url"`
	Secret    string `json:"secret,omitempty" doc:"Only in the answer that makes a CloudEvents channel."`
	CreatedBy string `json:"created_by"`
	CreatedAt string `json:"created_at" format:"date-time"`
}

// AlertKind names what an alert rule watches.
type AlertKind string

// AlertChannelCreate asks for an alert channel.
type AlertChannelCreate struct {
	Format string `json:"format" oa:"default=cloudevents" enum:"cloudevents,slack,alertmanager"`
	URL    string `json:"url" oa:"required"`
}

// AlertRuleList is a page of AlertRule.
type AlertRuleList = List[AlertRule]

// AlertList is a page of Alert.
type AlertList = List[Alert]

// AlertChannelList is a page of AlertChannel.
type AlertChannelList = List[AlertChannel]
