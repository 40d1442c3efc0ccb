package access

import (
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

func TestGrantMatrix(t *testing.T) {
	want := map[portal.Role]string{portal.NoRole: "NNNNN", portal.Viewer: "YIIII", portal.Developer: "YIIII", portal.Admin: "YYYYY", portal.SuperAdmin: "YYYYY"}
	for _, r := range Roles {
		got := ""
		for _, s := range GrantSteps {
			switch d := DecideGrant(r, s); {
			case d.Allowed:
				got += "Y"
			case d.Denial == portal.NotFound:
				got += "N"
			case d.Denial == portal.InsufficientRole:
				got += "I"
			default:
				got += "?"
			}
		}
		if got != want[r] {
			t.Errorf("%s: %s, want %s (steps %v)", r, got, want[r], GrantSteps)
		}
	}
	p := portal.NewPrincipal(portal.Identity{Subject: "s"}, false, map[string]portal.Grant{"crm": {Role: portal.Developer}})
	if err := CheckGrant(p, "crm", AskGrant); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a developer asks: %v", err)
	}
	if err := CheckGrant(p, "scada", ReadGrants); !portal.Is(err, portal.NotFound) {
		t.Errorf("another unit: %v", err)
	}
	if err := CheckGrant(nil, "crm", ReadGrants); !portal.Is(err, portal.Unauthenticated) {
		t.Errorf("nobody: %v", err)
	}
}
