package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/static"
	"github.com/edh-platform/rms-portal/views"
)

// TestBrowserDataNeverWidensThePage renders the parts of pages whose width
// follows the data (a topic's consumers: group ids, states, lag in records
// and in time) with the longest values they can hold, at a phone's width
// in both themes: the page stays as wide as the screen. The accessibility
// test walks the real pages with the demo data, which varies with the
// moment (lag, its age, catch-up time); this one fixes the worst case.
func TestBrowserDataNeverWidensThePage(t *testing.T) {
	long := "edh-shared-scada-dev-" + strings.Repeat("a-very-long-consumer-group-name-", 6) + "end"
	consumers := []group.TopicConsumer{
		{Group: long, State: "PreparingRebalance", Members: 120, Lag: 987_654_321_012,
			Late: group.LagTime{Known: true, Age: 49 * time.Hour, AtLeast: true, CatchUpKnown: true, CatchUp: 47*time.Hour + 59*time.Minute}},
		{Group: long + "-2", State: "CompletingRebalance", Lag: 12_345,
			Late: group.LagTime{Known: true, Age: 2*time.Hour + 59*time.Minute, CatchUpKnown: true, Falling: true}},
		{Group: "edh-shared-scada-dev-short", State: "Stable", Late: group.LagTime{}},
	}
	ctx := &views.Context{Outlook: portal.Outlook{BU: "scada", Stage: "dev", LandingZone: "edh-shared", Role: portal.Developer, CanWrite: true, ReadRecords: true}}
	p := views.Page{Title: long, User: views.User{Name: "Carol Developer", Username: "carol"}, Context: ctx,
		Units:  []views.Unit{{ID: "scada", Zone: "edh-shared", Role: "developer"}},
		Stages: []views.Stage{{Name: "dev"}, {Name: "qas"}, {Name: "run", ReadOnly: true}}, Resource: "topics"}
	body := views.TopicConsumersPage(p, long, views.Consumers(p, consumers, ""))

	mux := http.NewServeMux()
	mux.Handle(static.Prefix, http.StripPrefix(static.Prefix, static.Handler()))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := views.Document(p).Render(templ.WithChildren(r.Context(), body), w); err != nil {
			t.Error(err)
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := newBrowser(t, &testPortal{url: srv.URL})
	for _, theme := range []string{"light", "dark"} {
		for _, width := range []int64{390, 320} {
			b.run(chromedp.EmulateViewport(width, 844),
				emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}),
				chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible("#topic-consumers", chromedp.ByID))
			var wide int64
			b.run(chromedp.Evaluate(`document.documentElement.scrollWidth`, &wide))
			if wide > width {
				b.screenshot(fmt.Sprintf("fit-consumers-%d-%s", width, theme))
				t.Errorf("a topic's consumers at %d px, %s: the page is %d px wide", width, theme, wide)
			}
		}
	}
}
