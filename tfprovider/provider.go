// Package tfprovider is the portal's Terraform (and OpenTofu) provider:
// a business unit's resources (topics, connectors, schemas, service
// accounts, identity pools, API keys, grants, alert rules and channels,
// connectors' auto-restart) as Terraform resources, through the portal's
// API and so under its rules: roles, read-only stages, change requests,
// guardrail policies, budgets and the audit trail. Plans ask the portal's
// own plan, so that a policy or a budget refuses at terraform plan, at
// the attribute it is about. It speaks only the typed client.
package tfprovider

import (
	"context"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/tfprovider/reads"
)

// Provider is the portal provider.
type Provider struct {
	version string
}

// New returns the provider's constructor, as the plugin server takes it.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &Provider{version: version} }
}

// config is the provider block.
type config struct {
	BaseURL        types.String `tfsdk:"base_url"`
	Token          types.String `tfsdk:"token"`
	ClientID       types.String `tfsdk:"client_id"`
	ClientSecret   types.String `tfsdk:"client_secret"`
	TokenURL       types.String `tfsdk:"token_url"`
	Scope          types.String `tfsdk:"scope"`
	BusinessUnit   types.String `tfsdk:"business_unit"`
	Stage          types.String `tfsdk:"stage"`
	ChangeRequests types.Bool   `tfsdk:"change_requests"`
}

// Metadata names the provider.
func (p *Provider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName, resp.Version = "portal", p.version
}

// Schema describes the provider block.
func (p *Provider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The streaming resource portal: a business unit's Kafka resources under the portal's roles, stages, policies, budgets and audit trail.",
		Attributes: map[string]schema.Attribute{
			"base_url": schema.StringAttribute{Optional: true, Description: "The portal's address (http://localhost:8080); $PORTAL_URL."},
			"token": schema.StringAttribute{Optional: true, Sensitive: true,
				Description: "A bearer token the API takes (a person's, or a pipeline's); $PORTAL_TOKEN. Or give the client credentials instead."},
			"client_id":     schema.StringAttribute{Optional: true, Description: "A pipeline's client id (client credentials grant); $PORTAL_CLIENT_ID."},
			"client_secret": schema.StringAttribute{Optional: true, Sensitive: true, Description: "Its secret; $PORTAL_CLIENT_SECRET."},
			"token_url":     schema.StringAttribute{Optional: true, Description: "The identity provider's token endpoint; $PORTAL_TOKEN_URL."},
			"scope": schema.StringAttribute{Optional: true,
				Description: "The scope to ask for: api://<id>/.default, as Entra ID takes it; $PORTAL_SCOPE (api://rms-portal/.default by default)."},
			"business_unit": schema.StringAttribute{Optional: true, Description: "The business unit of resources that name none; $PORTAL_BU."},
			"stage":         schema.StringAttribute{Optional: true, Description: "The stage of resources that name none; $PORTAL_STAGE."},
			"change_requests": schema.BoolAttribute{Optional: true,
				Description: "Where a stage takes your changes by request (a read-only stage, as a Developer), file the change as a change request instead of failing; the apply then fails with the request's id, to apply once approved."},
		},
	}
}

// portalData is what the provider hands its resources and data sources.
type portalData struct {
	api            *client.Client
	bu, stage      string
	changeRequests bool
	reads          *reads.Reads
	planned        *plannedDocs
}

// Configure makes the typed client of the provider block.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var c config
	resp.Diagnostics.Append(req.Config.Get(ctx, &c)...)
	if resp.Diagnostics.HasError() {
		return
	}
	or := func(v types.String, env, def string) string {
		if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
			return v.ValueString()
		}
		if e := os.Getenv(env); e != "" {
			return e
		}
		return def
	}
	base := strings.TrimSuffix(or(c.BaseURL, "PORTAL_URL", "http://localhost:8080"), "/")
	token, id, secret := or(c.Token, "PORTAL_TOKEN", ""), or(c.ClientID, "PORTAL_CLIENT_ID", ""), or(c.ClientSecret, "PORTAL_CLIENT_SECRET", "")
	// An apply may take minutes (a connector made and checked); a
	// refusal for the rate is waited out.
	hc := &http.Client{Transport: retryRate{base: http.DefaultTransport}}
	switch {
	case token != "":
		hc = oauth2.NewClient(context.WithValue(context.Background(), oauth2.HTTPClient, hc), oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token, TokenType: "Bearer"}))
	case id != "" && secret != "":
		tokenURL := or(c.TokenURL, "PORTAL_TOKEN_URL", "")
		if tokenURL == "" {
			resp.Diagnostics.AddAttributeError(path.Root("token_url"), "Missing token_url",
				"client credentials need the identity provider's token endpoint (token_url or $PORTAL_TOKEN_URL)")
			return
		}
		cc := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: tokenURL,
			Scopes: []string{or(c.Scope, "PORTAL_SCOPE", "api://rms-portal/.default")}}
		// The token source renews the token before it expires.
		hc = oauth2.NewClient(context.WithValue(context.Background(), oauth2.HTTPClient, hc), cc.TokenSource(context.Background()))
	default:
		resp.Diagnostics.AddError("No credentials",
			"give the provider a token (token or $PORTAL_TOKEN) or client credentials (client_id, client_secret and token_url)")
		return
	}
	hc.Timeout = 12 * time.Minute
	api := client.New(base, hc)
	api.UserAgent = "terraform-provider-portal/" + p.version
	d := &portalData{api: api, bu: or(c.BusinessUnit, "PORTAL_BU", ""), stage: or(c.Stage, "PORTAL_STAGE", ""),
		changeRequests: c.ChangeRequests.ValueBool(), reads: reads.New(api), planned: newPlannedDocs()}
	resp.ResourceData, resp.DataSourceData = d, d
}

// Resources lists the provider's resources.
func (p *Provider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newTopic, newSchema, newConnector, newAutoRestart, newAccount, newPool, newAPIKey, newGrant,
		newAlertRule, newAlertChannel}
}

// DataSources lists the provider's data sources.
func (p *Provider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newCaller, newTopics, newCatalog, newGroups}
}
