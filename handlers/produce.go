package handlers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/views"
)

// produceForm shows the produce form (GET) and sends its records (POST).
func (h *Handlers) produceForm(c echo.Context) error {
	p, t, err := h.topicSubpage(c, "produce", false)
	if err != nil {
		return err
	}
	ctx, scope := c.Request().Context(), httpserver.ScopeOf(c)
	f := views.ProduceForm{Format: c.FormValue("value_format"), Subject: c.FormValue("subject"), Version: c.FormValue("version"),
		Key: c.FormValue("key"), Value: c.FormValue("value"), Headers: c.FormValue("headers"), Partition: c.FormValue("partition"),
		Batch: c.FormValue("batch"), Partitions: t.Partitions, Registry: p.Context.HasRegistry, Errors: map[string]string{}}
	if c.Request().Method == http.MethodGet {
		// A topic whose values have a schema produces with it unless the
		// form says otherwise (TopicNameStrategy: the "-value" subject).
		if f.Format == "" && f.Registry {
			if _, err := h.Schemas.Get(ctx, scope, t.Name+"-value", "latest"); err == nil {
				f.Format, f.Subject = "schema", t.Name+"-value"
			}
		}
		return h.Render(c, http.StatusOK, p, views.ProducePage(p, t.Name, f, nil))
	}
	req, batch, err := produceFromForm(c, f)
	var res record.ProduceResult
	if err == nil {
		res, err = h.Messages.Produce(ctx, scope, t.Name, req)
	}
	if err != nil {
		if !formProblems(err, f.Errors, batch) {
			return err
		}
		return h.Render(c, http.StatusUnprocessableEntity, p, views.ProducePage(p, t.Name, f, nil))
	}
	return h.Render(c, http.StatusOK, p, views.ProducePage(p, t.Name, f, &res))
}

// formProblems puts a validation's problems at the form's fields: in a
// batch, each record's under the batch with its number.
func formProblems(err error, errs map[string]string, batch bool) bool {
	ps := portal.Problems(err)
	if len(ps) == 0 || !portal.KindOf(err).IsValidation() {
		return false
	}
	var lines []string
	for _, e := range ps {
		switch {
		case batch && strings.HasPrefix(e.Field, "records["):
			i, rest, _ := strings.Cut(strings.TrimPrefix(e.Field, "records["), "]")
			n, _ := strconv.Atoi(i)
			lines = append(lines, fmt.Sprintf("record %d: %s", n+1, at(strings.TrimPrefix(rest, "."), e.Message)))
		case strings.HasPrefix(e.Field, "records[0].value"):
			errs["records[0].value"] = at(strings.TrimPrefix(strings.TrimPrefix(e.Field, "records[0].value"), "."), e.Message)
		case e.Field != "" && e.Field != "records":
			errs[e.Field] = e.Message
		default:
			errs[""] = e.Message
		}
	}
	if len(lines) > 0 {
		errs["batch"] = strings.Join(lines, "; ")
	}
	return true
}

// at puts a problem's place inside a record before its message:
// "a: expected a string", or the message alone for the record itself.
func at(place, msg string) string {
	if place == "" {
		return msg
	}
	return place + ": " + msg
}

// maxBatchLine bounds one JSON line of a batch.
const maxBatchLine = record.MaxProduceBytes + 4096

// produceFromForm reads the form: the batch (pasted or uploaded JSON
// lines) when given, else one record from the fields.
func produceFromForm(c echo.Context, f views.ProduceForm) (record.ProduceRequest, bool, error) {
	req := record.ProduceRequest{ValueFormat: f.Format}
	if f.Format == record.FormatSchema {
		req.Subject, req.Version = strings.TrimSpace(f.Subject), strings.TrimSpace(f.Version)
	}
	batch := []byte(f.Batch)
	if fh, err := c.FormFile("file"); err == nil && fh.Size > 0 {
		if fh.Size > record.MaxProduceBytes {
			return req, true, portal.Invalid("batch", "the file holds %d bytes; at most 1 MiB", fh.Size)
		}
		file, err := fh.Open()
		if err != nil {
			return req, true, portal.Wrap(err, portal.MalformedBody, "the file could not be read")
		}
		defer file.Close()
		if batch, err = io.ReadAll(io.LimitReader(file, record.MaxProduceBytes+1)); err != nil {
			return req, true, portal.Wrap(err, portal.MalformedBody, "the file could not be read")
		}
	}
	if len(bytes.TrimSpace(batch)) > 0 {
		recs, err := batchRecords(batch, f.Format)
		req.Records = recs
		return req, true, err
	}
	r := record.OutRecord{}
	if f.Key != "" {
		r.Key = &f.Key
	}
	v := f.Value
	r.Value = &v
	if f.Partition != "" {
		n, err := strconv.Atoi(f.Partition)
		if err != nil {
			return req, false, portal.Invalid("records[0].partition", "choose a partition")
		}
		r.Partition = &n
	}
	for i, line := range strings.Split(f.Headers, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, val, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return req, false, portal.Invalid("headers", "line %d: write a header as name: value", i+1)
		}
		r.Headers = append(r.Headers, record.RecordHeader{Key: strings.TrimSpace(k), Value: strings.TrimSpace(val)})
	}
	req.Records = []record.OutRecord{r}
	return req, false, nil
}

// batchLine is one JSON line of a batch: the API's record.
type batchLine struct {
	Key       *string               `json:"key"`
	Value     json.RawMessage       `json:"value"`
	Headers   []record.RecordHeader `json:"headers"`
	Partition *int                  `json:"partition"`
}

func batchRecords(b []byte, format string) ([]record.OutRecord, error) {
	var out []record.OutRecord
	var v portal.Validation
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), maxBatchLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l batchLine
		d := json.NewDecoder(bytes.NewReader(line))
		d.DisallowUnknownFields()
		if err := d.Decode(&l); err != nil {
			v.Add(portal.Invalid("batch", "line %d is not a record (key, value, headers, partition): %s", n, err))
			continue
		}
		if l.Value == nil {
			// A misspelt value must not write a tombstone: say null.
			v.Add(portal.Invalid("batch", "line %d has no value (write \"value\": null for a tombstone)", n))
			continue
		}
		r := record.OutRecord{Key: l.Key, Headers: l.Headers, Partition: l.Partition}
		if len(l.Value) > 0 && string(l.Value) != "null" {
			text := string(l.Value)
			if format == "" || format == record.FormatText {
				if json.Unmarshal(l.Value, &text) != nil {
					v.Add(portal.Invalid("batch", "line %d: with text values, value is a JSON string", n))
				}
			}
			r.Value = &text
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		v.Add(portal.Invalid("batch", "the lines could not be read: %s", err))
	}
	if len(out) == 0 && len(v.Problems) == 0 {
		v.Add(portal.Invalid("batch", "no records in the lines"))
	}
	return out, v.Err()
}
