-- +goose Up
-- The outbox of events: a row for each audit event once it is final (a
-- complete event, or an attempt once settled), written in the same
-- transaction. SQLite commits one writer at a time, so seq is the order
-- of commits (txid stays 0).
CREATE TABLE event_outbox (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id INTEGER NOT NULL,
    -- final: the event as settled; not final: an attempt published as
    -- unknown (its replica stopped and the upstream cannot tell), which
    -- is published again once settled.
    final    BOOLEAN NOT NULL DEFAULT TRUE,
    txid     INTEGER NOT NULL DEFAULT 0,
    UNIQUE (event_id, final)
);
INSERT INTO event_outbox (event_id)
    SELECT id FROM audit_events
    WHERE outcome <> 'unknown' AND id > (SELECT COALESCE(MIN(last_event), (SELECT COALESCE(MAX(id), 0) FROM audit_events)) FROM webhooks)
    ORDER BY id;
ALTER TABLE webhooks ADD COLUMN cursor_txid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD COLUMN cursor_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhook_deliveries ADD COLUMN subject TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE webhook_deliveries DROP COLUMN claimed_until;
ALTER TABLE webhook_deliveries DROP COLUMN claimed_by;
ALTER TABLE webhook_deliveries DROP COLUMN subject;
ALTER TABLE webhooks DROP COLUMN cursor_seq;
ALTER TABLE webhooks DROP COLUMN cursor_txid;
DROP TABLE event_outbox;
