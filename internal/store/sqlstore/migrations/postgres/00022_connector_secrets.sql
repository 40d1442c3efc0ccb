-- +goose Up
-- A keyed digest of each secret setting the portal last sent to a
-- connector (never the value): Confluent Cloud does not give stored
-- secrets back, so plans compare a declared value's digest with it.
CREATE TABLE connector_secret_digests (
    zone      TEXT NOT NULL,
    stage     TEXT NOT NULL,
    connector TEXT NOT NULL,
    digests   TEXT NOT NULL,
    set_at    BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (zone, stage, connector)
);

-- +goose Down
DROP TABLE connector_secret_digests;
