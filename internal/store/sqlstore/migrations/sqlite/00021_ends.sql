-- +goose Up
-- A grant that ended by time reads expired (it was recorded revoked, as
-- if a person had revoked it); the grants on a topic or for a principal
-- are looked up when a delete ends them.
UPDATE grants SET state = 'expired' WHERE state = 'revoked' AND comment LIKE 'expired at %';
CREATE INDEX grants_pattern ON grants (zone, stage, pattern);
CREATE INDEX grants_principal ON grants (zone, stage, principal);

-- +goose Down
DROP INDEX grants_principal;
DROP INDEX grants_pattern;
UPDATE grants SET state = 'revoked' WHERE state = 'expired';
