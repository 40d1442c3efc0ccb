package worker

import (
	"context"
	"log/slog"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// TenancySync keeps the tenancy in force in step with the database: the
// configuration's tenancy with the onboarded units and the read-only
// switches laid over it, rebuilt on every replica as soon as any replica
// announces a change.
type TenancySync struct {
	base tenancy.Spec
	live *tenancy.Live
	st   store.Tenants
	bus  store.Notifier
	log  *slog.Logger
}

// NewTenancySync returns the synchroniser of live, whose base is the
// configuration's tenancy spec.
func NewTenancySync(base tenancy.Spec, live *tenancy.Live, st store.Tenants, bus store.Notifier, log *slog.Logger) *TenancySync {
	return &TenancySync{base: base, live: live, st: st, bus: bus, log: log}
}

// Load reads the database and puts the result in force.
func (s *TenancySync) Load(ctx context.Context) error {
	units, err := s.st.UnitRecords(ctx)
	if err != nil {
		return err
	}
	switches, err := s.st.SwitchRecords(ctx)
	if err != nil {
		return err
	}
	t, skipped := Overlay(s.base, units, switches)
	for _, msg := range skipped {
		s.log.WarnContext(ctx, "a business unit of the database is not in force", "reason", msg)
	}
	s.live.Set(t)
	return nil
}

// Run reloads on every announcement (and after a reconnection, when some
// may have been missed), and every minute in case one was lost.
func (s *TenancySync) Run(ctx context.Context) {
	msgs, err := s.bus.Subscribe(ctx, store.ChannelTenancy)
	if err != nil {
		s.log.ErrorContext(ctx, "tenancy changes: subscribing failed; reloading every minute only", "error", err)
	} else if err := s.Load(ctx); err != nil && ctx.Err() == nil {
		// A change announced before the subscription was missed: what
		// it wrote is read now.
		s.log.WarnContext(ctx, "tenancy changes: reloading failed", "error", err)
	}
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-msgs:
			if !ok {
				msgs = nil
				continue
			}
		case <-tick.C:
		}
		if err := s.Load(ctx); err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "tenancy changes: reloading failed", "error", err)
		}
	}
}

// Announce tells every replica (this one too) that the tenancy changed,
// after reloading it here so that the caller's next request sees it.
func (s *TenancySync) Announce(ctx context.Context, what string) {
	if err := s.Load(ctx); err != nil {
		s.log.WarnContext(ctx, "tenancy changes: reloading failed", "error", err)
	}
	if err := s.bus.Publish(context.WithoutCancel(ctx), store.ChannelTenancy, what); err != nil {
		s.log.WarnContext(ctx, "tenancy changes: announcing failed; other replicas catch up within a minute", "error", err)
	}
}

// Overlay lays the database's units and switches over the configuration's
// tenancy. A unit that no longer fits (its landing zone is gone, or the
// file now defines the same id or an overlapping one) is left out, and
// the reason returned; a switch on a zone or stage that is gone is
// ignored.
func Overlay(base tenancy.Spec, units []store.UnitRecord, switches []store.SwitchRecord) (*tenancy.Tenancy, []string) {
	spec := base
	spec.Switches = map[string]map[string]tenancy.Switch{}
	stages := map[string]bool{}
	for _, st := range base.Stages {
		stages[st.Name] = true
	}
	zones := map[string]int{}
	for i, z := range base.LandingZones {
		zones[z.ID] = i
	}
	for _, sw := range switches {
		if _, ok := zones[sw.LandingZone]; !ok || !stages[sw.Stage] {
			continue
		}
		if spec.Switches[sw.LandingZone] == nil {
			spec.Switches[sw.LandingZone] = map[string]tenancy.Switch{}
		}
		spec.Switches[sw.LandingZone][sw.Stage] = tenancy.Switch{ReadOnly: sw.ReadOnly, Reason: sw.Reason, Until: sw.Until, SetBy: sw.SetBy, SetAt: sw.SetAt}
	}
	var skipped []string
	t, err := tenancy.New(spec)
	if err != nil {
		// Switches are checked above, so this does not happen; the
		// configuration's own tenancy validated at start.
		skipped = append(skipped, "read-only switches: "+err.Error())
		if t, err = tenancy.New(base); err != nil {
			return nil, append(skipped, err.Error())
		}
	}
	for _, u := range units {
		i, ok := zones[u.LandingZone]
		if !ok {
			skipped = append(skipped, u.ID+": landing zone "+u.LandingZone+" is not configured")
			continue
		}
		next := t.Spec()
		next.LandingZones[i].Units = append(next.LandingZones[i].Units, tenancy.UnitSpec{ID: u.ID, Source: tenancy.FromPortal,
			AdminGroups: u.Admin, DeveloperGroups: u.Developer, ViewerGroups: u.Viewer})
		nt, err := tenancy.New(next)
		if err != nil {
			skipped = append(skipped, u.ID+": "+err.Error())
			continue
		}
		t = nt
	}
	return t, skipped
}
