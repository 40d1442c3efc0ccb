// Package topicconfig is the contract of a topic's editable settings and
// their rules.
package topicconfig

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SettingType is how a topic setting's value is written.
type SettingType string

// Setting types.
const (
	TypeLong SettingType = "long"
	TypeInt  SettingType = "int"
	TypeEnum SettingType = "enum"
	TypeList SettingType = "list"
	TypeBool SettingType = "boolean"
)

// TopicSetting is a topic configuration key that tenants may edit, with the
// rules its values must follow. Kafka-protocol clusters accept anything
// (the embedded one certainly does), so these rules are the validation.
type TopicSetting struct {
	Key     string
	Title   string
	Help    string
	Type    SettingType
	Default string
	// Min and Max bound numeric values; Unlimited, when set, is a value
	// below Min that is also accepted (such as -1 for "no limit").
	Min, Max  int64
	Unlimited *int64
	Unit      string
	Options   []string
	// Common settings come first in forms; the others are advanced.
	Common bool
}

func ptr(v int64) *int64 { return &v }

const maxInt64 = int64(^uint64(0) >> 1)

// topicSettings is the allow-list, sorted by key. Ranges follow Confluent
// Cloud's limits for editable topic settings.
var topicSettings = []TopicSetting{
	{Key: "cleanup.policy", Common: true, Title: "Cleanup policy", Type: TypeList, Default: "delete", Options: []string{"delete", "compact"},
		Help: "delete removes old segments by time or size; compact keeps the latest value of each key; both may be combined (delete,compact)."},
	{Key: "compression.type", Common: true, Title: "Compression", Type: TypeEnum, Default: "producer", Options: []string{"producer", "uncompressed", "gzip", "snappy", "lz4", "zstd"},
		Help: "Codec used to store data; producer keeps whatever the producer sent."},
	{Key: "confluent.key.schema.validation", Title: "Validate key schema", Type: TypeBool, Default: "false",
		Help: "Reject records whose key has no valid schema id in Schema Registry."},
	{Key: "confluent.value.schema.validation", Title: "Validate value schema", Type: TypeBool, Default: "false",
		Help: "Reject records whose value has no valid schema id in Schema Registry."},
	{Key: "delete.retention.ms", Title: "Tombstone retention", Type: TypeLong, Default: "86400000", Min: 0, Max: maxInt64, Unit: "ms",
		Help: "How long delete markers (tombstones) stay in a compacted topic."},
	{Key: "max.compaction.lag.ms", Title: "Max compaction lag", Type: TypeLong, Default: "9223372036854775807", Min: 21600000, Max: maxInt64, Unit: "ms",
		Help: "Longest time a record stays uncompacted; at least 6 hours."},
	{Key: "max.message.bytes", Common: true, Title: "Max message size", Type: TypeInt, Default: "1048588", Min: 1, Max: 8388608, Unit: "bytes",
		Help: "Largest record batch the topic accepts; at most 8 MiB."},
	{Key: "message.timestamp.after.max.ms", Title: "Max timestamp ahead", Type: TypeLong, Default: "9223372036854775807", Min: 0, Max: maxInt64, Unit: "ms",
		Help: "How far in the future a record's timestamp may be."},
	{Key: "message.timestamp.before.max.ms", Title: "Max timestamp behind", Type: TypeLong, Default: "9223372036854775807", Min: 0, Max: maxInt64, Unit: "ms",
		Help: "How far in the past a record's timestamp may be."},
	{Key: "message.timestamp.type", Title: "Timestamp type", Type: TypeEnum, Default: "CreateTime", Options: []string{"CreateTime", "LogAppendTime"},
		Help: "CreateTime keeps the producer's timestamp; LogAppendTime uses the broker's clock."},
	{Key: "min.compaction.lag.ms", Title: "Min compaction lag", Type: TypeLong, Default: "0", Min: 0, Max: maxInt64, Unit: "ms",
		Help: "Shortest time a record stays uncompacted."},
	{Key: "min.insync.replicas", Common: true, Title: "Min in-sync replicas", Type: TypeInt, Default: "1", Min: 1, Max: 3,
		Help: "Replicas that must acknowledge a write sent with acks=all."},
	{Key: "retention.bytes", Common: true, Title: "Retention size", Type: TypeLong, Default: "-1", Min: 0, Max: maxInt64, Unlimited: ptr(-1), Unit: "bytes",
		Help: "Size per partition after which old segments are deleted; -1 for no limit."},
	{Key: "retention.ms", Common: true, Title: "Retention time", Type: TypeLong, Default: "604800000", Min: 0, Max: maxInt64, Unlimited: ptr(-1), Unit: "ms",
		Help: "How long records are kept; -1 keeps them forever. 604800000 is 7 days."},
	{Key: "segment.bytes", Title: "Segment size", Type: TypeInt, Default: "104857600", Min: 52428800, Max: 1073741824, Unit: "bytes",
		Help: "Size of one log segment; between 50 MiB and 1 GiB."},
	{Key: "segment.ms", Title: "Segment roll time", Type: TypeLong, Default: "604800000", Min: 600000, Max: maxInt64, Unit: "ms",
		Help: "Time after which a segment is closed even if not full; at least 10 minutes."},
}

