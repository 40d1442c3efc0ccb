package present

import (
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Connector is a connector, its secret settings kept back.
func Connector(c connect.Connector) wire.Connector {
	out := wire.Connector{Name: c.Name, Identifier: c.Identifier, BusinessUnit: c.BU, OutsideConvention: c.OutsideConvention,
		ID: c.ID, Type: c.Type, Class: c.Class, State: c.State, Trace: c.Trace, Tasks: []wire.ConnectorTask{}, Config: c.Config, Sensitive: c.Sensitive,
		AutoRestart: AutoRestart(c.AutoRestart)}
	for _, t := range c.Tasks {
		out.Tasks = append(out.Tasks, wire.ConnectorTask{ID: t.ID, State: t.State, Trace: t.Trace})
	}
	return out
}

// AutoRestart is a connector's auto-restart and where its backoff stands.
func AutoRestart(a *portal.AutoRestart) wire.AutoRestart {
	if a == nil {
		return wire.AutoRestart{}
	}
	return wire.AutoRestart{Enabled: true, MaxRestarts: a.MaxRestarts, Attempts: a.Attempts, GivenUp: a.GivenUp, LastAt: TimeOrNil(a.LastAt),
		NextAt: TimeOrNil(a.NextAt), GivesUpAt: TimeOrNil(a.GivesUpAt), SetBy: a.SetBy, SetAt: TimeOrNil(a.SetAt)}
}

// TimeOrNil is a time in RFC 3339, or nil for none.
func TimeOrNil(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := Stamp(t)
	return &s
}
