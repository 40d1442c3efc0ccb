package events

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/internal/store"
)

// A unit's alert channels are webhooks of its own: they take the stage's
// alerts only, in the receiver's format, delivered (and retried) from the
// trail's outbox as every webhook's events are. Developers and up add and
// remove them; anyone of the unit reads them.

// Channels lists a unit's alert channels in a stage.
func (s *Service) Channels(ctx context.Context, scope portal.Scope) ([]webhook.Webhook, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read alert channels")
	if err != nil {
		return nil, err
	}
	recs, err := s.store.WebhookRecords(ctx)
	if err != nil {
		return nil, err
	}
	out := []webhook.Webhook{}
	for _, r := range recs {
		if r.AlertsOnly && r.Zone == call.Scope.Zone().ID && r.BU == call.Scope.Unit.ID && r.Stage == call.Scope.Stage.Name {
			out = append(out, view(r))
		}
	}
	return out, nil
}

// CreateChannel adds an alert channel: its URL is checked as a webhook's
// (https, no credentials, no internal address); a CloudEvents channel
// gets a signing secret, in this answer only.
func (s *Service) CreateChannel(ctx context.Context, scope portal.Scope, format, rawURL string) (webhook.Webhook, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "add alert channels", portal.ActAlertChannelCreate, rawURL, func(ctx context.Context, call *gate.Call) (_ webhook.Webhook, err error) {
		var v portal.Validation
		switch format {
		case "cloudevents":
			format = store.FormatCloudEvents
		case store.FormatCloudEvents, store.FormatSlack, store.FormatAlertmanager:
		default:
			v.Add(portal.Invalid("format", "must be cloudevents (the default), slack or alertmanager, not %q", portal.Clip(format, 40)))
		}
		u := s.checkURL(ctx, rawURL, &v)
		if err := v.Err(); err != nil {
			return webhook.Webhook{}, err
		}
		if err := s.checkChannelRoom(ctx, call.Scope.Zone().ID, call.Scope.Unit.ID, call.Scope.Stage.Name); err != nil {
			return webhook.Webhook{}, err
		}
		id := make([]byte, 6)
		_, _ = rand.Read(id)
		rec := store.WebhookRecord{ID: "ch-" + base64.RawURLEncoding.EncodeToString(id), Zone: call.Scope.Zone().ID, BU: call.Scope.Unit.ID,
			Stage: call.Scope.Stage.Name, Format: format, AlertsOnly: true, URL: u.String(), CreatedBy: call.Principal.Actor(), Created: s.guard.Now().UTC()}
		secret := ""
		if format == store.FormatCloudEvents {
			key := make([]byte, 24)
			_, _ = rand.Read(key)
			secret = SecretPrefix + base64.StdEncoding.EncodeToString(key)
		}
		rec.Secret = sealSecret(s.o.Secrets, rec.ID, secret)
		if rec.Cursor, err = s.store.OutboxEnd(ctx); err != nil {
			return webhook.Webhook{}, err
		}
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActAlertChannelCreate, Resource: rec.ID,
			Changes: []trail.Change{{Field: "url", After: Redact(rec.URL)}, {Field: "format", After: formatName(format)}},
			Do:      func(ctx context.Context) error { return s.store.CreateWebhookRecord(ctx, rec) }})
		if err != nil {
			return webhook.Webhook{}, err
		}
		out := view(rec)
		out.URL, out.Secret = rec.URL, secret // the one answer that hands them out
		return out, nil
	})
}

// MaxChannels bounds a unit's alert channels in a stage.
const MaxChannels = 10

// checkChannelRoom refuses an eleventh channel of a unit in a stage.
func (s *Service) checkChannelRoom(ctx context.Context, zone, unit, stage string) error {
	recs, err := s.store.WebhookRecords(ctx)
	if err != nil {
		return err
	}
	n := 0
	for _, r := range recs {
		if r.AlertsOnly && r.Zone == zone && r.BU == unit && r.Stage == stage {
			n++
		}
	}
	if n >= MaxChannels {
		return portal.New(portal.Conflict, "%s has %d alert channels in %s, as many as it may; remove one first", unit, n, stage)
	}
	return nil
}

func formatName(format string) string {
	if format == "" {
		return "cloudevents"
	}
	return format
}

// DeleteChannel removes one of a unit's alert channels.
func (s *Service) DeleteChannel(ctx context.Context, scope portal.Scope, id string) error {
	return s.guard.Writing(ctx, scope, access.Write, "remove alert channels", portal.ActAlertChannelDelete, id, func(ctx context.Context, call *gate.Call) (err error) {
		rec, err := s.find(ctx, id, "alert channel")
		if err != nil {
			return err
		}
		if !rec.AlertsOnly || rec.BU != call.Scope.Unit.ID || rec.Stage != call.Scope.Stage.Name || rec.Zone != call.Scope.Zone().ID {
			return portal.New(portal.NotFound, "alert channel %q not found in %s", portal.Clip(id, 64), call.Scope)
		}
		return s.guard.Write(ctx, call, gate.Change{Event: portal.ActAlertChannelDelete, Resource: rec.ID,
			Changes: []trail.Change{{Field: "url", Before: Redact(rec.URL)}},
			Do: func(ctx context.Context) error {
				err := s.store.DeleteWebhookRecord(ctx, id)
				if errors.Is(err, store.ErrNotFound) {
					return portal.New(portal.NotFound, "alert channel %q not found", id)
				}
				return err
			}})
	})
}

// Redact shows a channel's URL without what may be its credential: an
// incoming webhook's URL holds its token in its path
// (https://hooks.slack.com/services/T.../B.../secret), so only the
// scheme, the host and the path's first segment are shown, to people,
// in the trail and in the API, after the answer that made it.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(unreadable URL)"
	}
	out := u.Scheme + "://" + u.Host
	first, rest, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if first != "" {
		out += "/" + first
	}
	if rest != "" || u.RawQuery != "" {
		out += "/…"
	}
	return out
}

// checkURL checks a receiver's URL as a webhook's is checked when saved.
func (s *Service) checkURL(ctx context.Context, raw string, v *portal.Validation) *url.URL {
	v.Add(portal.CheckText("url", raw, portal.MaxURL, false))
	u, err := url.Parse(strings.TrimSpace(raw))
	switch {
	case v.Err() != nil:
	case strings.TrimSpace(raw) == "":
		v.Add(portal.Missing("url"))
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		v.Add(portal.Invalid("url", "give the receiver's absolute URL, such as https://hooks.slack.com/services/..."))
	case u.Scheme != "https" && !s.o.AllowHTTP:
		v.Add(portal.Invalid("url", "a channel's URL must use https (alerts name resources)"))
	case u.User != nil:
		v.Add(portal.Invalid("url", "put no credentials in the URL"))
	default:
		if err := s.o.Receivers.CheckHost(ctx, u.Hostname()); err != nil {
			v.Add(portal.Invalid("url", "%v", err))
		}
	}
	return u
}
