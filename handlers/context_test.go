package handlers_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestPagesNameRolesAndPlacesAsPeopleDo: roles read as people say them
// ("an Admin", not "admin" or "super_admin"); My access highlights
// itself, not Home; carol, a Viewer of crm and a Developer of scada,
// lands in scada.
func TestPagesNameRolesAndPlacesAsPeopleDo(t *testing.T) {
	s := newSite(t)
	if p := s.do(http.MethodGet, "/scada/run/topics", "bob", nil); !strings.Contains(p.body, "As an Admin of scada") || strings.Contains(p.body, "As admin") {
		t.Errorf("the read-only banner names bob's role as: %s", regexp.MustCompile(`As [^<]* of scada`).FindString(p.body))
	}
	p := s.do(http.MethodGet, "/me/access", "carol", nil)
	current := regexp.MustCompile(`data-nav="([a-z-]+)"[^>]*aria-current="page"`).FindAllStringSubmatch(p.body, -1)
	if len(current) != 1 || current[0][1] != "my-access" {
		t.Errorf("My access highlights %v", current)
	}
	home := s.do(http.MethodGet, "/", "carol", nil)
	if !regexp.MustCompile(`<option value="scada" selected`).MatchString(home.body) {
		t.Errorf("carol does not land in scada: %s", regexp.MustCompile(`<option value="[a-z]+"[^>]*>`).FindAllString(home.body, -1))
	}
}
