package page

import (
	"bytes"
	"context"
	"fmt"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/views"
)

// Render writes a page: the whole document, or only the main column when
// htmx asks for it (context changes, form results).
func (k *Kit) Render(c echo.Context, status int, p views.Page, body templ.Component) error {
	// The navigation's review counts, only where a navigation is drawn
	// (never for a fragment such as the search box's results).
	p.Reviews = k.reviews(c)
	ctx := templ.WithChildren(c.Request().Context(), body)
	var doc templ.Component
	if IsMainSwap(c) {
		doc = views.Partial(p)
	} else {
		for _, t := range k.Sessions.TakeToasts(c.Response(), c.Request()) {
			p.Toasts = append(p.Toasts, views.Toast{Kind: t.Kind, Message: t.Message})
		}
		doc = views.Document(p)
	}
	return renderComponent(c, ctx, status, doc)
}

// Fragment writes a component alone (an htmx swap target).
func Fragment(c echo.Context, status int, comp templ.Component) error {
	return renderComponent(c, c.Request().Context(), status, comp)
}

// renderComponent renders comp into a buffer and writes it only when
// rendering succeeded, so that a failing template gives the error page
// rather than a truncated 200.
func renderComponent(c echo.Context, ctx context.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return fmt.Errorf("rendering the page: %w", err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "HX-Request, HX-Target")
	c.Response().WriteHeader(status)
	_, err := c.Response().Write(buf.Bytes())
	return err
}

// IsHTMX reports a request that htmx sent.
func IsHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// IsMainSwap reports an htmx request that targets the main column.
func IsMainSwap(c echo.Context) bool {
	return IsHTMX(c) && c.Request().Header.Get("HX-Target") == "main"
}
