-- +goose Up
-- Usage read from the Metrics API, by topic and by unit, by hour and by
-- day (hours and days as Unix seconds, UTC): the retained bytes (mean),
-- the bytes written and read (sums), the partitions.
CREATE TABLE usage_hours (
    zone       TEXT NOT NULL,
    stage      TEXT NOT NULL,
    topic      TEXT NOT NULL,
    hour       BIGINT NOT NULL,
    bu         TEXT NOT NULL,
    retained   DOUBLE PRECISION NOT NULL,
    bytes_in   DOUBLE PRECISION NOT NULL,
    bytes_out  DOUBLE PRECISION NOT NULL,
    partitions INTEGER NOT NULL,
    PRIMARY KEY (zone, stage, topic, hour)
);
CREATE INDEX usage_hours_by_unit ON usage_hours (zone, stage, bu, hour);
CREATE INDEX usage_hours_by_hour ON usage_hours (hour);
CREATE TABLE usage_days (
    zone       TEXT NOT NULL,
    stage      TEXT NOT NULL,
    topic      TEXT NOT NULL,
    day        BIGINT NOT NULL,
    bu         TEXT NOT NULL,
    retained   DOUBLE PRECISION NOT NULL,
    bytes_in   DOUBLE PRECISION NOT NULL,
    bytes_out  DOUBLE PRECISION NOT NULL,
    partitions DOUBLE PRECISION NOT NULL,
    hours      INTEGER NOT NULL,
    PRIMARY KEY (zone, stage, topic, day)
);
CREATE INDEX usage_days_by_unit ON usage_days (zone, stage, bu, day);
CREATE INDEX usage_days_by_day ON usage_days (day);
-- A unit's topics summed ("" for the topics of no unit).
CREATE TABLE usage_unit_hours (
    zone       TEXT NOT NULL,
    stage      TEXT NOT NULL,
    bu         TEXT NOT NULL,
    hour       BIGINT NOT NULL,
    retained   DOUBLE PRECISION NOT NULL,
    bytes_in   DOUBLE PRECISION NOT NULL,
    bytes_out  DOUBLE PRECISION NOT NULL,
    partitions INTEGER NOT NULL,
    PRIMARY KEY (zone, stage, bu, hour)
);
CREATE INDEX usage_unit_hours_by_hour ON usage_unit_hours (hour);
CREATE TABLE usage_unit_days (
    zone       TEXT NOT NULL,
    stage      TEXT NOT NULL,
    bu         TEXT NOT NULL,
    day        BIGINT NOT NULL,
    retained   DOUBLE PRECISION NOT NULL,
    bytes_in   DOUBLE PRECISION NOT NULL,
    bytes_out  DOUBLE PRECISION NOT NULL,
    partitions DOUBLE PRECISION NOT NULL,
    hours      INTEGER NOT NULL,
    topics     INTEGER NOT NULL,
    PRIMARY KEY (zone, stage, bu, day)
);
CREATE INDEX usage_unit_days_by_day ON usage_unit_days (day);
-- The last hour collected of each stage, and the hours that could not be
-- read (read again while the Metrics API still holds them).
CREATE TABLE usage_marks (
    zone  TEXT NOT NULL,
    stage TEXT NOT NULL,
    hour  BIGINT NOT NULL,
    PRIMARY KEY (zone, stage)
);
CREATE TABLE usage_gaps (
    zone   TEXT NOT NULL,
    stage  TEXT NOT NULL,
    hour   BIGINT NOT NULL,
    reason TEXT NOT NULL,
    tries  INTEGER NOT NULL,
    PRIMARY KEY (zone, stage, hour)
);
-- The organisation's daily cost lines, as the Billing API gave them.
CREATE TABLE cost_lines (
    day           BIGINT NOT NULL,
    id            TEXT NOT NULL,
    product       TEXT NOT NULL,
    line_type     TEXT NOT NULL,
    resource_id   TEXT NOT NULL,
    resource_name TEXT NOT NULL,
    environment   TEXT NOT NULL,
    unit          TEXT NOT NULL,
    quantity      DOUBLE PRECISION NOT NULL,
    price         DOUBLE PRECISION NOT NULL,
    original      DOUBLE PRECISION NOT NULL,
    discount      DOUBLE PRECISION NOT NULL,
    amount        DOUBLE PRECISION NOT NULL,
    description   TEXT NOT NULL,
    PRIMARY KEY (day, id)
);
-- Each line's split by unit, with its rule and inputs.
CREATE TABLE cost_shares (
    zone          TEXT NOT NULL,
    stage         TEXT NOT NULL,
    bu            TEXT NOT NULL,
    day           BIGINT NOT NULL,
    line_type     TEXT NOT NULL,
    resource_id   TEXT NOT NULL,
    resource_name TEXT NOT NULL,
    rule          TEXT NOT NULL,
    line_amount   DOUBLE PRECISION NOT NULL,
    unit_use      DOUBLE PRECISION NOT NULL,
    total_use     DOUBLE PRECISION NOT NULL,
    amount        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (zone, stage, bu, day, line_type, resource_id)
);
CREATE INDEX cost_shares_by_day ON cost_shares (day);
-- A month's costs of each topic.
CREATE TABLE topic_costs (
    zone       TEXT NOT NULL,
    stage      TEXT NOT NULL,
    month      BIGINT NOT NULL,
    topic      TEXT NOT NULL,
    bu         TEXT NOT NULL,
    amount     DOUBLE PRECISION NOT NULL,
    storage    DOUBLE PRECISION NOT NULL,
    network    DOUBLE PRECISION NOT NULL,
    partitions DOUBLE PRECISION NOT NULL,
    base       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (zone, stage, month, topic)
);
CREATE INDEX topic_costs_by_unit ON topic_costs (zone, stage, bu, month, amount);

-- +goose Down
DROP TABLE topic_costs;
DROP TABLE cost_shares;
DROP TABLE cost_lines;
DROP TABLE usage_gaps;
DROP TABLE usage_marks;
DROP TABLE usage_unit_days;
DROP TABLE usage_unit_hours;
DROP TABLE usage_days;
DROP TABLE usage_hours;
