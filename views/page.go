// Package views holds the portal's templ components: the layout with its
// sidebar, context selector and breadcrumbs, and one file per page. Views
// render what handlers give them; they never decide access, they only show
// or hide controls according to decisions made by the service layer.
package views

import (
	"net/url"
	"slices"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Page is what every page's layout needs.
type Page struct {
	Title    string
	Subtitle string
	User     User
	Units    []Unit
	Stages   []Stage
	// Context is the business unit and stage the page shows; nil on pages
	// that are not about one context (home, errors).
	Context *Context
	// Resource is the resource type of the page ("topics"), used by the
	// navigation and by the context selector to know where to go.
	Resource string
	// Nav names the navigation entry of a page outside every context
	// ("my-access"); "" is home's.
	Nav    string
	Crumbs []Crumb
	CSRF   string
	Toasts []Toast
	// DefaultContext is where navigation links point when the page has no
	// context of its own (the browser replaces it with the stored one).
	DefaultContext *Context
	// Version is the running build, for the footer.
	Version string
	// UnitFilter is the business unit a whole-cluster list is narrowed
	// to ("none": outside the convention; "": every unit).
	UnitFilter string
	// Reviews count what waits for the user's review, in every unit.
	Reviews Reviews
}

// Reviews count the change requests and access requests (grants) that
// wait for the user's review.
type Reviews struct {
	Requests, Grants int
}

// For is the count the navigation shows next to a resource type.
func (r Reviews) For(resource string) int {
	switch resource {
	case "change-requests":
		return r.Requests
	case "grants":
		return r.Grants
	}
	return 0
}

// User is the signed-in person.
type User struct {
	Name          string
	Username      string
	PlatformAdmin bool
	// Admin: the admin area is open to the user.
	Admin bool
	// GroupsOverage: the sign-in token had no room for the user's groups.
	GroupsOverage bool
}

// Unit is a business unit offered by the context selector.
type Unit struct {
	ID        string
	Zone      string
	Dedicated bool
	Main      bool
	Role      string
	// ReadOnly are the stages read-only for the unit now (configuration
	// or its landing zone's switch).
	ReadOnly []string
}

// Stage is a stage offered by the context selector.
type Stage struct {
	Name     string
	ReadOnly bool
}

// Context is the page's business unit and stage, and what the caller may
// do there: the service's outlook itself (answers from the policy, for
// showing controls), with the pages' helpers.
type Context struct {
	portal.Outlook
}

// Crumb is one breadcrumb; Href may be empty for plain text.
type Crumb struct {
	Label string
	Href  string
}

// Toast is a message shown briefly.
type Toast struct {
	Kind    string
	Message string
}

// Path builds a portal path in the context: /{bu}/{stage}/{parts...}.
func (c *Context) Path(parts ...string) string {
	p := "/" + url.PathEscape(c.BU) + "/" + url.PathEscape(c.Stage)
	for _, s := range parts {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// NavContext is the context navigation links use.
func (p Page) NavContext() *Context {
	if p.Context != nil {
		return p.Context
	}
	return p.DefaultContext
}

// NavItem is one entry of a unit's navigation: a resource kind's list
// or one of the unit's pages.
type NavItem struct {
	// ID is its path segment ("topics"), Label its name, Icon its icon's.
	ID, Label, Icon string
	at              int
}

// Resources are the entries of a unit's navigation, in order: the kinds
// that declare a place in it (portal.KindInfo.Nav) among the unit's
// pages that are no kind's.
func Resources() []NavItem {
	out := []NavItem{{ID: "metrics", Label: "Cluster metrics", Icon: "chart", at: 8}, {ID: "budget", Label: "Budget", Icon: "gauge", at: 10},
		{ID: "costs", Label: "Costs", Icon: "banknotes", at: 11},
		{ID: "catalog", Label: "Catalog", Icon: "book-open", at: 12}}
	for _, k := range portal.KindInfos() {
		if k.Nav > 0 {
			out = append(out, NavItem{ID: k.Plural, Label: k.Titles, Icon: k.Icon, at: k.Nav})
		}
	}
	slices.SortStableFunc(out, func(a, b NavItem) int { return a.at - b.at })
	return out
}
