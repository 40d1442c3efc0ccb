package auth

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/securecookie"
	"golang.org/x/sync/singleflight"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Session is a signed-in person's state, kept in the store (sealed) and
// named by an id that only the person's cookie carries.
type Session struct {
	ID           string          `json:"-"`
	Identity     portal.Identity `json:"identity"`
	AccessToken  string          `json:"access_token"`
	RefreshToken string          `json:"refresh_token"`
	IDToken      string          `json:"id_token"`
	// Expiry is the access token's; the session is renewed before it.
	Expiry time.Time `json:"expiry"`
	// CSRF is the token that state-changing requests must carry.
	CSRF    string    `json:"csrf"`
	Started time.Time `json:"started"`
	Toasts  []Toast   `json:"toasts,omitempty"`
	// Handoffs are what one page hands to the next once (a new API key
	// with its secret, from the form that made it to the page that shows
	// it): sealed with the session, taken by the first read.
	Handoffs map[string][]byte `json:"handoffs,omitempty"`
}

// Toast is a short message shown once on the next page.
type Toast struct {
	Kind    string `json:"kind"` // "success" or "error"
	Message string `json:"message"`
}

// ErrSessionExpired means the session existed but could not be renewed.
var ErrSessionExpired = errors.New("session expired")

// SessionStore keeps sessions where every replica finds them.
type SessionStore interface {
	CreateSession(ctx context.Context, s store.Session) error
	Session(ctx context.Context, id string, now time.Time) (store.Session, error)
	UpdateSession(ctx context.Context, id string, data []byte, lastSeen time.Time) error
	DeleteSession(ctx context.Context, id string) error
	SessionsOf(ctx context.Context, subject string, now time.Time) ([]store.Session, error)
}

// Sessions manages browser sessions: a cookie carries a random id (signed
// and encrypted), the store keeps the session under a digest of that id,
// with its tokens sealed by the session keys. Any replica can serve any
// request, and a restart signs nobody out.
type Sessions struct {
	store   SessionStore
	seal    *Sealer
	codecs  []securecookie.Codec
	pending *securecookie.SecureCookie
	login   *WebLogin
	refresh singleflight.Group
	maxAge  time.Duration
	maxLive int
	renewIn time.Duration
	secure  bool
	log     *slog.Logger
	now     func() time.Time
}

// SessionOptions configure Sessions.
type SessionOptions struct {
	Store SessionStore
	// Secrets protect the cookies and seal the stored data; the first is
	// current, the others still accepted.
	Secrets []string
	MaxAge  time.Duration
	// MaxPerUser bounds a person's live sessions: a sign-in beyond it ends
	// the oldest. 0 means no bound.
	MaxPerUser int
	// Secure marks cookies Secure (the portal is served over HTTPS).
	Secure bool
	Login  *WebLogin
	// Clock tells the time for token renewal; time.Now when nil.
	Clock func() time.Time
	// Logger receives failures that the person cannot act on (a session
	// that could not be saved), with the request id.
	Logger *slog.Logger
}

const (
	sessionCookie = "rms_session"
	pendingCookie = "rms_signin"
	// touchEvery bounds how often an unchanged session's last-seen time is
	// written.
	touchEvery = 5 * time.Minute
)

// NewSessions returns the session manager.
func NewSessions(o SessionOptions) (*Sessions, error) {
	seal, err := NewSealer("session data", o.Secrets)
	if err != nil {
		return nil, err
	}
	codecs := codecsFromSecrets(o.Secrets)
	for _, c := range codecs {
		c.(*securecookie.SecureCookie).MaxAge(int(o.MaxAge / time.Second))
	}
	pending := codecsFromSecrets(o.Secrets[:1])[0].(*securecookie.SecureCookie)
	pending.MaxAge(600)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return &Sessions{store: o.Store, seal: seal, codecs: codecs, pending: pending, login: o.Login, maxAge: o.MaxAge, maxLive: o.MaxPerUser,
		renewIn: time.Minute, secure: o.Secure, log: o.Logger, now: clockOr(o.Clock)}, nil
}

// key is the store's name for a session id: its digest.
func key(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:])
}

