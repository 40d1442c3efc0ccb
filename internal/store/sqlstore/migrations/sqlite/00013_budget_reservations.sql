-- +goose Up
-- The use writes reserved in their unit's budget when they were checked
-- (under the budget's lock), counted by the next check until the resource
-- shows upstream: two creates on two replicas cannot both take the last
-- place. Released when the write fails; swept after a while.
CREATE TABLE budget_reservations (
    bu        TEXT NOT NULL,
    stage     TEXT NOT NULL,
    resource  TEXT NOT NULL,
    use_json  TEXT NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (bu, stage, resource)
);

-- +goose Down
DROP TABLE budget_reservations;
