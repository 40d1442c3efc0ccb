package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// alertRuleJSON is an alert rule; for_seconds is how long its condition
// holds before it fires.
type alertRuleJSON struct {
	Name          string  `json:"name"`
	Kind          string  `json:"kind"`
	Target        string  `json:"target,omitempty"`
	Threshold     float64 `json:"threshold"`
	ForSeconds    int64   `json:"for_seconds"`
	Enabled       bool    `json:"enabled"`
	Default       bool    `json:"default"`
	Description   string  `json:"description"`
	SilencedUntil *string `json:"silenced_until,omitempty"`
	SilenceReason string  `json:"silence_reason,omitempty"`
	SilencedBy    string  `json:"silenced_by,omitempty"`
	UpdatedBy     string  `json:"updated_by,omitempty"`
	UpdatedAt     *string `json:"updated_at,omitempty"`
}

func alertRuleOut(r portal.AlertRule) alertRuleJSON {
	return alertRuleJSON{Name: r.Name, Kind: r.Kind, Target: r.Target, Threshold: r.Threshold, ForSeconds: int64(r.For / time.Second), Enabled: r.Enabled,
		Default: r.Default, Description: r.Description, SilencedUntil: timeOrNil(r.SilencedUntil), SilenceReason: r.SilenceReason, SilencedBy: r.SilencedBy,
		UpdatedBy: r.UpdatedBy, UpdatedAt: timeOrNil(r.UpdatedAt)}
}

func (a *API) listAlertRules(c echo.Context) error {
	rules, err := a.Alerts.Rules(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	out := listResponse[alertRuleJSON]{Items: make([]alertRuleJSON, len(rules)), TotalSize: len(rules)}
	for i, r := range rules {
		out.Items[i] = alertRuleOut(r)
	}
	return c.JSON(http.StatusOK, out)
}

// alertRuleRequest is a rule to save; enabled is true when left out.
type alertRuleRequest struct {
	Kind       string  `json:"kind"`
	Target     string  `json:"target"`
	Threshold  float64 `json:"threshold"`
	ForSeconds int64   `json:"for_seconds"`
	Enabled    *bool   `json:"enabled"`
}

func (a *API) putAlertRule(c echo.Context) error {
	var in alertRuleRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	rule := portal.AlertRule{Name: c.Param("name"), Kind: in.Kind, Target: in.Target, Threshold: in.Threshold, For: time.Duration(in.ForSeconds) * time.Second,
		Enabled: in.Enabled == nil || *in.Enabled}
	r, err := a.Alerts.PutRule(c.Request().Context(), httpserver.ScopeOf(c), rule)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, alertRuleOut(r))
}

func (a *API) deleteAlertRule(c echo.Context) error {
	if err := a.Alerts.DeleteRule(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// silenceRequest silences a rule until a time, or ends its silence
// (until left out).
type silenceRequest struct {
	Until      *time.Time `json:"until"`
	ForSeconds int64      `json:"for_seconds"`
	Reason     string     `json:"reason"`
}

func (a *API) silenceAlertRule(c echo.Context) error {
	var in silenceRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	sil := portal.Silence{For: time.Duration(in.ForSeconds) * time.Second, Reason: in.Reason}
	if in.Until != nil {
		sil.Until = *in.Until
	}
	r, err := a.Alerts.Silence(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), sil)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, alertRuleOut(r))
}

type alertJSON struct {
	ID         string  `json:"id"`
	Rule       string  `json:"rule"`
	Kind       string  `json:"kind"`
	Subject    string  `json:"subject"`
	State      string  `json:"state"`
	Value      string  `json:"value"`
	FiredAt    string  `json:"fired_at"`
	ResolvedAt *string `json:"resolved_at,omitempty"`
	Silenced   bool    `json:"silenced"`
}

func (a *API) listAlerts(c echo.Context) error {
	as, err := a.Alerts.History(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	out := listResponse[alertJSON]{Items: make([]alertJSON, len(as)), TotalSize: len(as)}
	for i, x := range as {
		out.Items[i] = alertJSON{ID: x.ID, Rule: x.Rule, Kind: x.Kind, Subject: x.Subject, State: x.State, Value: x.Value,
			FiredAt: stamp(x.FiredAt), ResolvedAt: timeOrNil(x.ResolvedAt), Silenced: x.Silenced}
	}
	return c.JSON(http.StatusOK, out)
}

type channelJSON struct {
	ID        string `json:"id"`
	Format    string `json:"format"`
	URL       string `json:"url"`
	Secret    string `json:"secret,omitempty"`
	CreatedBy string `json:"created_by"`
	CreatedAt string `json:"created_at"`
}

func channelOut(w portal.Webhook) channelJSON {
	format := w.Format
	if format == "" {
		format = "cloudevents"
	}
	return channelJSON{ID: w.ID, Format: format, URL: w.URL, Secret: w.Secret, CreatedBy: w.CreatedBy, CreatedAt: stamp(w.Created)}
}

func (a *API) listChannels(c echo.Context) error {
	ws, err := a.Channels.Channels(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	out := listResponse[channelJSON]{Items: make([]channelJSON, len(ws)), TotalSize: len(ws)}
	for i, w := range ws {
		out.Items[i] = channelOut(w)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) createChannel(c echo.Context) error {
	var in struct {
		Format string `json:"format"`
		URL    string `json:"url"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.Format == "cloudevents" {
		in.Format = ""
	}
	w, err := a.Channels.CreateChannel(c.Request().Context(), httpserver.ScopeOf(c), in.Format, in.URL)
	if err != nil {
		return err
	}
	// The signing secret is in this answer only.
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, channelOut(w))
}

func (a *API) deleteChannel(c echo.Context) error {
	if err := a.Channels.DeleteChannel(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
