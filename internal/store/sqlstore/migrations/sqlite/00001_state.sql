-- +goose Up
-- Times are Unix microseconds (UTC), the same in both adapters.
CREATE TABLE sessions (
    id          TEXT PRIMARY KEY,
    subject     TEXT NOT NULL,
    username    TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    last_seen   BIGINT NOT NULL,
    user_agent  TEXT NOT NULL,
    ip          TEXT NOT NULL,
    data        BLOB NOT NULL
);
CREATE INDEX sessions_subject ON sessions (subject, created_at);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE jobs (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    bu           TEXT NOT NULL,
    stage        TEXT NOT NULL,
    owner        TEXT NOT NULL,
    principal    BLOB NOT NULL,
    items        BLOB NOT NULL,
    state        TEXT NOT NULL,
    error        TEXT NOT NULL DEFAULT '',
    replica      TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL,
    finished_at  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX jobs_state ON jobs (state, heartbeat_at);

CREATE TABLE job_results (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    idx    INTEGER NOT NULL,
    result BLOB NOT NULL,
    PRIMARY KEY (job_id, idx)
);

CREATE TABLE audit_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          BIGINT NOT NULL,
    actor       TEXT NOT NULL,
    actor_role  TEXT NOT NULL,
    groups      TEXT NOT NULL,
    service     INTEGER NOT NULL,
    source_ip   TEXT NOT NULL,
    user_agent  TEXT NOT NULL,
    request_id  TEXT NOT NULL,
    bu          TEXT NOT NULL,
    stage       TEXT NOT NULL,
    action      TEXT NOT NULL,
    resource    TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    detail      TEXT NOT NULL,
    changes     TEXT NOT NULL
);
-- Lists are newest first by id, filtered by unit and stage (the unit's
-- trail), actor, action or resource, or a time range.
CREATE INDEX audit_scope ON audit_events (bu, stage, id);
CREATE INDEX audit_actor ON audit_events (actor, id);
CREATE INDEX audit_action ON audit_events (action, id);
CREATE INDEX audit_resource ON audit_events (resource, id);
CREATE INDEX audit_at ON audit_events (at);

CREATE TABLE samples (
    series TEXT NOT NULL,
    at     BIGINT NOT NULL,
    value  BIGINT NOT NULL,
    PRIMARY KEY (series, at)
);
CREATE INDEX samples_at ON samples (at);

-- +goose Down
DROP TABLE samples;
DROP TABLE audit_events;
DROP TABLE job_results;
DROP TABLE jobs;
DROP TABLE sessions;
