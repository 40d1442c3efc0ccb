package cloud

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// maxAPIKeys is the stand-in's apikeys_per_org quota.
const maxAPIKeys = 2000

// Event tells what changed in the organization that a Kafka cluster must
// know to let a key in and to enforce its owner's role bindings.
type Event struct {
	// Key was created (with its secret), or deleted when Deleted.
	Key     *platform.APIKey
	Deleted bool
	// Principal ("User:sa-...") had a role binding created or deleted.
	Principal string
}

// OnChange sets a function told about every key created or deleted and
// every change of a principal's role bindings, before the request that
// made it is answered (so that a key works once its creation answers).
func (o *Org) OnChange(f func(Event)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.hook = f
}

// notify tells the hook about e; it is called without the lock.
func (o *Org) notify(e Event) {
	o.mu.Lock()
	hook := o.hook
	o.mu.Unlock()
	if hook != nil {
		hook(e)
	}
}

// APIKeys returns the organization's API keys.
func (o *Org) APIKeys() platform.APIKeys { return orgKeys{o} }

type orgKeys struct{ org *Org }

var _ platform.APIKeys = orgKeys{}

// keyID makes an id as Confluent Cloud's look: 16 upper-case letters and
// digits.
func keyID() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func (k orgKeys) ListAPIKeys(_ context.Context, owner, resource string) ([]platform.APIKey, error) {
	k.org.mu.Lock()
	defer k.org.mu.Unlock()
	var out []platform.APIKey
	for _, key := range k.org.keys {
		if (owner == "" || key.Owner == owner) && (resource == "" || key.Resource == resource) {
			key.Secret = ""
			out = append(out, key)
		}
	}
	return out, nil
}

func (k orgKeys) GetAPIKey(_ context.Context, id string) (platform.APIKey, error) {
	k.org.mu.Lock()
	defer k.org.mu.Unlock()
	for _, key := range k.org.keys {
		if key.ID == id {
			key.Secret = ""
			return key, nil
		}
	}
	return platform.APIKey{}, portal.New(portal.NotFound, "API key %s not found", id)
}

func (k orgKeys) CreateAPIKey(ctx context.Context, n platform.NewAPIKey) (platform.APIKey, error) {
	if err := k.org.wait(ctx); err != nil {
		return platform.APIKey{}, err
	}
	k.org.mu.Lock()
	switch {
	case n.Owner == "":
		k.org.mu.Unlock()
		return platform.APIKey{}, portal.New(portal.InvalidParameter, "spec.owner is required")
	case !strings.HasPrefix(n.Resource, "lkc-") && !strings.HasPrefix(n.Resource, "lsrc-"):
		k.org.mu.Unlock()
		return platform.APIKey{}, portal.New(portal.InvalidParameter, "spec.resource %q is not a Kafka cluster or a Schema Registry", n.Resource)
	case !slices.ContainsFunc(k.org.accounts, func(a platform.ServiceAccount) bool { return a.ID == n.Owner }):
		k.org.mu.Unlock()
		return platform.APIKey{}, portal.New(portal.InvalidParameter, "spec.owner %s is not a service account of the organization", n.Owner)
	case len(n.DisplayName) > maxDisplayName || len(n.Description) > maxDescription:
		k.org.mu.Unlock()
		return platform.APIKey{}, portal.New(portal.InvalidParameter, "display_name and description must be at most %d and %d characters", maxDisplayName, maxDescription)
	case len(k.org.keys) >= maxAPIKeys:
		k.org.mu.Unlock()
		return platform.APIKey{}, portal.New(portal.QuotaExceeded, "quota apikeys_per_org (%d) would be exceeded", maxAPIKeys)
	}
	secret := make([]byte, 48)
	_, _ = rand.Read(secret)
	key := platform.APIKey{ID: keyID(), Owner: n.Owner, Resource: n.Resource, DisplayName: n.DisplayName, Description: n.Description,
		Created: time.Now().UTC().Truncate(time.Second), Secret: base64.StdEncoding.EncodeToString(secret)}
	stored := key
	stored.Secret = ""
	k.org.keys = append(k.org.keys, stored)
	k.org.mu.Unlock()
	k.org.notify(Event{Key: &key})
	return key, nil
}

func (k orgKeys) UpdateAPIKey(_ context.Context, id, description string) (platform.APIKey, error) {
	k.org.mu.Lock()
	defer k.org.mu.Unlock()
	if len(description) > maxDescription {
		return platform.APIKey{}, portal.New(portal.InvalidParameter, "description must be at most %d characters", maxDescription)
	}
	for i := range k.org.keys {
		if k.org.keys[i].ID == id {
			k.org.keys[i].Description = description
			return k.org.keys[i], nil
		}
	}
	return platform.APIKey{}, portal.New(portal.NotFound, "API key %s not found", id)
}

func (k orgKeys) DeleteAPIKey(ctx context.Context, id string) error {
	if err := k.org.wait(ctx); err != nil {
		return err
	}
	k.org.mu.Lock()
	i := slices.IndexFunc(k.org.keys, func(x platform.APIKey) bool { return x.ID == id })
	if i < 0 {
		k.org.mu.Unlock()
		return portal.New(portal.NotFound, "API key %s not found", id)
	}
	key := k.org.keys[i]
	k.org.keys = slices.Delete(k.org.keys, i, i+1)
	k.org.mu.Unlock()
	k.org.notify(Event{Key: &key, Deleted: true})
	return nil
}
