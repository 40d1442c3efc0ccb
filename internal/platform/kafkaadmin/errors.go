package kafkaadmin

import (
	"context"
	"errors"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// class is what one of librdkafka's error codes means for the portal:
// whose business it is, and so what the caller is told and whether it
// counts toward the cluster's health.
type class int

const (
	// ok: no error.
	ok class = iota
	// missing: the topic, partition, group or resource the request names
	// does not exist (404).
	missing
	// exists: what the request makes exists already (409).
	exists
	// refused: the cluster refused the request's content: a setting, a
	// partition count, a record too large or malformed (400).
	refused
	// conflict: the resource's state does not allow the change now: a
	// group with members, a reassignment under way (409).
	conflict
	// throttled: the cluster throttles the portal's requests (429).
	throttled
	// busy: the resource is briefly unavailable (a leader election, a
	// coordinator loading): 503 with Retry-After, but the cluster is
	// well, and other requests are not affected.
	busy
	// permission: the portal's own credentials lack a permission on the
	// cluster: a configuration error of the platform, never an outage.
	permission
	// unwell: the cluster cannot be reached or fails: 503 (504 for a
	// timeout), and a sign for its breaker and health.
	unwell
	// bug: the portal sent what it should not have (an unsupported
	// request, a local misuse of the library): 500, not the cluster's
	// health.
	bug
)

// classes says, for every error code of librdkafka, what it means.
// TestEveryKafkaErrorIsClassified checks that no code is missing.
var classes = map[kafka.ErrorCode]class{
	kafka.ErrNoError: ok,

	// The request names something that does not exist. Local NOENT is
	// what librdkafka answers for offsets of a topic its metadata no
	// longer has ("No leaders found").
	kafka.ErrUnknownTopicOrPart: missing, kafka.ErrUnknownTopic: missing, kafka.ErrUnknownPartition: missing,
	kafka.ErrNoent: missing, kafka.ErrUnknownTopicID: missing, kafka.ErrGroupIDNotFound: missing,
	kafka.ErrUnknownGroup: missing, kafka.ErrResourceNotFound: missing, kafka.ErrLogDirNotFound: missing,
	kafka.ErrDelegationTokenNotFound: missing, kafka.ErrNoOffset: missing, kafka.ErrOffsetOutOfRange: missing,
	kafka.ErrPartitionEOF: missing, kafka.ErrUnknownBroker: missing, kafka.ErrNoReassignmentInProgress: missing,

	kafka.ErrTopicAlreadyExists: exists, kafka.ErrDuplicateResource: exists,

	// The cluster refused the request's content.
	kafka.ErrInvalidPartitions: refused, kafka.ErrInvalidConfig: refused, kafka.ErrPolicyViolation: refused,
	kafka.ErrInvalidReplicationFactor: refused, kafka.ErrInvalidReplicaAssignment: refused,
	kafka.ErrTopicException: refused, kafka.ErrInvalidRequest: refused, kafka.ErrMsgSizeTooLarge: refused,
	kafka.ErrRecordListTooLarge: refused, kafka.ErrInvalidMsg: refused, kafka.ErrInvalidMsgSize: refused,
	kafka.ErrInvalidRecord: refused, kafka.ErrInvalidDifferentRecord: refused, kafka.ErrInvalidTimestamp: refused,
	kafka.ErrOffsetMetadataTooLarge: refused, kafka.ErrInvalidCommitOffsetSize: refused,
	kafka.ErrInvalidGroupID: refused, kafka.ErrInvalidSessionTimeout: refused, kafka.ErrTopicDeletionDisabled: refused,
	kafka.ErrUnsupportedCompressionType: refused, kafka.ErrInvalidPrincipalType: refused,
	kafka.ErrUnacceptableCredential: refused, kafka.ErrElectionNotNeeded: refused, kafka.ErrBadMsg: refused,
	kafka.ErrBadCompression: refused, kafka.ErrKeySerialization: refused, kafka.ErrValueSerialization: refused,
	kafka.ErrKeyDeserialization: refused, kafka.ErrValueDeserialization: refused, kafka.ErrInvalidRequiredAcks: refused,
	kafka.ErrInvalidTransactionTimeout: refused, kafka.ErrGroupMaxSizeReached: refused,
	kafka.ErrInvalidUpdateVersion: refused, kafka.ErrUnsupportedAssignor: refused, kafka.ErrTelemetryTooLarge: refused,

	// The resource's state does not allow the change now.
	kafka.ErrNonEmptyGroup: conflict, kafka.ErrRebalanceInProgress: conflict, kafka.ErrUnknownMemberID: conflict,
	kafka.ErrIllegalGeneration: conflict, kafka.ErrReassignmentInProgress: conflict,
	kafka.ErrGroupSubscribedToTopic: conflict, kafka.ErrFencedInstanceID: conflict,
	kafka.ErrUnreleasedInstanceID: conflict, kafka.ErrFencedMemberEpoch: conflict, kafka.ErrStaleMemberEpoch: conflict,
	kafka.ErrMemberIDRequired: conflict, kafka.ErrInconsistentGroupProtocol: conflict,
	kafka.ErrUnstableOffsetCommit: conflict, kafka.ErrConflict: conflict, kafka.ErrExistingSubscription: conflict,
	kafka.ErrInProgress: conflict, kafka.ErrPrevInProgress: conflict, kafka.ErrAssignmentLost: conflict,
	kafka.ErrAssignPartitions: conflict, kafka.ErrRevokePartitions: conflict, kafka.ErrFenced: conflict,
	kafka.ErrProducerFenced: conflict, kafka.ErrInvalidProducerEpoch: conflict, kafka.ErrInvalidTxnState: conflict,
	kafka.ErrInvalidProducerIDMapping: conflict, kafka.ErrConcurrentTransactions: conflict,
	kafka.ErrOutOfOrderSequenceNumber: conflict, kafka.ErrDuplicateSequenceNumber: conflict,
	kafka.ErrUnknownProducerID: conflict, kafka.ErrTransactionCoordinatorFenced: conflict,
	kafka.ErrGaplessGuarantee: conflict, kafka.ErrMaxPollExceeded: conflict, kafka.ErrLogTruncation: conflict,
	kafka.ErrAutoOffsetReset: conflict,

	kafka.ErrThrottlingQuotaExceeded: throttled, kafka.ErrQueueFull: throttled,

	// One partition's or group's moment: the cluster is well.
	kafka.ErrLeaderNotAvailable: busy, kafka.ErrNotLeaderForPartition: busy, kafka.ErrReplicaNotAvailable: busy,
	kafka.ErrCoordinatorLoadInProgress: busy, kafka.ErrCoordinatorNotAvailable: busy, kafka.ErrNotCoordinator: busy,
	kafka.ErrNotController: busy, kafka.ErrNotEnoughReplicas: busy, kafka.ErrNotEnoughReplicasAfterAppend: busy,
	kafka.ErrIsrInsuff: busy, kafka.ErrWaitCoord: busy, kafka.ErrWaitCache: busy, kafka.ErrFencedLeaderEpoch: busy,
	kafka.ErrUnknownLeaderEpoch: busy, kafka.ErrOffsetNotAvailable: busy, kafka.ErrPreferredLeaderNotAvailable: busy,
	kafka.ErrEligibleLeadersNotAvailable: busy, kafka.ErrStaleCtrlEpoch: busy, kafka.ErrStaleBrokerEpoch: busy,
	kafka.ErrOperationNotAttempted: busy, kafka.ErrRetry: busy, kafka.ErrOutdated: busy, kafka.ErrNodeUpdate: busy,
	kafka.ErrFetchSessionIDNotFound: busy, kafka.ErrInvalidFetchSessionEpoch: busy, kafka.ErrPartial: busy,
	kafka.ErrRebootstrapRequired: busy, kafka.ErrUnknownSubscriptionID: busy, kafka.ErrInconsistentVoterSet: busy,
	kafka.ErrPurgeQueue: busy, kafka.ErrPurgeInflight: busy, kafka.ErrIntr: busy, kafka.ErrMsgTimedOut: busy,

	// The portal's own credentials lack a permission.
	kafka.ErrTopicAuthorizationFailed: permission, kafka.ErrGroupAuthorizationFailed: permission,
	kafka.ErrClusterAuthorizationFailed: permission, kafka.ErrTransactionalIDAuthorizationFailed: permission,
	kafka.ErrDelegationTokenAuthorizationFailed: permission, kafka.ErrAuthentication: permission,
	kafka.ErrSaslAuthenticationFailed: permission, kafka.ErrUnsupportedSaslMechanism: permission,
	kafka.ErrIllegalSaslState: permission, kafka.ErrSecurityDisabled: permission,
	kafka.ErrDelegationTokenAuthDisabled: permission, kafka.ErrDelegationTokenOwnerMismatch: permission,
	kafka.ErrDelegationTokenRequestNotAllowed: permission, kafka.ErrDelegationTokenExpired: permission,
	kafka.ErrPrincipalDeserializationFailure: permission, kafka.ErrSsl: permission,

	// The cluster cannot be reached or fails.
	kafka.ErrTransport: unwell, kafka.ErrAllBrokersDown: unwell, kafka.ErrBrokerNotAvailable: unwell,
	kafka.ErrNetworkException: unwell, kafka.ErrFail: unwell, kafka.ErrResolve: unwell, kafka.ErrTimedOut: unwell,
	kafka.ErrTimedOutQueue: unwell, kafka.ErrRequestTimedOut: unwell, kafka.ErrKafkaStorageError: unwell,
	kafka.ErrListenerNotFound: unwell, kafka.ErrUnknown: unwell, kafka.ErrFeatureUpdateFailed: unwell,
	kafka.ErrCritSysResource: unwell, kafka.ErrFs: unwell, kafka.ErrDestroy: unwell, kafka.ErrDestroyBroker: unwell,
	kafka.ErrFatal: unwell, kafka.ErrInconsistent: unwell, kafka.ErrState: unwell,

	// What the portal should not have asked.
	kafka.ErrInvalidArg: bug, kafka.ErrUnknownProtocol: bug, kafka.ErrNotImplemented: bug,
	kafka.ErrUnsupportedFeature: bug, kafka.ErrUnsupportedVersion: bug, kafka.ErrUnsupportedForMessageFormat: bug,
	kafka.ErrReadOnly: bug, kafka.ErrUnderflow: bug, kafka.ErrInvalidType: bug, kafka.ErrNotConfigured: bug,
	kafka.ErrApplication: bug, kafka.ErrNoop: bug,
}

// classify says what a librdkafka error code means; a code this release
// does not know is the cluster's failure, for a person to look at.
func classify(code kafka.ErrorCode) class {
	if c, known := classes[code]; known {
		return c
	}
	return unwell
}

// translate turns a librdkafka error into a fault error that a caller can
// act on; topic names the resource for NotFound and AlreadyExists messages.
// Only errors that say the cluster is unwell are marked so (Unwell); a
// request's own refusal never counts toward the cluster's health.
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
	cls := classify(ke.Code())
	if cls != unwell && cls != permission {
		// The cluster answered.
		c.down.Store(false)
	}
	what := "the request"
	if topic != "" {
		what = "topic " + topic
	}
	switch cls {
	case ok:
		return nil
	case missing:
		if topic == "" {
			return portal.Wrap(err, portal.NotFound, "cluster %s: %s", c.name, ke.String())
		}
		return portal.Wrap(err, portal.NotFound, "topic %s not found", topic)
	case exists:
		return portal.Wrap(err, portal.AlreadyExists, "%s already exists", what)
	case refused:
		return portal.Wrap(err, portal.InvalidParameter, "cluster %s refused %s: %s", c.name, what, ke.String())
	case conflict:
		return portal.Wrap(err, portal.Conflict, "cluster %s cannot do this now: %s", c.name, ke.String())
	case throttled:
		e := portal.Wrap(err, portal.RateLimited, "cluster %s is throttling the portal's requests; try again shortly", c.name)
		e.RetryAfter = busyRetry
		return e
	case busy:
		e := portal.Wrap(err, portal.UpstreamUnavailable, "cluster %s: %s is briefly unavailable (%s); try again in a moment", c.name, what, ke.String())
		e.RetryAfter = busyRetry
		return e
	case permission:
		return portal.Wrap(err, portal.UpstreamPermission, "cluster %s refused the portal's own credentials for %s (%s): its API key needs the role that grants it (CloudClusterAdmin on the cluster); ask the platform team",
			c.name, what, ke.String())
	case bug:
		return portal.Wrap(err, portal.Internal, "cluster %s could not take the portal's request: %s", c.name, ke.String())
	}
	switch ke.Code() {
	case kafka.ErrTimedOut, kafka.ErrTimedOutQueue, kafka.ErrRequestTimedOut:
		return c.unreachable(err)
	}
	return upstream.Unwell(portal.Wrap(err, portal.UpstreamUnavailable, "cluster %s failed: %s", c.name, ke.String()))
}

// busyRetry is when a caller may try again after a moment's refusal.
const busyRetry = 2 * time.Second

// unreachable distinguishes a cluster known to be down (503) from one that
// merely did not answer in time (504). Either is a sign that the cluster
// is unwell, but for a timeout of a costly call, which is the caller's
// (call decides).
func (c *Client) unreachable(err error) error {
	if c.down.Load() {
		return upstream.Unwell(portal.Wrap(err, portal.UpstreamUnavailable, "cluster %s is unreachable", c.name))
	}
	return upstream.Unwell(portal.Wrap(err, portal.UpstreamTimeout, "cluster %s did not answer in time", c.name))
}
