package handlers

import (
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/views"
)

// catalogPage searches the zone's topics.
func (h *Handlers) catalogPage(c echo.Context) error {
	p, err := h.Scoped(c, "catalog", "Catalog")
	if err != nil {
		return err
	}
	s := views.CatalogSearch{Text: c.QueryParam("q"), Tag: c.QueryParam("tag"), Classification: c.QueryParam("classification"),
		Owner: c.QueryParam("owner"), Field: c.QueryParam("field"), Classes: h.Catalog.Classifications()}
	q := topiccatalog.CatalogQuery{ListQuery: portal.ListQuery{PageSize: 50, PageToken: c.QueryParam("page_token"), Search: s.Text}, Tag: s.Tag,
		Classification: s.Classification, Owner: s.Owner, Field: s.Field}
	if s.Found, err = h.Catalog.Catalog(c.Request().Context(), httpserver.ScopeOf(c), q); err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.CatalogPage(p, s))
}

// catalogEntry shows one topic of the zone.
func (h *Handlers) catalogEntry(c echo.Context) error {
	topic := c.Param("name")
	p, err := h.Scoped(c, "catalog", topic, views.Crumb{Label: topic})
	if err != nil {
		return err
	}
	e, err := h.Catalog.Entry(c.Request().Context(), httpserver.ScopeOf(c), topic)
	if err != nil {
		return err
	}
	f := views.CatalogForm{In: portal.TopicMetadata{Description: e.Description, Contact: e.Contact, Tags: e.Tags}}
	if e.Classified {
		f.In.Classification = e.Classification
	}
	return h.Render(c, http.StatusOK, p, views.CatalogEntryPage(p, e, f, h.Catalog.Classifications()))
}

// describeTopic saves an owner's description of its topic.
func (h *Handlers) describeTopic(c echo.Context) error {
	topic := c.Param("name")
	p, err := h.Scoped(c, "catalog", topic, views.Crumb{Label: topic})
	if err != nil {
		return err
	}
	f := views.CatalogForm{In: portal.TopicMetadata{Description: c.FormValue("description"), Contact: c.FormValue("owner_contact"),
		Tags: splitTags(c.FormValue("tags")), Classification: c.FormValue("classification")}}
	ctx, scope := c.Request().Context(), httpserver.ScopeOf(c)
	e, err := h.Catalog.Describe(ctx, scope, topic, f.In)
	if err == nil {
		return h.Done(c, "The catalog entry of "+e.Topic+" is saved.", p.Context.Path("catalog", e.Topic))
	}
	ps := portal.Problems(err)
	if len(ps) == 0 || !portal.KindOf(err).IsValidation() {
		return err
	}
	f.Errors = page.ProblemLines(ps)
	cur, rerr := h.Catalog.Entry(ctx, scope, topic)
	if rerr != nil {
		return err
	}
	return h.FailedForm(c, p, err, func() templ.Component { return views.CatalogEntryPage(p, cur, f, h.Catalog.Classifications()) })
}

// splitTags reads the tags typed in one field, separated by commas or
// spaces.
func splitTags(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' })
}
