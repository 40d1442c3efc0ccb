-- +goose Up
-- Answers of the Confluent Cloud Metrics API, shared by the replicas: the
-- API is rate-limited per organisation, so one replica's answer serves
-- all, and the last answer stands in while the limit is reached.
CREATE TABLE metric_results (
    key        TEXT PRIMARY KEY,
    body       TEXT NOT NULL,
    fetched_at BIGINT NOT NULL
);
CREATE INDEX metric_results_fetched ON metric_results (fetched_at);

-- +goose Down
DROP TABLE metric_results;
