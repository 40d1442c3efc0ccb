package auth

import (
	"context"
	"encoding/gob"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"
	"golang.org/x/sync/singleflight"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Session is a signed-in person's state, kept on the server.
type Session struct {
	ID           string
	Identity     portal.Identity
	AccessToken  string
	RefreshToken string
	IDToken      string
	// Expiry is the access token's; the session is renewed before it.
	Expiry time.Time
	// CSRF is the token that state-changing requests must carry.
	CSRF    string
	Started time.Time
}

// Toast is a short message shown once on the next page.
type Toast struct {
	Kind    string // "success" or "error"
	Message string
}

func init() {
	// Values live in memory, but gorilla/sessions' flashes are typed any;
	// registering keeps a future shared store able to encode them.
	gob.Register(Toast{})
	gob.Register(Session{})
}

// ErrSessionExpired means the session existed but could not be renewed.
var ErrSessionExpired = errors.New("session expired")

// Sessions manages browser sessions on top of gorilla/sessions.
type Sessions struct {
	store   *memoryStore
	pending *securecookie.SecureCookie
	login   *WebLogin
	refresh singleflight.Group
	maxAge  time.Duration
	renewIn time.Duration
	secure  bool
	log     *slog.Logger
	now     func() time.Time
}

// SessionOptions configure Sessions.
type SessionOptions struct {
	// Secrets protect the cookies; the first is current.
	Secrets []string
	MaxAge  time.Duration
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
	sessionKey    = "session"
)

// NewSessions returns the session manager.
func NewSessions(o SessionOptions) *Sessions {
	store := newMemoryStore(o.Secrets, sessions.Options{
		Path: "/", MaxAge: int(o.MaxAge / time.Second), HttpOnly: true, Secure: o.Secure, SameSite: http.SameSiteLaxMode,
	})
	codecs := codecsFromSecrets(o.Secrets[:1])
	pending := codecs[0].(*securecookie.SecureCookie)
	pending.MaxAge(600)
	return &Sessions{store: store, pending: pending, login: o.Login, maxAge: o.MaxAge, renewIn: time.Minute, secure: o.Secure, log: o.Logger, now: clockOr(o.Clock)}
}

// Current returns the request's session, renewing its tokens when they are
// about to expire. It returns nil without error when there is no session,
// and ErrSessionExpired when one existed but could not be renewed (it is
// then ended).
func (s *Sessions) Current(w http.ResponseWriter, r *http.Request) (*Session, error) {
	gs, _ := s.store.Get(r, sessionCookie)
	sess, ok := gs.Values[sessionKey].(Session)
	if gs.IsNew || !ok {
		return nil, nil
	}
	if sess.Expiry.Sub(s.now()) > s.renewIn {
		return &sess, nil
	}
	v, err, _ := s.refresh.Do(sess.ID, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 10*time.Second)
		defer cancel()
		return s.login.Refresh(ctx, sess.RefreshToken)
	})
	if err != nil {
		s.end(w, r, gs)
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
	gs.Values[sessionKey] = sess
	if err := gs.Save(r, w); err != nil {
		return nil, err
	}
	return &sess, nil
}

// Start begins a new session for a grant. Any session the browser had is
// ended first, so that a session id never survives a sign-in.
func (s *Sessions) Start(w http.ResponseWriter, r *http.Request, g *Grant) (*Session, error) {
	old, _ := s.store.Get(r, sessionCookie)
	if !old.IsNew {
		s.end(w, r, old)
	}
	gs := sessions.NewSession(s.store, sessionCookie)
	opts := s.store.options
	gs.Options, gs.IsNew = &opts, true
	if err := gs.Save(r, w); err != nil { // assigns the id
		return nil, err
	}
	sess := Session{
		ID: gs.ID, Identity: g.Identity, AccessToken: g.AccessToken, RefreshToken: g.RefreshToken,
		IDToken: g.IDToken, Expiry: g.Expiry, CSRF: randomString(), Started: s.now(),
	}
	gs.Values[sessionKey] = sess
	return &sess, gs.Save(r, w)
}

// End ends the request's session and returns it (nil when there was none).
func (s *Sessions) End(w http.ResponseWriter, r *http.Request) *Session {
	gs, _ := s.store.Get(r, sessionCookie)
	sess, ok := gs.Values[sessionKey].(Session)
	s.end(w, r, gs)
	if !ok {
		return nil
	}
	return &sess
}

func (s *Sessions) end(w http.ResponseWriter, r *http.Request, gs *sessions.Session) {
	gs.Options.MaxAge = -1
	s.save(w, r, gs)
}

// save stores gs; a failure is logged, since the page can still be shown.
func (s *Sessions) save(w http.ResponseWriter, r *http.Request, gs *sessions.Session) {
	if err := gs.Save(r, w); err != nil && s.log != nil {
		s.log.ErrorContext(r.Context(), "saving the session failed", "error", err)
	}
}

// AddToast queues a message for the next page of the session.
func (s *Sessions) AddToast(w http.ResponseWriter, r *http.Request, t Toast) {
	gs, _ := s.store.Get(r, sessionCookie)
	if gs.IsNew {
		return
	}
	gs.AddFlash(t)
	s.save(w, r, gs)
}

// TakeToasts returns and forgets the queued messages.
func (s *Sessions) TakeToasts(w http.ResponseWriter, r *http.Request) []Toast {
	gs, _ := s.store.Get(r, sessionCookie)
	if gs.IsNew {
		return nil
	}
	flashes := gs.Flashes()
	if len(flashes) == 0 {
		return nil
	}
	s.save(w, r, gs)
	out := make([]Toast, 0, len(flashes))
	for _, f := range flashes {
		if t, ok := f.(Toast); ok {
			out = append(out, t)
		}
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

// SafeNext keeps only local paths, so that a sign-in cannot be turned into
// a redirect to another site.
func SafeNext(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") ||
		strings.ContainsAny(next, "\r\n") {
		return "/"
	}
	return next
}

// EndSessionURL is where to send the browser to sign out at the provider.
func (s *Sessions) EndSessionURL(ctx context.Context, idToken, after string) string {
	return s.login.EndSessionURL(ctx, idToken, after)
}
