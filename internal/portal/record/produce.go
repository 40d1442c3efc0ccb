package record

// Bounds of one produce request.
const (
	// MaxProduceBytes bounds the keys, values and headers of one request
	// together, as written.
	MaxProduceBytes = 1 << 20
	// MaxProduceRecords bounds the records of one request.
	MaxProduceRecords = 1000
)

// Value formats of a produce request.
const (
	// FormatText writes each value as given (UTF-8).
	FormatText = "text"
	// FormatJSON writes each value as given after checking it is JSON.
	FormatJSON = "json"
	// FormatSchema serializes each value (JSON) with a subject's schema,
	// Avro or JSON Schema, in the Schema Registry's wire format.
	FormatSchema = "schema"
)

// ProduceRequest is records to write to a topic by hand.
type ProduceRequest struct {
	// ValueFormat is FormatText (the default), FormatJSON or FormatSchema.
	ValueFormat string
	// Subject and Version choose the schema of FormatSchema: the subject
	// as an identifier or full name (default: the topic's "-value"
	// subject), the version a number or "latest" (the default).
	Subject string
	Version string
	Records []OutRecord
}

// OutRecord is one record to write. A nil Value is a tombstone.
type OutRecord struct {
	Key     *string
	Value   *string
	Headers []RecordHeader
	// Partition nil lets the producer's partitioner choose (by key).
	Partition *int
}

// RecordHeader is a header written as UTF-8 text.
type RecordHeader struct {
	Key   string
	Value string
}

// ProduceResult says where each record landed, in the request's order.
type ProduceResult struct {
	Topic string
	// SchemaID is the id written before each value (FormatSchema).
	SchemaID int
	Records  []ProducedRecord
}

// ProducedRecord is one record's outcome: its partition and offset, or
// why it was not written (Error), or that the cluster did not confirm it
// in time (Error, with Unconfirmed).
type ProducedRecord struct {
	Partition   int
	Offset      int64
	Size        int
	Error       string
	Unconfirmed bool
}

// Written counts the records the cluster confirmed.
func (r ProduceResult) Written() int {
	n := 0
	for _, p := range r.Records {
		if p.Error == "" {
			n++
		}
	}
	return n
}
