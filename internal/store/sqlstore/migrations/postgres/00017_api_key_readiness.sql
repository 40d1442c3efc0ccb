-- +goose Up
-- A new key signs in only after Confluent Cloud has spread it (up to about
-- two minutes). Until the portal's check with the key succeeds, the key is
-- 'provisioning' and its secret is kept sealed (probe) so that any replica
-- can check it; it is wiped when the key is ready, or when the portal gives
-- up ('unverified'). '' is a key recorded before this, or adopted: ready.
ALTER TABLE api_keys ADD COLUMN state TEXT NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN ready_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE api_keys ADD COLUMN probe TEXT NOT NULL DEFAULT '';
CREATE INDEX api_keys_state ON api_keys (state);

-- +goose Down
DROP INDEX api_keys_state;
ALTER TABLE api_keys DROP COLUMN probe;
ALTER TABLE api_keys DROP COLUMN ready_at;
ALTER TABLE api_keys DROP COLUMN state;
