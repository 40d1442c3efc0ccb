package api

import "github.com/edh-platform/rms-portal/internal/portal"

type dependantJSON struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Unit   string `json:"unit"`
	Detail string `json:"detail"`
	Live   bool   `json:"live"`
}

type impactJSON struct {
	Kind       string          `json:"kind"`
	Name       string          `json:"name"`
	Live       int             `json:"live"`
	Dependants []dependantJSON `json:"dependants"`
}

func impactOut(im portal.Impact) impactJSON {
	out := impactJSON{Kind: im.Kind, Name: im.Name, Live: len(im.Live()), Dependants: []dependantJSON{}}
	for _, d := range im.Dependants {
		out.Dependants = append(out.Dependants, dependantJSON{Kind: d.Kind, Name: d.Name, Unit: d.Unit, Detail: d.Detail, Live: d.Live})
	}
	return out
}
