package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"
)

func writeTopicList(c echo.Context, out wire.List[wire.Topic]) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, wire.EncodeTopicList(out))
}
