package auth

import (
	"crypto/sha512"
	"encoding/base32"
	"maps"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"
)

// memoryStore is a gorilla/sessions Store that keeps session values on the
// server: the cookie carries only the session id, signed and encrypted, so
// it stays small however many groups a person has, and tokens never reach
// the browser. Sessions end with the process; several replicas would need
// sticky sessions or a shared store behind the same interface.
type memoryStore struct {
	codecs  []securecookie.Codec
	options sessions.Options

	mu      sync.Mutex
	entries map[string]memoryEntry
	swept   time.Time
}

type memoryEntry struct {
	values  map[any]any
	expires time.Time
}

var _ sessions.Store = (*memoryStore)(nil)

// codecsFromSecrets derives a signing and an encryption key from each
// secret; the first secret protects new cookies, the others still open old
// ones so that secrets can be rotated.
func codecsFromSecrets(secrets []string) []securecookie.Codec {
	var pairs [][]byte
	for _, s := range secrets {
		sum := sha512.Sum512([]byte("rms-portal session\x00" + s))
		pairs = append(pairs, sum[:32], sum[32:])
	}
	return securecookie.CodecsFromPairs(pairs...)
}

func newMemoryStore(secrets []string, opts sessions.Options) *memoryStore {
	codecs := codecsFromSecrets(secrets)
	for _, c := range codecs {
		if sc, ok := c.(*securecookie.SecureCookie); ok {
			sc.MaxAge(opts.MaxAge)
		}
	}
	return &memoryStore{codecs: codecs, options: opts, entries: map[string]memoryEntry{}}
}

// Get returns the request's session, or a new one.
func (m *memoryStore) Get(r *http.Request, name string) (*sessions.Session, error) {
	return m.New(r, name)
}

// New loads the session named by the request's cookie, or starts one.
func (m *memoryStore) New(r *http.Request, name string) (*sessions.Session, error) {
	s := sessions.NewSession(m, name)
	opts := m.options
	s.Options, s.IsNew = &opts, true
	c, err := r.Cookie(name)
	if err != nil {
		return s, nil
	}
	var id string
	if err := securecookie.DecodeMulti(name, c.Value, &id, m.codecs...); err != nil {
		return s, nil // a stale or forged cookie is no session
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[id]
	if !ok || time.Now().After(e.expires) {
		delete(m.entries, id)
		return s, nil
	}
	s.ID, s.IsNew, s.Values = id, false, maps.Clone(e.values)
	return s, nil
}

// Save stores the session's values and sets its cookie; MaxAge <= 0
// deletes both.
func (m *memoryStore) Save(_ *http.Request, w http.ResponseWriter, s *sessions.Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep()
	if s.Options.MaxAge <= 0 {
		delete(m.entries, s.ID)
		http.SetCookie(w, sessions.NewCookie(s.Name(), "", s.Options))
		return nil
	}
	if s.ID == "" {
		s.ID = base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(securecookie.GenerateRandomKey(32))
	}
	expires := time.Now().Add(time.Duration(s.Options.MaxAge) * time.Second)
	if e, ok := m.entries[s.ID]; ok {
		expires = e.expires // a session's life is counted from sign-in
	}
	m.entries[s.ID] = memoryEntry{values: maps.Clone(s.Values), expires: expires}
	encoded, err := securecookie.EncodeMulti(s.Name(), s.ID, m.codecs...)
	if err != nil {
		return err
	}
	http.SetCookie(w, sessions.NewCookie(s.Name(), encoded, s.Options))
	return nil
}

// sweep drops expired sessions at most once a minute; m.mu is held.
func (m *memoryStore) sweep() {
	now := time.Now()
	if now.Sub(m.swept) < time.Minute {
		return
	}
	m.swept = now
	for id, e := range m.entries {
		if now.After(e.expires) {
			delete(m.entries, id)
		}
	}
}
