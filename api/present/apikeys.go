package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// APIKey is an API key's metadata, never its secret.
func APIKey(k iam.APIKey) wire.APIKey {
	out := wire.APIKey{ID: k.ID, Owner: wire.KeyOwner{ID: k.Owner, Name: k.OwnerName}, BusinessUnit: k.BU, Resource: k.Resource,
		ResourceID: k.ResourceID, Description: k.Description, Created: Stamp(k.Created), CreatedBy: k.CreatedBy, Adopted: k.Adopted,
		ReplacedBy: k.ReplacedBy, ReadOnly: k.ReadOnly, State: k.State}
	if !k.ReadyAt.IsZero() {
		out.ReadyAt = Stamp(k.ReadyAt)
	}
	if !k.Expires.IsZero() {
		e := Stamp(k.Expires)
		out.Expires = &e
	}
	return out
}

// CreatedAPIKey is a new API key with its secret and client configuration: the one answer that holds them.
func CreatedAPIKey(k iam.CreatedAPIKey) wire.CreatedAPIKey {
	return wire.CreatedAPIKey{APIKey: APIKey(k.APIKey), Secret: k.Secret, ClientConfig: map[string]string{"properties": k.Properties, "env": k.Env}}
}
