// Package apikeys is the service of the API keys of a unit's service
// accounts: made, rotated, checked until ready, adopted when made
// elsewhere and swept when expired, with its part of the guardrails.
package apikeys

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Limits of a key's names, as Confluent Cloud sets them.
const (
	maxDisplayName = 64
	maxDescription = 128
)

// KeyStore keeps the portal's records of API keys.
type KeyStore interface {
	store.APIKeyRecords
}

// Service manages the API keys of a unit's service accounts: the
// credentials its applications connect with. Keys live upstream; the
// portal keeps who made each and when it expires (the stage's maximum
// age, or a rotation's overlap), and deletes expired keys itself. A
// secret is in the answer that creates its key and nowhere else.
type Service struct {
	guard *gate.Guard
	store KeyStore
	// rotationStopped is how long a rotation may run before the sweeper
	// takes its replica for stopped (rotationAbandoned when 0).
	rotationStopped time.Duration
	// ready checks new keys until they sign in (nil: they are recorded
	// unverified).
	ready *readiness
}

var _ iam.APIKeyService = (*Service)(nil)

// New returns the API key service.
func New(g *gate.Guard, st KeyStore) *Service { return &Service{guard: g, store: st} }

// keyOwners are the accounts a call may see, by id.
type keyOwners map[string]platform.ServiceAccount

// envKeys lists the keys of the call's environment (its cluster and its
// registry) with their owners.
func envKeys(ctx context.Context, call *gate.Call) ([]platform.APIKey, keyOwners, error) {
	accounts, err := call.Env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return nil, nil, err
	}
	owners := keyOwners{}
	for _, a := range accounts {
		owners[a.ID] = a
	}
	keys, err := call.Env.ListKeys(ctx)
	if err != nil {
		return nil, nil, err
	}
	return keys, owners, nil
}

// view is a key as call sees it; false when call may not see its owner.
func (s *Service) view(call *gate.Call, k platform.APIKey, owners keyOwners, rec store.KeyRecord, recorded bool) (iam.APIKey, gate.OrgOwner, bool) {
	a, known := owners[k.Owner]
	if !known {
		return iam.APIKey{}, gate.OrgOwner{}, false // a user's key, or an account already gone
	}
	o, visible := call.OrgOwner(tenancy.OrgAccount, a.DisplayName)
	if !visible {
		return iam.APIKey{}, o, false
	}
	v := iam.APIKey{ID: k.ID, Owner: k.Owner, OwnerName: a.DisplayName, BU: o.Unit(), Resource: call.Env.KeyResource(k.Resource),
		ResourceID: k.Resource, Description: k.Description, Created: k.Created, ReadOnly: o.ReadOnly(call)}
	v.State, v.ReadyAt = keyState(rec, recorded)
	if recorded {
		v.CreatedBy, v.Expires, v.ReplacedBy, v.Adopted = rec.CreatedBy, rec.Expires, rec.ReplacedBy, rec.Adopted
		if strings.HasPrefix(v.ReplacedBy, store.RotatingPrefix) {
			v.ReplacedBy = "" // a rotation under way has made nothing yet
		}
	} else if age := call.Scope.Stage.APIKeyMaxAge; age > 0 {
		// Not adopted yet (the sweeper does it): the expiry it will get.
		v.Adopted, v.Expires = true, adoptedExpiry(k.Created, age, s.guard.Now())
	}
	return v, o, true
}

// adoptionGrace is the least time a key made outside the portal keeps
// once adopted, even when it is older than the stage's maximum age: its
// clients get a week's warning.
const adoptionGrace = 7 * 24 * time.Hour

