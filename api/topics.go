package api

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// topicJSON is a topic in a list.
type topicJSON struct {
	Name              string `json:"name"`
	Identifier        string `json:"identifier"`
	BusinessUnit      string `json:"business_unit,omitempty"`
	PartitionsCount   int    `json:"partitions_count"`
	OutsideConvention bool   `json:"outside_convention"`
	// Stats with ?stats=true.
	Records       *int64 `json:"records,omitempty"`
	RetentionMs   string `json:"retention_ms,omitempty"`
	CleanupPolicy string `json:"cleanup_policy,omitempty"`
}

// topicDetailJSON is one topic with its settings.
type topicDetailJSON struct {
	topicJSON
	ReplicationFactor int               `json:"replication_factor"`
	Config            map[string]string `json:"config"`
	Defaults          map[string]string `json:"defaults,omitempty"`
	Partitions        []partitionJSON   `json:"partitions"`
}

type partitionJSON struct {
	Partition int   `json:"partition"`
	Leader    int   `json:"leader"`
	Replicas  []int `json:"replicas"`
	ISR       []int `json:"isr"`
}

func topicOut(t portal.Topic) topicJSON {
	out := topicJSON{Name: t.Name, Identifier: t.Identifier, BusinessUnit: t.BU,
		PartitionsCount: t.Partitions, OutsideConvention: t.OutsideConvention}
	if t.Stats != nil {
		out.Records, out.RetentionMs, out.CleanupPolicy = &t.Stats.Records, t.Stats.RetentionMs, t.Stats.CleanupPolicy
	}
	return out
}

func topicDetailOut(d portal.TopicDetail) topicDetailJSON {
	out := topicDetailJSON{topicJSON: topicOut(d.Topic), ReplicationFactor: d.ReplicationFactor,
		Config: d.Config, Defaults: d.Defaults, Partitions: []partitionJSON{}}
	if out.Config == nil {
		out.Config = map[string]string{}
	}
	for _, p := range d.PartitionList {
		out.Partitions = append(out.Partitions, partitionJSON{Partition: p.ID, Leader: p.Leader, Replicas: p.Replicas, ISR: p.ISR})
	}
	return out
}

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
	out := listResponse[topicJSON]{Items: make([]topicJSON, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, t := range page.Items {
		out.Items[i] = topicOut(t)
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
	return c.JSON(http.StatusOK, topicDetailOut(d))
}

type createTopicRequest struct {
	Name            string            `json:"name"`
	PartitionsCount *int              `json:"partitions_count"`
	Config          map[string]string `json:"config"`
}

func (a *API) createTopic(c echo.Context) error {
	var in createTopicRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	d, err := a.Topics.Create(c.Request().Context(), scope,
		portal.NewTopic{Name: in.Name, Partitions: in.PartitionsCount, Config: in.Config})
	if err != nil {
		return err
	}
	location(c, scope, "topic", d.Name)
	etag(c, d.Version)
	return c.JSON(http.StatusCreated, topicDetailOut(d))
}

// replaceTopicRequest is the desired state. Fields that GET returns but
// that cannot be set are accepted and ignored, so a GET response can be
// edited and sent back.
type replaceTopicRequest struct {
	PartitionsCount *int              `json:"partitions_count"`
	Config          map[string]string `json:"config"`

	Name              json.RawMessage `json:"name"`
	Identifier        json.RawMessage `json:"identifier"`
	BusinessUnit      json.RawMessage `json:"business_unit"`
	OutsideConvention json.RawMessage `json:"outside_convention"`
	ReplicationFactor json.RawMessage `json:"replication_factor"`
	Defaults          json.RawMessage `json:"defaults"`
	Partitions        json.RawMessage `json:"partitions"`
}

func (a *API) replaceTopic(c echo.Context) error {
	var in replaceTopicRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	d, err := a.Topics.Replace(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"),
		portal.TopicState{Partitions: in.PartitionsCount, Config: in.Config, ConfigGiven: in.Config != nil, IfMatch: ifMatch(c)})
	if err != nil {
		return err
	}
	etag(c, d.Version)
	return c.JSON(http.StatusOK, topicDetailOut(d))
}

type patchTopicRequest struct {
	PartitionsCount *int               `json:"partitions_count"`
	Config          map[string]*string `json:"config"`
}

func (a *API) patchTopic(c echo.Context) error {
	var in patchTopicRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	d, err := a.Topics.Patch(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"),
		portal.TopicPatch{Partitions: in.PartitionsCount, Config: in.Config, IfMatch: ifMatch(c)})
	if err != nil {
		return err
	}
	etag(c, d.Version)
	return c.JSON(http.StatusOK, topicDetailOut(d))
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
	return c.JSON(http.StatusOK, impactOut(im))
}
