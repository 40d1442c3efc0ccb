-- +goose Up
-- The portal's own facts about API keys, which Confluent Cloud does not
-- keep: who made a key through the portal, when it expires (the stage's
-- maximum age, or a rotation's overlap), and which key replaced it. The
-- key itself (and never its secret) lives upstream.
CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    resource    TEXT NOT NULL,
    zone        TEXT NOT NULL,
    bu          TEXT NOT NULL,
    stage       TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL DEFAULT 0,
    replaced_by TEXT NOT NULL DEFAULT '',
    adopted     BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX api_keys_expiry ON api_keys (expires_at);
CREATE INDEX api_keys_owner ON api_keys (owner);

-- +goose Down
DROP TABLE api_keys;
