package identity_test

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// op is one service call of an access matrix.
type op struct {
	name  string
	write bool
	run   func(ctx context.Context, w *servicetest.World, stage string) error
}
