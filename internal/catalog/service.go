package catalog

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// maxEntries bounds a zone's catalog in a stage (its topics, and the
// entries read from the store).
const maxEntries = 200_000

// Store is what the catalog keeps and reads: its entries, and the
// zone's grants (its readers).
type Store interface {
	store.Catalog
	ZoneGrants(ctx context.Context, zone, stage string, limit int) ([]store.GrantRecord, error)
}

// Service is the zone's catalog.
type Service struct {
	guard   *gate.Guard
	store   Store
	classes Classes
	idx     *indexes
}

var _ topiccatalog.CatalogService = (*Service)(nil)

// New returns the catalog.
func New(g *gate.Guard, s Store, classes Classes) *Service {
	return &Service{guard: g, store: s, classes: classes, idx: newIndexes()}
}

// Classes are the classifications in force.
func (s *Service) Classes() Classes { return s.classes }

// Classifications are the platform's, least strict first.
func (s *Service) Classifications() []portal.Classification {
	out := []portal.Classification{}
	for _, n := range s.classes.Names() {
		c := s.classes.Of(n)
		out = append(out, portal.Classification{Name: c.Name, MaxGrant: c.MaxGrant, Write: c.Write, Approvals: c.Approvals, Default: n == s.classes.Default()})
	}
	return out
}

// Catalog lists one page of the zone's topics that a query finds.
func (s *Service) Catalog(ctx context.Context, scope portal.Scope, q topiccatalog.CatalogQuery) (portal.Page[topiccatalog.CatalogEntry], error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read the catalog")
	if err != nil {
		return portal.Page[topiccatalog.CatalogEntry]{}, err
	}
	if q.Classification != "" && !s.classes.Known(strings.ToLower(strings.TrimSpace(q.Classification))) {
		return portal.Page[topiccatalog.CatalogEntry]{}, portal.Invalid("classification", "classification %q is not one of %s",
			portal.Clip(q.Classification, 32), strings.Join(s.classes.Names(), ", "))
	}
	x, err := s.index(ctx, call)
	if err != nil {
		return portal.Page[topiccatalog.CatalogEntry]{}, err
	}
	found := x.search(NewQuery(q))
	// The text is matched above, over every field; the page's own search
	// is by name only.
	lq := q.ListQuery
	lq.Search = ""
	page, err := gate.Paginate(s.guard.Pages(), "catalog "+call.Env.Name(), found, func(e topiccatalog.CatalogEntry) string { return e.Topic }, lq)
	if err != nil {
		return page, err
	}
	for i := range page.Items {
		s.decorate(call, &page.Items[i])
	}
	return page, nil
}

// decorate says what the caller may do with an entry.
func (s *Service) decorate(call *gate.Call, e *topiccatalog.CatalogEntry) {
	e.Editable = e.Owner == call.Scope.Unit.ID && access.Decide(call.Role, access.Write, call.Scope.Stage).Allowed
	c := s.classes.Of(e.Classification)
	e.MayAskWrite, e.MaxGrant, e.Approvals = c.Write, c.MaxGrant, c.Approvals
}

// index returns the call's environment's index, built when none is
// fresh: one topic list, one read of the entries and of the grants, one
// list of the registry's latest schemas.
func (s *Service) index(ctx context.Context, call *gate.Call) (*index, error) {
	env := call.Env.Name()
	now := s.guard.Now()
	// The cluster's list is cached and replaced whole by any write (on
	// this replica at once, on others by the cache channel): an index of
	// another list is stale, whatever its age.
	topics, err := call.Env.Topics.ListTopics(ctx)
	if err != nil {
		return nil, err
	}
	if x := s.idx.get(env, now); x != nil && x.of(topics) {
		return x, nil
	}
	zone, stage := call.Scope.Zone().ID, call.Scope.Stage.Name
	rows, err := s.store.CatalogEntries(ctx, zone, stage, maxEntries)
	if err != nil {
		return nil, err
	}
	said := make(map[string]store.CatalogEntry, len(rows))
	for _, r := range rows {
		said[r.Topic] = r
	}
	grants, err := s.store.ZoneGrants(ctx, zone, stage, maxEntries)
	if err != nil {
		return nil, err
	}
	subjects := map[string]schema.SchemaVersion{}
	if versions, err := call.Env.Schemas.ListSchemas(ctx, "", true); err != nil {
		// The registry's outage costs the search its field names, not
		// the catalog.
		s.guard.Log().WarnContext(ctx, "the catalog is built without schema fields", "env", env, "err", err)
	} else {
		for _, v := range versions {
			subjects[v.Subject] = v
		}
	}
	x := &index{built: now, src: topics, items: make([]item, 0, len(topics))}
	for _, t := range topics {
		if t.Internal || len(x.items) >= maxEntries {
			continue
		}
		o := call.Owner(t.Name, "")
		if o.Outside {
			continue
		}
		e := topiccatalog.CatalogEntry{Topic: t.Name, Identifier: o.Identifier, Owner: o.Unit, Partitions: t.Partitions}
		if r, ok := said[t.Name]; ok {
			e.Description, e.Contact, e.Tags, e.UpdatedBy, e.Updated = r.Description, r.Contact, r.Tags, r.UpdatedBy, r.Updated
			e.Classification, e.Classified = r.Classification, r.Classification != ""
		}
		e.Classification = s.classes.Of(e.Classification).Name
		s.subjects(&e, subjects)
		e.Readers = grantReaders(grants, t.Name)
		x.items = append(x.items, newItem(e))
	}
	s.idx.put(env, x)
	return x, nil
}

