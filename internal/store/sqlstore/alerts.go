package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

const alertRuleColumns = `zone, stage, bu, name, kind, target, threshold, for_seconds, enabled, silenced_until, silence_reason, silenced_by, updated_by, updated_at`

func scanAlertRule(row interface{ Scan(...any) error }) (store.AlertRuleRecord, error) {
	var r store.AlertRuleRecord
	var forSeconds, until, updated int64
	err := row.Scan(&r.Zone, &r.Stage, &r.BU, &r.Name, &r.Kind, &r.Target, &r.Threshold, &forSeconds, &r.Enabled, &until, &r.SilenceReason,
		&r.SilencedBy, &r.UpdatedBy, &updated)
	r.For, r.SilencedUntil, r.UpdatedAt = time.Duration(forSeconds)*time.Second, fromMicros(until), fromMicros(updated)
	return r, err
}

// AlertRules lists a stage's rules of a unit, or of every unit.
func (d *DB) AlertRules(ctx context.Context, zone, stage, bu string) ([]store.AlertRuleRecord, error) {
	return queryAll(ctx, d, scanAlertRule, `SELECT `+alertRuleColumns+` FROM alert_rules WHERE (zone = ? OR ? = '') AND (stage = ? OR ? = '')
		AND (bu = ? OR ? = '') ORDER BY zone, stage, bu, name`, zone, zone, stage, stage, bu, bu)
}

// PutAlertRule creates or replaces a rule.
func (d *DB) PutAlertRule(ctx context.Context, r store.AlertRuleRecord) error {
	_, err := d.exec(ctx, `INSERT INTO alert_rules (`+alertRuleColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (zone, stage, bu, name) DO UPDATE SET kind = excluded.kind, target = excluded.target, threshold = excluded.threshold,
		for_seconds = excluded.for_seconds, enabled = excluded.enabled, silenced_until = excluded.silenced_until, silence_reason = excluded.silence_reason,
		silenced_by = excluded.silenced_by, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
		r.Zone, r.Stage, r.BU, r.Name, r.Kind, r.Target, r.Threshold, int64(r.For/time.Second), r.Enabled, micros(r.SilencedUntil), r.SilenceReason,
		r.SilencedBy, r.UpdatedBy, micros(r.UpdatedAt))
	return err
}

// DeleteAlertRule deletes a rule.
func (d *DB) DeleteAlertRule(ctx context.Context, zone, stage, bu, name string) error {
	return found(affected(d.exec(ctx, `DELETE FROM alert_rules WHERE zone = ? AND stage = ? AND bu = ? AND name = ?`, zone, stage, bu, name)))
}

const alertColumns = `id, zone, stage, bu, rule, kind, subject, state, value, since, fired_at, resolved_at, clear_since, silenced`

func scanAlert(row interface{ Scan(...any) error }) (store.AlertRecord, error) {
	var a store.AlertRecord
	var since, fired, resolved, clear int64
	err := row.Scan(&a.ID, &a.Zone, &a.Stage, &a.BU, &a.Rule, &a.Kind, &a.Subject, &a.State, &a.Value, &since, &fired, &resolved, &clear, &a.Silenced)
	a.Since, a.FiredAt, a.ResolvedAt, a.ClearSince = fromMicros(since), fromMicros(fired), fromMicros(resolved), fromMicros(clear)
	return a, err
}

// OpenAlerts lists a stage's pending and firing alerts.
func (d *DB) OpenAlerts(ctx context.Context, zone, stage string) ([]store.AlertRecord, error) {
	return queryAll(ctx, d, scanAlert, `SELECT `+alertColumns+` FROM alerts WHERE (zone = ? OR ? = '') AND (stage = ? OR ? = '')
		AND state IN ('pending', 'firing') ORDER BY since, id`, zone, zone, stage, stage)
}

// SaveAlert creates or updates an alert.
func (d *DB) SaveAlert(ctx context.Context, a store.AlertRecord) error {
	_, err := d.exec(ctx, `INSERT INTO alerts (`+alertColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET state = excluded.state, value = excluded.value, fired_at = excluded.fired_at, resolved_at = excluded.resolved_at,
		clear_since = excluded.clear_since, silenced = excluded.silenced`,
		a.ID, a.Zone, a.Stage, a.BU, a.Rule, a.Kind, a.Subject, a.State, a.Value, micros(a.Since), micros(a.FiredAt), micros(a.ResolvedAt),
		micros(a.ClearSince), a.Silenced)
	return err
}

// AlertHistory lists a unit's alerts in a stage, newest first.
func (d *DB) AlertHistory(ctx context.Context, zone, stage, bu string, limit int) ([]store.AlertRecord, error) {
	return queryAll(ctx, d, scanAlert, `SELECT `+alertColumns+` FROM alerts WHERE zone = ? AND stage = ? AND bu = ? ORDER BY since DESC, id LIMIT ?`,
		zone, stage, bu, limit)
}

// FiringAlerts lists the firing alerts of units, newest first.
func (d *DB) FiringAlerts(ctx context.Context, bus []string, limit int) ([]store.AlertRecord, error) {
	if len(bus) == 0 {
		return nil, nil
	}
	args := make([]any, 0, len(bus)+1)
	marks := make([]string, len(bus))
	for i, bu := range bus {
		marks[i] = "?"
		args = append(args, bu)
	}
	args = append(args, limit)
	return queryAll(ctx, d, scanAlert, `SELECT `+alertColumns+` FROM alerts WHERE state = 'firing' AND bu IN (`+strings.Join(marks, ", ")+`)
		ORDER BY fired_at DESC, id LIMIT ?`, args...)
}
