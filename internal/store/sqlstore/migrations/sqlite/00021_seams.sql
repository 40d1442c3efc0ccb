-- +goose Up
-- A grant that ended by time reads expired (it was recorded revoked, as
-- if a person had revoked it); the grants on a topic or for a principal
-- are looked up when a delete ends them.
UPDATE grants SET state = 'expired' WHERE state = 'revoked' AND comment LIKE 'expired at %';
CREATE INDEX grants_pattern ON grants (zone, stage, pattern);
CREATE INDEX grants_principal ON grants (zone, stage, principal);
-- Which replicas run: each says it is alive every recovery.heartbeat
-- (until when it is to be believed: stale_at), and that it stops; an
-- attempt records its replica, so that one left unknown by a replica
-- known stopped is settled at once rather than after
-- recovery.settle_after, and such a replica's leases are taken over at
-- once rather than when they lapse.
CREATE TABLE replicas (
    id         TEXT PRIMARY KEY,
    started_at BIGINT NOT NULL,
    seen_at    BIGINT NOT NULL,
    stale_at   BIGINT NOT NULL,
    stopped_at BIGINT NOT NULL DEFAULT 0
);
ALTER TABLE audit_events ADD COLUMN replica TEXT NOT NULL DEFAULT '';
-- The front door a write came through (portal, api, mcp).
ALTER TABLE audit_events ADD COLUMN door TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_unknown ON audit_events (id) WHERE outcome = 'unknown';

-- +goose Down
DROP INDEX audit_unknown;
ALTER TABLE audit_events DROP COLUMN door;
ALTER TABLE audit_events DROP COLUMN replica;
DROP TABLE replicas;
DROP INDEX grants_principal;
DROP INDEX grants_pattern;
UPDATE grants SET state = 'revoked' WHERE state = 'expired';
