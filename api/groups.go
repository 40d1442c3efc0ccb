package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func (a *API) listGroups(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	page, err := a.Groups.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := wire.List[wire.ConsumerGroup]{Items: make([]wire.ConsumerGroup, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, g := range page.Items {
		out.Items[i] = present.Group(g)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getGroup(c echo.Context) error {
	d, err := a.Groups.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	out := wire.ConsumerGroupDetail{ConsumerGroup: present.Group(d.ConsumerGroup), MemberList: []wire.GroupMember{}, Partitions: []wire.GroupPartition{}}
	for _, m := range d.MemberList {
		out.MemberList = append(out.MemberList, wire.GroupMember(m))
	}
	for _, p := range d.Partitions {
		out.Partitions = append(out.Partitions, wire.GroupPartition{Topic: p.Topic, Partition: p.Partition, Committed: p.Committed,
			End: p.End, Lag: p.Lag, Member: p.Member, LagTime: present.LagTime(p.Late)})
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) deleteGroup(c echo.Context) error {
	if err := a.Groups.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (a *API) resetOffsets(c echo.Context) error {
	var in wire.OffsetResetRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	dry, err := boolParam(c, "dry_run")
	if err != nil {
		return err
	}
	r := group.OffsetReset{Topic: in.Topic, To: in.To, Offset: in.Offset, DryRun: dry}
	if in.Timestamp != "" {
		t, err := time.Parse(time.RFC3339, in.Timestamp)
		if err != nil {
			return portal.Invalid("timestamp", "must be a time in RFC 3339, such as 2026-11-22T10:00:00Z, not %q", in.Timestamp)
		}
		r.Timestamp = t
	}
	res, err := a.Groups.ResetOffsets(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), r)
	if err != nil {
		return err
	}
	out := wire.OffsetReset{Group: res.Group, DryRun: res.DryRun, Changes: []wire.OffsetChange{}}
	for _, ch := range res.Changes {
		co := wire.OffsetChange{Topic: ch.Topic, Partition: ch.Partition, After: ch.After}
		if ch.Before >= 0 {
			b := ch.Before
			co.Before = &b
		}
		out.Changes = append(out.Changes, co)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) readMessages(c echo.Context) error {
	var v portal.Validation
	var q record.MessageQuery
	for _, p := range []struct {
		name string
		set  func(int64)
	}{
		{"limit", func(n int64) { q.Limit = int(n) }},
		{"partition", func(n int64) { p := int(n); q.Partition = &p }},
		{"offset", func(n int64) { q.Offset = &n }},
	} {
		if s := c.QueryParam(p.name); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 0 {
				v.Add(portal.Invalid(p.name, "%s must be a whole number, not %q", p.name, s))
				continue
			}
			p.set(n)
		}
	}
	if s := c.QueryParam("timestamp"); s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			v.Add(portal.Invalid("timestamp", "must be a time in RFC 3339, such as 2026-11-22T10:00:00Z, not %q", s))
		}
		q.Timestamp = t
	}
	if s := c.QueryParam("after"); s != "" {
		after, err := record.ParseOffsets(s)
		if err != nil {
			v.Add(err.(*portal.Error))
		}
		q.After = after
	}
	q.Key, q.Value, q.Header, q.Filter = c.QueryParam("key"), c.QueryParam("value"), c.QueryParam("header"), c.QueryParam("filter")
	if err := v.Err(); err != nil {
		return err
	}
	page, err := a.Messages.Read(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), q)
	if err != nil {
		return err
	}
	msgs := page.Items
	out := wire.RecordPage{Items: make([]wire.Record, len(msgs)), Scanned: page.Scanned, After: record.FormatOffsets(page.Ends)}
	for i, m := range msgs {
		mj := wire.Record{Partition: m.Partition, Offset: m.Offset, Timestamp: m.Timestamp.UTC().Format(time.RFC3339Nano),
			Key: present.Nullable(m.Key, m.KeyEncoding), KeyEncoding: m.KeyEncoding, Value: present.Nullable(m.Value, m.ValueEncoding),
			ValueEncoding: m.ValueEncoding, SchemaID: m.SchemaID, Headers: []wire.RecordHeader{}, Truncated: m.Truncated, DecodeError: m.DecodeError,
			MaskedFields: m.Masked, ValueMasked: m.MaskedWhole}
		for _, h := range m.Headers {
			mj.Headers = append(mj.Headers, wire.RecordHeader(h))
		}
		out.Items[i] = mj
	}
	return c.JSON(http.StatusOK, out)
}
