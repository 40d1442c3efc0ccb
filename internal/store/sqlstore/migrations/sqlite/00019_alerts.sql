-- +goose Up
-- Alert rules of a unit in a stage (a platform default is overridden by a
-- rule of the same name), and the alerts they raised: pending while the
-- condition has held less than its duration, firing, then resolved.
CREATE TABLE alert_rules (
    zone           TEXT NOT NULL,
    stage          TEXT NOT NULL,
    bu             TEXT NOT NULL,
    name           TEXT NOT NULL,
    kind           TEXT NOT NULL,
    target         TEXT NOT NULL DEFAULT '',
    threshold      REAL NOT NULL DEFAULT 0,
    for_seconds    BIGINT NOT NULL DEFAULT 0,
    enabled        BOOLEAN NOT NULL DEFAULT TRUE,
    silenced_until BIGINT NOT NULL DEFAULT 0,
    silence_reason TEXT NOT NULL DEFAULT '',
    silenced_by    TEXT NOT NULL DEFAULT '',
    updated_by     TEXT NOT NULL DEFAULT '',
    updated_at     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (zone, stage, bu, name)
);
CREATE TABLE alerts (
    id          TEXT PRIMARY KEY,
    zone        TEXT NOT NULL,
    stage       TEXT NOT NULL,
    bu          TEXT NOT NULL,
    rule        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    subject     TEXT NOT NULL,
    state       TEXT NOT NULL,
    value       TEXT NOT NULL DEFAULT '',
    since       BIGINT NOT NULL DEFAULT 0,
    fired_at    BIGINT NOT NULL DEFAULT 0,
    resolved_at BIGINT NOT NULL DEFAULT 0,
    clear_since BIGINT NOT NULL DEFAULT 0,
    silenced    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX alerts_open ON alerts (zone, stage, state);
CREATE INDEX alerts_unit ON alerts (zone, stage, bu, since);
-- A unit's channels are webhooks of its own: a stage, the format of the
-- receiver (CloudEvents, signed; Slack or Teams; Alertmanager), and only
-- the unit's alerts.
ALTER TABLE webhooks ADD COLUMN stage TEXT NOT NULL DEFAULT '';
ALTER TABLE webhooks ADD COLUMN format TEXT NOT NULL DEFAULT '';
ALTER TABLE webhooks ADD COLUMN alerts_only BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE webhooks DROP COLUMN alerts_only;
ALTER TABLE webhooks DROP COLUMN format;
ALTER TABLE webhooks DROP COLUMN stage;
DROP INDEX alerts_unit;
DROP INDEX alerts_open;
DROP TABLE alerts;
DROP TABLE alert_rules;
