package identity

import (
	"encoding/csv"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Pages) listAccounts(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Service accounts")
	if err != nil {
		return err
	}
	q := portal.ListQuery{PageSize: page.Size, Search: c.QueryParam("q"), PageToken: c.QueryParam("page_token"), Unit: c.QueryParam("unit")}
	res, err := h.Accounts.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	p.Subtitle = p.Context.AccountPrefix + "*"
	return h.Render(c, http.StatusOK, p, views.AccountsPage(p, res.Items, res.Total, res.NextPageToken, q.Search))
}

func accountForm(p views.Page) views.AccountForm {
	return views.AccountForm{Action: p.Context.Path("service-accounts"), Prefix: p.Context.AccountPrefix,
		Type: "producer", Errors: map[string]string{}, Cancel: p.Context.Path("service-accounts")}
}

func (h *Pages) newAccount(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Create service account", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.AccountFormView(p, accountForm(p)))
}

func (h *Pages) createAccount(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Create service account", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := accountForm(p)
	f.Name, f.Type, f.Description = strings.TrimSpace(c.FormValue("name")), c.FormValue("type"), strings.TrimSpace(c.FormValue("description"))
	a, err := h.Accounts.Create(c.Request().Context(), httpserver.ScopeOf(c),
		iam.NewServiceAccount{Name: f.Name, Type: f.Type, Description: f.Description})
	if err != nil {
		if !page.FieldErrors(err, f.Errors, "name") {
			return err
		}
		return h.FailedForm(c, p, err, func() templ.Component { return views.AccountFormView(p, f) })
	}
	if a.Job != "" {
		return h.Done(c, "Service account "+a.Name+" is still being made (Confluent Cloud is slow to answer); this page shows when it has its role bindings.",
			p.Context.Path("service-accounts", "bulk", a.Job))
	}
	return h.Done(c, "Service account "+a.Name+" ("+a.ID+") created with "+strconv.Itoa(len(a.RoleBindings))+
		" role bindings; Confluent Cloud enforces new role bindings within about 90 seconds.",
		p.Context.Path("service-account", a.ID))
}

func bulkForm(p views.Page) views.BulkForm {
	return views.BulkForm{Action: p.Context.Path("service-accounts", "bulk"), Errors: map[string]string{}, Cancel: p.Context.Path("service-accounts")}
}

func (h *Pages) bulkForm(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Bulk create service accounts", views.Crumb{Label: "bulk"})
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.BulkFormView(p, bulkForm(p)))
}

// readBulk reads the pasted list and the uploaded CSV into items.
func readBulk(c echo.Context, f *views.BulkForm) []iam.NewServiceAccount {
	f.Text = c.FormValue("accounts")
	text := f.Text
	if fh, err := c.FormFile("file"); err == nil {
		file, err := fh.Open()
		if err == nil {
			data, _ := io.ReadAll(io.LimitReader(file, 1<<20))
			file.Close()
			text = strings.TrimSpace(text + "\n" + string(data))
		}
	} else if !errors.Is(err, http.ErrMissingFile) && !errors.Is(err, http.ErrNotMultipart) {
		f.Errors[""] = "the uploaded file could not be read"
	}
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord, r.TrimLeadingSpace = -1, true
	if first, _, _ := strings.Cut(strings.TrimSpace(text), "\n"); strings.Contains(first, ";") && !strings.Contains(first, ",") {
		// Spreadsheets in many locales save CSV with semicolons.
		r.Comma = ';'
	}
	var items []iam.NewServiceAccount
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			f.Errors[""] = "the list is not valid CSV: " + err.Error()
			return nil
		}
		line, _ := r.FieldPos(0)
		if len(row) == 0 || (len(row) == 1 && strings.TrimSpace(row[0]) == "") {
			continue
		}
		if line == 1 && strings.EqualFold(strings.TrimSpace(row[0]), "name") {
			continue
		}
		it := iam.NewServiceAccount{Name: strings.TrimSpace(row[0])}
		if len(row) > 1 {
			it.Type = strings.TrimSpace(row[1])
		}
		if len(row) > 2 {
			it.Description = strings.TrimSpace(strings.Join(row[2:], string(r.Comma)))
		}
		items = append(items, it)
		f.Lines = append(f.Lines, line)
	}
	return items
}

// itemRef finds the items[i] references of the service's problems.
var itemRef = regexp.MustCompile(`items\[(\d+)\]`)

