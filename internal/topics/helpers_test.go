package topics_test

import (
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/topicconfig"
)

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }

func names(ts []topic.Topic) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return slices.Clip(out)
}

// settingKeys lists the editable settings as refusals name them.
func settingKeys() string {
	var keys []string
	for _, s := range topicconfig.TopicSettings() {
		keys = append(keys, s.Key)
	}
	return strings.Join(keys, ", ")
}
