package handlers

import (
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/document"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Handlers) listRequests(c echo.Context) error {
	p, err := h.Scoped(c, "change-requests", "Change requests")
	if err != nil {
		return err
	}
	list, err := h.Requests.Requests(c.Request().Context(), httpserver.ScopeOf(c), c.QueryParam("state"))
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.RequestsPage(p, list))
}

func (h *Handlers) showRequest(c echo.Context) error {
	id := c.Param("id")
	p, err := h.Scoped(c, "change-requests", "Change request "+id, views.Crumb{Label: id})
	if err != nil {
		return err
	}
	r, err := h.Requests.ChangeRequest(c.Request().Context(), httpserver.ScopeOf(c), id)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.RequestPage(p, r))
}

func (h *Handlers) newRequest(c echo.Context) error {
	p, err := h.Scoped(c, "change-requests", "New change request", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := views.RequestForm{}
	if c.QueryParam("from") == "export" {
		// The unit's resources as they are, to change in place.
		doc, err := h.Plans.Export(c.Request().Context(), httpserver.ScopeOf(c))
		if err != nil {
			return err
		}
		b, err := document.YAML(doc)
		if err != nil {
			return err
		}
		f.Document, f.Drafted = string(b), true
	}
	return h.Render(c, http.StatusOK, p, views.NewRequestPage(p, f))
}

// draftRequest turns a topic form that a Developer may not send in a
// read-only stage into a change request's document, shown in the
// request form to review, explain and file: nothing is changed or filed
// yet.
func (h *Handlers) draftRequest(c echo.Context) error {
	p, err := h.Scoped(c, "change-requests", "New change request", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := topicForm(p)
	partitions, cfg := readTopicForm(c, &f)
	if len(f.Errors) > 0 {
		return portal.Invalid("partitions_count", "%s", f.Errors["partitions_count"])
	}
	name := f.Name
	if full := c.FormValue("topic"); full != "" {
		name = strings.TrimPrefix(full, p.Context.Prefix) // an edit: the topic's identifier
	}
	if name == "" {
		return portal.Missing("name")
	}
	doc := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindTopic, Name: name,
		Spec: &portal.TopicDecl{Partitions: partitions, Config: cfg}}}}
	text, err := document.YAML(doc)
	if err != nil {
		return err
	}
	c.Response().Header().Set("HX-Push-Url", p.Context.Path("change-requests", "new"))
	return h.Render(c, http.StatusOK, p, views.NewRequestPage(p, views.RequestForm{Document: string(text), Drafted: true}))
}

// fileRequest files the pasted document as a change request.
func (h *Handlers) fileRequest(c echo.Context) error {
	p, err := h.Scoped(c, "change-requests", "New change request", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := views.RequestForm{Document: c.FormValue("document"), Reason: c.FormValue("reason")}
	doc, err := document.Read([]byte(f.Document))
	var r changerequest.ChangeRequest
	if err == nil {
		r, err = h.Requests.Request(c.Request().Context(), httpserver.ScopeOf(c), doc, f.Reason)
	}
	if err == nil {
		return h.Done(c, "Change request "+r.ID+" filed; it waits for a review.", p.Context.Path("change-request", r.ID))
	}
	ps := portal.Problems(err)
	if len(ps) == 0 {
		return err
	}
	f.Errors = page.ProblemLines(ps)
	return h.FailedForm(c, p, err, func() templ.Component { return views.NewRequestPage(p, f) })
}

// decideRequest approves, rejects or withdraws a request from its page.
func (h *Handlers) decideRequest(c echo.Context) error {
	id, what := c.Param("id"), c.Param("action")
	scope, ctx := httpserver.ScopeOf(c), c.Request().Context()
	p, err := h.Scoped(c, "change-requests", "Change request "+id)
	if err != nil {
		return err
	}
	var r changerequest.ChangeRequest
	switch what {
	case "approve":
		r, err = h.Requests.Approve(ctx, scope, id, c.FormValue("comment"))
	case "reject":
		r, err = h.Requests.Reject(ctx, scope, id, c.FormValue("comment"))
	case "withdraw":
		r, err = h.Requests.Withdraw(ctx, scope, id)
	default:
		return portal.New(portal.NotFound, "not found")
	}
	if err != nil {
		return err
	}
	return h.Done(c, "Change request "+r.ID+" is "+r.State+".", p.Context.Path("change-request", id))
}
