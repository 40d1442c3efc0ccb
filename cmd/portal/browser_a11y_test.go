package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// axeSource is axe-core, from the project's npm packages (make test and
// CI install them).
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is not installed (npm ci): %v", err)
	}
	return string(b)
}

// axeViolations runs axe-core on the page shown and returns its serious
// and critical violations of WCAG 2 A and AA, one line each.
func (b *browser) axeViolations(src string) []string {
	b.t.Helper()
	var out []string
	script := src + `;
		axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}).then(function (r) {
			return r.violations.filter(function (v) { return v.impact === "serious" || v.impact === "critical"; })
				.map(function (v) { return v.id + " (" + v.impact + "): " + v.nodes.slice(0, 3).map(function (n) { return n.target.join(" "); }).join(" | "); });
		})`
	b.run(chromedp.Evaluate(script, &out, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	return out
}

// widest names the elements that widen the page (at most five): those
// reaching past the screen's right edge, or whose content does, that no
// scrolling box holds; for a page found too wide.
func (b *browser) widest() string {
	b.t.Helper()
	var out []string
	b.run(chromedp.Evaluate(`(function () {
		var w = window.innerWidth + 1;
		function held(e) {
			for (var p = e.parentElement; p; p = p.parentElement) {
				if (getComputedStyle(p).overflowX !== "visible") { return true; }
			}
			return false;
		}
		function name(e) {
			var c = typeof e.className === "string" && e.className ? "." + e.className.split(/\s+/).slice(0, 4).join(".") : "";
			return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + c;
		}
		return Array.from(document.querySelectorAll("body *")).filter(function (e) {
			var r = e.getBoundingClientRect();
			var spills = r.right > w || (r.left + e.scrollWidth > w && getComputedStyle(e).overflowX === "visible");
			return spills && !held(e);
		}).slice(-5).map(function (e) {
			return name(e) + " (" + Math.round(e.getBoundingClientRect().left + e.scrollWidth) + " px): " + (e.textContent || "").trim().slice(0, 60);
		});
	})()`, &out))
	return strings.Join(out, "; ")
}

// TestBrowserAccessibility runs axe-core over every kind of page, as carol
// (a Developer) and frank (a platform admin), at desktop and phone widths:
// in both themes (the system's setting): no serious or critical
// violation, and no page wider than the screen.
func TestBrowserAccessibility(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	src := axeSource(t)
	pages := map[string][]string{
		"carol": {"/", "/scada/dev/topics", "/scada/dev/topic/sensor-readings", "/scada/dev/topics/new",
			"/scada/dev/topic/sensor-readings/edit", "/scada/dev/topic/sensor-readings/metrics", "/scada/dev/topic/sensor-readings/records", "/scada/dev/topic/sensor-readings/produce", "/scada/dev/topic/sensor-readings/settings", "/scada/dev/topic/sensor-readings/consumers",
			"/scada/dev/consumer-groups", "/scada/dev/consumer-group/replay", "/scada/dev/connectors", "/scada/dev/connectors/new",
			"/scada/dev/schemas", "/scada/dev/schemas/new", "/scada/dev/service-accounts", "/scada/dev/identity-pools",
			"/scada/dev/metrics", "/scada/run/topics", "/me/access", "/scada/dev/catalog", "/scada/dev/catalog/edh-shared-scada-dev-sensor-readings",
			"/scada/dev/catalog/edh-shared-crm-dev-orders", "/scada/dev/topic/edh-shared-scada-dev-sensor-readings/delete", "/scada/dev/grants"},
		"frank": {"/admin", "/admin/audit", "/admin/upstreams", "/admin/sessions", "/admin/access-preview", "/admin/config"},
	}
	// A browser a user and round, the rounds side by side: each browser
	// has its own time limit, and most of a round is waiting for pages.
	for _, user := range []string{"carol", "frank"} {
		for _, round := range []struct {
			width int64
			theme string
		}{{1440, "light"}, {390, "light"}, {1440, "dark"}, {390, "dark"}} {
			t.Run(fmt.Sprintf("%s-%d-%s", user, round.width, round.theme), func(t *testing.T) {
				t.Parallel()
				width := round.width
				b := newBrowser(t, tp)
				b.signIn(user)
				b.run(chromedp.EmulateViewport(width, 900),
					emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: round.theme}}))
				var failures []string
				for _, path := range pages[user] {
					// The page whole: its styles applied and its fragments in.
					b.run(chromedp.Navigate(tp.url+path), chromedp.WaitReady("body", chromedp.ByQuery),
						chromedp.Poll(`document.readyState === "complete" && !document.querySelector(".htmx-request")`, nil,
							chromedp.WithPollingInterval(20*time.Millisecond)))
					for _, v := range b.axeViolations(src) {
						failures = append(failures, fmt.Sprintf("%s %s at %d px, %s: %s", user, path, width, round.theme, v))
					}
					// Nothing wider than the screen: tables scroll in their box.
					var wide int64
					b.run(chromedp.Evaluate(`document.documentElement.scrollWidth`, &wide))
					if wide > width {
						failures = append(failures, fmt.Sprintf("%s %s at %d px, %s: the page is %d px wide: %s", user, path, width, round.theme, wide, b.widest()))
					}
				}
				if len(failures) > 0 {
					t.Errorf("%d axe violations:\n%s", len(failures), strings.Join(failures, "\n"))
				}
			})
		}
	}
}
