package identity

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/views"
)

// listKeys shows the unit's API keys, optionally those expiring soon.
func (h *Pages) listKeys(c echo.Context) error {
	p, err := h.Scoped(c, "api-keys", "API keys")
	if err != nil {
		return err
	}
	within := c.QueryParam("expiring_within")
	q := iam.APIKeyQuery{ListQuery: portal.ListQuery{PageSize: page.Size, PageToken: c.QueryParam("page_token")}}
	if within != "" {
		d, err := iam.ParseSpan(within)
		if err != nil {
			return portal.Invalid("expiring_within", "expiring_within must be a number of days (7d), not %q", within)
		}
		q.ExpiringWithin = d
	}
	res, err := h.APIKeys.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.APIKeysPage(p, res.Items, within, res.NextPageToken, time.Now()))
}

// accountPage gathers an account's page: the account with its bindings,
// its keys on the stage's resources, and what uses it.
func (h *Pages) accountPage(c echo.Context, f *views.KeyForm) (views.Page, views.AccountView, error) {
	p, err := h.Scoped(c, "service-accounts", "Service account")
	if err != nil {
		return p, views.AccountView{}, err
	}
	ctx, scope, id := c.Request().Context(), httpserver.ScopeOf(c), c.Param("id")
	a, err := h.Accounts.Get(ctx, scope, id)
	if err != nil {
		return p, views.AccountView{}, err
	}
	keys, err := h.APIKeys.List(ctx, scope, iam.APIKeyQuery{Account: id, ListQuery: portal.ListQuery{PageSize: portal.MaxPageSize}})
	if err != nil {
		return p, views.AccountView{}, err
	}
	use, err := h.Accounts.Use(ctx, scope, id)
	if err != nil {
		return p, views.AccountView{}, err
	}
	p.Title, p.Subtitle = a.Identifier, a.Name
	p.Crumbs = page.Crumbs(p.Context, "service-accounts", views.Crumb{Label: a.Identifier})
	v := views.AccountView{Account: a, Keys: keys.Items, Use: use, Description: a.Description, Now: time.Now()}
	if f == nil {
		v.Form = h.keyForm(p, id)
	} else {
		v.Form = *f
	}
	return p, v, nil
}

// keyForm is an empty create-a-key form for an account.
func (h *Pages) keyForm(p views.Page, account string) views.KeyForm {
	f := views.KeyForm{Action: p.Context.Path("service-account", account, "api-keys"), Resource: iam.KeyForKafka, Errors: map[string]string{},
		Registry: p.Context.HasRegistry}
	if p.Context.KeyMaxAge > 0 {
		f.MaxAge = days(p.Context.KeyMaxAge)
	}
	return f
}

func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return strconv.Itoa(int(d/(24*time.Hour))) + " days"
	}
	return d.String()
}

func (h *Pages) showAccount(c echo.Context) error {
	p, v, err := h.accountPage(c, nil)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.AccountPage(p, v))
}

// createKey makes a key and hands out its secret on a page of its own,
// never cached; problems show the account's page again with the form.
func (h *Pages) createKey(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Service account")
	if err != nil {
		return err
	}
	id := c.Param("id")
	f := h.keyForm(p, id)
	f.Resource, f.Description, f.Expires = c.FormValue("resource"), strings.TrimSpace(c.FormValue("description")), c.FormValue("expires")
	in := iam.NewAPIKey{Resource: f.Resource, Description: f.Description}
	if f.Expires != "" {
		day, err := time.Parse("2006-01-02", f.Expires)
		if err != nil {
			return h.keyFormFailed(c, f, portal.Invalid("expires_at", "the expiry must be a date, not %q", f.Expires))
		}
		in.Expires = day.Add(24*time.Hour - time.Second) // the end of that day, UTC
	}
	k, err := h.APIKeys.Create(c.Request().Context(), httpserver.ScopeOf(c), id, in)
	if err != nil {
		return h.keyFormFailed(c, f, err)
	}
	return h.keyCreated(c, p, k)
}

