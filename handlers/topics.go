package handlers

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/topicconfig"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Handlers) listTopics(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	p, err := h.Page(c, "Topics", "topics", scope)
	if err != nil {
		return err
	}
	// The list's state is all in its address, so that it can be shared.
	size := views.DefaultTopicPageSize
	if n, err := strconv.Atoi(c.QueryParam("page_size")); err == nil && slices.Contains(views.PageSizes, n) {
		size = n
	}
	number, err := strconv.Atoi(c.QueryParam("page"))
	if err != nil || number < 1 {
		number = 1
	}
	sortBy := c.QueryParam("sort")
	if sortBy != portal.SortByPartitions {
		sortBy = ""
	}
	q := portal.ListQuery{PageSize: size, Search: c.QueryParam("q"), Descending: c.QueryParam("order") == "desc", Unit: c.QueryParam("unit"),
		SortBy: sortBy, Offset: (number - 1) * size, Stats: true}
	res, err := h.Topics.List(c.Request().Context(), scope, q)
	if err != nil {
		return err
	}
	l := views.TopicList{Items: res.Items, Total: res.Total, Search: q.Search, Desc: q.Descending, Next: res.NextPageToken,
		Offset: q.Offset, PageSize: size, SortBy: sortBy, Unit: p.UnitFilter}
	p.Subtitle = p.Context.Prefix + "*"
	if p.Context.WholeCluster {
		p.Subtitle = "the whole " + p.Context.LandingZone + " cluster in " + scope.Stage
	}
	if page.IsHTMX(c) && c.Request().Header.Get("HX-Target") == "topic-results" {
		return page.Fragment(c, http.StatusOK, views.TopicResults(p, l))
	}
	return h.Render(c, http.StatusOK, p, views.TopicsPage(p, l))
}

func (h *Handlers) showTopic(c echo.Context) error {
	scope, name := httpserver.ScopeOf(c), c.Param("name")
	p, err := h.Page(c, "Topic", "topics", scope)
	if err != nil {
		return err
	}
	defaults := c.QueryParam("defaults") == "1"
	t, err := h.Topics.Get(c.Request().Context(), scope, name, defaults)
	if err != nil {
		return err
	}
	p.Title, p.Subtitle = t.Identifier, t.Name
	p.Crumbs = page.Crumbs(p.Context, "topics", views.Crumb{Label: t.Identifier})
	links, err := h.Topics.Links(c.Request().Context(), scope, t.Name)
	if err != nil {
		return err
	}
	// Who else reads it: the page does without when the database cannot
	// say.
	shared, err := h.Grants.Grants(c.Request().Context(), scope, grant.GrantQuery{ListQuery: portal.ListQuery{PageSize: portal.MaxPageSize},
		Topic: t.Name, State: grant.GrantActive})
	problem := ""
	if err != nil {
		problem = portal.Problems(err)[0].Message
	}
	return h.Render(c, http.StatusOK, p, views.TopicPage(p, t, defaults, templ.Join(views.TopicLinksView(p, links), views.TopicGrantsView(p, shared.Items, problem))))
}

// topicSettings is a topic's Settings tab: every setting in force.
func (h *Handlers) topicSettings(c echo.Context) error {
	p, t, err := h.topicSubpage(c, "settings", true)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.TopicSettingsPage(p, t))
}

// topicConsumers is a topic's Consumers tab: the unit's groups reading
// it, with their lag. When they cannot be had, the page says so.
func (h *Handlers) topicConsumers(c echo.Context) error {
	p, t, err := h.topicSubpage(c, "consumers", false)
	if err != nil {
		return err
	}
	consumers, err := h.Groups.Consumers(c.Request().Context(), httpserver.ScopeOf(c), t.Name)
	problem := ""
	if err != nil {
		problem = portal.Problems(err)[0].Message
	}
	return h.Render(c, http.StatusOK, p, views.TopicConsumersPage(p, t.Name, views.Consumers(p, consumers, problem)))
}

// topicForm starts a form with the settings and the caller's prefix.
func topicForm(p views.Page) views.TopicForm {
	return views.TopicForm{Prefix: p.Context.Prefix, Values: map[string]string{}, Errors: map[string]string{},
		Settings: topicconfig.TopicSettings(), MinPartitions: 1, Partitions: "1"}
}

func (h *Handlers) newTopic(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	p, err := h.Page(c, "Create topic", "topics", scope)
	if err != nil {
		return err
	}
	f := topicForm(p)
	f.Action, f.Cancel = p.Context.Path("topics"), p.Context.Path("topics")
	p.Crumbs = page.Crumbs(p.Context, "topics", views.Crumb{Label: "new"})
	return h.Render(c, http.StatusOK, p, views.TopicFormView(p, f))
}

