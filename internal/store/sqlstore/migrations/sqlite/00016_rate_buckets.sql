-- +goose Up
-- Token buckets shared by every replica: an upstream's published limit
-- (the Metrics API's requests a minute) is the fleet's, not each
-- replica's. tokens is what is left at updated_at (microseconds).
CREATE TABLE rate_buckets (
    name       TEXT PRIMARY KEY,
    tokens     REAL NOT NULL,
    updated_at BIGINT NOT NULL
);

-- +goose Down
DROP TABLE rate_buckets;
