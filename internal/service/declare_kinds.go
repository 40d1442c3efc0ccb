package service

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

func (s *Declarations) planTopic(ctx context.Context, call *gate.Call, obs *observed, r portal.Resource) (*step, error) {
	st := &step{change: portal.PlannedChange{Kind: "topic"}}
	scope := call.Named()
	d := r.Topic
	var v portal.Validation
	full := topicName(call, &v, s.rebase(call, r.Name))
	if d.Partitions != nil {
		v.Add(checkPartitions(*d.Partitions))
	}
	cfg := checkConfig(&v, d.Config)
	st.change.Name, st.key = full, "topic/"+full
	cur, exists := obs.topic(full)
	partitions := 1
	switch {
	case d.Partitions != nil:
		partitions = *d.Partitions
	case exists:
		partitions = cur.Partitions
	}
	current := map[string]string{}
	if exists {
		detail, described := obs.details[full]
		if !described {
			var err error
			if detail, err = s.topics.detail(ctx, call, full, false); err != nil {
				return nil, err
			}
		}
		for k, val := range detail.Config {
			// Settings outside the allow-list are neither shown nor reset.
			if _, editable := portal.LookupTopicSetting(k); editable {
				current[k] = val
			}
		}
		if d.Partitions == nil {
			// The settings just read are fresher than the cached list.
			partitions = detail.Partitions
		}
		if partitions < detail.Partitions {
			v.Add(shrinkProblem(full, detail.Partitions, partitions))
		}
		st.diff("partitions", ptr(strconv.Itoa(detail.Partitions)), ptr(strconv.Itoa(partitions)))
		st.state = fmt.Sprint(detail.Partitions, current)
	} else {
		st.diff("partitions", nil, ptr(strconv.Itoa(partitions)))
	}
	st.diffMaps("config.", current, cfg)
	st.change.Errors = v.Problems
	st.do = func(ctx context.Context) error {
		if !exists {
			_, err := s.topics.Create(ctx, scope, portal.NewTopic{Name: full, Partitions: &partitions, Config: cfg})
			return err
		}
		_, err := s.topics.Replace(ctx, scope, full, portal.TopicState{Partitions: &partitions, Config: cfg, ConfigGiven: true})
		return err
	}
	st.decide(exists)
	return st, nil
}

func (s *Declarations) planSchema(ctx context.Context, call *gate.Call, obs *observed, r portal.Resource) (*step, error) {
	st := &step{change: portal.PlannedChange{Kind: "schema"}}
	scope := call.Named()
	d := r.Schema
	var v portal.Validation
	name := tenancy.Normalise(s.rebase(call, r.Name))
	nameTopic, namePart := "", ""
	for _, part := range []string{"key", "value"} {
		if t, ok := strings.CutSuffix(name, "-"+part); ok {
			nameTopic, namePart = t, part
		}
	}
	topic, part := nameTopic, namePart
	if d.Topic != "" {
		topic = tenancy.Normalise(s.rebase(call, d.Topic))
	}
	if d.SubjectType != "" {
		part = d.SubjectType
	}
	switch {
	case part != "key" && part != "value" && d.SubjectType != "":
		v.Add(portal.Invalid("subject_type", "subjectType must be key or value, not %q", d.SubjectType))
	case part == "" || topic == "":
		v.Add(portal.Invalid("name", "name the subject <topic>-key or <topic>-value (the TopicNameStrategy), or give spec.topic and spec.subjectType"))
	case nameTopic != "" && (nameTopic != topic || namePart != part):
		v.Add(portal.Invalid("name", "metadata.name %s and the subject %s-%s of spec.topic and spec.subjectType disagree", r.Name, topic, part))
	}
	fullTopic := ""
	if topic != "" && identifier(&v, "topic", "topic", topic) {
		fullTopic = call.Scope.Qualify(topic)
	}
	if d.SchemaFile != "" && d.Schema == "" {
		v.Add(portal.Invalid("schemaFile", "schemaFile is read by the client (portalctl reads it next to the document); send the schema's text in schema"))
	}
	subject := tenancy.SubjectName(fullTopic, part)
	st.change.Name, st.key = subject, "schema/"+subject
	if fullTopic != "" {
		st.needs = []string{"topic/" + fullTopic}
	}
	cur, exists := obs.schemas[subject]
	defaultType := portal.SchemaAvro
	if exists {
		defaultType = cur.Type
	}
	def := portal.SchemaDef{SchemaType: d.SchemaType, Schema: d.Schema}
	for _, ref := range d.References {
		ref.Subject = tenancy.Normalise(s.rebase(call, ref.Subject))
		def.References = append(def.References, ref)
	}
	want := s.schemas.checkDef(call, &def, &v, defaultType)
	if exists {
		st.state = fmt.Sprint(cur.ID, "/", cur.Version)
		st.diff("schemaType", ptr(cur.Type), ptr(want.Type))
		if !sameSchema(cur.Schema, want.Schema) {
			st.diff("schema", ptr(cur.Schema), ptr(want.Schema))
		}
		st.diff("references", ptr(refsText(cur.References)), ptr(refsText(want.References)))
		if len(st.change.Diff) > 0 && len(v.Problems) == 0 {
			st.diff("version", ptr(strconv.Itoa(cur.Version)), ptr(strconv.Itoa(cur.Version+1)))
			compat, err := call.Env.Schemas.CheckCompatibility(ctx, subject, want)
			if err != nil && !portal.KindOf(err).IsValidation() {
				return nil, err
			}
			if err != nil {
				for _, p := range portal.Problems(err) {
					v.Add(p)
				}
			} else if !compat.Compatible {
				e := portal.New(portal.IncompatibleSchema, "the schema is not compatible with version %d of %s (%s): %s",
					cur.Version, subject, cmp.Or(compat.Level, "the subject's level"), strings.Join(compat.Messages, "; "))
				e.Field = "schema"
				v.Add(e)
			}
		}
	} else {
		st.diff("schemaType", nil, ptr(want.Type))
		st.diff("schema", nil, ptr(want.Schema))
		if len(want.References) > 0 {
			st.diff("references", nil, ptr(refsText(want.References)))
		}
	}
	st.change.Errors = v.Problems
	st.do = func(ctx context.Context) error {
		if !exists {
			_, err := s.schemas.Create(ctx, scope, portal.NewSchema{Topic: fullTopic, SubjectType: part, SchemaDef: def})
			return err
		}
		_, err := s.schemas.Update(ctx, scope, subject, def)
		return err
	}
	st.decide(exists)
	return st, nil
}

