package sqlstore

import (
	"context"
	"encoding/json"

	"github.com/edh-platform/rms-portal/internal/store"
)

// UnitRecords lists the onboarded business units, by id.
func (d *DB) UnitRecords(ctx context.Context) ([]store.UnitRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, `SELECT id, landing_zone, admin_groups, developer_groups, viewer_groups,
		created_by, created_at, updated_by, updated_at FROM business_units ORDER BY id`)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.UnitRecord
	for rows.Next() {
		var r store.UnitRecord
		var admin, dev, viewer string
		var created, updated int64
		if err := rows.Scan(&r.ID, &r.LandingZone, &admin, &dev, &viewer, &r.CreatedBy, &created, &r.UpdatedBy, &updated); err != nil {
			return nil, Fail(err)
		}
		_ = json.Unmarshal([]byte(admin), &r.Admin)
		_ = json.Unmarshal([]byte(dev), &r.Developer)
		_ = json.Unmarshal([]byte(viewer), &r.Viewer)
		r.Created, r.Updated = fromMicros(created), fromMicros(updated)
		out = append(out, r)
	}
	return out, Fail(rows.Err())
}

func groupsJSON(g []string) string {
	if g == nil {
		g = []string{}
	}
	b, _ := json.Marshal(g)
	return string(b)
}

// CreateUnitRecord stores a new unit; ErrExists when the id is taken.
func (d *DB) CreateUnitRecord(ctx context.Context, r store.UnitRecord) error {
	res, err := d.exec(ctx, `INSERT INTO business_units (id, landing_zone, admin_groups, developer_groups, viewer_groups,
		created_by, created_at, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		r.ID, r.LandingZone, groupsJSON(r.Admin), groupsJSON(r.Developer), groupsJSON(r.Viewer),
		r.CreatedBy, micros(r.Created), r.CreatedBy, micros(r.Created))
	if n, err := affected(res, err); err != nil {
		return err
	} else if n == 0 {
		return store.ErrExists
	}
	return nil
}

// UpdateUnitRecord replaces a unit's groups.
func (d *DB) UpdateUnitRecord(ctx context.Context, r store.UnitRecord) error {
	res, err := d.exec(ctx, `UPDATE business_units SET admin_groups = ?, developer_groups = ?, viewer_groups = ?,
		updated_by = ?, updated_at = ? WHERE id = ?`,
		groupsJSON(r.Admin), groupsJSON(r.Developer), groupsJSON(r.Viewer), r.UpdatedBy, micros(r.Updated), r.ID)
	return found(affected(res, err))
}

// DeleteUnitRecord removes a unit.
func (d *DB) DeleteUnitRecord(ctx context.Context, id string) error {
	return found(affected(d.exec(ctx, `DELETE FROM business_units WHERE id = ?`, id)))
}

func found(n int, err error) error {
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

// SwitchRecords lists the read-only switches.
func (d *DB) SwitchRecords(ctx context.Context) ([]store.SwitchRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, `SELECT landing_zone, stage, read_only, reason, until_at, set_by, set_at
		FROM read_only_switches ORDER BY landing_zone, stage`)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.SwitchRecord
	for rows.Next() {
		var r store.SwitchRecord
		var until, set int64
		if err := rows.Scan(&r.LandingZone, &r.Stage, &r.ReadOnly, &r.Reason, &until, &r.SetBy, &set); err != nil {
			return nil, Fail(err)
		}
		if until > 0 {
			r.Until = fromMicros(until)
		}
		r.SetAt = fromMicros(set)
		out = append(out, r)
	}
	return out, Fail(rows.Err())
}

// PutSwitchRecord creates or replaces a switch.
func (d *DB) PutSwitchRecord(ctx context.Context, r store.SwitchRecord) error {
	var until int64
	if !r.Until.IsZero() {
		until = micros(r.Until)
	}
	_, err := d.exec(ctx, `INSERT INTO read_only_switches (landing_zone, stage, read_only, reason, until_at, set_by, set_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (landing_zone, stage) DO UPDATE SET read_only = excluded.read_only,
		reason = excluded.reason, until_at = excluded.until_at, set_by = excluded.set_by, set_at = excluded.set_at`,
		r.LandingZone, r.Stage, r.ReadOnly, r.Reason, until, r.SetBy, micros(r.SetAt))
	return err
}
