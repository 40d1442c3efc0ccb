package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Handlers) listConnectors(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	p, err := h.Page(c, "Connectors", "connectors", scope)
	if err != nil {
		return err
	}
	q := portal.ListQuery{PageSize: page.Size, Search: c.QueryParam("q"), PageToken: c.QueryParam("page_token"), Unit: c.QueryParam("unit")}
	res, err := h.Connectors.List(c.Request().Context(), scope, q)
	if err != nil {
		return err
	}
	l := views.ConnectorList{Items: res.Items, Total: res.Total, Search: q.Search, Next: res.NextPageToken, Self: c.Request().URL.RequestURI()}
	for _, x := range res.Items {
		l.Poll = l.Poll || x.State == connect.StateProvisioning
	}
	p.Subtitle = p.Context.Prefix + "*-connector"
	return h.Render(c, http.StatusOK, p, views.ConnectorsPage(p, l))
}

func (h *Handlers) showConnector(c echo.Context) error {
	p, err := h.Scoped(c, "connectors", "Connector")
	if err != nil {
		return err
	}
	x, err := h.Connectors.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), true)
	if err != nil {
		return err
	}
	history, err := h.Connectors.RestartHistory(c.Request().Context(), httpserver.ScopeOf(c), x.Name)
	if err != nil {
		return err
	}
	p.Title, p.Subtitle = x.Identifier, x.Name
	p.Crumbs = page.Crumbs(p.Context, "connectors", views.Crumb{Label: x.Identifier})
	return h.Render(c, http.StatusOK, p, views.ConnectorPage(p, x, history))
}

