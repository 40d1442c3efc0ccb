package page

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/auth"
)

// sessionKey holds, in the echo context, the signed-in browser's session.
const sessionKey = "session"

// SetSession keeps the request's session for the page's layout (its CSRF
// token).
func SetSession(c echo.Context, s *auth.Session) { c.Set(sessionKey, s) }

// Session is the request's session, nil before sign-in.
func Session(c echo.Context) *auth.Session {
	s, _ := c.Get(sessionKey).(*auth.Session)
	return s
}

// A page that shows a secret (a new API key's, a webhook's or an alert
// channel's signing secret) is served once and never cached, but
// Chromium keeps even a no-store page in its back/forward cache and
// restores it, secret and all, on Back, as long as no cookie of the site
// changed meanwhile. So such a page sets a cookie of its own, and the
// portal's next answer to the browser, whatever it is, removes it: the
// change evicts the page from the cache, and Back asks the server again,
// which says the secret was shown. portal.js also takes the secret off
// the page as it is left (pagehide), which covers a browser that leaves
// the portal for another site first.
const secretCookie = "rms_secret_page"

// secretKey marks, in the echo context, an answer that shows a secret.
const secretKey = "portal.secret-page"

// ShowsSecret marks c's answer as one that shows a secret.
func ShowsSecret(c echo.Context) {
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Set(secretKey, true)
}

// ForgetSecretPages sets the secret page's cookie on its answer and
// removes it on the next answer, so that no page restored from the
// browser's back/forward cache still holds a secret.
func ForgetSecretPages(baseURL string) echo.MiddlewareFunc {
	secure := strings.HasPrefix(baseURL, "https://")
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			_, err := c.Cookie(secretCookie)
			had := err == nil
			c.Response().Before(func() {
				cookie := &http.Cookie{Name: secretCookie, Path: "/", HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode}
				switch {
				case c.Get(secretKey) == true:
					// A new value each time: even a second secret page in a row
					// changes the cookie as the first is left.
					b := make([]byte, 8)
					_, _ = rand.Read(b)
					cookie.Value = hex.EncodeToString(b)
				case had:
					cookie.MaxAge = -1
				default:
					return
				}
				http.SetCookie(c.Response(), cookie)
			})
			return next(c)
		}
	}
}