// subjects fills an entry's subjects and their fields.
func (s *Service) subjects(e *topiccatalog.CatalogEntry, all map[string]schema.SchemaVersion) {
	var fields []string
	if v, ok := all[e.Topic+"-key"]; ok {
		e.KeySubject = v.Subject
		fields = append(fields, s.idx.fieldsOf(v)...)
	}
	if v, ok := all[e.Topic+"-value"]; ok {
		e.ValueSubject = v.Subject
		fields = append(fields, s.idx.fieldsOf(v)...)
	}
	if len(fields) > 0 {
		slices.Sort(fields)
		e.Fields = slices.Compact(fields)
	}
}

// grantReaders are the grants on a topic, as readers.
func grantReaders(grants []store.GrantRecord, topic string) []topiccatalog.CatalogReader {
	var out []topiccatalog.CatalogReader
	for _, g := range grants {
		if g.Pattern == topic || g.Prefixed && strings.HasPrefix(topic, g.Pattern) {
			out = append(out, topiccatalog.CatalogReader{Unit: g.Grantee, Grant: g.ID, Access: g.Access, Principal: g.PrincipalName, Expires: g.Expires})
		}
	}
	return out
}

// Entry is one topic of the zone with its retention and its readers,
// consumer groups included.
func (s *Service) Entry(ctx context.Context, scope portal.Scope, topic string) (topiccatalog.CatalogEntry, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read the catalog")
	if err != nil {
		return topiccatalog.CatalogEntry{}, err
	}
	x, err := s.index(ctx, call)
	if err != nil {
		return topiccatalog.CatalogEntry{}, err
	}
	e, err := x.named(call, topic)
	if err != nil {
		return e, err
	}
	d, err := call.Env.Topics.DescribeTopic(ctx, e.Topic)
	if err != nil {
		return e, err
	}
	for _, c := range d.Config {
		if c.Name == "retention.ms" {
			e.RetentionMs = c.Value
		}
	}
	groups, err := Consumers(ctx, call.Env, e.Topic)
	if err != nil {
		return e, err
	}
	// The entry is a copy of the shared index's: its readers are
	// extended in a slice of its own.
	e.Readers = slices.Clip(e.Readers)
	for _, g := range groups {
		o := call.Owner(g.Group, "")
		e.Readers = append(e.Readers, topiccatalog.CatalogReader{Unit: o.Unit, Group: g.Group, Members: g.Members, Lag: g.Lag})
	}
	s.decorate(call, &e)
	return e, nil
}

// find is an entry by full name.
func (x *index) find(topic string) (topiccatalog.CatalogEntry, bool) {
	for i := range x.items {
		if x.items[i].e.Topic == topic {
			return x.items[i].e, true
		}
	}
	return topiccatalog.CatalogEntry{}, false
}

