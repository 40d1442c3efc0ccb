-- +goose Up
-- Readiness writes here: a replica is ready only while its database takes
-- writes (the audit trail is written ahead of every change), not merely
-- answers reads. One row per process, refreshed by each probe.
CREATE TABLE write_checks (
    id TEXT PRIMARY KEY,
    at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE write_checks;