// byLine names the rows of a refused batch by their line in the pasted
// text or file (1-based, the header counted), as a person counts them,
// instead of items[i].
func byLine(errs map[string]string, lines []int) {
	line := func(ref string) string {
		i, _ := strconv.Atoi(itemRef.FindStringSubmatch(ref)[1])
		if i < len(lines) {
			return "line " + strconv.Itoa(lines[i])
		}
		return ref
	}
	for k, msg := range errs {
		if !itemRef.MatchString(k) {
			continue
		}
		delete(errs, k)
		key := itemRef.ReplaceAllStringFunc(k, line)
		key = strings.Replace(key, ".", " · ", 1)
		errs[key] = itemRef.ReplaceAllStringFunc(msg, line)
	}
}

// bulkRefresh is how often a page without JavaScript reloads a running
// bulk create (htmx polls every second).
const bulkRefresh = "2"

// bulkCreate starts a bulk create, journalled before anything is
// created. With htmx the form shows its progress and polls; without
// JavaScript the browser is sent to the job's page (POST, redirect, GET),
// which reloads itself until the job is done: a reload never sends the
// batch twice.
func (h *Pages) bulkCreate(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Bulk create service accounts", views.Crumb{Label: "bulk"})
	if err != nil {
		return err
	}
	f := bulkForm(p)
	items := readBulk(c, &f)
	if len(f.Errors) > 0 {
		return h.FailedForm(c, p, portal.New(portal.MalformedBody, "%s", f.Errors[""]), func() templ.Component { return views.BulkFormView(p, f) })
	}
	job, err := h.Accounts.StartBulk(c.Request().Context(), httpserver.ScopeOf(c), items)
	if err != nil {
		return h.bulkFailed(c, p, f, err)
	}
	if !page.IsHTMX(c) {
		return c.Redirect(http.StatusSeeOther, p.Context.Path("service-accounts", "bulk", job.ID))
	}
	return h.bulkState(c, p, f, job)
}

// bulkProgress shows a bulk create: the progress poll of htmx, and the
// page a browser without JavaScript reloads.
func (h *Pages) bulkProgress(c echo.Context) error {
	p, err := h.Scoped(c, "service-accounts", "Bulk create service accounts", views.Crumb{Label: "bulk"})
	if err != nil {
		return err
	}
	job, err := h.Accounts.BulkJob(c.Request().Context(), httpserver.ScopeOf(c), c.Param("job"), 0)
	if err != nil {
		return err
	}
	if job.State == iam.JobRunning && !page.IsHTMX(c) {
		c.Response().Header().Set("Refresh", bulkRefresh)
	}
	return h.bulkState(c, p, bulkForm(p), job)
}

// bulkState shows a bulk create as far as it has come: the rows known so
// far with a progress bar, or the outcome.
func (h *Pages) bulkState(c echo.Context, p views.Page, f views.BulkForm, job iam.BulkJob) error {
	created := 0
	for i, r := range job.Results {
		row := bulkRow(job.Items, r, i)
		if row.Status == http.StatusCreated || row.Status == http.StatusOK {
			created++
		}
		if r != nil {
			f.Done++
		}
		f.Results = append(f.Results, row)
	}
	f.Text = ""
	switch {
	case job.State == iam.JobRunning:
		f.PollURL = p.Context.Path("service-accounts", "bulk", job.ID)
	case job.State == iam.JobFailed:
		f.Errors[""] = "The batch stopped before every account was tried (" + job.Error + "); the rows show what was done."
	case page.IsHTMX(c):
		page.Trigger(c, "success", strconv.Itoa(created)+" of "+strconv.Itoa(len(job.Results))+" service accounts created or completed.")
	}
	if page.IsHTMX(c) {
		return page.Fragment(c, http.StatusOK, views.BulkFormView(p, f))
	}
	return h.Render(c, http.StatusOK, p, views.BulkFormView(p, f))
}

// bulkFailed shows the form again with the problems of a refused batch.
func (h *Pages) bulkFailed(c echo.Context, p views.Page, f views.BulkForm, err error) error {
	if !page.FieldErrors(err, f.Errors, "") {
		return err
	}
	byLine(f.Errors, f.Lines)
	return h.FailedForm(c, p, err, func() templ.Component { return views.BulkFormView(p, f) })
}

// bulkRow is one line of the outcome table; r is nil while pending.
func bulkRow(items []iam.NewServiceAccount, r *iam.BulkResult, i int) views.BulkRow {
	row := views.BulkRow{Index: i, Name: items[i].Name + " (" + items[i].Type + ")"}
	switch {
	case r == nil:
	case r.Error != nil:
		row.Status, row.Message = r.Error.Kind.Status(), r.Error.Message
	case r.Outcome == iam.BulkCompleted:
		row.Status, row.Name, row.ID = http.StatusOK, r.Item.Name, r.Item.ID
	default:
		row.Status, row.Name, row.ID = http.StatusCreated, r.Item.Name, r.Item.ID
	}
	return row
}
