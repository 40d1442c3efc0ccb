package service

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Access explains the caller's own access.
func (m *Me) Access(ctx context.Context) (portal.AccessReport, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return portal.AccessReport{}, portal.New(portal.Unauthenticated, "sign-in required")
	}
	return access.Explain(m.guard.Tenancy(), p, m.guard.AdminGroup()), nil
}

