package service_test

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }

func names(ts []portal.Topic) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return slices.Clip(out)
}

// settingKeys lists the editable settings as refusals name them.
func settingKeys() string {
	var keys []string
	for _, s := range portal.TopicSettings() {
		keys = append(keys, s.Key)
	}
	return strings.Join(keys, ", ")
}

// as is a context whose caller has role in scada.
func as(role portal.Role) context.Context {
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles(role.String(), map[string]portal.Role{"scada": role}))
}

// op is one service call of an access matrix.
type op struct {
	name  string
	write bool
	run   func(ctx context.Context, w *servicetest.World, stage string) error
}

func datagenConfig() map[string]string {
	return map[string]string{"connector.class": "DatagenSource", "kafka.topic": "readings", "output.data.format": "JSON",
		"quickstart": "ORDERS", "kafka.api.key": "KEY", "kafka.api.secret": "SECRET"}
}
