-- +goose Up
-- Grants: access one unit of a landing zone asks another for, on a topic
-- or a topic prefix, for one of its own service accounts or identity
-- pools; approved by the owner, made of Confluent Cloud role bindings.
CREATE TABLE grants (
    id                 TEXT PRIMARY KEY,
    zone               TEXT NOT NULL,
    stage              TEXT NOT NULL,
    owner              TEXT NOT NULL,
    grantee            TEXT NOT NULL,
    principal          TEXT NOT NULL,
    principal_name     TEXT NOT NULL,
    pattern            TEXT NOT NULL,
    prefixed           BOOLEAN NOT NULL,
    access             TEXT NOT NULL,
    state              TEXT NOT NULL,
    requester          TEXT NOT NULL,
    requester_subject  TEXT NOT NULL,
    reason             TEXT NOT NULL,
    created_at         BIGINT NOT NULL,
    decided_by         TEXT NOT NULL DEFAULT '',
    decided_at         BIGINT NOT NULL DEFAULT 0,
    comment            TEXT NOT NULL DEFAULT '',
    bindings           TEXT NOT NULL DEFAULT ''
);
CREATE INDEX grants_owner ON grants (owner, stage, created_at);
CREATE INDEX grants_grantee ON grants (grantee, stage, created_at);
CREATE INDEX grants_state ON grants (state);

-- +goose Down
DROP TABLE grants;
