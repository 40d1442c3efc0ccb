package events

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// ServiceStore is what the webhooks' admin keeps and reads.
type ServiceStore interface {
	store.Webhooks
	ListAudit(ctx context.Context, f store.AuditFilter) ([]trail.AuditEvent, error)
}

// Service configures webhooks in the admin area (platform admins only).
type Service struct {
	guard *gate.Guard
	store ServiceStore
	o     ServiceOptions
}

// ServiceOptions configure the webhooks' admin.
type ServiceOptions struct {
	// AllowHTTP lets dev mode's receivers on plain http be configured.
	AllowHTTP bool
	// Receivers decides which addresses a webhook may reach.
	Receivers Receivers
	// Secrets seals the signing secrets at rest.
	Secrets Secrets
	// MaxPerZone bounds the webhooks of one landing zone (20 when 0).
	MaxPerZone int
}

var _ webhook.WebhookService = (*Service)(nil)

// NewService returns the webhooks' admin service.
func NewService(g *gate.Guard, s ServiceStore, o ServiceOptions) *Service {
	if o.MaxPerZone <= 0 {
		o.MaxPerZone = 20
	}
	return &Service{guard: g, store: s, o: o}
}

func (s *Service) enter(ctx context.Context) (*portal.Principal, error) {
	p, err := s.guard.EnterAdmin(ctx)
	if err != nil {
		return nil, err
	}
	return p, access.CheckAdmin(p, s.guard.Tenancy(), access.ManageWebhooks, "")
}

// Webhooks lists the webhooks with their deliveries waiting and given up.
func (s *Service) Webhooks(ctx context.Context) ([]webhook.Webhook, error) {
	if _, err := s.enter(ctx); err != nil {
		return nil, err
	}
	recs, err := s.store.WebhookRecords(ctx)
	if err != nil {
		return nil, err
	}
	counts, err := s.store.DeliveryCounts(ctx)
	if err != nil {
		return nil, err
	}
	out := []webhook.Webhook{}
	for _, r := range recs {
		w := view(r)
		w.Pending, w.Failed = counts[r.ID][store.DeliveryPending], counts[r.ID][store.DeliveryFailed]
		out = append(out, w)
	}
	return out, nil
}

func view(r store.WebhookRecord) webhook.Webhook {
	u := r.URL
	if r.AlertsOnly {
		u = Redact(u)
	}
	return webhook.Webhook{ID: r.ID, Zone: r.Zone, BU: r.BU, URL: u, Stage: r.Stage, Format: r.Format, AlertsOnly: r.AlertsOnly,
		CreatedBy: r.CreatedBy, Created: r.Created}
}

// CreateWebhook checks and stores a webhook with a new secret; its events
// start with the next change. The secret is in this answer only.
func (s *Service) CreateWebhook(ctx context.Context, in webhook.NewWebhook) (webhook.Webhook, error) {
	p, err := s.enter(ctx)
	if err != nil {
		return webhook.Webhook{}, err
	}
	var v portal.Validation
	t := s.guard.Tenancy()
	z, ok := t.LandingZone(in.Zone)
	switch {
	case in.Zone == "":
		v.Add(portal.Missing("landing_zone"))
	case !ok:
		v.Add(portal.Invalid("landing_zone", "landing zone %q not found", in.Zone))
	case in.BU != "" && !slices.Contains(z.BusinessUnits, in.BU):
		v.Add(portal.Invalid("business_unit", "%q is not a business unit of %s", in.BU, in.Zone))
	}
	v.Add(portal.CheckText("url", in.URL, portal.MaxURL, false))
	u, err := url.Parse(strings.TrimSpace(in.URL))
	target, toKafka := KafkaTarget(strings.TrimSpace(in.URL))
	switch {
	case v.Err() != nil:
	case toKafka:
		if err := s.checkKafka(ctx, t, in.Zone, target); err != nil {
			if !portal.KindOf(err).IsValidation() {
				return webhook.Webhook{}, err
			}
			v.Add(err.(*portal.Error))
		}
	case err == nil && u.Scheme == "kafka":
		v.Add(portal.Invalid("url", "a Kafka target is kafka://<landing zone>/<stage>/<topic>, the topic's full name"))
	case in.URL == "":
		v.Add(portal.Missing("url"))
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		v.Add(portal.Invalid("url", "give the receiver's absolute URL, such as https://hooks.example.com/portal"))
	case u.Scheme != "https" && !s.o.AllowHTTP:
		v.Add(portal.Invalid("url", "a webhook URL must use https (events name resources and people)"))
	case u.User != nil:
		v.Add(portal.Invalid("url", "put no credentials in the URL: receivers check the signature"))
	default:
		if err := s.o.Receivers.CheckHost(ctx, u.Hostname()); err != nil {
			v.Add(portal.Invalid("url", "%v", err))
		}
	}
	if err := v.Err(); err != nil {
		return webhook.Webhook{}, err
	}
	if err := s.checkRoom(ctx, in.Zone); err != nil {
		return webhook.Webhook{}, err
	}
	key := make([]byte, 24)
	_, _ = rand.Read(key)
	id := make([]byte, 6)
	_, _ = rand.Read(id)
	secret := SecretPrefix + base64.StdEncoding.EncodeToString(key)
	rec := store.WebhookRecord{ID: "wh-" + base64.RawURLEncoding.EncodeToString(id), Zone: in.Zone, BU: in.BU, URL: u.String(),
		CreatedBy: p.Actor(), Created: s.guard.Now().UTC()}
	rec.Secret = sealSecret(s.o.Secrets, rec.ID, secret)
	// Its events start after the trail as it is now.
	if rec.Cursor, err = s.store.OutboxEnd(ctx); err != nil {
		return webhook.Webhook{}, err
	}
	err = s.guard.WriteEvent(ctx, trail.AuditEvent{Actor: p.Actor(), ActorRole: "platform_admin", Groups: p.Groups, Service: p.Service,
		LandingZone: in.Zone, BU: in.BU, Action: portal.ActWebhookCreate, Resource: rec.ID}, gate.Change{
		Do:      func(ctx context.Context) error { return s.store.CreateWebhookRecord(ctx, rec) },
		Changes: []trail.Change{{Field: "url", After: rec.URL}}})
	if err != nil {
		return webhook.Webhook{}, err
	}
	out := view(rec)
	out.Secret = secret
	return out, nil
}