// idFrom reads the session id from the request's cookie.
func (s *Sessions) idFrom(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	var id string
	if err := securecookie.DecodeMulti(sessionCookie, c.Value, &id, s.codecs...); err != nil {
		return "" // a stale or forged cookie is no session
	}
	return id
}

// load reads and opens a session; nil when there is none.
func (s *Sessions) load(ctx context.Context, id string) (*Session, time.Time, error) {
	rec, err := s.store.Session(ctx, key(id), s.now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	plain, err := s.seal.Open(rec.Data, key(id))
	if err != nil {
		s.log.WarnContext(ctx, "a stored session does not open with the configured keys; it is ended", "error", err)
		_ = s.store.DeleteSession(ctx, key(id))
		return nil, time.Time{}, nil
	}
	var sess Session
	if err := json.Unmarshal(plain, &sess); err != nil {
		return nil, time.Time{}, fmt.Errorf("reading a session: %w", err)
	}
	sess.ID = id
	return &sess, rec.LastSeen, nil
}

func (s *Sessions) save(ctx context.Context, sess *Session) error {
	plain, err := json.Marshal(sess)
	if err != nil {
		return err
	}
	return s.store.UpdateSession(ctx, key(sess.ID), s.seal.Seal(plain, key(sess.ID)), s.now())
}

// Current returns the request's session, renewing its tokens when they are
// about to expire. It returns nil without error when there is no session,
// ErrSessionExpired when one existed but could not be renewed (it is then
// ended), and the store's error when the store cannot be read.
func (s *Sessions) Current(w http.ResponseWriter, r *http.Request) (*Session, error) {
	id := s.idFrom(r)
	if id == "" {
		return nil, nil
	}
	ctx := r.Context()
	sess, seen, err := s.load(ctx, id)
	if err != nil || sess == nil {
		return nil, err
	}
	if sess.Expiry.Sub(s.now()) > s.renewIn {
		if s.now().Sub(seen) > touchEvery {
			if err := s.save(ctx, sess); err != nil {
				s.log.ErrorContext(ctx, "saving the session failed", "error", err)
			}
		}
		return sess, nil
	}
	v, err, _ := s.refresh.Do(id, func() (any, error) {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		return s.login.Refresh(rctx, sess.RefreshToken)
	})
	if err != nil {
		// Another replica may have renewed the session meanwhile, with a
		// refresh token that replaced the one this replica used.
		if again, _, lerr := s.load(ctx, id); lerr == nil && again != nil && again.Expiry.Sub(s.now()) > s.renewIn {
			return again, nil
		}
		// The identity provider out of reach does not end a session whose
		// token is still good: it is renewed on a later request.
		if portal.Is(err, portal.UpstreamUnavailable) && sess.Expiry.After(s.now()) {
			s.log.WarnContext(ctx, "a session could not be renewed yet: the identity provider cannot be reached", "error", err)
			return sess, nil
		}
		s.log.InfoContext(ctx, "a session could not be renewed; it is ended", "error", err)
		_ = s.end(w, r, id) // logged; the session expires by itself
		return nil, ErrSessionExpired
	}
	g := v.(*Grant)
	sess.Identity, sess.AccessToken, sess.Expiry = g.Identity, g.AccessToken, g.Expiry
	if g.RefreshToken != "" {
		sess.RefreshToken = g.RefreshToken
	}
	if g.IDToken != "" {
		sess.IDToken = g.IDToken
	}
	if err := s.save(ctx, sess); err != nil {
		return nil, err
	}
	return sess, nil
}

// Start begins a new session for a grant. Any session the browser had is
// ended first, so that a session id never survives a sign-in.
func (s *Sessions) Start(w http.ResponseWriter, r *http.Request, g *Grant) (*Session, error) {
	if old := s.idFrom(r); old != "" {
		// A session id must never survive a sign-in.
		if err := s.end(w, r, old); err != nil {
			return nil, err
		}
	}
	id := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(securecookie.GenerateRandomKey(32))
	now := s.now()
	sess := &Session{ID: id, Identity: g.Identity, AccessToken: g.AccessToken, RefreshToken: g.RefreshToken,
		IDToken: g.IDToken, Expiry: g.Expiry, CSRF: randomString(), Started: now}
	plain, err := json.Marshal(sess)
	if err != nil {
		return nil, err
	}
	rec := store.Session{ID: key(id), Subject: g.Identity.Subject, Username: cmp.Or(g.Identity.Username, g.Identity.Subject),
		Created: now, Expires: now.Add(s.maxAge), LastSeen: now, UserAgent: truncate(r.UserAgent(), 300), IP: clientIP(r),
		Data: s.seal.Seal(plain, key(id))}
	if err := s.store.CreateSession(r.Context(), rec); err != nil {
		return nil, err
	}
	s.endOldest(r.Context(), rec.Subject, rec.ID)
	encoded, err := securecookie.EncodeMulti(sessionCookie, id, s.codecs...)
	if err != nil {
		return nil, err
	}
	http.SetCookie(w, s.newCookie(encoded, int(s.maxAge/time.Second)))
	return sess, nil
}

// endOldest ends a person's oldest sessions beyond the bound, keeping the
// one just started. A session left over because the store failed here
// still expires by itself; the sign-in goes on.
func (s *Sessions) endOldest(ctx context.Context, subject, started string) {
	if s.maxLive <= 0 {
		return
	}
	live, err := s.store.SessionsOf(ctx, subject, s.now())
	if err != nil {
		s.log.WarnContext(ctx, "listing a person's sessions failed; none was ended", "error", err)
		return
	}
	slices.SortFunc(live, func(a, b store.Session) int { return b.Created.Compare(a.Created) })
	kept := 1 // the new one
	for _, old := range live {
		if old.ID == started {
			continue
		}
		if kept < s.maxLive {
			kept++
			continue
		}
		if err := s.store.DeleteSession(ctx, old.ID); err != nil {
			s.log.WarnContext(ctx, "ending an old session failed", "error", err)
		}
	}
}

// Key is the store's id of the browser's session ("" without one): the
// id people see in their list of sessions, never the cookie's.
func (s *Sessions) Key(r *http.Request) string {
	if id := s.idFrom(r); id != "" {
		return key(id)
	}
	return ""
}

func (s *Sessions) newCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: sessionCookie, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true, Secure: s.secure,
		SameSite: http.SameSiteLaxMode}
}

