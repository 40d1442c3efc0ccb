package confluent

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// statusKinds say what each HTTP status of the Cloud APIs means for the
// caller. A 401 or 403 is the portal's own key lacking a role (a
// configuration of the platform, UPSTREAM_PERMISSION); 5xx and transport
// failures say the API is unwell; every other status is the request's. A
// status not listed is read by its class (statusKind).
// TestEveryCloudStatusIsClassified checks them.
var statusKinds = map[int]portal.Kind{
	http.StatusBadRequest:          portal.InvalidParameter,
	http.StatusUnprocessableEntity: portal.InvalidParameter,
	http.StatusUnauthorized:        portal.UpstreamPermission,
	http.StatusForbidden:           portal.UpstreamPermission,
	http.StatusNotFound:            portal.NotFound,
	// Confluent Cloud answers 402 when the organisation's quota (of
	// service accounts, role bindings, connectors...) is used up.
	http.StatusPaymentRequired:     portal.QuotaExceeded,
	http.StatusConflict:            portal.AlreadyExists,
	http.StatusPreconditionFailed:  portal.PreconditionFailed,
	http.StatusTooManyRequests:     portal.RateLimited,
	http.StatusInternalServerError: portal.UpstreamUnavailable,
	http.StatusBadGateway:          portal.UpstreamUnavailable,
	http.StatusServiceUnavailable:  portal.UpstreamUnavailable,
	http.StatusGatewayTimeout:      portal.UpstreamTimeout,
}

// statusKind is what a status means: the table's, else by its class.
func statusKind(status int) portal.Kind {
	if k, listed := statusKinds[status]; listed {
		return k
	}
	if status >= 400 && status < 500 {
		return portal.InvalidParameter
	}
	return portal.UpstreamUnavailable
}

// translate turns transport and API errors into fault errors; only the
// API's failures and silence are marked Unwell.
func (c *Client) translate(err error) error {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		if errors.Is(err, context.DeadlineExceeded) {
			return upstream.Unwell(portal.Wrap(err, portal.UpstreamTimeout, "Confluent Cloud did not answer in time"))
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
		return upstream.Unwell(portal.Wrap(err, portal.UpstreamUnavailable, "Confluent Cloud cannot be reached"))
	}
	switch kind := statusKind(apiErr.Status); kind {
	case portal.UpstreamPermission:
		return portal.Wrap(err, kind, "Confluent Cloud refused the portal's own key (%d: %s)", apiErr.Status, apiErr.Message)
	case portal.QuotaExceeded:
		return portal.Wrap(err, kind, "Confluent Cloud refused: %s (a quota of the organisation); ask the platform team", apiErr.Message)
	case portal.RateLimited:
		e := portal.Wrap(err, kind, "Confluent Cloud is throttling requests; try again later")
		e.RetryAfter = apiErr.RetryAfter
		if e.RetryAfter == 0 {
			e.RetryAfter = 5 * time.Second
		}
		return e
	case portal.UpstreamTimeout:
		return upstream.Unwell(portal.Wrap(err, kind, "Confluent Cloud did not answer in time"))
	case portal.UpstreamUnavailable:
		return upstream.Unwell(portal.Wrap(err, kind, "Confluent Cloud failed: %s", apiErr.Message))
	default:
		return portal.Wrap(err, kind, "%s", apiErr.Message)
	}
}

// roles name, for each API, the role the portal's Cloud API key needs:
// a refusal of the key says which, with the operation it was refused.
var roles = map[string]string{
	upstream.Connect:       "CloudClusterAdmin on the environment's Kafka clusters",
	upstream.IAM:           "AccountAdmin on the organisation (service accounts, API keys) and ResourceOwner on the resources it binds roles to",
	upstream.IdentityPools: "AccountAdmin on the organisation (identity providers and their pools)",
	upstream.Metrics:       "MetricsViewer on the organisation",
	upstream.Billing:       "BillingAdmin (or OrganizationAdmin) on the organisation",
}

// permissionFor completes a refusal of the portal's key with the
// operation refused and the role that grants it.
func permissionFor(err error, kind, op string) error {
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Kind != portal.UpstreamPermission {
		return err
	}
	e := portal.Wrap(pe.Cause, portal.UpstreamPermission, "%s for %s: the key needs %s; ask the platform team", pe.Message, op, roles[kind])
	return e
}
