package topics

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/topicconfig"
)

// AsCode is the topics' part of resources as code.
func (s *Service) AsCode() plans.Kind { return topicCode{s} }

type topicCode struct{ s *Service }

func (topicCode) Kind() string          { return portal.KindTopic }
func (topicCode) Action() access.Action { return access.Write }
func (topicCode) Prunes() bool          { return true }

// topicsObserved is the cluster's topic list and the settings of the
// topics a plan declares (or an export writes).
type topicsObserved struct {
	all     []platform.TopicInfo
	details map[string]topic.TopicDetail
	// said are the zone's catalog entries (read when a plan declares
	// one, and for exports).
	said map[string]portal.TopicMetadata
}

func (o *topicsObserved) topic(name string) (platform.TopicInfo, bool) {
	i, found := slices.BinarySearchFunc(o.all, name, func(t platform.TopicInfo, n string) int { return strings.Compare(t.Name, n) })
	if !found {
		return platform.TopicInfo{}, false
	}
	return o.all[i], true
}

// Observe lists the cluster's topics (one request) and describes the
// declared ones that exist.
func (k topicCode) Observe(ctx context.Context, call *gate.Call, declared []portal.Resource) (plans.Observed, error) {
	all, err := call.Env.Topics.ListTopics(ctx)
	if err != nil {
		return nil, err
	}
	obs := &topicsObserved{all: all, details: map[string]topic.TopicDetail{}}
	var existing []string
	for _, r := range declared {
		if d := portal.DeclOf[portal.TopicDecl](r); d != nil && d.Catalog != nil && obs.said == nil {
			if obs.said, err = k.s.said(ctx, call); err != nil {
				return nil, err
			}
		}
		full := topicName(call, &portal.Validation{}, k.s.guard.Tenancy().Rebase(call.Scope.Unit, r.Name))
		if _, ok := obs.topic(full); ok && full != "" && !slices.Contains(existing, full) {
			existing = append(existing, full)
		}
	}
	return obs, k.describe(ctx, call, obs, existing)
}

// describe reads the settings of existing topics from one request (the
// partitions are the list's).
func (k topicCode) describe(ctx context.Context, call *gate.Call, obs *topicsObserved, names []string) error {
	if len(names) == 0 {
		return nil
	}
	configs, err := call.Env.Topics.TopicConfigs(ctx, names)
	if err != nil {
		return err
	}
	for _, name := range names {
		entries, ok := configs[name]
		if !ok {
			continue // deleted since the list: planned as missing
		}
		info, _ := obs.topic(name)
		obs.details[name] = k.s.detailOf(call, platform.TopicDetail{Name: name, Config: entries}, info.Partitions, false)
	}
	return nil
}

