package api

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// TestTopicListEncoding: the hand-written topic list is byte for byte
// what encoding/json writes, odd names included.
func TestTopicListEncoding(t *testing.T) {
	records := int64(12345)
	for _, out := range []wire.List[wire.Topic]{
		{Items: []wire.Topic{}},
		{Items: []wire.Topic{{Name: "edh-shared-scada-dev-a", Identifier: "a", BusinessUnit: "scada", PartitionsCount: 6},
			{Name: "legacy<orders>&\"x\"\\\u00e9\u2028\t", Identifier: "legacy", PartitionsCount: 1, OutsideConvention: true}},
			NextPageToken: "YWJj.ZGVm", TotalSize: 10003},
		{Items: []wire.Topic{{Name: "edh-shared-scada-dev-b", Identifier: "b", PartitionsCount: 2, Records: &records, RetentionMs: "-1", CleanupPolicy: "compact,delete"}}},
	} {
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(out); err != nil {
			t.Fatal(err)
		}
		if got := wire.EncodeTopicList(out); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("got  %s\nwant %s", got, want.Bytes())
		}
	}
}
