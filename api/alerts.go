package api

import (
	"net/http"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/alert"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

func (a *API) listAlertRules(c echo.Context) error {
	rules, err := a.Alerts.Rules(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	out := wire.List[wire.AlertRule]{Items: make([]wire.AlertRule, len(rules)), TotalSize: len(rules)}
	for i, r := range rules {
		out.Items[i] = present.AlertRule(r)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) putAlertRule(c echo.Context) error {
	var in wire.AlertRuleUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	rule := alert.AlertRule{Name: c.Param("name"), Kind: string(in.Kind), Target: in.Target, Threshold: in.Threshold, For: time.Duration(in.ForSeconds) * time.Second,
		Enabled: in.Enabled == nil || *in.Enabled}
	r, err := a.Alerts.PutRule(c.Request().Context(), httpserver.ScopeOf(c), rule)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.AlertRule(r))
}

func (a *API) deleteAlertRule(c echo.Context) error {
	if err := a.Alerts.DeleteRule(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (a *API) silenceAlertRule(c echo.Context) error {
	var in wire.AlertSilence
	if err := decode(c, &in); err != nil {
		return err
	}
	sil := alert.Silence{For: time.Duration(in.ForSeconds) * time.Second, Reason: in.Reason}
	if in.Until != nil {
		sil.Until = *in.Until
	}
	r, err := a.Alerts.Silence(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), sil)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.AlertRule(r))
}

func (a *API) listAlerts(c echo.Context) error {
	as, err := a.Alerts.History(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	out := wire.List[wire.Alert]{Items: make([]wire.Alert, len(as)), TotalSize: len(as)}
	for i, x := range as {
		out.Items[i] = wire.Alert{ID: x.ID, Rule: x.Rule, Kind: wire.AlertKind(x.Kind), Subject: x.Subject, State: x.State, Value: x.Value,
			FiredAt: present.Stamp(x.FiredAt), ResolvedAt: present.TimeOrNil(x.ResolvedAt), Silenced: x.Silenced}
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) listAlertChannels(c echo.Context) error {
	ws, err := a.Channels.Channels(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	out := wire.List[wire.AlertChannel]{Items: make([]wire.AlertChannel, len(ws)), TotalSize: len(ws)}
	for i, w := range ws {
		out.Items[i] = present.Channel(w)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) createAlertChannel(c echo.Context) error {
	var in wire.AlertChannelCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	w, err := a.Channels.CreateChannel(c.Request().Context(), httpserver.ScopeOf(c), in.Format, in.URL)
	if err != nil {
		return err
	}
	// The signing secret is in this answer only.
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, present.Channel(w))
}

func (a *API) deleteAlertChannel(c echo.Context) error {
	if err := a.Channels.DeleteChannel(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