// Plan plans a declared topic: its partitions and every override of an
// editable setting (others are reset, as PUT does).
func (k topicCode) Plan(ctx context.Context, call *gate.Call, o plans.Observed, r portal.Resource) (*plans.Step, error) {
	s, obs := k.s, o.(*topicsObserved)
	st := &plans.Step{Change: ascode.PlannedChange{Kind: "topic"}}
	scope := call.Named()
	d := portal.DeclOf[portal.TopicDecl](r)
	var v portal.Validation
	full := topicName(call, &v, s.guard.Tenancy().Rebase(call.Scope.Unit, r.Name))
	if d.Partitions != nil {
		v.Add(checkPartitions(*d.Partitions))
	}
	cfg := checkConfig(&v, d.Config)
	st.Change.Name, st.Key = full, "topic/"+full
	cur, exists := obs.topic(full)
	partitions := 1
	switch {
	case d.Partitions != nil:
		partitions = *d.Partitions
	case exists:
		partitions = cur.Partitions
	}
	current := map[string]string{}
	var before *rules.Topic
	if exists {
		detail, described := obs.details[full]
		if !described {
			var err error
			if detail, err = s.detail(ctx, call, full, false); err != nil {
				return nil, err
			}
		}
		for k, val := range detail.Config {
			// Settings outside the allow-list are neither shown nor reset.
			if _, editable := topicconfig.LookupTopicSetting(k); editable {
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
		st.Diff("partitions", plans.Ptr(strconv.Itoa(detail.Partitions)), plans.Ptr(strconv.Itoa(partitions)))
		st.State = fmt.Sprint(detail.Partitions, current)
		before = topicRule(call, full, detail.Partitions, current)
	} else {
		st.Diff("partitions", nil, plans.Ptr(strconv.Itoa(partitions)))
	}
	st.DiffMaps("config.", current, cfg)
	topicChanges := len(st.Change.Diff)
	describe := k.planCatalog(call, st, obs, full, d.Catalog, &v)
	st.Change.Errors = v.Problems
	rule := rules.NewChange(rules.KindTopic, "", full, topicRule(call, full, partitions, cfg), before)
	st.Rule = &rule
	if !exists {
		// An apply makes its new topics together: one request.
		st.Item = catalogItem{item: topic.NewTopic{Name: full, Partitions: &partitions, Config: cfg}, describe: describe}
		st.Batch = &plans.Batch{Key: "topic.create " + scope.String(), Run: withCatalog(func(ctx context.Context, items []any) []error {
			ins := make([]topic.NewTopic, len(items))
			for i, it := range items {
				ins[i] = it.(topic.NewTopic)
			}
			return s.CreateBatch(ctx, scope, ins)
		})}
	}
	if exists {
		// An apply changes its topics' settings together: one request
		// (and one more for the partition counts that grow).
		st.Item = catalogItem{item: topicUpdate{name: full, partitions: partitions, config: cfg}, describe: describe}
		st.Batch = &plans.Batch{Key: "topic.update " + scope.String(), Run: withCatalog(func(ctx context.Context, items []any) []error {
			ins := make([]topicUpdate, len(items))
			for i, it := range items {
				ins[i] = it.(topicUpdate)
			}
			return s.updateBatch(ctx, scope, ins)
		})}
	}
	st.Do = func(ctx context.Context) error {
		var err error
		if !exists {
			_, err = s.Create(ctx, scope, topic.NewTopic{Name: full, Partitions: &partitions, Config: cfg})
		} else {
			_, err = s.Replace(ctx, scope, full, topic.TopicState{Partitions: &partitions, Config: cfg, ConfigGiven: true})
		}
		if err == nil && describe != nil {
			err = describe(ctx)
		}
		return err
	}
	if exists && topicChanges == 0 && describe != nil {
		// Only the catalog entry changes: nothing to ask the cluster.
		st.Batch, st.Item, st.Do = nil, nil, describe
	}
	st.Decide(exists)
	return st, nil
}

// Prune plans deleting the unit's topics the document does not declare;
// a topic's delete waits for the deletes of connectors that read it.
func (k topicCode) Prune(call *gate.Call, o plans.Observed, keep map[string]bool) []*plans.Step {
	scope := call.Named()
	var out []*plans.Step
	for _, t := range o.(*topicsObserved).all {
		if !call.Scope.Owns(t.Name) || keep["topic/"+t.Name] {
			continue
		}
		name := t.Name
		st := &plans.Step{Key: "topic/" + name, State: strconv.Itoa(t.Partitions),
			Change: ascode.PlannedChange{Kind: "topic", Name: name, Identifier: call.Scope.Identifier(name), Index: -1, Action: ascode.ActionDelete}}
		st.Diff("partitions", plans.Ptr(strconv.Itoa(t.Partitions)), nil)
		// The list has no settings: a delete is judged by its partitions.
		rule := rules.NewChange(rules.KindTopic, rules.OpDelete, name, nil, topicRule(call, name, t.Partitions, nil))
		st.Rule = &rule
		st.Impact = func(ctx context.Context) (portal.Impact, error) { return k.s.impact(ctx, call, name) }
		st.Do = func(ctx context.Context) error {
			return k.s.Delete(ctx, scope, name, portal.DeleteOptions{Forced: st.Force})
		}
		out = append(out, st)
	}
	return out
}

// Export declares the unit's topics with their partitions and editable
// overrides, by identifier.
func (k topicCode) Export(ctx context.Context, call *gate.Call, o plans.Observed) ([]portal.Resource, error) {
	obs := o.(*topicsObserved)
	var owned []string
	for _, t := range obs.all {
		if call.Scope.Owns(t.Name) {
			owned = append(owned, t.Name)
		}
	}
	if err := k.describe(ctx, call, obs, owned); err != nil {
		return nil, err
	}
	said, err := k.s.said(ctx, call)
	if err != nil {
		return nil, err
	}
	obs.said = said
	var out []portal.Resource
	for _, name := range owned {
		d := obs.details[name]
		decl := &portal.TopicDecl{Partitions: &d.Partitions, Config: map[string]string{}}
		for key, v := range d.Config {
			if _, editable := topicconfig.LookupTopicSetting(key); editable {
				decl.Config[key] = v
			}
		}
		if m, ok := obs.said[name]; ok {
			decl.Catalog = &m
		}
		out = append(out, portal.Resource{Kind: portal.KindTopic, Name: call.Scope.Identifier(name), Spec: decl})
	}
	return out, nil
}
