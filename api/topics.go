package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func (a *API) listTopics(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	q.SortBy = c.QueryParam("sort")
	if q.Stats, err = boolParam(c, "stats"); err != nil {
		return err
	}
	page, err := a.Topics.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := wire.List[wire.Topic]{Items: make([]wire.Topic, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, t := range page.Items {
		out.Items[i] = present.Topic(t)
	}
	return writeTopicList(c, out)
}

func (a *API) getTopic(c echo.Context) error {
	withDefaults, err := boolParam(c, "include_defaults")
	if err != nil {
		return err
	}
	d, err := a.Topics.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), withDefaults)
	if err != nil {
		return err
	}
	etag(c, d.Version)
	return c.JSON(http.StatusOK, present.TopicDetail(d))
}

func (a *API) createTopic(c echo.Context) error {
	var in wire.TopicCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	d, err := a.Topics.Create(c.Request().Context(), scope,
		topic.NewTopic{Name: in.Name, Partitions: in.PartitionsCount, Config: in.Config})
	if err != nil {
		return err
	}
	location(c, scope, "topic", d.Name)
	etag(c, d.Version)
	return c.JSON(http.StatusCreated, present.TopicDetail(d))
}

func (a *API) replaceTopic(c echo.Context) error {
	var in wire.TopicReplace
	if err := decode(c, &in); err != nil {
		return err
	}
	d, err := a.Topics.Replace(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"),
		topic.TopicState{Partitions: in.PartitionsCount, Config: in.Config, ConfigGiven: in.Config != nil, IfMatch: ifMatch(c)})
	if err != nil {
		return err
	}
	etag(c, d.Version)
	return c.JSON(http.StatusOK, present.TopicDetail(d))
}

func (a *API) patchTopic(c echo.Context) error {
	var in wire.TopicPatch
	if err := decode(c, &in); err != nil {
		return err
	}
	d, err := a.Topics.Patch(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"),
		topic.TopicPatch{Partitions: in.PartitionsCount, Config: in.Config, IfMatch: ifMatch(c)})
	if err != nil {
		return err
	}
	etag(c, d.Version)
	return c.JSON(http.StatusOK, present.TopicDetail(d))
}

// deleteTopic deletes a topic; ?dry_run=true answers its impact instead.
// With live dependants an Admin names it (?confirm=) and gives a reason
// (?reason=).
func (a *API) deleteTopic(c echo.Context) error {
	dry, err := boolParam(c, "dry_run")
	if err != nil {
		return err
	}
	if dry {
		return a.topicImpact(c)
	}
	opt := portal.DeleteOptions{IfMatch: ifMatch(c), Confirm: c.QueryParam("confirm"), Reason: c.QueryParam("reason")}
	if err := a.Topics.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), opt); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// topicImpact lists what depends on a topic.
func (a *API) topicImpact(c echo.Context) error {
	im, err := a.Topics.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Impact(im))
}
