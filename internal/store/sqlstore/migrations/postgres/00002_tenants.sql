-- +goose Up
-- Business units onboarded in the admin area; groups are JSON lists.
CREATE TABLE business_units (
    id               TEXT PRIMARY KEY,
    landing_zone     TEXT NOT NULL,
    admin_groups     TEXT NOT NULL,
    developer_groups TEXT NOT NULL,
    viewer_groups    TEXT NOT NULL,
    created_by       TEXT NOT NULL,
    created_at       BIGINT NOT NULL,
    updated_by       TEXT NOT NULL,
    updated_at       BIGINT NOT NULL
);

-- Read-only switches per landing zone and stage; until_at 0 never ends.
CREATE TABLE read_only_switches (
    landing_zone TEXT NOT NULL,
    stage        TEXT NOT NULL,
    read_only    BOOLEAN NOT NULL,
    reason       TEXT NOT NULL,
    until_at     BIGINT NOT NULL,
    set_by       TEXT NOT NULL,
    set_at       BIGINT NOT NULL,
    PRIMARY KEY (landing_zone, stage)
);

-- A zone's Super Admins read its trail. The trail reads newest first by
-- time, then id, paged by (at, id): each filter's index ends with (at, id)
-- so that it serves the order and a time range without sorting, whatever
-- the filter (refusals are rare among many successes, so outcome has one).
ALTER TABLE audit_events ADD COLUMN landing_zone TEXT NOT NULL DEFAULT '';
DROP INDEX audit_scope;
DROP INDEX audit_actor;
DROP INDEX audit_action;
DROP INDEX audit_resource;
DROP INDEX audit_at;
CREATE INDEX audit_at ON audit_events (at, id);
CREATE INDEX audit_scope ON audit_events (bu, stage, at, id);
CREATE INDEX audit_zone ON audit_events (landing_zone, at, id);
CREATE INDEX audit_actor ON audit_events (actor, at, id);
CREATE INDEX audit_action ON audit_events (action, at, id);
CREATE INDEX audit_resource ON audit_events (resource, at, id);
CREATE INDEX audit_outcome ON audit_events (outcome, at, id);

-- +goose Down
DROP INDEX audit_outcome;
DROP INDEX audit_resource;
DROP INDEX audit_action;
DROP INDEX audit_actor;
DROP INDEX audit_zone;
DROP INDEX audit_scope;
DROP INDEX audit_at;
CREATE INDEX audit_scope ON audit_events (bu, stage, id);
CREATE INDEX audit_actor ON audit_events (actor, id);
CREATE INDEX audit_action ON audit_events (action, id);
CREATE INDEX audit_resource ON audit_events (resource, id);
CREATE INDEX audit_at ON audit_events (at);
ALTER TABLE audit_events DROP COLUMN landing_zone;
DROP TABLE read_only_switches;
DROP TABLE business_units;