// readTopicForm reads the posted form into f and returns the partition
// count (nil when empty) and the settings that were filled in.
func readTopicForm(c echo.Context, f *views.TopicForm) (*int, map[string]string) {
	f.Name = strings.TrimSpace(c.FormValue("name"))
	f.Partitions = strings.TrimSpace(c.FormValue("partitions_count"))
	var partitions *int
	if f.Partitions != "" {
		n, err := strconv.Atoi(f.Partitions)
		if err != nil {
			f.Errors["partitions_count"] = fmt.Sprintf("must be a whole number, not %q", f.Partitions)
		} else {
			partitions = &n
		}
	}
	cfg := map[string]string{}
	for _, s := range f.Settings {
		if v := strings.TrimSpace(c.FormValue("config." + s.Key)); v != "" {
			cfg[s.Key], f.Values[s.Key] = v, v
		}
	}
	return partitions, cfg
}

// formFailed shows the form again with the service's complaints next to
// their fields.
func (h *Handlers) formFailed(c echo.Context, p views.Page, f views.TopicForm, err error) error {
	if !page.FieldErrors(err, f.Errors, "name") {
		return err
	}
	return h.FailedForm(c, p, err, func() templ.Component { return views.TopicFormView(p, f) })
}

func (h *Handlers) createTopic(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	p, err := h.Page(c, "Create topic", "topics", scope)
	if err != nil {
		return err
	}
	p.Crumbs = page.Crumbs(p.Context, "topics", views.Crumb{Label: "new"})
	f := topicForm(p)
	f.Action, f.Cancel = p.Context.Path("topics"), p.Context.Path("topics")
	partitions, cfg := readTopicForm(c, &f)
	if len(f.Errors) > 0 {
		return h.formFailed(c, p, f, portal.Invalid("partitions_count", "%s", f.Errors["partitions_count"]))
	}
	t, err := h.Topics.Create(c.Request().Context(), scope, topic.NewTopic{Name: f.Name, Partitions: partitions, Config: cfg})
	if err != nil {
		return h.formFailed(c, p, f, err)
	}
	return h.Done(c, "Topic "+t.Name+" created.", p.Context.Path("topic", t.Name))
}

func (h *Handlers) editTopic(c echo.Context) error {
	scope, name := httpserver.ScopeOf(c), c.Param("name")
	p, err := h.Page(c, "Edit topic", "topics", scope)
	if err != nil {
		return err
	}
	t, err := h.Topics.Get(c.Request().Context(), scope, name, false)
	if err != nil {
		return err
	}
	f := editForm(p, t)
	for k, v := range t.Config {
		f.Values[k] = v
	}
	p.Title, p.Subtitle = "Edit "+t.Identifier, t.Name
	p.Crumbs = page.Crumbs(p.Context, "topics", views.Crumb{Label: t.Identifier, Href: p.Context.Path("topic", t.Name)}, views.Crumb{Label: "edit"})
	return h.Render(c, http.StatusOK, p, views.TopicFormView(p, f))
}

func editForm(p views.Page, t topic.TopicDetail) views.TopicForm {
	f := topicForm(p)
	f.Edit, f.Name, f.Version = true, t.Name, t.Version
	f.Partitions, f.MinPartitions = strconv.Itoa(t.Partitions), t.Partitions
	f.Action, f.Cancel = p.Context.Path("topic", t.Name, "edit"), p.Context.Path("topic", t.Name)
	return f
}

// updateTopic sets the desired state from the form: partitions, and the
// settings filled in (emptied settings go back to their defaults).
func (h *Handlers) updateTopic(c echo.Context) error {
	scope, name := httpserver.ScopeOf(c), c.Param("name")
	p, err := h.Page(c, "Edit topic", "topics", scope)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	cur, err := h.Topics.Get(ctx, scope, name, false)
	if err != nil {
		return err
	}
	p.Title, p.Subtitle = "Edit "+cur.Identifier, cur.Name
	p.Crumbs = page.Crumbs(p.Context, "topics", views.Crumb{Label: cur.Identifier, Href: p.Context.Path("topic", cur.Name)}, views.Crumb{Label: "edit"})
	f := editForm(p, cur)
	// The version the form was opened at; a form from before versions
	// (or a script) without it saves over whatever is there.
	f.Version = c.FormValue("version")
	partitions, cfg := readTopicForm(c, &f)
	f.Name = cur.Name
	if len(f.Errors) > 0 {
		return h.formFailed(c, p, f, portal.Invalid("partitions_count", "%s", f.Errors["partitions_count"]))
	}
	t, err := h.Topics.Replace(ctx, scope, cur.Name, topic.TopicState{Partitions: partitions, Config: cfg, ConfigGiven: true,
		IfMatch: portal.IfMatch(f.Version)})
	if portal.Is(err, portal.PreconditionFailed) {
		err = page.ChangedMeanwhile("topic "+cur.Name, p.Context.Path("topic", cur.Name, "edit"))
	}
	if err != nil {
		return h.formFailed(c, p, f, err)
	}
	return h.Done(c, "Topic "+t.Name+" saved.", p.Context.Path("topic", t.Name))
}