// End ends the request's session everywhere and returns it (nil when
// there was none).
func (s *Sessions) End(w http.ResponseWriter, r *http.Request) (*Session, error) {
	id := s.idFrom(r)
	if id == "" {
		return nil, nil
	}
	sess, _, _ := s.load(r.Context(), id)
	if err := s.end(w, r, id); err != nil {
		e := portal.Wrap(err, portal.UpstreamUnavailable, "you could not be signed out: the portal's database did not take it, so your session still works; try again in a moment")
		e.RetryAfter = 5 * time.Second
		return sess, e
	}
	return sess, nil
}

// end deletes a session and clears its cookie; when the store cannot
// delete it, the cookie is kept too, so that the person can try again.
func (s *Sessions) end(w http.ResponseWriter, r *http.Request, id string) error {
	if err := s.store.DeleteSession(r.Context(), key(id)); err != nil {
		s.log.ErrorContext(r.Context(), "ending the session failed", "error", err)
		return err
	}
	http.SetCookie(w, s.newCookie("", -1))
	return nil
}

// AddToast queues a message for the next page of the session.
func (s *Sessions) AddToast(w http.ResponseWriter, r *http.Request, t Toast) {
	id := s.idFrom(r)
	if id == "" {
		return
	}
	sess, _, err := s.load(r.Context(), id)
	if err != nil || sess == nil {
		return
	}
	sess.Toasts = append(sess.Toasts, t)
	if err := s.save(r.Context(), sess); err != nil {
		s.log.ErrorContext(r.Context(), "saving the session failed", "error", err)
	}
}

// Handoff keeps data for the session's next read of key (TakeHandoff);
// it fails without a session.
func (s *Sessions) Handoff(r *http.Request, key string, data []byte) error {
	id := s.idFrom(r)
	if id == "" {
		return errors.New("no session")
	}
	sess, _, err := s.load(r.Context(), id)
	if err != nil || sess == nil {
		return fmt.Errorf("no session: %w", err)
	}
	if sess.Handoffs == nil {
		sess.Handoffs = map[string][]byte{}
	}
	sess.Handoffs[key] = data
	return s.save(r.Context(), sess)
}

