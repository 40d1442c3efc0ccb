-- +goose Up
-- The outbox of events: a row for each audit event once it is final (a
-- complete event, or an attempt once settled), written in the same
-- transaction. Webhooks read it in (txid, seq) order, only up to the
-- oldest transaction still running: a row of a transaction that commits
-- late (a lower seq after a higher one was read) is never skipped, and an
-- attempt still under way never holds the others back.
CREATE TABLE event_outbox (
    seq      BIGSERIAL PRIMARY KEY,
    event_id BIGINT NOT NULL,
    -- final: the event as settled; not final: an attempt published as
    -- unknown (its replica stopped and the upstream cannot tell), which
    -- is published again once settled.
    final    BOOLEAN NOT NULL DEFAULT TRUE,
    txid     xid8 NOT NULL DEFAULT pg_current_xact_id(),
    UNIQUE (event_id, final)
);
CREATE INDEX event_outbox_order ON event_outbox (txid, seq);
-- The final events a webhook may not have queued yet.
INSERT INTO event_outbox (event_id)
    SELECT id FROM audit_events
    WHERE outcome <> 'unknown' AND id > (SELECT COALESCE(MIN(last_event), (SELECT COALESCE(MAX(id), 0) FROM audit_events)) FROM webhooks)
    ORDER BY id;
-- Each webhook's position in the outbox.
ALTER TABLE webhooks ADD COLUMN cursor_txid BIGINT NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD COLUMN cursor_seq BIGINT NOT NULL DEFAULT 0;
-- A delivery's subject (its events go in order), and the replica that
-- claimed it for an attempt, until when.
ALTER TABLE webhook_deliveries ADD COLUMN subject TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE webhook_deliveries DROP COLUMN claimed_until;
ALTER TABLE webhook_deliveries DROP COLUMN claimed_by;
ALTER TABLE webhook_deliveries DROP COLUMN subject;
ALTER TABLE webhooks DROP COLUMN cursor_seq;
ALTER TABLE webhooks DROP COLUMN cursor_txid;
DROP TABLE event_outbox;