// checkKafka refuses a Kafka target that is not a platform topic of the
// webhook's own zone: events name resources and people of the zone, and
// a tenant's topic (or another zone's) is not where they may go.
func (s *Service) checkKafka(ctx context.Context, t *tenancy.Tenancy, zone string, target Target) error {
	z, ok := t.LandingZone(target.Zone)
	switch {
	case !ok:
		return portal.Invalid("url", "kafka://%s/...: landing zone %q not found; write kafka://<landing zone>/<stage>/<topic>", target.Zone, target.Zone)
	case target.Zone != zone:
		return portal.Invalid("url", "kafka://%s/...: a webhook of %s writes to a topic of %s, not of another landing zone", target.Zone, zone, zone)
	}
	st, ok := t.Stage(target.Stage)
	if !ok {
		return portal.Invalid("url", "kafka://%s/%s/...: stage %q not found", target.Zone, target.Stage, target.Stage)
	}
	main, _ := t.Unit(z.MainBU)
	if prefix := (tenancy.Scope{Unit: main, Stage: st}).Prefix(); main == nil || !strings.HasPrefix(target.Topic, prefix) {
		return portal.Invalid("url", "topic %s is not a platform topic of %s: events go to a topic of the main unit %s (%s...), never to a tenant's",
			target.Topic, zone, z.MainBU, prefix)
	}
	env, err := s.guard.Environments().Get(target.Zone, target.Stage)
	if err != nil {
		return portal.Invalid("url", "no cluster is configured for %s in %s", target.Zone, target.Stage)
	}
	if _, err := env.Topics.DescribeTopic(ctx, target.Topic); portal.Is(err, portal.NotFound) {
		return portal.Invalid("url", "topic %s does not exist on the cluster of %s in %s: create it first", target.Topic, target.Zone, target.Stage)
	} else if err != nil {
		return err
	}
	return nil
}

// checkRoom refuses a webhook past the zone's number of them.
func (s *Service) checkRoom(ctx context.Context, zone string) error {
	recs, err := s.store.WebhookRecords(ctx)
	if err != nil {
		return err
	}
	n := 0
	for _, r := range recs {
		if r.Zone == zone && !r.AlertsOnly { // units' channels have a bound of their own
			n++
		}
	}
	if n >= s.o.MaxPerZone {
		return portal.New(portal.Conflict, "landing zone %s has %d webhooks, as many as it may (webhooks.max_per_zone); delete one first", zone, n)
	}
	return nil
}

// find reads a webhook or a channel (what names it in the refusal).
func (s *Service) find(ctx context.Context, id, what string) (store.WebhookRecord, error) {
	recs, err := s.store.WebhookRecords(ctx)
	if err != nil {
		return store.WebhookRecord{}, err
	}
	for _, r := range recs {
		if r.ID == id {
			return r, nil
		}
	}
	return store.WebhookRecord{}, portal.New(portal.NotFound, "%s %q not found", what, portal.Clip(id, 64))
}

// DeleteWebhook removes a webhook and its deliveries.
func (s *Service) DeleteWebhook(ctx context.Context, id string) error {
	p, err := s.enter(ctx)
	if err != nil {
		return err
	}
	rec, err := s.find(ctx, id, "webhook")
	if err != nil {
		return err
	}
	return s.guard.WriteEvent(ctx, trail.AuditEvent{Actor: p.Actor(), ActorRole: "platform_admin", Groups: p.Groups, Service: p.Service,
		LandingZone: rec.Zone, BU: rec.BU, Action: portal.ActWebhookDelete, Resource: rec.ID}, gate.Change{
		Do: func(ctx context.Context) error {
			err := s.store.DeleteWebhookRecord(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				err = portal.New(portal.NotFound, "webhook %q not found", id)
			}
			return err
		},
		Changes: []trail.Change{{Field: "url", Before: rec.URL}}})
}

// Deliveries lists a webhook's latest 200 deliveries, newest first.
func (s *Service) Deliveries(ctx context.Context, id string) (webhook.Webhook, []webhook.WebhookDelivery, error) {
	if _, err := s.enter(ctx); err != nil {
		return webhook.Webhook{}, nil, err
	}
	rec, err := s.find(ctx, id, "webhook")
	if err != nil {
		return webhook.Webhook{}, nil, err
	}
	ds, err := s.store.Deliveries(ctx, id, 200)
	if err != nil {
		return webhook.Webhook{}, nil, err
	}
	out := make([]webhook.WebhookDelivery, len(ds))
	for i, d := range ds {
		var ev struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(d.Body, &ev)
		out[i] = webhook.WebhookDelivery{EventID: d.EventID, EventAt: d.EventAt, Type: ev.Type, State: d.State, Attempts: d.Attempts,
			Next: d.Next, LastStatus: d.LastStatus, LastError: d.LastError, Done: d.Done}
	}
	return view(rec), out, nil
}
