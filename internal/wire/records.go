package wire

import "encoding/json"

// Produce is the body of POST .../topic/{name}/records.
type Produce struct {
	ValueFormat string          `json:"value_format" oa:"default=text" enum:"text,json,schema"`
	Subject     string          `json:"subject" doc:"value_format schema only: the subject (identifier or full name)"`
	Version     json.RawMessage `json:"version" schema:"{description: 'value_format schema only: a version number or \"latest\"', oneOf: [{type: integer}, {type: string}]}"`
	// Records are read one by one (outRecord), strictly.
	Records []json.RawMessage `json:"records" schema:"{type: array, items: {$ref: '#/components/schemas/ProduceRecord'}, minItems: 1, maxItems: 1000}" oa:"required"`
}

// ProduceRecord is one record to write. Value is a string for
// value_format text, any JSON value for json and schema; null (or
// absent) is a tombstone.
type ProduceRecord struct {
	Key       *string         `json:"key"`
	Value     json.RawMessage `json:"value" oa:"required" doc:"a string for text; any JSON value for json and schema; null for a tombstone (required: a misspelt field is refused, never taken for a tombstone)"`
	Headers   []ProduceHeader `json:"headers"`
	Partition *int            `json:"partition,omitempty" oa:"min=0" doc:"the partitioner chooses (by key) when omitted"`
}

// ProduceHeader is one header of a record to produce.
type ProduceHeader struct {
	Key   string `json:"key" oa:"required"`
	Value string `json:"value"`
}

// Produced is where one produced record was written, or why not.
type Produced struct {
	Partition   int    `json:"partition"`
	Offset      *int64 `json:"offset" format:"int64"`
	Size        int    `json:"size" doc:"bytes of key, value and headers as written"`
	Error       string `json:"error,omitempty"`
	Unconfirmed bool   `json:"unconfirmed,omitempty" doc:"the cluster did not confirm the record in time: it may or may not have been written"`
}

// ProduceResult is where each produced record landed.
type ProduceResult struct {
	Topic    string     `json:"topic"`
	SchemaID int        `json:"schema_id,omitempty"`
	Written  int        `json:"written"`
	Records  []Produced `json:"records"`
}
