package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"

	"github.com/gorilla/securecookie"
)

// Sealer encrypts data at rest (session data, webhook secrets) with keys
// derived from the session secrets and a purpose (AES-256-GCM): the first
// secret seals, every secret opens, so that secrets can be rotated without
// losing what was sealed; each purpose has keys of its own.
type Sealer struct {
	aeads []cipher.AEAD
}

// NewSealer returns a sealer for purpose ("session data", "webhook
// secret") over the session secrets.
func NewSealer(purpose string, secrets []string) (*Sealer, error) {
	s := &Sealer{}
	for _, secret := range secrets {
		key := sha256.Sum256([]byte("rms-portal " + purpose + "\x00" + secret))
		block, err := aes.NewCipher(key[:])
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		s.aeads = append(s.aeads, aead)
	}
	if len(s.aeads) == 0 {
		return nil, errors.New("no session secret")
	}
	return s, nil
}

// Seal encrypts plain; id (the record's) is bound as additional data, so
// that what is sealed for one record does not open for another.
func (s *Sealer) Seal(plain []byte, id string) []byte {
	nonce := make([]byte, s.aeads[0].NonceSize())
	_, _ = rand.Read(nonce)
	return s.aeads[0].Seal(nonce, nonce, plain, []byte(id))
}

// Open decrypts what Seal sealed for id, with any of the secrets.
func (s *Sealer) Open(sealed []byte, id string) ([]byte, error) {
	for _, a := range s.aeads {
		n := a.NonceSize()
		if len(sealed) < n {
			break
		}
		if plain, err := a.Open(nil, sealed[:n], sealed[n:], []byte(id)); err == nil {
			return plain, nil
		}
	}
	return nil, errors.New("sealed data does not open with any session key")
}

// codecsFromSecrets derives a signing and an encryption key from each
// secret for cookies; the first secret protects new cookies, the others
// still open old ones.
func codecsFromSecrets(secrets []string) []securecookie.Codec {
	var pairs [][]byte
	for _, s := range secrets {
		sum := sha256.Sum256([]byte("rms-portal session cookie\x00" + s))
		enc := sha256.Sum256([]byte("rms-portal session cookie encryption\x00" + s))
		pairs = append(pairs, sum[:], enc[:])
	}
	return securecookie.CodecsFromPairs(pairs...)
}
