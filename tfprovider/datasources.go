package tfprovider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
	"github.com/edh-platform/rms-portal/tfprovider/reads"
)

// source is what every data source holds: the provider's data.
type source struct {
	base
}

// Configure implements datasource.DataSourceWithConfigure.
func (s *source) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	s.configure(req.ProviderData, &resp.Diagnostics)
}

// scoped are a data source's unit and stage, the provider's by default.
func scoped(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	attrs["business_unit"] = schema.StringAttribute{Optional: true, Computed: true, Description: "The business unit; the provider's when not given."}
	attrs["stage"] = schema.StringAttribute{Optional: true, Computed: true, Description: "The stage; the provider's when not given."}
	return attrs
}

func listOf(desc string, attrs map[string]schema.Attribute) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{Computed: true, Description: desc, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
}

var (
	computedString = schema.StringAttribute{Computed: true}
	computedInt    = schema.Int64Attribute{Computed: true}
	computedBool   = schema.BoolAttribute{Computed: true}
	computedList   = schema.ListAttribute{Computed: true, ElementType: types.StringType}
)

// callerModel is data.portal_caller.
type callerModel struct {
	Subject       string        `tfsdk:"subject"`
	Name          string        `tfsdk:"name"`
	Username      string        `tfsdk:"username"`
	Service       bool          `tfsdk:"service"`
	PlatformAdmin bool          `tfsdk:"platform_admin"`
	Groups        []string      `tfsdk:"groups"`
	Units         []callerUnit  `tfsdk:"business_units"`
	Stages        []callerStage `tfsdk:"stages"`
}

type callerUnit struct {
	ID          string `tfsdk:"id"`
	LandingZone string `tfsdk:"landing_zone"`
	Role        string `tfsdk:"role"`
}

type callerStage struct {
	Name     string `tfsdk:"name"`
	ReadOnly bool   `tfsdk:"read_only"`
}

type callerSource struct{ source }

func newCaller() datasource.DataSource { return &callerSource{} }

func (s *callerSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_caller"
}

func (s *callerSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Who the provider signs in as: a person or a pipeline, its role in each business unit, and the stages (read-only or not).",
		Attributes: map[string]schema.Attribute{
			"subject": computedString, "name": computedString, "username": computedString,
			"service":        schema.BoolAttribute{Computed: true, Description: "A machine identity (client credentials)."},
			"platform_admin": computedBool,
			"groups":         computedList,
			"business_units": listOf("The units where the caller has a role.", map[string]schema.Attribute{
				"id": computedString, "landing_zone": computedString,
				"role": schema.StringAttribute{Computed: true, Description: "viewer, developer, admin or super_admin."}}),
			"stages": listOf("The stages.", map[string]schema.Attribute{"name": computedString, "read_only": computedBool}),
		},
	}
}

func (s *callerSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	me, _, err := s.d.api.GetMe(ctx)
	if err != nil {
		s.refusal(&resp.Diagnostics, "Reading the caller", err, nil)
		return
	}
	m := callerModel{Subject: me.Subject, Name: me.Name, Username: me.Username, Service: me.Service, PlatformAdmin: me.PlatformAdmin,
		Groups: append([]string{}, me.Groups...), Units: []callerUnit{}, Stages: []callerStage{}}
	for _, u := range me.BusinessUnits {
		m.Units = append(m.Units, callerUnit{ID: u.ID, LandingZone: u.LandingZone, Role: u.Role})
	}
	for _, st := range me.Stages {
		m.Stages = append(m.Stages, callerStage{Name: st.Name, ReadOnly: st.ReadOnly})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// scopeOfSource fills a data source's unit and stage.
func (s *source) scopeOfSource(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) (string, string) {
	var bu, stage types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("business_unit"), &bu)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("stage"), &stage)...)
	return s.scopeOf(&bu, &stage, &resp.Diagnostics)
}

// topicsModel is data.portal_topics.
type topicsModel struct {
	BusinessUnit string        `tfsdk:"business_unit"`
	Stage        string        `tfsdk:"stage"`
	Search       *string       `tfsdk:"search"`
	Topics       []listedTopic `tfsdk:"topics"`
}

type listedTopic struct {
	Name       string `tfsdk:"name"`
	Identifier string `tfsdk:"identifier"`
	Partitions int64  `tfsdk:"partitions"`
}

type topicsSource struct{ source }

func newTopics() datasource.DataSource { return &topicsSource{} }

func (s *topicsSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_topics"
}

func (s *topicsSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The unit's topics in a stage.",
		Attributes: scoped(map[string]schema.Attribute{
			"search": schema.StringAttribute{Optional: true, Description: "Keep topics whose name contains this text, ignoring case."},
			"topics": listOf("The topics.", map[string]schema.Attribute{"name": computedString, "identifier": computedString, "partitions": computedInt}),
		}),
	}
}

