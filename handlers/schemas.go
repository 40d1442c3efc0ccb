package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Handlers) listSchemas(c echo.Context) error {
	p, err := h.Scoped(c, "schemas", "Schemas")
	if err != nil {
		return err
	}
	latest := c.QueryParam("all") != "1"
	q := portal.ListQuery{PageSize: page.Size, Search: c.QueryParam("q"), PageToken: c.QueryParam("page_token"), Unit: c.QueryParam("unit")}
	res, err := h.Schemas.List(c.Request().Context(), httpserver.ScopeOf(c), latest, q)
	if err != nil {
		return err
	}
	p.Subtitle = p.Context.Prefix + "*-key, " + p.Context.Prefix + "*-value"
	return h.Render(c, http.StatusOK, p, views.SchemasPage(p, views.SchemaList{Items: res.Items, Total: res.Total, Search: q.Search,
		LatestOnly: latest, Next: res.NextPageToken}))
}

// showSubject shows a version (?version=, the latest by default) or the
// differences between two (?from=&to=).
func (h *Handlers) showSubject(c echo.Context) error {
	p, err := h.Scoped(c, "schemas", "Schema")
	if err != nil {
		return err
	}
	vs, err := h.Schemas.Versions(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"))
	if err != nil {
		return err
	}
	find := func(raw string) (*schema.SchemaVersion, error) {
		n, err := strconv.Atoi(raw)
		for i := range vs {
			if err == nil && vs[i].Version == n {
				return &vs[i], nil
			}
		}
		return nil, portal.New(portal.NotFound, "version %s of %s not found", raw, vs[0].Subject)
	}
	s := views.Subject{Name: vs[0].Subject, Versions: vs, Selected: vs[len(vs)-1]}
	if raw := c.QueryParam("version"); raw != "" {
		v, err := find(raw)
		if err != nil {
			return err
		}
		s.Selected = *v
	}
	if c.QueryParam("from") != "" || c.QueryParam("to") != "" {
		if s.From, err = find(c.QueryParam("from")); err != nil {
			return err
		}
		if s.To, err = find(c.QueryParam("to")); err != nil {
			return err
		}
	}
	ident := strings.TrimPrefix(s.Name, p.Context.Prefix)
	p.Title, p.Subtitle = ident, s.Name
	p.Crumbs = page.Crumbs(p.Context, "schemas", views.Crumb{Label: ident})
	return h.Render(c, http.StatusOK, p, views.SubjectPage(p, s))
}

func (h *Handlers) newSchema(c echo.Context) error {
	p, err := h.Scoped(c, "schemas", "Register schema", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := views.SchemaForm{NewSubject: true, Action: p.Context.Path("schemas"), Prefix: p.Context.Prefix, SubjectType: "value",
		SchemaType: "AVRO", Errors: map[string]string{}, Cancel: p.Context.Path("schemas"),
		Schema: "{\n  \"type\": \"record\",\n  \"name\": \"Example\",\n  \"fields\": [\n    {\"name\": \"id\", \"type\": \"string\"}\n  ]\n}"}
	f.Topics = h.topicChoices(c.Request().Context(), httpserver.ScopeOf(c))
	return h.Render(c, http.StatusOK, p, views.SchemaFormView(p, f))
}

// schemaFormFailed shows the form again with the problems by field.
func (h *Handlers) schemaFormFailed(c echo.Context, p views.Page, f views.SchemaForm, err error) error {
	conflict := ""
	if f.NewSubject {
		conflict = "topic"
	}
	if !page.FieldErrors(err, f.Errors, conflict) {
		return err
	}
	return h.FailedForm(c, p, err, func() templ.Component { return views.SchemaFormView(p, f) })
}

func (h *Handlers) createSchema(c echo.Context) error {
	p, err := h.Scoped(c, "schemas", "Register schema", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := views.SchemaForm{NewSubject: true, Action: p.Context.Path("schemas"), Prefix: p.Context.Prefix, Errors: map[string]string{},
		Cancel: p.Context.Path("schemas"), Topic: strings.TrimSpace(c.FormValue("topic")), SubjectType: c.FormValue("subject_type"),
		SchemaType: c.FormValue("schema_type"), Schema: c.FormValue("schema")}
	f.Topics = h.topicChoices(c.Request().Context(), httpserver.ScopeOf(c))
	// Only for someone who may register: a refusal comes first.
	if p.Context.CanWrite && f.Topic != "" {
		if missing := h.missingTopics(c.Request().Context(), httpserver.ScopeOf(c), []string{f.Topic}); len(missing) > 0 {
			f.MissingTopic, f.AllowMissing = true, c.FormValue("allow_missing_topics") == "1"
		}
		if f.MissingTopic && !f.AllowMissing {
			return h.schemaFormFailed(c, p, f, portal.Invalid("topic", "%s: no such topic in %s/%s yet; create it first, or tick “Save anyway”",
				f.Topic, p.Context.BU, p.Context.Stage))
		}
	}
	v, err := h.Schemas.Create(c.Request().Context(), httpserver.ScopeOf(c), schema.NewSchema{Topic: f.Topic,
		SubjectType: f.SubjectType, SchemaDef: schema.SchemaDef{SchemaType: f.SchemaType, Schema: f.Schema}})
	if err != nil {
		return h.schemaFormFailed(c, p, f, err)
	}
	return h.Done(c, "Subject "+v.Subject+" registered (version 1).", p.Context.Path("schema", v.Subject))
}

// versionForm reads a new-version form, or starts one from the latest.
func (h *Handlers) versionForm(c echo.Context) (views.Page, views.SchemaForm, error) {
	p, err := h.Scoped(c, "schemas", "New version")
	if err != nil {
		return p, views.SchemaForm{}, err
	}
	vs, err := h.Schemas.Versions(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"))
	if err != nil {
		return p, views.SchemaForm{}, err
	}
	latest := vs[len(vs)-1]
	ident := strings.TrimPrefix(latest.Subject, p.Context.Prefix)
	p.Title, p.Subtitle = "New version of "+ident, latest.Subject
	p.Crumbs = page.Crumbs(p.Context, "schemas", views.Crumb{Label: ident, Href: p.Context.Path("schema", latest.Subject)}, views.Crumb{Label: "new version"})
	f := views.SchemaForm{Subject: latest.Subject, Action: p.Context.Path("schema", latest.Subject, "new-version"),
		CheckURL: p.Context.Path("schema", latest.Subject, "check"), Errors: map[string]string{},
		Cancel: p.Context.Path("schema", latest.Subject), SchemaType: latest.Type, Schema: views.Pretty(latest.Schema)}
	if c.Request().Method == http.MethodPost {
		f.SchemaType, f.Schema = c.FormValue("schema_type"), c.FormValue("schema")
	}
	return p, f, nil
}

func (h *Handlers) newVersion(c echo.Context) error {
	p, f, err := h.versionForm(c)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.SchemaFormView(p, f))
}

// registerVersion registers, or (action=check, without JavaScript) shows
// the registry's verdict first.
func (h *Handlers) registerVersion(c echo.Context) error {
	p, f, err := h.versionForm(c)
	if err != nil {
		return err
	}
	def := schema.SchemaDef{SchemaType: f.SchemaType, Schema: f.Schema}
	ctx := c.Request().Context()
	if c.FormValue("action") == "check" {
		res, err := h.Schemas.Check(ctx, httpserver.ScopeOf(c), f.Subject, def)
		if err != nil {
			return h.schemaFormFailed(c, p, f, err)
		}
		f.Check = &res
		return h.Render(c, http.StatusOK, p, views.SchemaFormView(p, f))
	}
	v, err := h.Schemas.Update(ctx, httpserver.ScopeOf(c), f.Subject, def)
	if err != nil {
		return h.schemaFormFailed(c, p, f, err)
	}
	return h.Done(c, "Version "+strconv.Itoa(v.Version)+" of "+v.Subject+" registered.", p.Context.Path("schema", v.Subject))
}

// checkVersion answers the form's htmx compatibility check.
func (h *Handlers) checkVersion(c echo.Context) error {
	def := schema.SchemaDef{SchemaType: c.FormValue("schema_type"), Schema: c.FormValue("schema")}
	res, err := h.Schemas.Check(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), def)
	if err != nil {
		if ps := portal.Problems(err); len(ps) > 0 && ps[0].Kind.IsValidation() {
			res = schema.Compatibility{Messages: []string{ps[0].Message}, Level: "invalid schema"}
			return page.Fragment(c, http.StatusOK, views.CompatResult(res))
		}
		return err
	}
	return page.Fragment(c, http.StatusOK, views.CompatAnswer(res))
}

func (h *Handlers) versionDeletion(c echo.Context) (views.Page, views.Deletion, error) {
	p, err := h.Scoped(c, "schemas", "Delete schema version")
	if err != nil {
		return p, views.Deletion{}, err
	}
	vs, err := h.Schemas.Versions(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"))
	if err != nil {
		return p, views.Deletion{}, err
	}
	subject, version := vs[0].Subject, c.Param("version")
	ident := strings.TrimPrefix(subject, p.Context.Prefix)
	p.Subtitle = subject + " version " + version
	p.Crumbs = page.Crumbs(p.Context, "schemas", views.Crumb{Label: ident, Href: p.Context.Path("schema", subject)}, views.Crumb{Label: "delete"})
	d := views.Deletion{Kind: "schema version", Name: subject + " version " + version, Identifier: ident + " v" + version,
		Consequence: "consumers that look this version up by id fail once it is deleted for good.",
		Action:      p.Context.Path("schema", subject, version, "delete"), Cancel: p.Context.Path("schema", subject) + "?version=" + version,
		Permanent: true}
	im, err := h.Schemas.Impact(c.Request().Context(), httpserver.ScopeOf(c), subject)
	if err != nil {
		return p, d, err
	}
	d.Dependants = im.Dependants
	return p, d, nil
}

func (h *Handlers) confirmDeleteVersion(c echo.Context) error {
	p, d, err := h.versionDeletion(c)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.ConfirmDelete(p, d))
}

// deleteVersion soft-deletes, then hard-deletes when asked to.
func (h *Handlers) deleteVersion(c echo.Context) error {
	p, d, err := h.versionDeletion(c)
	if err != nil {
		return err
	}
	if d.Typed = strings.TrimSpace(c.FormValue("confirm")); d.Typed != d.Identifier {
		d.Problem = "Type " + d.Identifier + " exactly to confirm."
		return h.Render(c, http.StatusUnprocessableEntity, p, views.ConfirmDelete(p, d))
	}
	ctx, scope, subject, version := c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), c.Param("version")
	if err := h.Schemas.Delete(ctx, scope, subject, version, false); err != nil {
		return err
	}
	msg := "Version " + version + " deleted (soft)."
	if c.FormValue("permanent") == "true" {
		if err := h.Schemas.Delete(ctx, scope, subject, version, true); err != nil {
			return err
		}
		msg = "Version " + version + " deleted for good."
	}
	return h.Done(c, msg, p.Context.Path("schemas"))
}