func adoptedExpiry(created time.Time, maxAge time.Duration, now time.Time) time.Time {
	return maxTime(created.Add(maxAge), now.Add(adoptionGrace))
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// List returns one page of the unit's keys, newest first.
func (s *Service) List(ctx context.Context, scope portal.Scope, q iam.APIKeyQuery) (portal.Page[iam.APIKey], error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "list API keys")
	if err != nil {
		return portal.Page[iam.APIKey]{}, err
	}
	if q.ExpiringWithin < 0 {
		return portal.Page[iam.APIKey]{}, portal.Invalid("expiring_within", "expiring_within must not be negative")
	}
	keys, owners, err := envKeys(ctx, call)
	if err != nil {
		return portal.Page[iam.APIKey]{}, err
	}
	if q.Account != "" {
		// The keys of an account that does not exist, or that this call
		// may not see, are as unknown as the account: not an empty list.
		a, known := owners[q.Account]
		if _, visible := call.OrgOwner(tenancy.OrgAccount, a.DisplayName); !known || !visible {
			return portal.Page[iam.APIKey]{}, portal.New(portal.NotFound, "service account %s not found", q.Account)
		}
	}
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = k.ID
	}
	recs, err := s.store.Keys(ctx, ids)
	if err != nil {
		return portal.Page[iam.APIKey]{}, err
	}
	now := s.guard.Now()
	search := strings.ToLower(q.Search)
	var out []iam.APIKey
	for _, k := range keys {
		rec, recorded := recs[k.ID]
		v, _, ok := s.view(call, k, owners, rec, recorded)
		switch {
		case !ok, !call.KeepUnit(q.ListQuery, v.BU),
			q.Account != "" && v.Owner != q.Account,
			q.ExpiringWithin > 0 && !v.ExpiresWithin(now, q.ExpiringWithin),
			search != "" && !strings.Contains(strings.ToLower(v.ID+" "+v.OwnerName+" "+v.Description), search):
			continue
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b iam.APIKey) int { return cmp.Or(b.Created.Compare(a.Created), cmp.Compare(a.ID, b.ID)) })
	return gate.Paginate(s.guard.Pages(), "api-keys "+call.Scope.String(), out, func(k iam.APIKey) string { return k.Created.Format(time.RFC3339Nano) + k.ID }, q.ListQuery)
}

// expiryFor checks a wanted expiry against the stage's maximum age, and
// gives the key's expiry (zero: never).
func expiryFor(call *gate.Call, wanted, now time.Time, field string) (time.Time, *portal.Error) {
	maxAge := call.Scope.Stage.APIKeyMaxAge
	switch {
	case wanted.IsZero() && maxAge > 0:
		return now.Add(maxAge), nil
	case wanted.IsZero():
		return time.Time{}, nil
	case !wanted.After(now.Add(time.Minute)):
		return time.Time{}, portal.Invalid(field, "the expiry %s is not in the future", wanted.UTC().Format(time.RFC3339))
	case maxAge > 0 && wanted.After(now.Add(maxAge)):
		return time.Time{}, portal.Invalid(field, "keys of %s live at most %s: the expiry must be before %s",
			call.Scope.Stage.Name, days(maxAge), now.Add(maxAge).UTC().Format(time.RFC3339))
	}
	return wanted, nil
}

// days writes a duration in days when it is whole days.
func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		n := int(d / (24 * time.Hour))
		if n == 1 {
			return "1 day"
		}
		return strconv.Itoa(n) + " days"
	}
	return d.String()
}