// keyFormFailed shows the account's page with the form's problems.
func (h *Pages) keyFormFailed(c echo.Context, f views.KeyForm, err error) error {
	if !page.FieldErrors(err, f.Errors, "") {
		return err
	}
	p, v, perr := h.accountPage(c, &f)
	if perr != nil {
		return perr
	}
	status := page.Explain(err, "").Status
	if status == http.StatusBadRequest {
		status = http.StatusUnprocessableEntity
	}
	return h.Render(c, status, p, views.AccountPage(p, v))
}

// keyCreated hands a new key to the one page that shows its secret, by
// the session, and sends the browser there (303): the history then holds
// that page's address, never the form's post, and the page shows the
// secret once. Without a session to hand it by, the secret is shown in
// this answer.
func (h *Pages) keyCreated(c echo.Context, p views.Page, k iam.CreatedAPIKey) error {
	data, err := json.Marshal(k)
	if err == nil {
		err = h.Sessions.Handoff(c.Request(), handoffKey(k.ID), data)
	}
	if err != nil {
		return h.showSecret(c, p, k, http.StatusCreated)
	}
	return c.Redirect(http.StatusSeeOther, p.Context.Path("api-key", k.ID, "secret"))
}

func handoffKey(id string) string { return "api-key " + id }

// keySecret is the page of a new key's secret: the secret the first time,
// then (Back, a reload, a shared link) a page that says it was shown.
func (h *Pages) keySecret(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Service account")
	if err != nil {
		return err
	}
	id := c.Param("id")
	if data, ok := h.Sessions.TakeHandoff(c.Request(), handoffKey(id)); ok {
		var k iam.CreatedAPIKey
		if json.Unmarshal(data, &k) == nil && k.ID == id {
			return h.showSecret(c, p, k, http.StatusOK)
		}
	}
	p.Title = "API key " + id
	p.Crumbs = page.Crumbs(p.Context, "service-accounts", views.Crumb{Label: "API keys", Href: p.Context.Path("api-keys")}, views.Crumb{Label: id})
	return h.Render(c, http.StatusOK, p, views.KeySecretShownPage(p, id))
}

// showSecret is the one page that shows a key's secret: never cached,
// never in htmx's history.
func (h *Pages) showSecret(c echo.Context, p views.Page, k iam.CreatedAPIKey, status int) error {
	page.ShowsSecret(c)
	p.Title, p.Subtitle = "API key "+k.ID, k.OwnerName
	p.Crumbs = page.Crumbs(p.Context, "service-accounts", views.Crumb{Label: k.OwnerName, Href: p.Context.Path("service-account", k.Owner)}, views.Crumb{Label: "new key"})
	return h.Render(c, status, p, views.KeyCreatedPage(p, k, k.Owner))
}

// rotateKey makes a key's successor and shows its secret.
func (h *Pages) rotateKey(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Service account")
	if err != nil {
		return err
	}
	overlap := iam.DefaultOverlap
	if s := c.FormValue("overlap"); s != "" {
		if overlap, err = iam.ParseSpan(s); err != nil {
			return portal.Invalid("overlap", "overlap must be a number of days (1d) or a duration (36h), not %q", s)
		}
	}
	k, err := h.APIKeys.Rotate(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), overlap)
	if err != nil {
		return err
	}
	return h.keyCreated(c, p, k)
}

// updateAccount changes an account's description.
func (h *Pages) updateAccount(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Service account")
	if err != nil {
		return err
	}
	description := c.FormValue("description")
	a, err := h.Accounts.Update(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), description)
	if err != nil {
		errs := map[string]string{}
		if !page.FieldErrors(err, errs, "") {
			return err
		}
		p, v, perr := h.accountPage(c, nil)
		if perr != nil {
			return perr
		}
		v.Description, v.DescriptionError = description, errs["description"]+errs[""]
		status := page.Explain(err, "").Status
		if status == http.StatusBadRequest {
			status = http.StatusUnprocessableEntity
		}
		return h.Render(c, status, p, views.AccountPage(p, v))
	}
	return h.Done(c, "Description of "+a.Name+" saved.", p.Context.Path("service-account", a.ID))
}

