package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/edh-platform/rms-portal/internal/store"
)

const catalogColumns = `zone, stage, topic, bu, description, contact, tags, classification, updated_by, updated_at`

func scanCatalog(row interface{ Scan(...any) error }) (store.CatalogEntry, error) {
	var e store.CatalogEntry
	var tags string
	var updated int64
	err := row.Scan(&e.Zone, &e.Stage, &e.Topic, &e.BU, &e.Description, &e.Contact, &tags, &e.Classification, &e.UpdatedBy, &updated)
	if t := strings.Trim(tags, ","); t != "" {
		e.Tags = strings.Split(t, ",")
	}
	e.Updated = fromMicros(updated)
	return e, err
}

// PutCatalogEntry creates or replaces an entry.
func (d *DB) PutCatalogEntry(ctx context.Context, e store.CatalogEntry) error {
	tags := ""
	if len(e.Tags) > 0 {
		tags = "," + strings.Join(e.Tags, ",") + ","
	}
	_, err := d.exec(ctx, `INSERT INTO topic_catalog (`+catalogColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) `+
		`ON CONFLICT (zone, stage, topic) DO UPDATE SET bu = excluded.bu, description = excluded.description, contact = excluded.contact, `+
		`tags = excluded.tags, classification = excluded.classification, updated_by = excluded.updated_by, `+
		`updated_at = excluded.updated_at`,
		e.Zone, e.Stage, e.Topic, e.BU, e.Description, e.Contact, tags, e.Classification, e.UpdatedBy, micros(e.Updated))
	return err
}

// CatalogEntry returns one entry.
func (d *DB) CatalogEntry(ctx context.Context, zone, stage, topic string) (store.CatalogEntry, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	e, err := scanCatalog(d.db.QueryRowContext(ctx, d.q(`SELECT `+catalogColumns+` FROM topic_catalog WHERE zone = ? AND stage = ? AND topic = ?`),
		zone, stage, topic))
	if errors.Is(err, sql.ErrNoRows) {
		return e, store.ErrNotFound
	}
	return e, Fail(err)
}

// CatalogEntries lists a zone's entries in a stage.
func (d *DB) CatalogEntries(ctx context.Context, zone, stage string, limit int) ([]store.CatalogEntry, error) {
	return queryAll(ctx, d, scanCatalog, `SELECT `+catalogColumns+` FROM topic_catalog WHERE zone = ? AND stage = ? ORDER BY topic LIMIT ?`,
		zone, stage, limit)
}

// DeleteCatalogEntry forgets an entry.
func (d *DB) DeleteCatalogEntry(ctx context.Context, zone, stage, topic string) error {
	_, err := d.exec(ctx, `DELETE FROM topic_catalog WHERE zone = ? AND stage = ? AND topic = ?`, zone, stage, topic)
	return err
}