// sameSchema compares schema texts as JSON when both are (the registry may
// store them without the original's spacing).
func sameSchema(a, b string) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, []byte(a)) == nil && json.Compact(&cb, []byte(b)) == nil {
		return ca.String() == cb.String()
	}
	return strings.TrimSpace(a) == strings.TrimSpace(b)
}

func refsText(refs []portal.SchemaReference) string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = fmt.Sprintf("%s=%s/%d", r.Name, r.Subject, r.Version)
	}
	return strings.Join(parts, ", ")
}

func (s *Declarations) planAccount(call *gate.Call, obs *observed, r portal.Resource) *step {
	st := &step{change: portal.PlannedChange{Kind: "service-account"}}
	scope := call.Named()
	in := portal.NewServiceAccount{Name: s.identityName(call, r.Name, r.Account.Type, true), Type: r.Account.Type, Description: strings.TrimSpace(r.Description)}
	var v portal.Validation
	name := s.accounts.check(call, in, "", &v)
	st.change.Name, st.key = name, "service-account/"+name
	st.change.Errors = v.Problems
	var exists bool
	for _, a := range obs.accounts {
		if name != "" && a.DisplayName == name {
			exists = true
			st.state = a.ID + " " + a.Description
			if a.Description != in.Description {
				st.change.Warnings = append(st.change.Warnings, fmt.Sprintf("the account's description is %q: the portal keeps the description an account was created with", a.Description))
			}
		}
	}
	if !exists {
		st.diff("type", nil, ptr(in.Type))
		st.diff("description", nil, ptr(in.Description))
	}
	st.do = func(ctx context.Context) error {
		_, err := s.accounts.Create(ctx, scope, in)
		return err
	}
	st.decide(exists)
	return st
}

// identityName turns an account's or pool's declared name into the
// identifier its create takes: without another stage's prefix, and
// without the type suffix the convention adds.
func (s *Declarations) identityName(call *gate.Call, name, kind string, account bool) string {
	n := tenancy.Normalise(name)
	if account {
		for _, st := range s.guard.Tenancy().Stages() {
			if rest, ok := strings.CutPrefix(n, (tenancy.Scope{Unit: call.Scope.Unit, Stage: st}).ServiceAccountPrefix()); ok {
				return strings.TrimSuffix(rest, "-"+kind)
			}
		}
		return name
	}
	if rest := s.rebase(call, name); rest != name {
		return strings.TrimSuffix(rest, "-"+kind)
	}
	return name
}

