package present

import (
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Impact is what depends on a resource that a delete would break.
func Impact(im portal.Impact) wire.Impact {
	out := wire.Impact{Kind: im.Kind, Name: im.Name, Live: len(im.Live()), Dependants: []wire.Dependant{}}
	for _, d := range im.Dependants {
		out.Dependants = append(out.Dependants, wire.Dependant{Kind: d.Kind, Name: d.Name, Unit: d.Unit, Detail: d.Detail, Live: d.Live})
	}
	return out
}
