package kafkaadmin

import (
	"context"
	"fmt"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// Credentials is how a client of the cluster signs in with an API key:
// what CheckCredentials tries a new key with.
type Credentials struct {
	BootstrapServers string
	SecurityProtocol string
	SASLMechanism    string
	// Timeout bounds one check (5 s when 0).
	Timeout time.Duration
}

// Check signs in with key and secret, as an application would, and asks
// for the cluster's brokers (a metadata request that needs no ACL): nil
// when the cluster took the key. A key not spread yet is refused at
// sign-in, and so is a wrong secret; either way an error.
func (c Credentials) Check(ctx context.Context, key, secret string) error {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl))
	}
	if timeout <= 0 {
		return ctx.Err()
	}
	cm := kafka.ConfigMap{"bootstrap.servers": c.BootstrapServers, "security.protocol": c.SecurityProtocol, "client.id": "rms-portal-key-check",
		"enable.metrics.push": false, "socket.connection.setup.timeout.ms": int(timeout / time.Millisecond),
		// A refused sign-in is the answer, not news: librdkafka would log
		// it to standard error.
		"log_level": 0}
	if c.SASLMechanism != "" {
		cm["sasl.mechanisms"], cm["sasl.username"], cm["sasl.password"] = c.SASLMechanism, key, secret
	}
	a, err := kafka.NewAdminClient(&cm)
	if err != nil {
		return fmt.Errorf("a client to check the key: %w", err)
	}
	defer a.Close()
	if _, err := a.GetMetadata(nil, false, int(timeout/time.Millisecond)); err != nil {
		return fmt.Errorf("signing in with key %s: %w", key, err)
	}
	return nil
}