// Create makes a key for one of the unit's service accounts.
func (s *Service) Create(ctx context.Context, scope portal.Scope, account string, in iam.NewAPIKey) (iam.CreatedAPIKey, error) {
	return gate.Writing(ctx, s.guard, scope, access.ManageIdentity, "create API keys", portal.ActAPIKeyCreate, account, func(ctx context.Context, call *gate.Call) (_ iam.CreatedAPIKey, err error) {
		now := s.guard.Now()
		var v portal.Validation
		resource := ""
		switch in.Resource {
		case iam.KeyForKafka:
			resource = call.Env.Scope.KafkaClusterID
		case iam.KeyForSchemaRegistry:
			if resource = call.Env.Scope.SchemaRegistryID; resource == "" {
				v.Add(portal.Invalid("resource", "no Schema Registry is configured for %s", call.Env.Name()))
			}
		case "":
			v.Add(portal.Missing("resource"))
		default:
			v.Add(portal.Invalid("resource", "resource must be %s or %s, not %q", iam.KeyForKafka, iam.KeyForSchemaRegistry, in.Resource))
		}
		v.Add(portal.CheckText("description", in.Description, maxDescription, false))
		expires, bad := expiryFor(call, in.Expires, now, "expires_at")
		v.Add(bad)
		if err := v.Err(); err != nil {
			return iam.CreatedAPIKey{}, err
		}
		a, o, err := call.Account(ctx, account)
		if err != nil {
			return iam.CreatedAPIKey{}, err
		}
		if call, err = s.guard.EnterOwner(ctx, call, o, access.ManageIdentity, "create API keys for", portal.ActAPIKeyCreate, a.DisplayName); err != nil {
			return iam.CreatedAPIKey{}, err
		}
		desired := keyRule(call.Env, a, resource, strings.TrimSpace(in.Description), now, expires)
		if err := s.guard.Check(ctx, call, portal.ActAPIKeyCreate, rules.NewChange(rules.KindAPIKey, rules.OpCreate, a.DisplayName+" on "+resource, desired, nil)); err != nil {
			return iam.CreatedAPIKey{}, err
		}
		if err := call.Pace(ctx); err != nil {
			return iam.CreatedAPIKey{}, err
		}
		k, err := s.create(ctx, call, a, o, resource, strings.TrimSpace(in.Description), expires, portal.ActAPIKeyCreate, nil)
		if err != nil {
			return iam.CreatedAPIKey{}, err
		}
		return k, nil
	})
}

// create makes a key upstream and records it, then runs then (when not
// nil) with the new key's id; a key that cannot be recorded, or whose
// then fails, is deleted again, so that none exists without its expiry
// and a rotation never leaves two keys without an end to the old one.
func (s *Service) create(ctx context.Context, call *gate.Call, a platform.ServiceAccount, o gate.OrgOwner, resource, description string,
	expires time.Time, event portal.Action, then func(ctx context.Context, id string) error, changes ...trail.Change) (iam.CreatedAPIKey, error) {
	var k platform.APIKey
	var rec store.KeyRecord
	err := s.guard.Write(ctx, call, gate.Change{Event: event, Resource: a.DisplayName + " on " + resource,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			bctx, cancel := w.Bound(ctx)
			var err error
			k, err = call.Env.APIKeys.CreateAPIKey(bctx, platform.NewAPIKey{Owner: a.ID, Resource: resource, Environment: call.Env.Scope.EnvironmentID,
				DisplayName: keyName(a.DisplayName), Description: description})
			cancel()
			if err != nil {
				return nil, err
			}
			now := s.guard.Now()
			rec = store.KeyRecord{ID: k.ID, Owner: a.ID, Resource: resource, Zone: call.Scope.Zone().ID, BU: cmp.Or(o.Unit(), call.Scope.Unit.ID),
				Stage: call.Scope.Stage.Name, CreatedBy: call.Principal.Actor(), Created: cmp.Or(k.Created, now), Expires: expires}
			s.provisioning(call.Env, &rec, k.Secret)
			err = s.store.SaveKey(ctx, rec)
			if err == nil && then != nil {
				if err = then(ctx, k.ID); err != nil {
					err = errors.Join(err, s.store.DeleteKeys(context.WithoutCancel(ctx), []string{k.ID}))
				}
			}
			if err != nil {
				undo := call.Env.APIKeys.DeleteAPIKey(context.WithoutCancel(ctx), k.ID)
				msg := "the key's expiry could not be recorded, so the key was deleted again and nothing changed; try again shortly"
				if undo != nil {
					msg = fmt.Sprintf("the key's expiry could not be recorded, and deleting the key %s again failed too: delete it yourself", k.ID)
				}
				return nil, portal.Wrap(errors.Join(err, undo), portal.UpstreamUnavailable, "%s", msg)
			}
			w.Rename(k.ID + " (" + a.DisplayName + " on " + resource + ")")
			return append(changes, trail.Change{Field: "expires_at", After: formatExpiry(expires)}), nil
		}})
	if err != nil {
		return iam.CreatedAPIKey{}, err
	}
	v := iam.APIKey{ID: k.ID, Owner: a.ID, OwnerName: a.DisplayName, BU: o.Unit(), Resource: call.Env.KeyResource(resource), ResourceID: resource,
		Description: description, Created: rec.Created, CreatedBy: rec.CreatedBy, Expires: expires, State: rec.State}
	return credentials(call.Env.Access, v, k.Secret), nil
}

