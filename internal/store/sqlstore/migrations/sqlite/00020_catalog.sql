-- +goose Up
-- What owners say about their topics (the zone's catalog): a description,
-- an owner contact, tags (stored ",a,b," so that one tag matches with
-- LIKE) and a data classification.
CREATE TABLE topic_catalog (
    zone           TEXT NOT NULL,
    stage          TEXT NOT NULL,
    topic          TEXT NOT NULL,
    bu             TEXT NOT NULL,
    description    TEXT NOT NULL DEFAULT '',
    contact        TEXT NOT NULL DEFAULT '',
    tags           TEXT NOT NULL DEFAULT '',
    classification TEXT NOT NULL DEFAULT '',
    updated_by     TEXT NOT NULL DEFAULT '',
    updated_at     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (zone, stage, topic)
);
-- Grants that expire: the duration asked for, when an active grant ends
-- (0: never, the grants made before expiry existed), the first of two
-- approvals a restricted topic needs, the grant a request renews, and
-- whether its expiry has been warned about.
ALTER TABLE grants ADD COLUMN duration_s BIGINT NOT NULL DEFAULT 0;
ALTER TABLE grants ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE grants ADD COLUMN classification TEXT NOT NULL DEFAULT '';
ALTER TABLE grants ADD COLUMN approvals TEXT NOT NULL DEFAULT '';
ALTER TABLE grants ADD COLUMN renews TEXT NOT NULL DEFAULT '';
ALTER TABLE grants ADD COLUMN warned BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX grants_expiry ON grants (state, expires_at);

-- +goose Down
DROP INDEX grants_expiry;
ALTER TABLE grants DROP COLUMN warned;
ALTER TABLE grants DROP COLUMN renews;
ALTER TABLE grants DROP COLUMN approvals;
ALTER TABLE grants DROP COLUMN classification;
ALTER TABLE grants DROP COLUMN expires_at;
ALTER TABLE grants DROP COLUMN duration_s;
DROP TABLE topic_catalog;
