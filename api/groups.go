package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

type groupJSON struct {
	ID           string   `json:"id"`
	Identifier   string   `json:"identifier"`
	BusinessUnit string   `json:"business_unit,omitempty"`
	State        string   `json:"state"`
	Protocol     string   `json:"protocol"`
	Members      int      `json:"members"`
	Lag          int64    `json:"lag"`
	Topics       []string `json:"topics"`
	// LagTime is the group's latest partition's.
	LagTime lagTimeJSON `json:"lag_time"`
}

// lagTimeJSON is a lag in time: the oldest record not consumed is
// age_seconds old (at least that, with at_least); the group catches up in
// catch_up_seconds, or is falling_behind. Null values are not known yet.
type lagTimeJSON struct {
	AgeSeconds     *float64 `json:"age_seconds"`
	AtLeast        bool     `json:"at_least,omitempty"`
	CatchUpSeconds *float64 `json:"catch_up_seconds"`
	FallingBehind  bool     `json:"falling_behind,omitempty"`
}

func lagTimeOut(l portal.LagTime) lagTimeJSON {
	var out lagTimeJSON
	if l.Known {
		age := l.Age.Seconds()
		out.AgeSeconds, out.AtLeast = &age, l.AtLeast
	}
	if l.CatchUpKnown && !l.Falling {
		eta := l.CatchUp.Seconds()
		out.CatchUpSeconds = &eta
	}
	out.FallingBehind = l.CatchUpKnown && l.Falling
	return out
}

type groupDetailJSON struct {
	groupJSON
	MemberList []groupMemberJSON    `json:"member_list"`
	Partitions []groupPartitionJSON `json:"partitions"`
}

type groupMemberJSON struct {
	ID         string   `json:"id"`
	ClientID   string   `json:"client_id"`
	Host       string   `json:"host"`
	Partitions []string `json:"partitions"`
}

type groupPartitionJSON struct {
	Topic     string `json:"topic"`
	Partition int    `json:"partition"`
	Committed int64  `json:"committed_offset"`
	End       int64  `json:"end_offset"`
	Lag       int64  `json:"lag"`
	Member    string `json:"member,omitempty"`
	// LagTime is the group's lag in time on the partition.
	LagTime lagTimeJSON `json:"lag_time"`
}

func groupOut(g portal.ConsumerGroup) groupJSON {
	return groupJSON{ID: g.ID, Identifier: g.Identifier, BusinessUnit: g.BU, State: g.State, Protocol: g.Protocol, Members: g.Members, Lag: g.Lag, Topics: g.Topics,
		LagTime: lagTimeOut(g.Late)}
}

func (a *API) listGroups(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	page, err := a.Groups.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := listResponse[groupJSON]{Items: make([]groupJSON, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, g := range page.Items {
		out.Items[i] = groupOut(g)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getGroup(c echo.Context) error {
	d, err := a.Groups.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	out := groupDetailJSON{groupJSON: groupOut(d.ConsumerGroup), MemberList: []groupMemberJSON{}, Partitions: []groupPartitionJSON{}}
	for _, m := range d.MemberList {
		out.MemberList = append(out.MemberList, groupMemberJSON(m))
	}
	for _, p := range d.Partitions {
		out.Partitions = append(out.Partitions, groupPartitionJSON{Topic: p.Topic, Partition: p.Partition, Committed: p.Committed,
			End: p.End, Lag: p.Lag, Member: p.Member, LagTime: lagTimeOut(p.Late)})
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
	var in struct {
		Topic     string `json:"topic"`
		To        string `json:"to"`
		Timestamp string `json:"timestamp"`
		Offset    *int64 `json:"offset"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	dry, err := boolParam(c, "dry_run")
	if err != nil {
		return err
	}
	r := portal.OffsetReset{Topic: in.Topic, To: in.To, Offset: in.Offset, DryRun: dry}
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
	type changeOut struct {
		Topic     string `json:"topic"`
		Partition int    `json:"partition"`
		Before    *int64 `json:"before"`
		After     int64  `json:"after"`
	}
	out := struct {
		Group   string      `json:"group"`
		DryRun  bool        `json:"dry_run"`
		Changes []changeOut `json:"changes"`
	}{Group: res.Group, DryRun: res.DryRun, Changes: []changeOut{}}
	for _, ch := range res.Changes {
		co := changeOut{Topic: ch.Topic, Partition: ch.Partition, After: ch.After}
		if ch.Before >= 0 {
			b := ch.Before
			co.Before = &b
		}
		out.Changes = append(out.Changes, co)
	}
	return c.JSON(http.StatusOK, out)
}

type messageJSON struct {
	Partition     int                 `json:"partition"`
	Offset        int64               `json:"offset"`
	Timestamp     string              `json:"timestamp"`
	Key           *string             `json:"key"`
	KeyEncoding   string              `json:"key_encoding"`
	Value         *string             `json:"value"`
	ValueEncoding string              `json:"value_encoding"`
	SchemaID      int                 `json:"schema_id,omitempty"`
	Headers       []messageHeaderJSON `json:"headers"`
	Truncated     bool                `json:"truncated,omitempty"`
	DecodeError   string              `json:"decode_error,omitempty"`
	// MaskedFields are the value's fields whose content is masked.
	MaskedFields []string `json:"masked_fields,omitempty"`
}

type messageHeaderJSON struct {
	Key      string `json:"key"`
	Value    string `json:"value"`
	Encoding string `json:"encoding"`
}

func nullable(s, enc string) *string {
	if enc == portal.EncodingNone {
		return nil
	}
	return &s
}

func (a *API) readMessages(c echo.Context) error {
	var v portal.Validation
	var q portal.MessageQuery
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
		after, err := portal.ParseOffsets(s)
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
	out := struct {
		Items   []messageJSON `json:"items"`
		Scanned int           `json:"scanned"`
		// After is where a tail continues: ?after= on the next read.
		After string `json:"after"`
	}{Items: make([]messageJSON, len(msgs)), Scanned: page.Scanned, After: portal.FormatOffsets(page.Ends)}
	for i, m := range msgs {
		mj := messageJSON{Partition: m.Partition, Offset: m.Offset, Timestamp: m.Timestamp.UTC().Format(time.RFC3339Nano),
			Key: nullable(m.Key, m.KeyEncoding), KeyEncoding: m.KeyEncoding, Value: nullable(m.Value, m.ValueEncoding),
			ValueEncoding: m.ValueEncoding, SchemaID: m.SchemaID, Headers: []messageHeaderJSON{}, Truncated: m.Truncated, DecodeError: m.DecodeError,
			MaskedFields: m.Masked}
		for _, h := range m.Headers {
			mj.Headers = append(mj.Headers, messageHeaderJSON(h))
		}
		out.Items[i] = mj
	}
	return c.JSON(http.StatusOK, out)
}
