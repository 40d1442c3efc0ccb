//go:build linux

package httpserver

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/cpupriority"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// TestLargeBodiesRunAtALowerPriority: a large request is handled on a
// thread niced by cpupriority.Nice, a small one at the normal priority.
func TestLargeBodiesRunAtALowerPriority(t *testing.T) {
	lane := NewLane(1024, ratelimit.NewConcurrency(ratelimit.Shares{PerCaller: 1, PerUnit: 2, Total: 2, Wait: 50 * time.Millisecond}))
	e := echo.New()
	e.POST("/:bu/:stage/x", func(c echo.Context) error {
		raw, err := os.ReadFile("/proc/thread-self/stat")
		if err != nil {
			return c.String(http.StatusOK, "no /proc")
		}
		fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
		return c.String(http.StatusOK, fields[16]) // nice
	}, asWho, ParseScope, lane.Middleware)
	nice := func(size int) string {
		req := httptest.NewRequest(http.MethodPost, "/scada/dev/x", strings.NewReader(strings.Repeat("x", size)))
		req.Header.Set("X-Who", "carol")
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	if got := nice(100); got == "no /proc" {
		t.Skip("no /proc")
	} else if got != "0" {
		t.Errorf("a small request ran at nice %s", got)
	}
	if got := nice(4096); got != strconv.Itoa(cpupriority.Nice) {
		t.Errorf("a large request ran at nice %s, want %d", got, cpupriority.Nice)
	}
}
