package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// fileRequest files the body's document (JSON or YAML, as a plan takes
// it) as a change request; ?reason= says why.
func (a *API) fileChangeRequest(c echo.Context) error {
	doc, err := readDocument(c)
	if err != nil {
		return err
	}
	r, err := a.Requests.Request(c.Request().Context(), httpserver.ScopeOf(c), doc, c.QueryParam("reason"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, present.ChangeRequest(r))
}

func (a *API) listChangeRequests(c echo.Context) error {
	list, err := a.Requests.Requests(c.Request().Context(), httpserver.ScopeOf(c), c.QueryParam("state"))
	if err != nil {
		return err
	}
	out := make([]wire.ChangeRequest, len(list))
	for i, r := range list {
		out[i] = present.ChangeRequest(r)
	}
	return listOf(c, out)
}

func (a *API) getChangeRequest(c echo.Context) error {
	r, err := a.Requests.ChangeRequest(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.ChangeRequest(r))
}

// decision reads a reviewer's optional comment.
func decision(c echo.Context) (string, error) {
	var in wire.Decision
	err := decodeOptional(c, &in)
	return in.Comment, err
}

func (a *API) approveChangeRequest(c echo.Context) error {
	comment, err := decision(c)
	if err != nil {
		return err
	}
	httpserver.ExtendWriteDeadline(c.Response(), applyPatience)
	r, err := a.Requests.Approve(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), comment)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.ChangeRequest(r))
}

func (a *API) rejectChangeRequest(c echo.Context) error {
	comment, err := decision(c)
	if err != nil {
		return err
	}
	r, err := a.Requests.Reject(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), comment)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.ChangeRequest(r))
}

func (a *API) withdrawChangeRequest(c echo.Context) error {
	r, err := a.Requests.Withdraw(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.ChangeRequest(r))
}