// TakeHandoff returns and forgets what Handoff kept under key: a second
// read finds nothing.
func (s *Sessions) TakeHandoff(r *http.Request, key string) ([]byte, bool) {
	id := s.idFrom(r)
	if id == "" {
		return nil, false
	}
	sess, _, err := s.load(r.Context(), id)
	if err != nil || sess == nil {
		return nil, false
	}
	data, ok := sess.Handoffs[key]
	if !ok {
		return nil, false
	}
	delete(sess.Handoffs, key)
	if err := s.save(r.Context(), sess); err != nil {
		// Kept, it could be read again: it is not handed out.
		s.log.ErrorContext(r.Context(), "saving the session failed", "error", err)
		return nil, false
	}
	return data, true
}

// TakeToasts returns and forgets the queued messages.
func (s *Sessions) TakeToasts(w http.ResponseWriter, r *http.Request) []Toast {
	id := s.idFrom(r)
	if id == "" {
		return nil
	}
	sess, _, err := s.load(r.Context(), id)
	if err != nil || sess == nil || len(sess.Toasts) == 0 {
		return nil
	}
	out := sess.Toasts
	sess.Toasts = nil
	if err := s.save(r.Context(), sess); err != nil {
		s.log.ErrorContext(r.Context(), "saving the session failed", "error", err)
	}
	return out
}

// Begin starts a sign-in that returns to next, remembering its state,
// nonce and PKCE verifier in a short-lived encrypted cookie, and returns
// the URL to send the browser to.
func (s *Sessions) Begin(ctx context.Context, w http.ResponseWriter, next, loginHint string) (string, error) {
	p, u, err := s.login.Begin(ctx, next, loginHint)
	if err != nil {
		return "", err
	}
	enc, err := s.pending.Encode(pendingCookie, p)
	if err != nil {
		return "", err
	}
	http.SetCookie(w, &http.Cookie{Name: pendingCookie, Value: enc, Path: "/auth/", MaxAge: 600,
		HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode})
	return u, nil
}

// Finish completes the sign-in from the callback request and starts the
// session; it returns where to go next.
func (s *Sessions) Finish(w http.ResponseWriter, r *http.Request) (string, error) {
	var p Pending
	if c, err := r.Cookie(pendingCookie); err == nil {
		_ = s.pending.Decode(pendingCookie, c.Value, &p)
	}
	http.SetCookie(w, &http.Cookie{Name: pendingCookie, Value: "", Path: "/auth/", MaxAge: -1,
		HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode})
	g, err := s.login.Finish(r.Context(), p, r.URL.Query())
	if err != nil {
		return "", err
	}
	if _, err := s.Start(w, r, g); err != nil {
		return "", err
	}
	return SafeNext(p.Next), nil
}

// SafeNext keeps only paths of this site, so that a sign-in cannot be
// turned into a redirect to another one. It refuses what browsers would
// read as another origin after their own normalisation: control characters
// (browsers drop tabs and newlines, so "/\t/evil" becomes "//evil"),
// backslashes (read as slashes), scheme or host parts, and paths that start
// with two slashes once decoded.
func SafeNext(next string) string {
	if next == "" || next[0] != '/' || len(next) > 2048 {
		return "/"
	}
	for _, r := range next {
		if r < 0x20 || r == 0x7f || r == '\\' || r == '\u00a0' || r == '\u2028' || r == '\u2029' {
			return "/"
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	decoded, err := url.PathUnescape(u.EscapedPath())
	if err != nil || strings.HasPrefix(decoded, "//") || strings.HasPrefix(next, "//") || strings.ContainsAny(decoded, "\\\x00") {
		return "/"
	}
	return next
}

// EndSessionURL is where to send the browser to sign out at the provider.
func (s *Sessions) EndSessionURL(ctx context.Context, idToken, after string) string {
	return s.login.EndSessionURL(ctx, idToken, after)
}

// clientIP is the address the request came from: the one the server
// found (behind trusted proxies, the client's), else the connection's.
func clientIP(r *http.Request) string {
	if c := requestid.ClientFrom(r.Context()); c.IP != "" {
		return c.IP
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