func (s *topicsSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	bu, stage := s.scopeOfSource(ctx, req, resp)
	var search types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("search"), &search)...)
	if resp.Diagnostics.HasError() {
		return
	}
	topics, err := reads.All(ctx, func(ctx context.Context, token string) (wire.TopicList, error) {
		l, _, err := s.d.api.ListTopics(ctx, bu, stage, &client.ListTopicsParams{PageSize: 1000, PageToken: token, Search: str(search)})
		return l, err
	})
	if err != nil {
		s.refusal(&resp.Diagnostics, "Listing topics", err, nil)
		return
	}
	m := topicsModel{BusinessUnit: bu, Stage: stage, Search: search.ValueStringPointer(), Topics: []listedTopic{}}
	for _, t := range topics {
		m.Topics = append(m.Topics, listedTopic{Name: t.Name, Identifier: t.Identifier, Partitions: int64(t.PartitionsCount)})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// catalogModel is data.portal_catalog.
type catalogModel struct {
	BusinessUnit   *string        `tfsdk:"business_unit"`
	Stage          *string        `tfsdk:"stage"`
	Search         *string        `tfsdk:"search"`
	Tag            *string        `tfsdk:"tag"`
	Classification *string        `tfsdk:"classification"`
	Owner          *string        `tfsdk:"owner"`
	Entries        []catalogEntry `tfsdk:"entries"`
}

type catalogEntry struct {
	Topic          string   `tfsdk:"topic"`
	Identifier     string   `tfsdk:"identifier"`
	Owner          string   `tfsdk:"owner"`
	Description    string   `tfsdk:"description"`
	Contact        string   `tfsdk:"owner_contact"`
	Tags           []string `tfsdk:"tags"`
	Classification string   `tfsdk:"classification"`
	Partitions     int64    `tfsdk:"partitions"`
	MaxGrant       string   `tfsdk:"max_grant"`
}

type catalogSource struct{ source }

func newCatalog() datasource.DataSource { return &catalogSource{} }

func (s *catalogSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_catalog"
}

func (s *catalogSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	opt := func(d string) schema.StringAttribute { return schema.StringAttribute{Optional: true, Description: d} }
	resp.Schema = schema.Schema{
		Description: "The zone's catalog of topics, as the caller's unit sees it in a stage: what other units publish, to ask for grants.",
		Attributes: scoped(map[string]schema.Attribute{
			"search":         opt("Words to look for in names, descriptions, tags and fields."),
			"tag":            opt("Keep entries with this tag."),
			"classification": opt("Keep entries of this classification."),
			"owner":          opt("Keep the topics of this unit."),
			"entries": listOf("The entries.", map[string]schema.Attribute{
				"topic": computedString, "identifier": computedString, "owner": computedString, "description": computedString,
				"owner_contact": computedString, "tags": computedList, "classification": computedString, "partitions": computedInt,
				"max_grant": schema.StringAttribute{Computed: true, Description: "The longest grant its classification allows."}}),
		}),
	}
}

func (s *catalogSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	bu, stage := s.scopeOfSource(ctx, req, resp)
	var m catalogModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	entries, err := reads.All(ctx, func(ctx context.Context, token string) (wire.CatalogEntryList, error) {
		l, _, err := s.d.api.ListCatalog(ctx, bu, stage, &client.ListCatalogParams{Search: deref(m.Search), Tag: deref(m.Tag),
			Classification: deref(m.Classification), Owner: deref(m.Owner), PageSize: 500, PageToken: token})
		return l, err
	})
	if err != nil {
		s.refusal(&resp.Diagnostics, "Searching the catalog", err, nil)
		return
	}
	m.BusinessUnit, m.Stage, m.Entries = &bu, &stage, []catalogEntry{}
	for _, e := range entries {
		m.Entries = append(m.Entries, catalogEntry{Topic: e.Topic, Identifier: e.Identifier, Owner: e.Owner, Description: e.Description,
			Contact: e.Contact, Tags: append([]string{}, e.Tags...), Classification: e.Classification, Partitions: int64(e.Partitions), MaxGrant: e.MaxGrant})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// groupsModel is data.portal_consumer_groups.
type groupsModel struct {
	BusinessUnit string      `tfsdk:"business_unit"`
	Stage        string      `tfsdk:"stage"`
	Search       *string     `tfsdk:"search"`
	Groups       []groupItem `tfsdk:"groups"`
}

type groupItem struct {
	ID         string   `tfsdk:"id"`
	Identifier string   `tfsdk:"identifier"`
	State      string   `tfsdk:"state"`
	Members    int64    `tfsdk:"members"`
	Lag        int64    `tfsdk:"lag"`
	LagSeconds *float64 `tfsdk:"lag_seconds"`
	Topics     []string `tfsdk:"topics"`
}

type groupsSource struct{ source }

func newGroups() datasource.DataSource { return &groupsSource{} }

func (s *groupsSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_consumer_groups"
}

func (s *groupsSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The unit's consumer groups in a stage, with their lag.",
		Attributes: scoped(map[string]schema.Attribute{
			"search": schema.StringAttribute{Optional: true, Description: "Keep groups whose id contains this text, ignoring case."},
			"groups": listOf("The groups.", map[string]schema.Attribute{
				"id": computedString, "identifier": computedString, "state": computedString, "members": computedInt,
				"lag":         schema.Int64Attribute{Computed: true, Description: "Records behind, over the partitions with a committed offset."},
				"lag_seconds": schema.Float64Attribute{Computed: true, Description: "How old the oldest record not consumed is; null while not known."},
				"topics":      computedList}),
		}),
	}
}

func (s *groupsSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	bu, stage := s.scopeOfSource(ctx, req, resp)
	var search types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("search"), &search)...)
	if resp.Diagnostics.HasError() {
		return
	}
	groups, err := reads.All(ctx, func(ctx context.Context, token string) (wire.ConsumerGroupList, error) {
		l, _, err := s.d.api.ListGroups(ctx, bu, stage, &client.ListGroupsParams{PageSize: 1000, PageToken: token, Search: str(search)})
		return l, err
	})
	if err != nil {
		s.refusal(&resp.Diagnostics, "Listing consumer groups", err, nil)
		return
	}
	m := groupsModel{BusinessUnit: bu, Stage: stage, Search: search.ValueStringPointer(), Groups: []groupItem{}}
	for _, g := range groups {
		m.Groups = append(m.Groups, groupItem{ID: g.ID, Identifier: g.Identifier, State: g.State, Members: int64(g.Members), Lag: g.Lag,
			LagSeconds: g.LagTime.AgeSeconds, Topics: append([]string{}, g.Topics...)})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