// connectorLifecycle runs pause, resume, restart and restart-failed; htmx
// gets the refreshed status, a plain form the detail page.
func (h *Handlers) connectorLifecycle(c echo.Context) error {
	scope, name := httpserver.ScopeOf(c), c.Param("name")
	ctx := c.Request().Context()
	var err error
	var done string
	switch c.Param("action") {
	case "pause":
		err, done = h.Connectors.Pause(ctx, scope, name), "Pause requested."
	case "resume":
		err, done = h.Connectors.Resume(ctx, scope, name), "Resume requested."
	case "restart":
		err, done = h.Connectors.Restart(ctx, scope, name, false), "Restart requested."
	case "restart-failed":
		err, done = h.Connectors.Restart(ctx, scope, name, true), "Restart of the failed tasks requested."
	default:
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	p, err := h.Scoped(c, "connectors", "Connector")
	if err != nil {
		return err
	}
	x, err := h.Connectors.Get(ctx, scope, name, false)
	if err != nil {
		return err
	}
	if page.IsHTMX(c) {
		page.Trigger(c, "success", done)
		return page.Fragment(c, http.StatusOK, views.ConnectorStatus(p, x))
	}
	h.Sessions.AddToast(c.Response(), c.Request(), toastOK(done))
	return c.Redirect(http.StatusSeeOther, p.Context.Path("connector", x.Name))
}

// connectorForm starts a form, with the class's settings as rows.
func (h *Handlers) connectorForm(c echo.Context, p views.Page, class string, cfg map[string]string) views.ConnectorForm {
	ctx := c.Request().Context()
	f := views.ConnectorForm{Prefix: p.Context.Prefix, Class: class, Errors: map[string]string{},
		Cancel: p.Context.Path("connectors"), Action: p.Context.Path("connectors"), ClassURL: p.Context.Path("connectors", "new")}
	classes, err := h.Connectors.Plugins(ctx, httpserver.ScopeOf(c))
	if err != nil {
		// The form still works with a class typed by hand; say why the
		// list is empty rather than pretend there are no classes.
		f.ClassesError = "The connector classes could not be listed: " + page.Explain(err, requestid.From(ctx)).Message
	}
	f.Classes = classes
	var def *connect.ConnectorDefinition
	if class != "" {
		d, err := h.Connectors.Definition(ctx, httpserver.ScopeOf(c), class)
		if err != nil {
			f.Errors["config.connector.class"] = "The settings of " + class + " could not be read: " + page.Explain(err, requestid.From(ctx)).Message
		} else {
			def = &d
		}
	}
	f.Rows = connectorRows(def, cfg)
	f.Topics = h.topicChoices(ctx, httpserver.ScopeOf(c))
	return f
}

// confirmTopics refuses, once, a configuration naming topics that do not
// exist: the form says which and offers to save anyway.
func (h *Handlers) confirmTopics(c echo.Context, p views.Page, f *views.ConnectorForm, cfg map[string]string) error {
	if !p.Context.CanWrite {
		// Someone who may not write gets the refusal, not this question.
		return nil
	}
	missing := h.missingTopics(c.Request().Context(), httpserver.ScopeOf(c), connect.ConnectorTopics(cfg))
	if len(missing) == 0 {
		return nil
	}
	// The question stays on the form (answered) while other problems
	// are fixed.
	f.MissingTopics, f.AllowMissing = true, c.FormValue("allow_missing_topics") == "1"
	if f.AllowMissing {
		return nil
	}
	key := "kafka.topic"
	if cfg[key] == "" {
		key = "topics"
	}
	return portal.Invalid("config."+key, "%s: no such topic in %s/%s yet; create it first, or tick “Save anyway”",
		strings.Join(missing, ", "), p.Context.BU, p.Context.Stage)
}

// connectorRows lays out a configuration: the class's settings (required
// first), then other keys, then a few empty rows for more.
func connectorRows(def *connect.ConnectorDefinition, cfg map[string]string) []views.ConfigRow {
	var rows []views.ConfigRow
	seen := map[string]bool{"name": true, "connector.class": true}
	if def != nil {
		settings := slices.Clone(def.Settings)
		slices.SortStableFunc(settings, func(a, b connect.ConnectorSetting) int {
			switch {
			case a.Required == b.Required:
				return 0
			case a.Required:
				return -1
			}
			return 1
		})
		for _, s := range settings {
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			help := s.Documentation
			if s.Default != "" {
				help = strings.TrimSpace(help + " Default: " + s.Default + ".")
			}
			rows = append(rows, views.ConfigRow{Key: s.Name, Value: cfg[s.Name], Help: help, Required: s.Required,
				Secret: s.Type == "PASSWORD", Choices: s.Recommended})
		}
	}
	var rest []string
	for k := range cfg {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		rows = append(rows, views.ConfigRow{Key: k, Value: cfg[k], Secret: connect.IsMask(cfg[k])})
	}
	for i := 0; i < 3; i++ {
		rows = append(rows, views.ConfigRow{})
	}
	return rows
}

func (h *Handlers) newConnector(c echo.Context) error {
	p, err := h.Scoped(c, "connectors", "Create connector", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := h.connectorForm(c, p, c.QueryParam("connector.class"), map[string]string{})
	f.Name = c.QueryParam("name")
	if page.IsHTMX(c) {
		return page.Fragment(c, http.StatusOK, views.ConnectorFormView(p, f))
	}
	return h.Render(c, http.StatusOK, p, views.ConnectorFormView(p, f))
}

// readConnectorForm reads the rows and the pasted JSON into one
// configuration; the JSON wins for the keys it names.
func readConnectorForm(c echo.Context, errs map[string]string) map[string]string {
	if err := c.Request().ParseForm(); err != nil {
		errs[""] = "the form could not be read"
		return nil
	}
	form := c.Request().PostForm
	cfg := map[string]string{}
	keys, values := form["key"], form["value"]
	for i, k := range keys {
		k = strings.TrimSpace(k)
		if k == "" || i >= len(values) || strings.TrimSpace(values[i]) == "" {
			continue
		}
		cfg[k] = strings.TrimSpace(values[i])
	}
	if raw := strings.TrimSpace(form.Get("config_json")); raw != "" {
		var pasted map[string]any
		if err := json.Unmarshal([]byte(raw), &pasted); err != nil {
			errs["config_json"] = "not a JSON object of settings: " + err.Error()
		}
		for k, v := range pasted {
			switch x := v.(type) {
			case string:
				cfg[k] = x
			case float64, bool:
				cfg[k] = fmt.Sprint(x)
			default:
				errs["config_json"] = fmt.Sprintf("the value of %s must be a string, number or boolean", k)
			}
		}
	}
	if class := strings.TrimSpace(form.Get("connector.class")); class != "" {
		cfg["connector.class"] = class
	}
	return cfg
}

// connectorFormFailed shows the form again with the problems on their rows.
func (h *Handlers) connectorFormFailed(c echo.Context, p views.Page, f views.ConnectorForm, err error) error {
	if !page.FieldErrors(err, f.Errors, "name") {
		return err
	}
	forgetSecrets(&f)
	// A problem on a key without a row gets one, so that it shows.
	for field := range f.Errors {
		if key, ok := strings.CutPrefix(field, "config."); ok && key != "connector.class" &&
			!slices.ContainsFunc(f.Rows, func(r views.ConfigRow) bool { return r.Key == key }) {
			f.Rows = append([]views.ConfigRow{{Key: key}}, f.Rows...)
		}
	}
	return h.FailedForm(c, p, err, func() templ.Component { return views.ConnectorFormView(p, f) })
}

func (h *Handlers) createConnector(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	p, err := h.Scoped(c, "connectors", "Create connector", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	errs := map[string]string{}
	cfg := readConnectorForm(c, errs)
	f := h.connectorForm(c, p, cfg["connector.class"], cfg)
	f.Name, f.JSON = strings.TrimSpace(c.FormValue("name")), c.FormValue("config_json")
	if len(errs) > 0 {
		f.Errors = errs
		return h.connectorFormFailed(c, p, f, portal.Invalid("config_json", "%s", errs["config_json"]))
	}
	if err := h.confirmTopics(c, p, &f, cfg); err != nil {
		return h.connectorFormFailed(c, p, f, err)
	}
	x, err := h.Connectors.Create(c.Request().Context(), scope, connect.NewConnector{Name: f.Name, Config: cfg})
	if err != nil {
		return h.connectorFormFailed(c, p, f, err)
	}
	return h.Done(c, "Connector "+x.Name+" created; it is provisioning.", p.Context.Path("connector", x.Name))
}

func (h *Handlers) editConnector(c echo.Context) error {
	scope, name := httpserver.ScopeOf(c), c.Param("name")
	p, err := h.Scoped(c, "connectors", "Edit connector")
	if err != nil {
		return err
	}
	x, err := h.Connectors.Get(c.Request().Context(), scope, name, true)
	if err != nil {
		return err
	}
	f := h.editForm(c, p, x, x.Config)
	return h.Render(c, http.StatusOK, p, views.ConnectorFormView(p, f))
}

func (h *Handlers) editForm(c echo.Context, p views.Page, x connect.Connector, cfg map[string]string) views.ConnectorForm {
	p.Title, p.Subtitle = "Edit "+x.Identifier, x.Name
	f := h.connectorForm(c, p, x.Class, cfg)
	f.Edit, f.Name, f.Version = true, x.Name, x.Version
	f.Action, f.Cancel = p.Context.Path("connector", x.Name, "edit"), p.Context.Path("connector", x.Name)
	return f
}

func (h *Handlers) updateConnector(c echo.Context) error {
	scope, name := httpserver.ScopeOf(c), c.Param("name")
	p, err := h.Scoped(c, "connectors", "Edit connector")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	cur, err := h.Connectors.Get(ctx, scope, name, false)
	if err != nil {
		return err
	}
	p.Title, p.Subtitle = "Edit "+cur.Identifier, cur.Name
	p.Crumbs = page.Crumbs(p.Context, "connectors", views.Crumb{Label: cur.Identifier, Href: p.Context.Path("connector", cur.Name)}, views.Crumb{Label: "edit"})
	errs := map[string]string{}
	cfg := readConnectorForm(c, errs)
	f := h.editForm(c, p, cur, cfg)
	f.JSON, f.Version = c.FormValue("config_json"), c.FormValue("version")
	if len(errs) > 0 {
		f.Errors = errs
		return h.connectorFormFailed(c, p, f, portal.Invalid("config_json", "%s", errs["config_json"]))
	}
	if err := h.confirmTopics(c, p, &f, cfg); err != nil {
		return h.connectorFormFailed(c, p, f, err)
	}
	x, err := h.Connectors.Update(ctx, scope, cur.Name, cfg, portal.IfMatch(f.Version))
	if portal.Is(err, portal.PreconditionFailed) {
		err = page.ChangedMeanwhile("connector "+cur.Name, p.Context.Path("connector", cur.Name, "edit"))
	}
	if err != nil {
		return h.connectorFormFailed(c, p, f, err)
	}
	return h.Done(c, "Connector "+x.Name+" saved; it is provisioning the change.", p.Context.Path("connector", x.Name))
}

func connectorDeletion(p views.Page, x connect.Connector, typed, problem string) views.Deletion {
	return views.Deletion{Kind: "connector", Name: x.Name, Identifier: x.Identifier, Typed: typed, Problem: problem,
		Consequence: "the connector stops and its configuration is removed; its topics stay.",
		Action:      p.Context.Path("connector", x.Name, "delete"), Cancel: p.Context.Path("connector", x.Name)}
}

func (h *Handlers) confirmDeleteConnector(c echo.Context) error {
	x, p, err := h.connectorForDeletion(c)
	if err != nil {
		return err
	}
	d := connectorDeletion(p, x, "", "")
	im, err := h.Connectors.Impact(c.Request().Context(), httpserver.ScopeOf(c), x.Name)
	if err != nil {
		return err
	}
	d.Dependants = im.Dependants
	return h.Render(c, http.StatusOK, p, views.ConfirmDelete(p, d))
}

func (h *Handlers) connectorForDeletion(c echo.Context) (connect.Connector, views.Page, error) {
	p, err := h.Scoped(c, "connectors", "Delete connector")
	if err != nil {
		return connect.Connector{}, p, err
	}
	x, err := h.Connectors.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), false)
	if err != nil {
		return x, p, err
	}
	p.Subtitle = x.Name
	p.Crumbs = page.Crumbs(p.Context, "connectors", views.Crumb{Label: x.Identifier, Href: p.Context.Path("connector", x.Name)}, views.Crumb{Label: "delete"})
	return x, p, nil
}

func (h *Handlers) deleteConnector(c echo.Context) error {
	x, p, err := h.connectorForDeletion(c)
	if err != nil {
		return err
	}
	typed := strings.TrimSpace(c.FormValue("confirm"))
	if typed != x.Identifier && typed != x.Name {
		return h.Render(c, http.StatusUnprocessableEntity, p, views.ConfirmDelete(p, connectorDeletion(p, x, typed, "Type "+x.Identifier+" exactly to confirm.")))
	}
	if err := h.Connectors.Delete(c.Request().Context(), httpserver.ScopeOf(c), x.Name, ""); err != nil {
		return err
	}
	return h.Done(c, "Connector "+x.Name+" deleted.", p.Context.Path("connectors"))
}

// forgetSecrets blanks the secrets of a form shown again after a refusal:
// a page must not carry them back to the browser (its history, a
// screenshot, a shared screen). The person types them again.
func forgetSecrets(f *views.ConnectorForm) {
	forgot := false
	for i, r := range f.Rows {
		if (r.Secret || connect.IsSensitiveKey(r.Key)) && r.Value != "" && !connect.IsMask(r.Value) {
			f.Rows[i].Value, forgot = "", true
		}
	}
	if f.JSON != "" {
		var pasted map[string]any
		if json.Unmarshal([]byte(f.JSON), &pasted) == nil {
			for k, v := range pasted {
				if s, ok := v.(string); ok && s != "" && connect.IsSensitiveKey(k) && !connect.IsMask(s) {
					pasted[k], forgot = "", true
				}
			}
			b, _ := json.MarshalIndent(pasted, "", "  ")
			f.JSON = string(b)
		} else {
			f.JSON, forgot = "", true
		}
	}
	if forgot && f.Errors[""] == "" {
		f.Errors[""] = "Secrets are not shown again: type them again before saving."
	}
}