// keyName is a key's display name upstream, within Confluent's limit.
func keyName(account string) string {
	if len(account) > maxDisplayName {
		return account[:maxDisplayName]
	}
	return account
}

func formatExpiry(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

// findKey reads a key of the call's environment whose owner the call may
// see, with the owner and the portal's record.
func (s *Service) findKey(ctx context.Context, call *gate.Call, id string) (platform.APIKey, platform.ServiceAccount, gate.OrgOwner, store.KeyRecord, bool, error) {
	notFound := portal.New(portal.NotFound, "API key %s not found", id)
	k, err := call.Env.APIKeys.GetAPIKey(ctx, id)
	if portal.Is(err, portal.NotFound) {
		return k, platform.ServiceAccount{}, gate.OrgOwner{}, store.KeyRecord{}, false, notFound
	}
	if err != nil {
		return k, platform.ServiceAccount{}, gate.OrgOwner{}, store.KeyRecord{}, false, err
	}
	if call.Env.KeyResource(k.Resource) == "" {
		return k, platform.ServiceAccount{}, gate.OrgOwner{}, store.KeyRecord{}, false, notFound // another stage's or zone's
	}
	a, o, err := call.Account(ctx, k.Owner)
	if err != nil {
		return k, a, o, store.KeyRecord{}, false, notFound
	}
	recs, err := s.store.Keys(ctx, []string{id})
	if err != nil {
		return k, a, o, store.KeyRecord{}, false, err
	}
	rec, recorded := recs[id]
	return k, a, o, rec, recorded, nil
}

// Get returns one of the unit's keys.
func (s *Service) Get(ctx context.Context, scope portal.Scope, id string) (iam.APIKey, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read API keys")
	if err != nil {
		return iam.APIKey{}, err
	}
	k, a, _, rec, recorded, err := s.findKey(ctx, call, id)
	if err != nil {
		return iam.APIKey{}, err
	}
	v, _, _ := s.view(call, k, keyOwners{a.ID: a}, rec, recorded)
	return v, nil
}

// Rotate makes a key in place of another and has the old one expire
// after the overlap, so that clients move to the new one without a gap.
func (s *Service) Rotate(ctx context.Context, scope portal.Scope, id string, overlap time.Duration) (iam.CreatedAPIKey, error) {
	return gate.Writing(ctx, s.guard, scope, access.ManageIdentity, "rotate API keys", portal.ActAPIKeyRotate, id, func(ctx context.Context, call *gate.Call) (_ iam.CreatedAPIKey, err error) {
		maxAge := call.Scope.Stage.APIKeyMaxAge
		switch {
		case overlap < 0:
			return iam.CreatedAPIKey{}, portal.Invalid("overlap", "overlap must not be negative")
		case maxAge > 0 && overlap > maxAge:
			return iam.CreatedAPIKey{}, portal.Invalid("overlap", "the overlap %s is longer than keys of %s may live (%s)", topiccatalog.FormatDuration(overlap), call.Scope.Stage.Name, days(maxAge))
		}
		// The key's lock: expiry and the sweeper's end of abandoned rotations
		// take it too.
		unlock, err := s.guard.Lock(ctx, "api-key "+id)
		if err != nil {
			return iam.CreatedAPIKey{}, err
		}
		defer unlock()
		old, a, o, rec, recorded, err := s.findKey(ctx, call, id)
		if err != nil {
			return iam.CreatedAPIKey{}, err
		}
		if call, err = s.guard.EnterOwner(ctx, call, o, access.ManageIdentity, "rotate API keys of", portal.ActAPIKeyRotate, a.DisplayName); err != nil {
			return iam.CreatedAPIKey{}, err
		}
		if recorded && rec.ReplacedBy != "" {
			return iam.CreatedAPIKey{}, rotatedAlready(id, rec.ReplacedBy)
		}
		if err := call.Pace(ctx); err != nil {
			return iam.CreatedAPIKey{}, err
		}
		now := s.guard.Now()
		expires, _ := expiryFor(call, time.Time{}, now, "")
		// A rotation replaces a key: judged as an update of it, it adds
		// nothing to the unit's keys.
		ch := rules.NewChange(rules.KindAPIKey, rules.OpUpdate, old.ID+" ("+a.DisplayName+")", keyRule(call.Env, a, old.Resource, old.Description, now, expires),
			keyRule(call.Env, a, old.Resource, old.Description, rec.Created, rec.Expires))
		if err := s.guard.Check(ctx, call, portal.ActAPIKeyRotate, ch); err != nil {
			return iam.CreatedAPIKey{}, err
		}
		oldExpires := now.Add(overlap)
		if recorded && !rec.Expires.IsZero() && rec.Expires.Before(oldExpires) {
			oldExpires = rec.Expires
		}
		if !recorded {
			rec = store.KeyRecord{ID: old.ID, Owner: old.Owner, Resource: old.Resource, Zone: call.Scope.Zone().ID, BU: cmp.Or(o.Unit(), call.Scope.Unit.ID),
				Stage: call.Scope.Stage.Name, Created: old.Created, Adopted: true}
		}
		// One rotation of a key, on any replica: the first marks the key;
		// a rotation whose replica stops before its end is cleaned up by the
		// key sweeper (abandonedRotations).
		marker := store.RotationMarker(now)
		if ok, err := s.store.MarkRotation(ctx, rec, marker); err != nil || !ok {
			if err == nil {
				recs, _ := s.store.Keys(ctx, []string{id})
				err = rotatedAlready(id, recs[id].ReplacedBy)
			}
			return iam.CreatedAPIKey{}, err
		}
		// The old key's end is recorded with its successor, or neither is.
		endOld := func(ctx context.Context, id string) error {
			r := rec
			r.Expires, r.ReplacedBy = oldExpires, id
			return s.store.SaveKey(ctx, r)
		}
		k, err := s.create(ctx, call, a, o, old.Resource, old.Description, expires, portal.ActAPIKeyRotate, endOld,
			trail.Change{Field: "rotates", Before: old.ID, After: "expires " + formatExpiry(oldExpires)})
		if err != nil && gate.Outcome(err) != gate.Unknown {
			// No new key stands: the old one may be rotated again.
			if cerr := s.store.ClearRotation(context.WithoutCancel(ctx), id, marker); cerr != nil {
				s.guard.Log().WarnContext(ctx, "a failed rotation's mark could not be cleared; the key sweeper will", "key", id, "error", cerr)
			}
		}
		return k, err
	})
}

// rotatedAlready refuses a second rotation of a key.
func rotatedAlready(id, replacedBy string) error {
	if strings.HasPrefix(replacedBy, store.RotatingPrefix) {
		e := portal.New(portal.Conflict, "API key %s is being rotated (since %s); try again in a moment", id, strings.TrimPrefix(replacedBy, store.RotatingPrefix))
		e.RetryAfter = 5 * time.Second
		return e
	}
	return portal.New(portal.Conflict, "API key %s was rotated already (replaced by %s); rotate that one", id, replacedBy)
}

// Update changes a key's description.
func (s *Service) Update(ctx context.Context, scope portal.Scope, id, description string) (iam.APIKey, error) {
	return gate.Writing(ctx, s.guard, scope, access.ManageIdentity, "change API keys", portal.ActAPIKeyUpdate, id, func(ctx context.Context, call *gate.Call) (_ iam.APIKey, err error) {
		description = strings.TrimSpace(description)
		if e := portal.CheckText("description", description, maxDescription, false); e != nil {
			return iam.APIKey{}, e
		}
		old, a, o, rec, recorded, err := s.findKey(ctx, call, id)
		if err != nil {
			return iam.APIKey{}, err
		}
		if call, err = s.guard.EnterOwner(ctx, call, o, access.ManageIdentity, "change API keys of", portal.ActAPIKeyUpdate, a.DisplayName); err != nil {
			return iam.APIKey{}, err
		}
		ch := rules.NewChange(rules.KindAPIKey, rules.OpUpdate, id+" ("+a.DisplayName+")", keyRule(call.Env, a, old.Resource, description, rec.Created, rec.Expires),
			keyRule(call.Env, a, old.Resource, old.Description, rec.Created, rec.Expires))
		var k platform.APIKey
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActAPIKeyUpdate, Resource: id + " (" + a.DisplayName + ")", Rule: ch,
			Changes: []trail.Change{{Field: "description", Before: old.Description, After: description}},
			Do: func(ctx context.Context) (err error) {
				k, err = call.Env.APIKeys.UpdateAPIKey(ctx, id, description)
				return err
			}})
		if err != nil {
			return iam.APIKey{}, err
		}
		v, _, _ := s.view(call, k, keyOwners{a.ID: a}, rec, recorded)
		return v, nil
	})
}

