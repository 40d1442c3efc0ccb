package identity_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// op is one service call of an access matrix.
type op struct {
	name  string
	write bool
	run   func(ctx context.Context, w *servicetest.World, stage string) error
}

// problems is an error's problems, one per line of text.
func problems(err error) string {
	var parts []string
	for _, p := range portal.Problems(err) {
		parts = append(parts, fmt.Sprintf("%s %s: %s", p.Kind, p.Field, p.Message))
	}
	return strings.Join(parts, "\n")
}
