package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// SchemaItem is a subject's version as a list shows it.
func SchemaItem(v schema.SchemaVersion) wire.SchemaItem {
	return wire.SchemaItem{Subject: v.Subject, Version: v.Version, ID: v.ID, SchemaType: v.Type}
}

// Schema is one version of a subject with its schema.
func Schema(v schema.SchemaVersion) wire.Schema {
	out := wire.Schema{SchemaItem: SchemaItem(v), Schema: v.Schema, References: []wire.SchemaReference{}}
	for _, r := range v.References {
		out.References = append(out.References, wire.SchemaReference(r))
	}
	return out
}
