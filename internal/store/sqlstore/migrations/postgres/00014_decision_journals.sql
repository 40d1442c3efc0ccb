-- +goose Up
-- A grant being approved or revoked keeps its decision's audit attempt:
-- a replica that finishes the decision of one that stopped settles that
-- attempt. Its bindings meanwhile are the journal of the decision: the
-- ones to make are listed (id "-") before the first is made.
ALTER TABLE grants ADD COLUMN event_id BIGINT NOT NULL DEFAULT 0;
-- A change request being applied keeps its approval's attempt the same
-- way, and its result holds the plan being applied.
ALTER TABLE change_requests ADD COLUMN event_id BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE change_requests DROP COLUMN event_id;
ALTER TABLE grants DROP COLUMN event_id;
