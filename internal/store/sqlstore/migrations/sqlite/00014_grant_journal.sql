-- +goose Up
-- A grant being approved or revoked keeps its decision's audit attempt:
-- a replica that finishes the decision of one that stopped settles that
-- attempt. Its bindings meanwhile are the journal of the decision: the
-- ones to make are listed (id "-") before the first is made.
ALTER TABLE grants ADD COLUMN event_id BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE grants DROP COLUMN event_id;
