-- +goose Up
-- The platform's guardrails: policies per landing zone (the policy as
-- JSON, compiled by the portal when it is used) and budgets per business
-- unit and stage (the limits per dimension, as JSON).
CREATE TABLE policies (
    id          TEXT PRIMARY KEY,
    zone        TEXT NOT NULL,
    body        TEXT NOT NULL,
    updated_by  TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE TABLE budgets (
    bu          TEXT NOT NULL,
    stage       TEXT NOT NULL,
    zone        TEXT NOT NULL,
    limits      TEXT NOT NULL,
    updated_by  TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (bu, stage)
);

-- +goose Down
DROP TABLE budgets;
DROP TABLE policies;