func (s *Declarations) planPool(call *gate.Call, obs *observed, r portal.Resource) *step {
	st := &step{change: portal.PlannedChange{Kind: "identity-pool"}}
	scope := call.Named()
	d := r.Pool
	in := portal.NewPool{Name: s.identityName(call, r.Name, d.Type, false), Type: d.Type, Description: strings.TrimSpace(r.Description),
		IdentityClaim: d.IdentityClaim, Filter: strings.TrimSpace(d.Filter)}
	var v portal.Validation
	name := s.pools.check(call, &in, &v)
	st.change.Name, st.key = name, "identity-pool/"+name
	st.change.Errors = v.Problems
	id, exists := "", false
	for _, p := range obs.pools {
		if name == "" || p.DisplayName != name {
			continue
		}
		id, exists = p.ID, true
		st.state = p.ID + " " + p.Filter + " " + p.IdentityClaim
		st.diff("filter", ptr(p.Filter), ptr(in.Filter))
		if p.IdentityClaim != in.IdentityClaim {
			st.change.Warnings = append(st.change.Warnings, fmt.Sprintf("the pool's identity claim is %s, not %s: a pool keeps its claim; create a pool under another name to change it", p.IdentityClaim, in.IdentityClaim))
		}
		if p.Description != in.Description {
			st.change.Warnings = append(st.change.Warnings, fmt.Sprintf("the pool's description is %q: the portal keeps the description a pool was created with", p.Description))
		}
	}
	if !exists {
		st.diff("type", nil, ptr(in.Type))
		st.diff("identityClaim", nil, ptr(in.IdentityClaim))
		st.diff("filter", nil, ptr(in.Filter))
		st.diff("description", nil, ptr(in.Description))
	}
	st.do = func(ctx context.Context) error {
		if !exists {
			_, err := s.pools.Create(ctx, scope, in)
			return err
		}
		_, err := s.pools.UpdateFilter(ctx, scope, id, in.Filter)
		return err
	}
	st.decide(exists)
	return st
}

// prune plans the deletion of the unit's topics, connectors and identity
// pools that the document does not declare. A topic is deleted after the
// connectors being deleted that name it.
func (s *Declarations) prune(call *gate.Call, obs *observed, declared []*step) []*step {
	scope := call.Named()
	keep := map[string]bool{}
	for _, st := range declared {
		keep[st.key] = true
	}
	var out []*step
	readers := map[string][]string{}
	for _, c := range obs.connectors {
		if !call.Scope.Owns(c.Name) || !strings.HasSuffix(c.Name, tenancy.ConnectorSuffix) || keep["connector/"+c.Name] {
			continue
		}
		name := c.Name
		st := &step{key: "connector/" + name, state: c.ID, change: portal.PlannedChange{Kind: "connector", Name: name, Index: -1, Action: portal.ActionDelete,
			Identifier: strings.TrimSuffix(call.Scope.Identifier(name), tenancy.ConnectorSuffix)}}
		st.diff("class", ptr(c.Class), nil)
		st.do = func(ctx context.Context) error { return s.connectors.Delete(ctx, scope, name) }
		for _, t := range portal.ConnectorTopics(c.Config) {
			readers[t] = append(readers[t], st.key)
		}
		out = append(out, st)
	}
	for _, t := range obs.topics {
		if !call.Scope.Owns(t.Name) || keep["topic/"+t.Name] {
			continue
		}
		name := t.Name
		st := &step{key: "topic/" + name, needs: readers[name], state: strconv.Itoa(t.Partitions),
			change: portal.PlannedChange{Kind: "topic", Name: name, Identifier: call.Scope.Identifier(name), Index: -1, Action: portal.ActionDelete}}
		st.diff("partitions", ptr(strconv.Itoa(t.Partitions)), nil)
		st.do = func(ctx context.Context) error { return s.topics.Delete(ctx, scope, name) }
		out = append(out, st)
	}
	for _, p := range obs.pools {
		if _, mine := s.pools.view(call, p); !mine || keep["identity-pool/"+p.DisplayName] {
			continue
		}
		id := p.ID
		st := &step{key: "identity-pool/" + p.DisplayName, state: id,
			change: portal.PlannedChange{Kind: "identity-pool", Name: p.DisplayName, Identifier: call.Scope.Identifier(p.DisplayName), Index: -1, Action: portal.ActionDelete}}
		st.diff("filter", ptr(p.Filter), nil)
		st.do = func(ctx context.Context) error { return s.pools.Delete(ctx, scope, id) }
		out = append(out, st)
	}
	slices.SortStableFunc(out, func(a, b *step) int { return strings.Compare(a.key, b.key) })
	return out
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