// named is the entry a caller names as the list shows it: by its full
// name, by its name in the caller's own unit, or by the name it has in
// its owner unit when only one unit of the zone has a topic of that name.
func (x *index) named(call *gate.Call, name string) (topiccatalog.CatalogEntry, error) {
	if e, ok := x.find(name); ok {
		return e, nil
	}
	if e, ok := x.find(call.Scope.Qualify(tenancy.Normalise(name))); ok {
		return e, nil
	}
	var found []topiccatalog.CatalogEntry
	for i := range x.items {
		if x.items[i].e.Identifier == tenancy.Normalise(name) {
			found = append(found, x.items[i].e)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return topiccatalog.CatalogEntry{}, portal.New(portal.NotFound, "the catalog of %s in %s has no topic %q", call.Scope.Zone().ID, call.Scope.Stage.Name,
			portal.Clip(name, 64))
	}
	full := make([]string, len(found))
	for i, e := range found {
		full[i] = e.Topic + " (" + e.Owner + ")"
	}
	return topiccatalog.CatalogEntry{}, portal.New(portal.NotFound, "%d units of %s have a topic %q (%s): ask for one by its full name", len(found),
		call.Scope.Zone().ID, portal.Clip(name, 64), strings.Join(full, ", "))
}

// Describe replaces what the owner unit says about one of its topics.
func (s *Service) Describe(ctx context.Context, scope portal.Scope, topic string, in portal.TopicMetadata) (topiccatalog.CatalogEntry, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "describe topics", portal.ActTopicDescribe, topic, func(ctx context.Context, call *gate.Call) (_ topiccatalog.CatalogEntry, err error) {
		full := topic
		if !call.Scope.Owns(full) {
			full = call.Scope.Prefix() + topic
		}
		m, problems := s.classes.Check(Metadata(in))
		var v portal.Validation
		for _, p := range problems {
			v.Add(portal.Invalid(p.Field, "%s", p.Message))
		}
		if err := v.Err(); err != nil {
			return topiccatalog.CatalogEntry{}, err
		}
		if _, err := call.Env.Topics.DescribeTopic(ctx, full); err != nil {
			return topiccatalog.CatalogEntry{}, err
		}
		unlock, err := s.guard.Lock(ctx, "catalog "+call.Env.Name()+" "+full)
		if err != nil {
			return topiccatalog.CatalogEntry{}, err
		}
		defer unlock()
		zone, stage := call.Scope.Zone().ID, call.Scope.Stage.Name
		before, err := s.store.CatalogEntry(ctx, zone, stage, full)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return topiccatalog.CatalogEntry{}, err
		}
		after := store.CatalogEntry{Zone: zone, Stage: stage, Topic: full, BU: call.Scope.Unit.ID, Description: m.Description, Contact: m.Contact,
			Tags: m.Tags, Classification: m.Classification, UpdatedBy: call.Principal.Actor(), Updated: s.guard.Now().UTC()}
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActTopicDescribe, Resource: full, Changes: metadataChanges(before, after),
			Do: func(ctx context.Context) error { return s.store.PutCatalogEntry(ctx, after) }})
		if err != nil {
			return topiccatalog.CatalogEntry{}, err
		}
		s.idx.forget(call.Env.Name())
		x, err := s.index(ctx, call)
		if err != nil {
			return topiccatalog.CatalogEntry{}, err
		}
		e, _ := x.find(full)
		s.decorate(call, &e)
		return e, nil
	})
}

// metadataChanges lists what an edit changed, for its audit event.
func metadataChanges(before, after store.CatalogEntry) []trail.Change {
	var out []trail.Change
	add := func(field, b, a string) {
		if b != a {
			out = append(out, trail.Change{Field: field, Before: b, After: a})
		}
	}
	add("description", before.Description, after.Description)
	add("owner", before.Contact, after.Contact)
	add("tags", strings.Join(before.Tags, ","), strings.Join(after.Tags, ","))
	add("classification", before.Classification, after.Classification)
	return out
}

// GrantClass is the classification a grant on a topic (or on every
// topic under a prefix: the strictest of those classified) is judged
// by, from the owners' entries.
func (s *Service) GrantClass(ctx context.Context, zone, stage, pattern string, prefix bool) (Class, error) {
	if !prefix {
		e, err := s.store.CatalogEntry(ctx, zone, stage, pattern)
		if errors.Is(err, store.ErrNotFound) {
			return s.classes.Of(""), nil
		}
		return s.classes.Of(e.Classification), err
	}
	rows, err := s.store.CatalogEntries(ctx, zone, stage, maxEntries)
	if err != nil {
		return Class{}, err
	}
	name := s.classes.Default()
	for _, r := range rows {
		if strings.HasPrefix(r.Topic, pattern) {
			name = s.classes.Stricter(name, r.Classification)
		}
	}
	return s.classes.Of(name), nil
}

// Class is a classification by name (the default's for "").
func (s *Service) Class(name string) Class { return s.classes.Of(name) }

// Said reads what a zone's owners say about their topics in a stage (one
// query), by topic.
func (s *Service) Said(ctx context.Context, zone, stage string) (map[string]portal.TopicMetadata, error) {
	rows, err := s.store.CatalogEntries(ctx, zone, stage, maxEntries)
	if err != nil {
		return nil, err
	}
	out := make(map[string]portal.TopicMetadata, len(rows))
	for _, r := range rows {
		out[r.Topic] = portal.TopicMetadata{Description: r.Description, Contact: r.Contact, Tags: r.Tags, Classification: r.Classification}
	}
	return out, nil
}

// Forget drops a deleted topic's entry, so that a topic made later under
// its name starts undescribed.
func (s *Service) Forget(ctx context.Context, env, zone, stage, topic string) error {
	s.idx.forget(env)
	return s.store.DeleteCatalogEntry(ctx, zone, stage, topic)
}
