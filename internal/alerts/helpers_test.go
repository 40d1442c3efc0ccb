package alerts_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// as is a context whose caller has role in scada.
func as(role portal.Role) context.Context {
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles(role.String(), map[string]portal.Role{"scada": role}))
}

// problems is an error's problems, one per line of text.
func problems(err error) string {
	var parts []string
	for _, p := range portal.Problems(err) {
		parts = append(parts, fmt.Sprintf("%s %s: %s", p.Kind, p.Field, p.Message))
	}
	return strings.Join(parts, "\n")
}

func datagenConfig() map[string]string {
	return map[string]string{"connector.class": "DatagenSource", "kafka.topic": "readings", "output.data.format": "JSON",
		"quickstart": "ORDERS", "kafka.api.key": "KEY", "kafka.api.secret": "SECRET"}
}