// Delete deletes a key.
func (s *Service) Delete(ctx context.Context, scope portal.Scope, id string) error {
	return s.guard.Writing(ctx, scope, access.ManageIdentity, "delete API keys", portal.ActAPIKeyDelete, id, func(ctx context.Context, call *gate.Call) (err error) {
		old, a, o, rec, _, err := s.findKey(ctx, call, id)
		if err != nil {
			return err
		}
		if call, err = s.guard.EnterOwner(ctx, call, o, access.ManageIdentity, "delete API keys of", portal.ActAPIKeyDelete, a.DisplayName); err != nil {
			return err
		}
		before := keyRule(call.Env, a, old.Resource, old.Description, rec.Created, rec.Expires)
		named := id + " (" + a.DisplayName + ")"
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActAPIKeyDelete, Resource: named,
			Rule: rules.NewChange(rules.KindAPIKey, rules.OpDelete, named, nil, before),
			Do:   func(ctx context.Context) error { return call.Env.APIKeys.DeleteAPIKey(ctx, id) }})
		if err != nil {
			return err
		}
		// The key is gone; a record left behind (the store failing now) is
		// forgotten by the sweeper, which finds no key to delete.
		_ = s.store.DeleteKeys(ctx, []string{id})
		return nil
	})
}

// Notices counts the caller's units' keys that expire within a span,
// from the portal's records (one query, whatever the number of units).
func (s *Service) Notices(ctx context.Context, within time.Duration) ([]iam.KeyNotice, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return nil, portal.New(portal.Unauthenticated, "sign-in required")
	}
	counts, err := s.store.CountExpiringKeys(ctx, s.guard.Now().Add(within))
	if err != nil {
		return nil, err
	}
	var out []iam.KeyNotice
	for _, c := range counts {
		if p.PlatformAdmin || p.Role(c.BU) > portal.NoRole {
			out = append(out, iam.KeyNotice{BU: c.BU, Stage: c.Stage, Count: c.N})
		}
	}
	return out, nil
}
