-- +goose Up
-- A direct apply is a journal: recorded applying, with the plan being
-- applied and its audit attempt, before its first change; finished with
-- each change's outcome. One whose replica stopped is finished by
-- another (the rest of that plan, or partly applied with what exists).
CREATE TABLE apply_journal (
    id          TEXT PRIMARY KEY,
    bu          TEXT NOT NULL,
    stage       TEXT NOT NULL,
    actor       TEXT NOT NULL,
    document    TEXT NOT NULL,
    plan        TEXT NOT NULL,
    state       TEXT NOT NULL,
    event_id    BIGINT NOT NULL DEFAULT 0,
    started_at  BIGINT NOT NULL,
    finished_at BIGINT NOT NULL DEFAULT 0,
    result      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX apply_journal_state ON apply_journal (state, started_at);

-- +goose Down
DROP TABLE apply_journal;
