package httpserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// TestExtendWriteDeadline: a response that outlasts the server's write
// timeout arrives when its handler extended the deadline, and not
// otherwise.
func TestExtendWriteDeadline(t *testing.T) {
	e := echo.New()
	slow := func(extend bool) echo.HandlerFunc {
		return func(c echo.Context) error {
			if extend {
				ExtendWriteDeadline(c.Response(), 5*time.Second)
			}
			time.Sleep(400 * time.Millisecond)
			return c.String(http.StatusOK, "done")
		}
	}
	e.GET("/extended", slow(true))
	e.GET("/plain", slow(false))
	srv := httptest.NewUnstartedServer(e)
	srv.Config.WriteTimeout = 150 * time.Millisecond
	srv.Start()
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/extended")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "done" {
		t.Errorf("extended: %q", body)
	}
	if resp, err := http.Get(srv.URL + "/plain"); err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) == "done" {
			t.Error("the write timeout did not apply without the extension")
		}
	}
}
