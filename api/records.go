package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/jsonbody"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// produce writes records by hand. The answer gives each record's
// partition and offset, or why it was not written; written counts those
// the cluster confirmed.
func (a *API) produceRecords(c echo.Context) error {
	var in wire.Produce
	if err := decode(c, &in); err != nil {
		return err
	}
	req, err := produceRequest(in)
	if err != nil {
		return err
	}
	res, err := a.Messages.Produce(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), req)
	if err != nil {
		return err
	}
	out := wire.ProduceResult{Topic: res.Topic, SchemaID: res.SchemaID, Written: res.Written(), Records: make([]wire.Produced, len(res.Records))}
	for i, r := range res.Records {
		p := wire.Produced{Partition: r.Partition, Size: r.Size, Error: r.Error, Unconfirmed: r.Unconfirmed}
		if r.Error == "" {
			p.Offset = &r.Offset
		}
		out.Records[i] = p
	}
	return c.JSON(http.StatusOK, out)
}

// outRecord reads one record strictly: a misspelt field must not write a
// tombstone, so every field is known and value is given (null for a
// tombstone).
func outRecord(raw json.RawMessage, i int) (wire.ProduceRecord, *portal.Error) {
	at := fmt.Sprintf("records[%d]", i)
	// The names are read without copying the values (a value may be a
	// mebibyte); a record the strict reading refuses (a name twice) is
	// read leniently, as before.
	keys, ok := jsonbody.ObjectKeys(raw)
	if !ok {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return wire.ProduceRecord{}, portal.Invalid(at, "a record is an object with key, value, headers and partition")
		}
		keys = slices.Collect(maps.Keys(fields))
	}
	for _, k := range keys {
		switch k {
		case "key", "value", "headers", "partition":
		default:
			return wire.ProduceRecord{}, portal.Invalid(at+"."+k, "%s is not a field of a record (key, value, headers, partition)", k)
		}
	}
	if !slices.Contains(keys, "value") {
		e := portal.Missing(at + ".value")
		e.Message = at + ".value is required (null writes a tombstone)"
		return wire.ProduceRecord{}, e
	}
	var r wire.ProduceRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return wire.ProduceRecord{}, portal.Invalid(at, "the record's fields have the wrong types: %s", err)
	}
	return r, nil
}

// produceRequest reads the body's records: a value is a JSON string for
// text, any JSON value (kept as written) for json and schema.
func produceRequest(in wire.Produce) (record.ProduceRequest, error) {
	req := record.ProduceRequest{ValueFormat: in.ValueFormat, Subject: in.Subject}
	var v portal.Validation
	if len(in.Version) > 0 && string(in.Version) != "null" {
		var n int
		if json.Unmarshal(in.Version, &n) == nil {
			req.Version = fmt.Sprint(n)
		} else if json.Unmarshal(in.Version, &req.Version) != nil {
			v.Add(portal.Invalid("version", "must be a number or \"latest\""))
		}
	}
	for i, raw := range in.Records {
		r, err := outRecord(raw, i)
		if err != nil {
			v.Add(err)
			continue
		}
		out := record.OutRecord{Key: r.Key, Partition: r.Partition}
		for _, h := range r.Headers {
			out.Headers = append(out.Headers, record.RecordHeader(h))
		}
		if len(r.Value) > 0 && string(r.Value) != "null" {
			var text string
			if in.ValueFormat == "" || in.ValueFormat == record.FormatText {
				if err := json.Unmarshal(r.Value, &text); err != nil {
					v.Add(portal.Invalid(fmt.Sprintf("records[%d].value", i), "with value_format text the value is a string; send value_format json for a JSON value"))
				}
			} else {
				text = string(r.Value)
			}
			out.Value = &text
		}
		req.Records = append(req.Records, out)
	}
	return req, v.Err()
}