// TopicSettings returns the editable topic settings, sorted by key.
func TopicSettings() []TopicSetting { return slices.Clone(topicSettings) }

// LookupTopicSetting returns the editable setting with the given key.
func LookupTopicSetting(key string) (TopicSetting, bool) {
	i, ok := slices.BinarySearchFunc(topicSettings, key, func(s TopicSetting, k string) int { return strings.Compare(s.Key, k) })
	if !ok {
		return TopicSetting{}, false
	}
	return topicSettings[i], true
}

// Check returns "" when v is acceptable, otherwise why it is not.
func (s TopicSetting) Check(v string) string {
	switch s.Type {
	case TypeLong, TypeInt:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || !wholeNumber(v) {
			return fmt.Sprintf("must be a whole number%s, not %s", unitSuffix(s.Unit), QuoteShort(v))
		}
		if s.Unlimited != nil && n == *s.Unlimited {
			return ""
		}
		if n < s.Min || n > s.Max {
			return s.rangeText()
		}
	case TypeEnum:
		if !slices.Contains(s.Options, v) {
			return fmt.Sprintf("must be one of %s, not %s", strings.Join(s.Options, ", "), QuoteShort(v))
		}
	case TypeList:
		parts := strings.Split(v, ",")
		seen := map[string]bool{}
		for _, p := range parts {
			p = strings.TrimSpace(p)
			if !slices.Contains(s.Options, p) || seen[p] {
				return fmt.Sprintf("must be a comma-separated list of distinct values from %s, not %s", strings.Join(s.Options, ", "), QuoteShort(v))
			}
			seen[p] = true
		}
	case TypeBool:
		if v != "true" && v != "false" {
			return fmt.Sprintf("must be true or false, not %s", QuoteShort(v))
		}
	}
	return ""
}

func (s TopicSetting) rangeText() string {
	var b strings.Builder
	if s.Max == maxInt64 {
		fmt.Fprintf(&b, "must be at least %d%s", s.Min, unitSuffix(s.Unit))
	} else {
		fmt.Fprintf(&b, "must be between %d and %d%s", s.Min, s.Max, unitSuffix(s.Unit))
	}
	if s.Unlimited != nil {
		fmt.Fprintf(&b, ", or %d for no limit", *s.Unlimited)
	}
	return b.String()
}

func unitSuffix(unit string) string {
	switch unit {
	case "ms":
		return " (milliseconds)"
	case "":
		return ""
	}
	return " (" + unit + ")"
}

// NormaliseSetting removes spaces a person may type in lists ("delete, compact").
func NormaliseSetting(s TopicSetting, v string) string {
	if s.Type == TypeList {
		parts := strings.Split(v, ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return strings.Join(parts, ",")
	}
	return v
}

// wholeNumber reports whether v is written as Kafka writes whole numbers:
// an optional minus and digits, nothing else ("+5", " 5", "1e3" are not).
func wholeNumber(v string) bool {
	digits := strings.TrimPrefix(v, "-")
	if digits == "" {
		return false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// QuoteShort quotes a value for a message, cutting a long one: an error
// must not echo a megabyte back.
func QuoteShort(v string) string {
	const limit = 40
	if len(v) <= limit {
		return strconv.Quote(v)
	}
	cut := v[:limit]
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return strconv.Quote(cut) + fmt.Sprintf("… (%d characters)", len(v))
}
