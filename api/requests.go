package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

type requestJSON struct {
	ID           string    `json:"id"`
	BU           string    `json:"business_unit"`
	Stage        string    `json:"stage"`
	Requester    string    `json:"requester"`
	Reason       string    `json:"reason"`
	State        string    `json:"state"`
	Created      string    `json:"created_at"`
	Expires      string    `json:"expires_at"`
	DecidedBy    string    `json:"decided_by,omitempty"`
	Decided      string    `json:"decided_at,omitempty"`
	Comment      string    `json:"comment,omitempty"`
	Reviewable   bool      `json:"reviewable"`
	Withdrawable bool      `json:"withdrawable"`
	Plan         planJSON  `json:"plan"`
	Result       *planJSON `json:"result,omitempty"`
}

func requestOut(r portal.ChangeRequest) requestJSON {
	out := requestJSON{ID: r.ID, BU: r.BU, Stage: r.Stage, Requester: r.Requester, Reason: r.Reason, State: r.State, Created: stamp(r.Created),
		Expires: stamp(r.Expires), DecidedBy: r.DecidedBy, Decided: stamp(r.Decided), Comment: r.Comment, Reviewable: r.Reviewable, Withdrawable: r.Withdrawable, Plan: planOut(r.Plan)}
	if r.Result != nil {
		res := planOut(*r.Result)
		out.Result = &res
	}
	return out
}

// fileRequest files the body's document (JSON or YAML, as a plan takes
// it) as a change request; ?reason= says why.
func (a *API) fileRequest(c echo.Context) error {
	doc, err := readDocument(c)
	if err != nil {
		return err
	}
	r, err := a.Requests.Request(c.Request().Context(), httpserver.ScopeOf(c), doc, c.QueryParam("reason"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, requestOut(r))
}

func (a *API) listRequests(c echo.Context) error {
	list, err := a.Requests.Requests(c.Request().Context(), httpserver.ScopeOf(c), c.QueryParam("state"))
	if err != nil {
		return err
	}
	out := make([]requestJSON, len(list))
	for i, r := range list {
		out[i] = requestOut(r)
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}

func (a *API) getRequest(c echo.Context) error {
	r, err := a.Requests.ChangeRequest(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, requestOut(r))
}

// decision reads a reviewer's optional comment.
func decision(c echo.Context) (string, error) {
	var in struct {
		Comment string `json:"comment"`
	}
	err := decodeOptional(c, &in)
	return in.Comment, err
}

func (a *API) approveRequest(c echo.Context) error {
	comment, err := decision(c)
	if err != nil {
		return err
	}
	httpserver.ExtendWriteDeadline(c.Response(), applyPatience)
	r, err := a.Requests.Approve(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), comment)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, requestOut(r))
}

func (a *API) rejectRequest(c echo.Context) error {
	comment, err := decision(c)
	if err != nil {
		return err
	}
	r, err := a.Requests.Reject(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), comment)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, requestOut(r))
}

func (a *API) withdrawRequest(c echo.Context) error {
	r, err := a.Requests.Withdraw(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, requestOut(r))
}
