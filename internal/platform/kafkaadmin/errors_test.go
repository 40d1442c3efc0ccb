package kafkaadmin

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// TestEveryKafkaErrorIsClassified: every error code librdkafka knows (it
// names each; unknown codes read "Err-N?") has its line in the table, and
// each class answers its kind and counts toward the cluster's health only
// when it says the cluster is unwell.
func TestEveryKafkaErrorIsClassified(t *testing.T) {
	c := &Client{name: "edh-shared/dev"}
	known := 0
	for code := kafka.ErrorCode(-300); code < 300; code++ {
		if strings.HasPrefix(code.String(), "Err-") {
			continue
		}
		known++
		cls, listed := classes[code]
		if !listed {
			t.Errorf("code %d (%s) is not in the table", code, code)
			continue
		}
		err := c.translate(kafka.NewError(code, code.String(), false), "edh-shared-scada-dev-orders")
		if cls == ok {
			if err != nil {
				t.Errorf("%s: %v", code, err)
			}
			continue
		}
		want := map[class]portal.Kind{missing: portal.NotFound, exists: portal.AlreadyExists, refused: portal.InvalidParameter,
			conflict: portal.Conflict, throttled: portal.RateLimited, busy: portal.UpstreamUnavailable,
			permission: portal.UpstreamPermission, bug: portal.Internal}[cls]
		got := portal.KindOf(err)
		switch {
		case cls == unwell && (got != portal.UpstreamUnavailable && got != portal.UpstreamTimeout || !upstream.IsOutage(err)):
			t.Errorf("%s: unwell gives %s (outage %v)", code, got, upstream.IsOutage(err))
		case cls != unwell && (got != want || upstream.IsOutage(err)):
			t.Errorf("%s: class %d gives %s (outage %v), want %s and no outage", code, cls, got, upstream.IsOutage(err), want)
		}
	}
	if known < 150 || len(classes) != known {
		t.Errorf("librdkafka names %d codes, the table has %d", known, len(classes))
	}
	// The ones the last probe met, spelled out.
	for code, want := range map[kafka.ErrorCode]portal.Kind{
		kafka.ErrMsgSizeTooLarge: portal.InvalidParameter, kafka.ErrNoent: portal.NotFound,
		kafka.ErrUnknownTopicOrPart: portal.NotFound, kafka.ErrLeaderNotAvailable: portal.UpstreamUnavailable,
		kafka.ErrPolicyViolation: portal.InvalidParameter, kafka.ErrThrottlingQuotaExceeded: portal.RateLimited,
		kafka.ErrTopicAuthorizationFailed: portal.UpstreamPermission,
	} {
		err := c.translate(kafka.NewError(code, code.String(), false), "t")
		if portal.KindOf(err) != want || upstream.IsOutage(err) {
			t.Errorf("%s: %v (outage %v), want %s", code, err, upstream.IsOutage(err), want)
		}
	}
	for _, code := range []kafka.ErrorCode{kafka.ErrTransport, kafka.ErrAllBrokersDown, kafka.ErrRequestTimedOut, kafka.ErrorCode(4242)} {
		if err := c.translate(kafka.NewError(code, code.String(), false), "t"); !upstream.IsOutage(err) {
			t.Errorf("%s is not a sign of an outage: %v", code, err)
		}
	}
}

// TestOneCallersErrorsLeaveTheClusterUp: through the cluster's breaker, a
// record larger than its topic takes (refused by the broker: 400 on the
// record's value), offsets of a deleted topic (NotFound: librdkafka's "No
// leaders found" once its metadata forgot the topic) and a costly call
// that ran out of time, each many times over, leave the circuit closed
// and the cluster reported well; calls of others go on.
func TestOneCallersErrorsLeaveTheClusterUp(t *testing.T) {
	ctx := context.Background()
	reg := upstream.NewRegistry(upstream.Options{Failures: 3, OpenFor: time.Hour})
	up := reg.Get(upstream.Cluster, "test/dev")
	c := newCluster(t)
	cl, err := New(Options{Name: "test/dev", BootstrapServers: c.ListenAddrs()[0], SecurityProtocol: "PLAINTEXT",
		Timeout: 3 * time.Second, CacheTTL: time.Minute, Upstream: up, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	small := "small-" + fmt.Sprint(time.Now().UnixNano())
	if err := cl.CreateTopic(ctx, platform.TopicSpec{Name: small, Partitions: 1, Config: map[string]string{"max.message.bytes": "1024"}}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		_, err := cl.Produce(ctx, small, []platform.OutMessage{{Value: make([]byte, 5000), Partition: -1}})
		var pe *portal.Error
		if !portal.Is(err, portal.InvalidParameter) || upstream.IsOutage(err) {
			t.Fatalf("an oversized record: %v", err)
		}
		if pe = portal.Problems(err)[0]; pe.Field != "records[0].value" {
			t.Errorf("the refusal names %q, not the record's value", pe.Field)
		}
	}
	for range 5 {
		if _, err := cl.TopicOffsets(ctx, "never-was-"+small, 2); !portal.Is(err, portal.NotFound) || upstream.IsOutage(err) {
			t.Fatalf("offsets of a topic that does not exist: %v", err)
		}
	}
	for range 5 {
		// A costly call out of time: the caller's own deadline.
		tight, cancel := context.WithTimeout(ctx, time.Microsecond)
		_, err := cl.ReadMessages(tight, small, []platform.ReadRange{{Partition: 0, From: 0, Count: 1}}, 1<<20)
		cancel()
		if upstream.IsOutage(err) {
			t.Fatalf("a scan out of time counts as an outage: %v", err)
		}
	}
	if h := up.Health(); h.Circuit != "closed" || h.State == "failing" {
		t.Fatalf("after one caller's errors the cluster reads %+v", h)
	}
	if _, err := cl.DescribeTopic(ctx, small); err != nil {
		t.Errorf("another caller: %v", err)
	}
}
