package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func requestOut(r portal.ChangeRequest) wire.ChangeRequest {
	out := wire.ChangeRequest{ID: r.ID, BU: r.BU, Stage: r.Stage, Requester: r.Requester, Reason: r.Reason, State: r.State, Created: stamp(r.Created),
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
	out := make([]wire.ChangeRequest, len(list))
	for i, r := range list {
		out[i] = requestOut(r)
	}
	return listOf(c, out)
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
	var in wire.Decision
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
