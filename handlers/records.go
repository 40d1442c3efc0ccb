package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/views"
)

// readRecords is the record browser: a GET form, so that a read is a
// link people can share (each read is audited).
func (h *Handlers) readRecords(c echo.Context) error {
	p, t, err := h.topicSubpage(c, "records", false)
	if err != nil {
		return err
	}
	ctx, scope := c.Request().Context(), httpserver.ScopeOf(c)
	f := recordsForm(c, t.Partitions)
	q, err := recordsQuery(f)
	var got record.RecordPage
	if err == nil {
		got, err = h.Messages.Read(ctx, scope, t.Name, q)
	}
	status := http.StatusOK
	if err != nil {
		k := portal.KindOf(err)
		if !k.IsValidation() && k != portal.DataAccessDisabled && k != portal.InsufficientRole {
			return err
		}
		status = k.Status()
		if k.IsValidation() {
			status = http.StatusUnprocessableEntity
		}
		if ps := portal.Problems(err); ps[0].Field == "filter" {
			f.FilterError = ps[0].Message
		} else {
			f.Error = ps[0].Message
		}
	}
	v := views.RecordsView{Items: got.Items, Scanned: got.Scanned, Filtered: q.Filtered()}
	if err == nil {
		v.After = record.FormatOffsets(got.Ends)
	}
	return h.Render(c, status, p, templ.Join(views.TopicTabs(p, t.Name, "records"), views.RecordsPage(p, t.Name, f, v)))
}

// downloadRecords gives the records a browser query shows as JSON lines.
func (h *Handlers) downloadRecords(c echo.Context) error {
	q, err := recordsQuery(recordsForm(c, 0))
	if err != nil {
		return err
	}
	got, err := h.Messages.Read(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), q)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, m := range got.Items {
		b.WriteString(views.RecordJSON(m))
		b.WriteByte('\n')
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="records.jsonl"`)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "application/x-ndjson", []byte(b.String()))
}

// tailRecords answers a live tail's poll: the rows of the records after
// ?after (the filters of the page kept), newest first, and in
// X-Records-After where the next poll continues.
func (h *Handlers) tailRecords(c echo.Context) error {
	f := recordsForm(c, 0)
	f.Offset, f.Timestamp = "", ""
	q, err := recordsQuery(f)
	if err != nil {
		return err
	}
	if q.After, err = record.ParseOffsets(c.QueryParam("after")); err != nil {
		return err
	}
	got, err := h.Messages.Read(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), q)
	if err != nil {
		return err
	}
	c.Response().Header().Set("X-Records-After", record.FormatOffsets(got.Ends))
	rows := make([]record.BrowsedMessage, len(got.Items))
	for i, m := range got.Items {
		rows[len(rows)-1-i] = m
	}
	return page.Fragment(c, http.StatusOK, views.RecordRows(rows))
}

// recordsForm reads the browser's query; Query keeps it for the page's
// download and tail links.
func recordsForm(c echo.Context, partitions int) views.RecordsForm {
	f := views.RecordsForm{Limit: c.QueryParam("limit"), Partition: c.QueryParam("partition"), Offset: c.QueryParam("offset"),
		Timestamp: c.QueryParam("timestamp"), Key: c.QueryParam("key"), Value: c.QueryParam("value"), Header: c.QueryParam("header"),
		Filter: c.QueryParam("filter"), Partitions: partitions}
	if f.Limit == "" {
		f.Limit = "20"
	}
	q := url.Values{}
	for k, v := range map[string]string{"limit": f.Limit, "partition": f.Partition, "offset": f.Offset, "timestamp": f.Timestamp,
		"key": f.Key, "value": f.Value, "header": f.Header, "filter": f.Filter} {
		if v != "" {
			q.Set(k, v)
		}
	}
	f.Query = q.Encode()
	return f
}

func recordsQuery(f views.RecordsForm) (record.MessageQuery, error) {
	q := record.MessageQuery{Key: f.Key, Value: f.Value, Header: f.Header, Filter: f.Filter}
	var v portal.Validation
	n, err := strconv.Atoi(f.Limit)
	if err != nil {
		v.Add(portal.Invalid("limit", "must be a whole number between 1 and %d", record.MaxMessages))
	}
	q.Limit = n
	if f.Partition != "" {
		p, err := strconv.Atoi(f.Partition)
		if err != nil {
			v.Add(portal.Invalid("partition", "must be a partition number"))
		}
		q.Partition = &p
	}
	if f.Offset != "" {
		o, err := strconv.ParseInt(f.Offset, 10, 64)
		if err != nil {
			v.Add(portal.Invalid("offset", "must be a whole number"))
		}
		q.Offset = &o
	}
	if f.Timestamp != "" {
		t, err := time.Parse(page.LocalTime, f.Timestamp)
		if err != nil {
			v.Add(portal.Invalid("timestamp", "must be a date and time, such as 2026-11-22T10:00"))
		}
		q.Timestamp = t
	}
	return q, v.Err()
}
