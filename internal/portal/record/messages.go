// Package record is the contract of a topic's records: browsing them and
// producing them.
package record

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// MessageQuery selects records to read: the latest Limit (at most
// MaxMessages), or from an offset or a time, in one partition or all.
type MessageQuery struct {
	Limit     int
	Partition *int
	Offset    *int64
	Timestamp time.Time
	// After reads, per partition, the records after these offsets (a
	// live tail continuing from a page's Ends).
	After map[int]int64
	// Key, Value and Header keep records whose key, value (as decoded)
	// or a header's name or value holds the text, in any case; Filter
	// keeps those for which a CEL expression over the decoded record is
	// true. With any of them set, up to MaxScan records are read and the
	// first Limit that match kept.
	Key, Value, Header string
	Filter             string
}

// Filtered tells whether the query narrows the records read.
func (q MessageQuery) Filtered() bool {
	return q.Key != "" || q.Value != "" || q.Header != "" || q.Filter != ""
}

// MaxMessages bounds one read's answer.
const MaxMessages = 100

// MaxScan bounds the records a filtered read looks at.
const MaxScan = 2000

// MaxRecordFilter bounds a CEL record filter's text.
const MaxRecordFilter = 1000

// RecordPage is one read's records, how many were looked at, and the
// partitions' end offsets when read (where a tail continues).
type RecordPage struct {
	Items   []BrowsedMessage
	Scanned int
	Ends    map[int]int64
}

// Encodings of a browsed key or value.
const (
	EncodingText = "text"
	EncodingHex  = "hex"
	EncodingAvro = "avro"
	EncodingJSON = "json"
	EncodingNone = "null"
)

// BrowsedMessage is a record as people read it: the key and value decoded
// (with the Schema Registry schema they name, as UTF-8 text, or hex).
type BrowsedMessage struct {
	Partition     int
	Offset        int64
	Timestamp     time.Time
	Key           string
	KeyEncoding   string
	Value         string
	ValueEncoding string
	// SchemaID is the Schema Registry id the value named (0 for none).
	SchemaID  int
	Headers   []MessageHeader
	Truncated bool
	// DecodeError says why a value that named a schema stayed undecoded.
	DecodeError string
	// Masked lists the value's fields whose content is hidden (as
	// "customer.email", "items[].note"): its schema tags them as
	// sensitive, the stage masks them and the reader's role is below the
	// one that sees them whole.
	Masked []string
	// MaskedWhole: the value is masked whole, as masking could not
	// classify it (it is not in the Schema Registry's wire format); its
	// encoding and the class of its length are kept.
	MaskedWhole bool
}

// MessageHeader is one record header, as text or hex.
type MessageHeader struct {
	Key      string
	Value    string
	Encoding string
}

// MessageService reads a topic's records. Whether anyone may is a
// per-stage switch (data_access: off, developers, viewers); every read is
// audited (who read which range, not the data).
type MessageService interface {
	// Read errors: DataAccessDisabled, InsufficientRole, NotFound,
	// InvalidParameter.
	Read(ctx context.Context, scope portal.Scope, topic string, q MessageQuery) (RecordPage, error)
	// Produce writes records by hand, allowed per stage by its produce
	// switch (off, developers, admins) and audited with the partitions,
	// offsets and sizes, never the data. Every record is checked first: a
	// problem in one refuses them all, with the record's field. Errors:
	// DataAccessDisabled, InsufficientRole, ReadOnlyEnvironment,
	// NotFound, InvalidParameter.
	Produce(ctx context.Context, scope portal.Scope, topic string, req ProduceRequest) (ProduceResult, error)
}

// ParseOffsets reads per-partition offsets written as "0:120,1:98" (a
// tail's starting point, as FormatOffsets writes it).
func ParseOffsets(s string) (map[int]int64, error) {
	out := map[int]int64{}
	for _, part := range strings.Split(s, ",") {
		p, o, ok := strings.Cut(strings.TrimSpace(part), ":")
		pn, err1 := strconv.Atoi(p)
		on, err2 := strconv.ParseInt(o, 10, 64)
		if !ok || err1 != nil || err2 != nil || pn < 0 || on < 0 {
			return nil, portal.Invalid("after", "write offsets per partition as partition:offset, comma-separated (0:120,1:98), not %q", portal.Clip(s, 64))
		}
		out[pn] = on
	}
	return out, nil
}

// FormatOffsets writes per-partition offsets for ParseOffsets, by
// partition.
func FormatOffsets(m map[int]int64) string {
	parts := make([]int, 0, len(m))
	for p := range m {
		parts = append(parts, p)
	}
	slices.Sort(parts)
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(p) + ":" + strconv.FormatInt(m[p], 10))
	}
	return b.String()
}
