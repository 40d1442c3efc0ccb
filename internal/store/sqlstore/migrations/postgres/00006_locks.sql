-- +goose Up
-- Locks on SQLite (PostgreSQL uses advisory locks): one row per resource
-- being changed, with the holder and when the lock lapses should the
-- holder die without releasing it.
CREATE TABLE locks (
    key    TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE locks;
