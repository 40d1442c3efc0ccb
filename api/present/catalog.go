package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// CatalogEntry is a topic of the zone's catalog.
func CatalogEntry(e topiccatalog.CatalogEntry) wire.CatalogEntry {
	out := wire.CatalogEntry{Topic: e.Topic, Identifier: e.Identifier, Owner: e.Owner, Description: e.Description, Contact: e.Contact, Tags: Strings(e.Tags),
		Classification: e.Classification, Classified: e.Classified, Partitions: e.Partitions, RetentionMs: e.RetentionMs, KeySubject: e.KeySubject,
		ValueSubject: e.ValueSubject, Fields: Strings(e.Fields), Readers: []wire.CatalogReader{}, UpdatedBy: e.UpdatedBy, Updated: Stamp(e.Updated),
		Editable: e.Editable, MayAskWrite: e.MayAskWrite, MaxGrant: Duration(e.MaxGrant), Approvals: e.Approvals}
	for _, r := range e.Readers {
		out.Readers = append(out.Readers, wire.CatalogReader{Unit: r.Unit, Grant: r.Grant, Access: r.Access, Principal: r.Principal, Expires: Stamp(r.Expires),
			Group: r.Group, Members: r.Members, Lag: r.Lag})
	}
	return out
}
