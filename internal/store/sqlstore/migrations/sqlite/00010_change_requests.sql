-- +goose Up
-- Change requests: a plan a unit's member proposes (the document, its
-- fingerprint and the diff as planned), reviewed by another person, who
-- applies exactly that plan or rejects it.
CREATE TABLE change_requests (
    id                 TEXT PRIMARY KEY,
    zone               TEXT NOT NULL,
    bu                 TEXT NOT NULL,
    stage              TEXT NOT NULL,
    requester          TEXT NOT NULL,
    requester_subject  TEXT NOT NULL,
    reason             TEXT NOT NULL,
    document           TEXT NOT NULL,
    fingerprint        TEXT NOT NULL,
    plan               TEXT NOT NULL,
    state              TEXT NOT NULL,
    created_at         BIGINT NOT NULL,
    decided_by         TEXT NOT NULL DEFAULT '',
    decided_at         BIGINT NOT NULL DEFAULT 0,
    comment            TEXT NOT NULL DEFAULT '',
    result             TEXT NOT NULL DEFAULT ''
);
CREATE INDEX change_requests_unit ON change_requests (bu, stage, created_at);
CREATE INDEX change_requests_state ON change_requests (state);

-- +goose Down
DROP TABLE change_requests;
