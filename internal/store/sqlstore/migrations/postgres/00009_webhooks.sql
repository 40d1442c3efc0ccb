-- +goose Up
-- Webhooks platform admins configure per landing zone or unit, and their
-- outbox: the audit trail is the source of events; last_event is the last
-- event a webhook's deliveries were made from, and each delivery is a
-- row until it is delivered or given up (at least once, in order of the
-- events).
CREATE TABLE webhooks (
    id          TEXT PRIMARY KEY,
    zone        TEXT NOT NULL,
    bu          TEXT NOT NULL DEFAULT '',
    url         TEXT NOT NULL,
    secret      TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    last_event  BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE webhook_deliveries (
    webhook_id   TEXT NOT NULL,
    event_id     BIGINT NOT NULL,
    event_at     BIGINT NOT NULL,
    state        TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_at      BIGINT NOT NULL,
    last_status  INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    done_at      BIGINT NOT NULL DEFAULT 0,
    body         TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (webhook_id, event_id)
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (state, event_id);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
