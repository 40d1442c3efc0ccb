package events

import (
	"encoding/base64"
	"errors"
	"strings"
)

// Secrets seals the webhooks' signing secrets at rest, as session data
// is (auth.Sealer): a copy of the database does not let anyone sign
// events as the portal.
type Secrets interface {
	Seal(plain []byte, id string) []byte
	Open(sealed []byte, id string) ([]byte, error)
}

// sealedPrefix marks a stored secret as sealed; a secret stored before
// sealing was introduced reads as it is.
const sealedPrefix = "sealed:"

// sealSecret is what the store keeps of webhook id's secret.
func sealSecret(s Secrets, id, secret string) string {
	if s == nil {
		return secret
	}
	return sealedPrefix + base64.StdEncoding.EncodeToString(s.Seal([]byte(secret), id))
}

// openSecret is the secret the store keeps for webhook id.
func openSecret(s Secrets, id, stored string) (string, error) {
	rest, sealed := strings.CutPrefix(stored, sealedPrefix)
	if !sealed {
		return stored, nil
	}
	if s == nil {
		return "", errors.New("the webhook's secret is sealed and no key is configured to open it")
	}
	b, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return "", err
	}
	plain, err := s.Open(b, id)
	return string(plain), err
}
