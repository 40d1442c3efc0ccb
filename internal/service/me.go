package service

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/fault"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Me tells callers who they are and where they may work.
type Me struct {
	guard *Guard
}

// NewMe returns the caller service.
func NewMe(g *Guard) *Me { return &Me{guard: g} }

// Caller is the signed-in principal with its business units and the stages.
type Caller struct {
	Principal *access.Principal
	// Units are the business units where the caller has a role, sorted by id.
	Units  []access.UnitRole
	Stages []tenancy.Stage
}

// Get describes the caller in ctx.
func (m *Me) Get(ctx context.Context) (Caller, error) {
	p := access.PrincipalFrom(ctx)
	if p == nil {
		return Caller{}, fault.New(fault.Unauthenticated, "sign-in required")
	}
	c := Caller{Principal: p, Stages: m.guard.tenancy.Stages(), Units: []access.UnitRole{}}
	for _, u := range m.guard.tenancy.Units() {
		if r := p.Role(u.ID); r > access.NoRole {
			c.Units = append(c.Units, access.UnitRole{Unit: u, Role: r})
		}
	}
	return c, nil
}
