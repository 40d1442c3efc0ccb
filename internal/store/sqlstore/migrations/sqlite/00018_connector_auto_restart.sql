-- +goose Up
-- A connector's auto-restart: on by a person's switch or its document,
-- with the most restarts before the portal gives up (0: no limit), and
-- where its backoff stands: the restarts since the connector last ran
-- well (attempts), when the current failure was first seen, the last
-- restart, and whether the portal gave up.
CREATE TABLE connector_auto_restart (
    zone          TEXT NOT NULL,
    stage         TEXT NOT NULL,
    connector     TEXT NOT NULL,
    bu            TEXT NOT NULL,
    max_restarts  INTEGER NOT NULL DEFAULT 0,
    attempts      INTEGER NOT NULL DEFAULT 0,
    failing_since BIGINT NOT NULL DEFAULT 0,
    last_at       BIGINT NOT NULL DEFAULT 0,
    given_up      BOOLEAN NOT NULL DEFAULT FALSE,
    set_by        TEXT NOT NULL DEFAULT '',
    set_at        BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (zone, stage, connector)
);

-- +goose Down
DROP TABLE connector_auto_restart;
