package events

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Store is what the dispatcher keeps in the database.
type Store interface {
	store.Webhooks
	store.Leases
	// UnknownAttempts are the attempts whose outcome is not known yet:
	// their subjects' later events wait for them.
	UnknownAttempts(ctx context.Context, before time.Time, gone store.Gone, limit int) ([]trail.AuditEvent, error)
}

// Timing of the dispatcher's lease and of a delivery's claim: the lease
// is renewed while a round works; a delivery's attempt is claimed for
// longer than it can take, so that no other replica makes it meanwhile.
const (
	leaseFor = 15 * time.Second
	claimFor = 45 * time.Second
)

// DispatcherOptions configure the dispatcher.
type DispatcherOptions struct {
	Store  Store
	Holder string
	Log    *slog.Logger
	// Client sends the deliveries (bounded by its own timeout).
	Client *http.Client
	// Every is how often the outbox is worked through (1 s by default).
	Every time.Duration
	// Backoff is the wait before attempt n+1 after n failed ones (5 s
	// doubling, at most 10 minutes, by default).
	Backoff func(n int) time.Duration
	// GiveUp ends the retries of an event this long after it (a day by
	// default).
	GiveUp time.Duration
	Now    func() time.Time
	// Produce writes one record to a topic of a platform cluster (the
	// landing zone's in a stage), for webhooks whose target is a Kafka
	// topic (kafka://zone/stage/topic); nil: such targets fail.
	Produce Producer
	// Secrets opens the signing secrets sealed at rest (and seals those
	// kept before sealing was introduced).
	Secrets Secrets
}

// Producer writes one record to topic on the cluster of zone in stage
// and returns once the cluster has it.
type Producer func(ctx context.Context, zone, stage, topic string, key, value []byte, headers map[string]string) error

// Dispatcher queues every webhook's events from the audit trail and
// delivers them, on the replica holding the lease.
type Dispatcher struct {
	o    DispatcherOptions
	busy sync.Mutex
}

// NewDispatcher returns a dispatcher with the defaults filled in.
func NewDispatcher(o DispatcherOptions) *Dispatcher {
	if o.Every == 0 {
		o.Every = time.Second
	}
	if o.Backoff == nil {
		o.Backoff = func(n int) time.Duration { return min(5*time.Second<<min(n-1, 10), 10*time.Minute) }
	}
	if o.GiveUp == 0 {
		o.GiveUp = 24 * time.Hour
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 10 * time.Second}
	}
	// A receiver answers; it does not send the portal elsewhere.
	o.Client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Dispatcher{o: o}
}

