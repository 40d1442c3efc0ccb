package topicconfig

import (
	"strings"
	"testing"
)

func TestSettingRules(t *testing.T) {
	check := func(k, v string) string {
		st, ok := LookupTopicSetting(k)
		if !ok {
			return "not editable"
		}
		return st.Check(NormaliseSetting(st, v))
	}
	ok := map[string][]string{
		"retention.ms":                      {"-1", "0", "604800000"},
		"retention.bytes":                   {"-1", "1073741824"},
		"cleanup.policy":                    {"delete", "compact", "compact,delete"},
		"compression.type":                  {"zstd", "producer"},
		"message.timestamp.type":            {"LogAppendTime"},
		"min.insync.replicas":               {"1", "2"},
		"max.message.bytes":                 {"8388608"},
		"confluent.value.schema.validation": {"true", "false"},
	}
	bad := map[string][]string{
		"retention.ms":                      {"-2", "1.5", " 5", "1e3", "", "+5", "5 ", "0x10", "--1", "-"},
		"cleanup.policy":                    {"", "remove", "delete,"},
		"compression.type":                  {"ZSTD", "brotli"},
		"message.timestamp.type":            {"createtime"},
		"min.insync.replicas":               {"0", "4"},
		"max.message.bytes":                 {"8388609", "0"},
		"segment.ms":                        {"1000"},
		"confluent.value.schema.validation": {"yes"},
	}
	for k, vals := range ok {
		for _, v := range vals {
			if p := check(k, v); p != "" {
				t.Errorf("%s=%q refused: %v", k, v, p)
			}
		}
	}
	for k, vals := range bad {
		for _, v := range vals {
			if p := check(k, v); p == "" {
				t.Errorf("%s=%q accepted", k, v)
			}
		}
	}
}

func TestMessagesQuoteShortly(t *testing.T) {
	st, _ := LookupTopicSetting("retention.ms")
	msg := st.Check(strings.Repeat("9", 100000) + "x")
	if len(msg) > 200 || !strings.Contains(msg, "(100001 characters)") {
		t.Errorf("message %d long: %.300s", len(msg), msg)
	}
}