// accountDeletion is the confirmation of an account's delete, which
// offers to delete its keys with it.
func (h *Pages) accountDeletion(c echo.Context, typed, problem string) (views.Page, views.Deletion, error) {
	p, v, err := h.accountPage(c, nil)
	if err != nil {
		return p, views.Deletion{}, err
	}
	p.Crumbs = append(p.Crumbs, views.Crumb{Label: "delete"})
	a := v.Account
	d := views.Deletion{Kind: "service account", Name: a.Name, Identifier: a.Identifier, Typed: typed, Problem: problem, WithKeys: len(v.Keys),
		Consequence: "its role bindings are removed, and applications using it or its keys can no longer connect. This cannot be undone.",
		Action:      p.Context.Path("service-account", a.ID, "delete"), Cancel: p.Context.Path("service-account", a.ID), Reason: c.FormValue("reason")}
	im, err := h.Accounts.Impact(c.Request().Context(), httpserver.ScopeOf(c), a.ID)
	if err != nil {
		return p, d, err
	}
	d.Dependants = im.Dependants
	return p, d, nil
}

func (h *Pages) confirmAccountDelete(c echo.Context) error {
	p, d, err := h.accountDeletion(c, "", "")
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.ConfirmDelete(p, d))
}

func (h *Pages) deleteAccount(c echo.Context) error {
	typed := strings.TrimSpace(c.FormValue("confirm"))
	p, d, err := h.accountDeletion(c, typed, "")
	if err != nil {
		return err
	}
	if typed != d.Identifier && typed != d.Name {
		d.Problem = "Type " + d.Identifier + " exactly to confirm."
		return h.Render(c, http.StatusUnprocessableEntity, p, views.ConfirmDelete(p, d))
	}
	// The name was typed: the service is told the account's full name.
	opt := portal.DeleteOptions{WithKeys: c.FormValue("with_keys") == "true", Confirm: d.Name, Reason: c.FormValue("reason")}
	gone, err := h.Accounts.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), opt)
	if portal.Is(err, portal.Conflict) {
		d.Problem = portal.FirstMessage(err)
		return h.Render(c, http.StatusConflict, p, views.ConfirmDelete(p, d))
	}
	if err != nil {
		return err
	}
	msg := "Service account " + gone.Account.Name + " deleted"
	switch n := len(gone.Keys); n {
	case 0:
	case 1:
		msg += ", with its API key"
	default:
		msg += ", with its " + strconv.Itoa(n) + " API keys"
	}
	return h.Done(c, msg+".", p.Context.Path("service-accounts"))
}

// keyDeletion asks to type a key's id before deleting it.
func (h *Pages) keyDeletion(c echo.Context, typed, problem string) (views.Page, views.Deletion, error) {
	p, err := h.Scoped(c, "api-keys", "Delete API key")
	if err != nil {
		return p, views.Deletion{}, err
	}
	k, err := h.APIKeys.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return p, views.Deletion{}, err
	}
	p.Crumbs = page.Crumbs(p.Context, "api-keys", views.Crumb{Label: k.ID}, views.Crumb{Label: "delete"})
	d := views.Deletion{Kind: "API key", Name: k.ID, Identifier: k.ID, Typed: typed, Problem: problem,
		Consequence: "applications using it (" + k.OwnerName + " on " + k.Resource + ") can no longer connect. " +
			"This cannot be undone; rotate a key to replace it without a gap.",
		Action: p.Context.Path("api-key", k.ID, "delete"), Cancel: p.Context.Path("service-account", k.Owner)}
	return p, d, nil
}

func (h *Pages) confirmKeyDelete(c echo.Context) error {
	p, d, err := h.keyDeletion(c, "", "")
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.ConfirmDelete(p, d))
}

func (h *Pages) deleteKey(c echo.Context) error {
	typed := strings.TrimSpace(c.FormValue("confirm"))
	p, d, err := h.keyDeletion(c, typed, "")
	if err != nil {
		return err
	}
	if typed != d.Identifier {
		d.Problem = "Type " + d.Identifier + " exactly to confirm."
		return h.Render(c, http.StatusUnprocessableEntity, p, views.ConfirmDelete(p, d))
	}
	if err := h.APIKeys.Delete(c.Request().Context(), httpserver.ScopeOf(c), d.Name); err != nil {
		return err
	}
	return h.Done(c, "API key "+d.Name+" deleted.", p.Context.Path("api-keys"))
}
