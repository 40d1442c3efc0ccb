-- +goose Up
-- A bulk job resumed by another replica finds the attempt its dead
-- replica recorded for an item by the job's request id, so that each item
-- is audited once.
CREATE INDEX audit_events_request ON audit_events (request_id);

-- +goose Down
DROP INDEX audit_events_request;
