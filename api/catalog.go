package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

type catalogJSON struct {
	Topic          string       `json:"topic"`
	Identifier     string       `json:"identifier"`
	Owner          string       `json:"owner"`
	Description    string       `json:"description"`
	Contact        string       `json:"owner_contact"`
	Tags           []string     `json:"tags"`
	Classification string       `json:"classification"`
	Classified     bool         `json:"classified"`
	Partitions     int          `json:"partitions"`
	RetentionMs    string       `json:"retention_ms,omitempty"`
	KeySubject     string       `json:"key_subject,omitempty"`
	ValueSubject   string       `json:"value_subject,omitempty"`
	Fields         []string     `json:"fields"`
	Readers        []readerJSON `json:"readers"`
	UpdatedBy      string       `json:"updated_by,omitempty"`
	Updated        string       `json:"updated_at,omitempty"`
	Editable       bool         `json:"editable"`
	MayAskWrite    bool         `json:"write_requests"`
	MaxGrant       string       `json:"max_grant"`
	Approvals      int          `json:"approvals"`
}

type readerJSON struct {
	Unit      string `json:"unit"`
	Grant     string `json:"grant,omitempty"`
	Access    string `json:"access,omitempty"`
	Principal string `json:"principal,omitempty"`
	Expires   string `json:"expires_at,omitempty"`
	Group     string `json:"consumer_group,omitempty"`
	Members   int    `json:"members,omitempty"`
	Lag       int64  `json:"lag,omitempty"`
}

func catalogOut(e portal.CatalogEntry) catalogJSON {
	out := catalogJSON{Topic: e.Topic, Identifier: e.Identifier, Owner: e.Owner, Description: e.Description, Contact: e.Contact, Tags: nonNil(e.Tags),
		Classification: e.Classification, Classified: e.Classified, Partitions: e.Partitions, RetentionMs: e.RetentionMs, KeySubject: e.KeySubject,
		ValueSubject: e.ValueSubject, Fields: nonNil(e.Fields), Readers: []readerJSON{}, UpdatedBy: e.UpdatedBy, Updated: stamp(e.Updated),
		Editable: e.Editable, MayAskWrite: e.MayAskWrite, MaxGrant: durationOut(e.MaxGrant), Approvals: e.Approvals}
	for _, r := range e.Readers {
		out.Readers = append(out.Readers, readerJSON{Unit: r.Unit, Grant: r.Grant, Access: r.Access, Principal: r.Principal, Expires: stamp(r.Expires),
			Group: r.Group, Members: r.Members, Lag: r.Lag})
	}
	return out
}

// listCatalog searches the zone's topics (?search=, ?tag=,
// ?classification=, ?owner=, ?field=).
func (a *API) listCatalog(c echo.Context) error {
	lq, err := listQuery(c)
	if err != nil {
		return err
	}
	q := portal.CatalogQuery{ListQuery: lq, Tag: c.QueryParam("tag"), Classification: c.QueryParam("classification"), Owner: c.QueryParam("owner"),
		Field: c.QueryParam("field")}
	page, err := a.Catalog.Catalog(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := listResponse[catalogJSON]{Items: make([]catalogJSON, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, e := range page.Items {
		out.Items[i] = catalogOut(e)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getCatalogEntry(c echo.Context) error {
	e, err := a.Catalog.Entry(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, catalogOut(e))
}

// describeTopic replaces what the owner says about its topic.
func (a *API) describeTopic(c echo.Context) error {
	var in struct {
		Description    string   `json:"description"`
		Contact        string   `json:"owner_contact"`
		Tags           []string `json:"tags"`
		Classification string   `json:"classification"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	e, err := a.Catalog.Describe(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), portal.TopicMetadata(in))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, catalogOut(e))
}

type classificationJSON struct {
	Name      string `json:"name"`
	MaxGrant  string `json:"max_grant"`
	Write     bool   `json:"write_requests"`
	Approvals int    `json:"approvals"`
	Default   bool   `json:"default"`
}

// listClassifications are the platform's data classifications.
func (a *API) listClassifications(c echo.Context) error {
	out := []classificationJSON{}
	for _, k := range a.Catalog.Classifications() {
		out = append(out, classificationJSON{Name: k.Name, MaxGrant: portal.FormatDuration(k.MaxGrant), Write: k.Write, Approvals: k.Approvals, Default: k.Default})
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}