// Run works the outbox every Every until ctx ends.
func (d *Dispatcher) Run(ctx context.Context) {
	t := time.NewTicker(d.o.Every)
	defer t.Stop()
	for {
		if err := d.Round(ctx); err != nil && ctx.Err() == nil {
			d.o.Log.WarnContext(ctx, "delivering events failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Round queues the new events of every webhook and makes the deliveries
// that are due, if this replica holds (or takes) the lease, which it
// renews while it works. Each delivery's attempt is claimed first, so
// that a replica that took the lease over never repeats one under way.
// A subject's events go in order: while one waits for a retry, or an
// attempt on the subject is still under way (its outcome not known
// yet), its later events wait behind it; other subjects go on.
func (d *Dispatcher) Round(ctx context.Context) error {
	if !d.busy.TryLock() {
		return nil
	}
	defer d.busy.Unlock()
	ctx, release, ok, err := store.HoldLease(ctx, d.o.Store, "webhooks", d.o.Holder, leaseFor, d.o.Now)
	if err != nil || !ok {
		return err
	}
	defer release()
	now := d.o.Now()
	hooks, err := d.o.Store.WebhookRecords(ctx)
	if err != nil {
		return err
	}
	byID := map[string]store.WebhookRecord{}
	for _, h := range hooks {
		d.reseal(ctx, h)
		byID[h.ID] = h
		if err := d.queue(ctx, h, now); err != nil {
			return err
		}
	}
	pending, err := d.o.Store.PendingDeliveries(ctx, 1000)
	if err != nil {
		return err
	}
	underWay, err := d.underWay(ctx, now)
	if err != nil {
		return err
	}
	blocked := map[string]bool{}
	for _, x := range pending {
		h, ok := byID[x.WebhookID]
		key := x.WebhookID + "\x00" + x.Subject
		if !ok || blocked[key] {
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err() // the lease is lost: another replica goes on
		}
		switch {
		case underWay[x.Subject] != 0 && underWay[x.Subject] < x.EventID,
			x.Next.After(now),
			x.ClaimedBy != "" && x.ClaimedBy != d.o.Holder && x.ClaimedUntil.After(now):
			blocked[key] = true
			continue
		}
		claimed, err := d.o.Store.ClaimDelivery(ctx, x.WebhookID, x.EventID, d.o.Holder, now.Add(claimFor), now)
		if err != nil {
			return err
		}
		if !claimed || !d.deliver(ctx, h, x, d.o.Now()) {
			blocked[key] = true
		}
	}
	return nil
}

// underWay are the subjects with an attempt whose outcome is not known
// yet, with the oldest such attempt's event id: their later events wait.
func (d *Dispatcher) underWay(ctx context.Context, now time.Time) (map[string]int64, error) {
	attempts, err := d.o.Store.UnknownAttempts(ctx, now.Add(time.Second), store.Gone{}, 1000)
	out := map[string]int64{}
	for _, e := range attempts {
		if out[e.Resource] == 0 {
			out[e.Resource] = e.ID
		}
	}
	return out, err
}

// queue adds a webhook's deliveries of the events after its cursor in the
// outbox; an attempt enters the outbox once its outcome is known, so none
// holds the queue back.
func (d *Dispatcher) queue(ctx context.Context, h store.WebhookRecord, now time.Time) error {
	for {
		evs, err := d.o.Store.OutboxAfter(ctx, h.Cursor, 500)
		if err != nil || len(evs) == 0 {
			return err
		}
		var ds []store.Delivery
		for _, x := range evs {
			e := x.Event
			if !Published(e) || e.LandingZone != h.Zone || (h.BU != "" && e.BU != h.BU) || !forChannel(h, e) {
				continue
			}
			body := Message(h.Format, FromAudit(e))
			ds = append(ds, store.Delivery{EventID: e.ID, EventAt: e.Time, Next: now, Body: body, Subject: e.Resource})
		}
		cursor := evs[len(evs)-1].Pos
		if err := d.o.Store.QueueDeliveries(ctx, h.ID, ds, cursor); err != nil {
			return err
		}
		h.Cursor = cursor
		if len(evs) < 500 {
			return nil
		}
	}
}

// errText is a failed delivery's error as kept: a unit channel's URL,
// which an HTTP client's errors quote, is redacted (its path may be its
// credential).
func errText(h store.WebhookRecord, err error) string {
	if !h.AlertsOnly {
		return err.Error()
	}
	return strings.ReplaceAll(err.Error(), h.URL, Redact(h.URL))
}

// forChannel tells whether a unit's alert channel takes an event: its
// stage's alerts, and its auto-restarts that gave up, only (a webhook of
// the admin area takes every event).
func forChannel(h store.WebhookRecord, e trail.AuditEvent) bool {
	if !h.AlertsOnly {
		return true
	}
	return (e.Action == ActionAlertFire || e.Action == ActionAlertResolve || e.Action == ActionGiveUp) && (h.Stage == "" || e.Stage == h.Stage)
}

// deliver makes one attempt; false when it failed.
func (d *Dispatcher) deliver(ctx context.Context, h store.WebhookRecord, x store.Delivery, now time.Time) bool {
	id := strconv.FormatInt(x.EventID, 10)
	status := 0
	var err error
	if target, ok := KafkaTarget(h.URL); ok {
		err = d.produce(ctx, h, target, id, x.Body, now)
	} else {
		err = d.post(ctx, h, id, x.Body, now, &status)
	}
	x.Attempts++
	x.LastStatus = status
	switch {
	case err == nil:
		x.State, x.Done, x.LastError = store.DeliveryDelivered, now, ""
	case now.Sub(x.EventAt) >= d.o.GiveUp:
		x.State, x.Done, x.LastError = store.DeliveryFailed, now, errText(h, err)
	default:
		x.Next, x.LastError = now.Add(d.o.Backoff(x.Attempts)), errText(h, err)
	}
	saved, serr := d.o.Store.SaveDelivery(context.WithoutCancel(ctx), x, d.o.Holder)
	switch {
	case serr != nil:
		d.o.Log.WarnContext(ctx, "recording a delivery failed", "webhook", h.ID, "event", x.EventID, "error", serr)
	case !saved:
		d.o.Log.WarnContext(ctx, "a delivery's claim ran out before its outcome was recorded", "webhook", h.ID, "event", x.EventID)
	}
	return err == nil
}

// post delivers an event to an HTTP receiver, signed.
func (d *Dispatcher) post(ctx context.Context, h store.WebhookRecord, id string, body []byte, now time.Time, status *int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", contentType(h.Format))
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	if h.Format == store.FormatCloudEvents {
		secret, err := openSecret(d.o.Secrets, h.ID, h.Secret)
		if err != nil {
			return err
		}
		req.Header.Set("webhook-signature", Sign(secret, id, now, body))
	}
	req.Header.Set("User-Agent", "rms-portal-webhooks")
	resp, err := d.o.Client.Do(req)
	if err != nil {
		return err
	}
	*status = resp.StatusCode
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("the receiver answered %d", resp.StatusCode)
	}
	return nil
}

// produce writes an event to a platform topic as a structured CloudEvent,
// keyed by its subject (so that a resource's events keep their order in
// one partition).
func (d *Dispatcher) produce(ctx context.Context, h store.WebhookRecord, t Target, id string, body []byte, now time.Time) error {
	if d.o.Produce == nil {
		return fmt.Errorf("no Kafka producer is configured for %s", h.URL)
	}
	var ev struct {
		Subject string `json:"subject"`
	}
	_ = json.Unmarshal(body, &ev)
	secret, err := openSecret(d.o.Secrets, h.ID, h.Secret)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, d.o.Client.Timeout)
	defer cancel()
	// Signed as an HTTP delivery is: a consumer can tell the portal wrote it.
	return d.o.Produce(ctx, t.Zone, t.Stage, t.Topic, []byte(ev.Subject), body, map[string]string{
		"content-type": "application/cloudevents+json", "webhook-id": id, "webhook-timestamp": strconv.FormatInt(now.Unix(), 10),
		"webhook-signature": Sign(secret, id, now, body)})
}

// reseal seals a secret kept in the clear by an earlier release.
func (d *Dispatcher) reseal(ctx context.Context, h store.WebhookRecord) {
	if d.o.Secrets == nil || strings.HasPrefix(h.Secret, sealedPrefix) {
		return
	}
	if err := d.o.Store.ResealWebhookSecret(ctx, h.ID, h.Secret, sealSecret(d.o.Secrets, h.ID, h.Secret)); err != nil {
		d.o.Log.WarnContext(ctx, "sealing a webhook's secret failed", "webhook", h.ID, "error", err)
	}
}
