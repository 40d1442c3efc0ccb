package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// LagTime is how far behind a consumer group is in time, when known.
func LagTime(l group.LagTime) wire.LagTime {
	var out wire.LagTime
	if l.Known {
		age := l.Age.Seconds()
		out.AgeSeconds, out.AtLeast = &age, l.AtLeast
	}
	if l.CatchUpKnown && !l.Falling {
		eta := l.CatchUp.Seconds()
		out.CatchUpSeconds = &eta
	}
	out.FallingBehind = l.CatchUpKnown && l.Falling
	return out
}

// Group is a consumer group with its lag.
func Group(g group.ConsumerGroup) wire.ConsumerGroup {
	return wire.ConsumerGroup{ID: g.ID, Identifier: g.Identifier, BusinessUnit: g.BU, State: g.State, Protocol: g.Protocol, Members: g.Members, Lag: g.Lag, Topics: g.Topics,
		LagTime: LagTime(g.Late)}
}

// Nullable is a record's key or value, nil when its encoding is none.
func Nullable(s, enc string) *string {
	if enc == record.EncodingNone {
		return nil
	}
	return &s
}