func (h *Handlers) confirmDelete(c echo.Context) error {
	scope, name := httpserver.ScopeOf(c), c.Param("name")
	p, err := h.Page(c, "Delete topic", "topics", scope)
	if err != nil {
		return err
	}
	t, err := h.Topics.Get(c.Request().Context(), scope, name, false)
	if err != nil {
		return err
	}
	p.Subtitle = t.Name
	p.Crumbs = page.Crumbs(p.Context, "topics", views.Crumb{Label: t.Identifier, Href: p.Context.Path("topic", t.Name)}, views.Crumb{Label: "delete"})
	d := topicDeletion(p, t, "", "")
	// What the delete would break, before it is asked for.
	im, err := h.Topics.Impact(c.Request().Context(), scope, t.Name)
	if err != nil {
		return err
	}
	d.Dependants = im.Dependants
	return h.Render(c, http.StatusOK, p, views.ConfirmDelete(p, d))
}

// deleteTopic deletes once the person typed the topic's identifier (or
// its full name).
func (h *Handlers) deleteTopic(c echo.Context) error {
	scope, name := httpserver.ScopeOf(c), c.Param("name")
	p, err := h.Page(c, "Delete topic", "topics", scope)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	t, err := h.Topics.Get(ctx, scope, name, false)
	if err != nil {
		return err
	}
	typed, reason := strings.TrimSpace(c.FormValue("confirm")), c.FormValue("reason")
	again := func(status int, problem string, dependants []portal.Dependant) error {
		p.Subtitle = t.Name
		p.Crumbs = page.Crumbs(p.Context, "topics", views.Crumb{Label: t.Identifier, Href: p.Context.Path("topic", t.Name)}, views.Crumb{Label: "delete"})
		d := topicDeletion(p, t, typed, problem)
		d.Dependants, d.Reason = dependants, reason
		return h.Render(c, status, p, views.ConfirmDelete(p, d))
	}
	if typed != t.Identifier && typed != t.Name {
		im, err := h.Topics.Impact(ctx, scope, t.Name)
		if err != nil {
			return err
		}
		return again(http.StatusUnprocessableEntity, "Type "+t.Identifier+" exactly to confirm.", im.Dependants)
	}
	if err := h.Topics.Delete(ctx, scope, t.Name, portal.DeleteOptions{Confirm: typed, Reason: reason}); err != nil {
		// Live dependants: the page lists them and says who may go on.
		if ps := portal.Problems(err); len(ps) > 1 && ps[1].Field == "dependants" {
			im, ierr := h.Topics.Impact(ctx, scope, t.Name)
			if ierr != nil {
				return err
			}
			return again(page.Explain(err, "").Status, ps[0].Message, im.Dependants)
		}
		return err
	}
	return h.Done(c, "Topic "+t.Name+" deleted.", p.Context.Path("topics"))
}

func topicDeletion(p views.Page, t topic.TopicDetail, typed, problem string) views.Deletion {
	return views.Deletion{Kind: "topic", Name: t.Name, Identifier: t.Identifier, Typed: typed, Problem: problem,
		Consequence: "every record in it is deleted, and producers and consumers using it will fail. This cannot be undone.",
		Action:      p.Context.Path("topic", t.Name, "delete"), Cancel: p.Context.Path("topic", t.Name)}
}

// topicSubpage opens a page of one topic (its tab, its edit form): the
// context, the topic (with every setting when defaults), and the title
// and crumbs "<identifier>: <what>".
func (h *Handlers) topicSubpage(c echo.Context, what string, defaults bool) (views.Page, topic.TopicDetail, error) {
	scope := httpserver.ScopeOf(c)
	p, err := h.Page(c, "Topic", "topics", scope)
	if err != nil {
		return p, topic.TopicDetail{}, err
	}
	t, err := h.Topics.Get(c.Request().Context(), scope, c.Param("name"), defaults)
	if err != nil {
		return p, t, err
	}
	p.Title, p.Subtitle = t.Identifier+": "+what, t.Name
	p.Crumbs = page.Crumbs(p.Context, "topics", views.Crumb{Label: t.Identifier, Href: p.Context.Path("topic", t.Name)}, views.Crumb{Label: what})
	return p, t, nil
}
