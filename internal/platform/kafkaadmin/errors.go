package kafkaadmin

import (
	"context"
	"errors"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// translate turns a librdkafka error into a fault error that a caller can
// act on; topic names the resource for NotFound and AlreadyExists messages.
func (c *Client) translate(err error, topic string) error {
	if err == nil {
		c.down.Store(false)
		return nil
	}
	var ke kafka.Error
	if !errors.As(err, &ke) {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return c.unreachable(err)
		case errors.Is(err, context.Canceled):
			return err
		}
		return portal.Wrap(err, portal.Internal, "cluster %s failed", c.name)
	}
	switch ke.Code() {
	case kafka.ErrNoError:
		c.down.Store(false)
		return nil
	case kafka.ErrTopicAlreadyExists:
		c.down.Store(false)
		return portal.Wrap(err, portal.AlreadyExists, "topic %s already exists", topic)
	case kafka.ErrUnknownTopicOrPart, kafka.ErrUnknownTopic:
		c.down.Store(false)
		return portal.Wrap(err, portal.NotFound, "topic %s not found", topic)
	case kafka.ErrInvalidPartitions, kafka.ErrInvalidConfig, kafka.ErrPolicyViolation,
		kafka.ErrInvalidReplicationFactor, kafka.ErrTopicException, kafka.ErrInvalidRequest:
		return portal.Wrap(err, portal.InvalidParameter, "cluster %s refused the change: %s", c.name, ke.String())
	case kafka.ErrTimedOut, kafka.ErrTimedOutQueue, kafka.ErrRequestTimedOut, kafka.ErrTransport,
		kafka.ErrAllBrokersDown, kafka.ErrBrokerNotAvailable, kafka.ErrNetworkException:
		return c.unreachable(err)
	case kafka.ErrTopicAuthorizationFailed, kafka.ErrClusterAuthorizationFailed, kafka.ErrAuthentication,
		kafka.ErrSaslAuthenticationFailed:
		return portal.Wrap(err, portal.UpstreamUnavailable, "cluster %s refused the portal's credentials", c.name)
	case kafka.ErrThrottlingQuotaExceeded:
		e := portal.Wrap(err, portal.RateLimited, "cluster %s is throttling administrative requests; try again shortly", c.name)
		return e
	}
	return portal.Wrap(err, portal.UpstreamUnavailable, "cluster %s failed: %s", c.name, ke.String())
}

// unreachable distinguishes a cluster known to be down (503) from one that
// merely did not answer in time (504).
func (c *Client) unreachable(err error) error {
	if c.down.Load() {
		return portal.Wrap(err, portal.UpstreamUnavailable, "cluster %s is unreachable", c.name)
	}
	return portal.Wrap(err, portal.UpstreamTimeout, "cluster %s did not answer in time", c.name)
}
