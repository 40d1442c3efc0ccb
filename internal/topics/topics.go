// Package topics is the topics service: a unit's topics listed (from memoised
// views of the cluster's list), read, created, changed alone or in batches,
// deleted with what they break, their statistics, metrics and charts, and
// their part of resources as code.
package topics

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/metric"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/topicconfig"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// maxTopicName is the longest topic name Kafka accepts.
const maxTopicName = portal.MaxTopicName

// Service manages a business unit's Kafka topics.
type Service struct {
	guard   *gate.Guard
	sampler Sampler
	charts  *MetricCache
	memo    *listMemo
	// grants are the zone's grants, among a topic's dependants.
	grants store.ZoneGrants
	// catalog keeps the catalog entries Topic documents declare.
	catalog *catalog.Service
	// endGrants ends the grants on a topic ahead of its delete.
	endGrants GrantEnder
}

// New returns the topic service; sampler keeps topic growth samples
// and charts answers the Metrics API's charts.
func New(g *gate.Guard, sampler Sampler, charts *MetricCache) *Service {
	return &Service{guard: g, sampler: sampler, charts: charts, memo: newListMemo()}
}

// Sampler keeps growth samples of the topics people look at
// (worker.Sampler).
type Sampler interface {
	Observe(ctx context.Context, env *platform.Environment, topic string, partitions int, produced int64) ([]metric.Sample, error)
	Every() time.Duration
}

// List returns one page of the unit's topics. A Super Admin viewing the
// main unit sees the whole cluster.
func (s *Service) List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[topic.Topic], error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "list topics")
	if err != nil {
		return portal.Page[topic.Topic]{}, err
	}
	all, err := call.Env.Topics.ListTopics(ctx)
	if err != nil {
		return portal.Page[topic.Topic]{}, err
	}
	list := "topics " + call.Scope.String()
	check := q
	if _, err := s.guard.Pages().CheckQuery(list, &check); err != nil {
		return portal.Page[topic.Topic]{}, err
	}
	prefix := call.Scope.Prefix()
	if call.WholeCluster {
		prefix = ""
	}
	switch q.SortBy {
	case "", portal.SortByName, portal.SortByPartitions:
	default:
		return portal.Page[topic.Topic]{}, portal.Invalid("sort", "must be name or partitions, not %q", q.SortBy)
	}
	if call.WholeCluster && q.Unit != "" && q.Unit != portal.UnitNone {
		// One unit of the zone: its run of names, as that unit sees it.
		u, ok := s.guard.Tenancy().Unit(q.Unit)
		if !ok || u.LandingZone.ID != call.Scope.Zone().ID {
			return portal.Page[topic.Topic]{}, portal.Invalid("unit", "%s is not a business unit of %s", q.Unit, call.Scope.Zone().ID)
		}
		prefix = tenancy.Scope{Unit: u, Stage: call.Scope.Stage}.Prefix()
	}
	visible := s.memo.view(call.Env.Name(), all, prefix, q.Search)
	if call.WholeCluster && q.Unit == portal.UnitNone {
		var outside []platform.TopicInfo
		for _, t := range visible {
			if call.Owner(t.Name, "").Outside {
				outside = append(outside, t)
			}
		}
		visible = outside
	}
	if q.SortBy == portal.SortByPartitions {
		visible = s.memo.byPartitions(call.Env.Name(), visible)
	}
	q.Search = ""
	page, err := gate.Paginate(s.guard.Pages(), list, visible, func(t platform.TopicInfo) string { return t.Name }, q)
	if err != nil {
		return portal.Page[topic.Topic]{}, err
	}
	out := portal.Page[topic.Topic]{NextPageToken: page.NextPageToken, Total: page.Total, Items: make([]topic.Topic, len(page.Items))}
	for i, t := range page.Items {
		out.Items[i] = s.describeName(call, t.Name, t.Partitions)
	}
	if q.Stats {
		pageStats(ctx, call, out.Items)
	}
	return out, nil
}

// describeName works out who owns a topic name by the naming convention.
func (s *Service) describeName(call *gate.Call, name string, partitions int) topic.Topic {
	o := call.Owner(name, "")
	return topic.Topic{Name: name, Partitions: partitions, BU: o.Unit, Identifier: o.Identifier, OutsideConvention: o.Outside}
}

// Get returns a topic with its overrides, and with every inherited setting
// when includeDefaults is set.
func (s *Service) Get(ctx context.Context, scope portal.Scope, name string, includeDefaults bool) (topic.TopicDetail, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read topics")
	if err != nil {
		return topic.TopicDetail{}, err
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return topic.TopicDetail{}, err
	}
	return s.detail(ctx, call, full, includeDefaults)
}

func (s *Service) detail(ctx context.Context, call *gate.Call, full string, includeDefaults bool) (topic.TopicDetail, error) {
	d, err := call.Env.Topics.DescribeTopic(ctx, full)
	if err != nil {
		return topic.TopicDetail{}, err
	}
	return s.detailOf(call, d, len(d.Partitions), includeDefaults), nil
}

// detailOf is a described topic as the portal shows it (partitions gives
// the count when d has no partition list: a batched describe's).
func (s *Service) detailOf(call *gate.Call, d platform.TopicDetail, partitions int, includeDefaults bool) topic.TopicDetail {
	out := topic.TopicDetail{Topic: s.describeName(call, d.Name, partitions), Config: map[string]string{}}
	if includeDefaults {
		out.Defaults = map[string]string{}
	}
	for _, e := range d.Config {
		v := e.Value
		if e.Sensitive {
			v = "********"
		}
		switch {
		case e.Override:
			out.Config[e.Name] = v
		case includeDefaults:
			out.Defaults[e.Name] = v
		}
	}
	for _, p := range d.Partitions {
		out.PartitionList = append(out.PartitionList, topic.Partition(p))
	}
	if len(d.Partitions) > 0 {
		out.ReplicationFactor = len(d.Partitions[0].Replicas)
	}
	out.Version = s.guard.Version(struct {
		Partitions int
		Config     map[string]string
	}{out.Partitions, out.Config})
	return out
}

// resolve turns the name a caller gave into the full topic name. In a
// whole-cluster view a name that exists as given is taken literally, so
// topics outside the convention can be addressed.
func (s *Service) resolve(ctx context.Context, call *gate.Call, name string) (string, error) {
	return call.Topic(ctx, name)
}

// Create creates a topic named by the convention.
func (s *Service) Create(ctx context.Context, scope portal.Scope, in topic.NewTopic) (topic.TopicDetail, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "create topics", portal.ActTopicCreate, in.Name, func(ctx context.Context, call *gate.Call) (_ topic.TopicDetail, err error) {
		spec, err := newTopicSpec(call, in)
		if err != nil {
			return topic.TopicDetail{}, err
		}
		full, partitions, cfg := spec.Name, spec.Partitions, spec.Config
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActTopicCreate, Resource: full,
			Rule: rules.NewChange(rules.KindTopic, rules.OpCreate, full, topicRule(call, full, partitions, cfg), nil),
			Do: func(ctx context.Context) error {
				return call.Env.Topics.CreateTopic(ctx, platform.TopicSpec{Name: full, Partitions: partitions, Config: cfg})
			},
			Confirm: &gate.Confirmation{What: "topic " + full + " was created", How: "GET the topic to see", Check: func(ctx context.Context) (bool, error) {
				d, err := call.Env.Topics.DescribeTopic(ctx, full)
				return err == nil && len(d.Partitions) == partitions, err
			}},
			Announce: s.announce(call, platform.TopicChange{Name: full, Partitions: partitions}),
		})
		if err != nil {
			return topic.TopicDetail{}, err
		}
		d, err := s.detail(ctx, call, full, false)
		if err != nil {
			// The topic exists; describe what was asked rather than fail the create.
			return topic.TopicDetail{Topic: s.describeName(call, full, partitions), Config: cfg}, nil
		}
		return d, nil
	})
}

// newTopicSpec checks a new topic (its name, partitions and settings) and
// gives what the cluster is asked to make.
func newTopicSpec(call *gate.Call, in topic.NewTopic) (platform.TopicSpec, error) {
	var v portal.Validation
	full := topicName(call, &v, in.Name)
	partitions := 1
	if in.Partitions != nil {
		partitions = *in.Partitions
		v.Add(checkPartitions(partitions))
	}
	cfg := checkConfig(&v, in.Config)
	return platform.TopicSpec{Name: full, Partitions: partitions, Config: cfg}, v.Err()
}

// topicName qualifies a new topic's identifier, adding to v what is wrong
// with it; "" when it cannot be used.
func topicName(call *gate.Call, v *portal.Validation, name string) string {
	if !gate.Identifier(v, "name", "name", name) {
		return ""
	}
	full := call.Scope.Qualify(name)
	if len(full) > maxTopicName {
		v.Add(portal.Invalid("name", "the full name %s is %d characters long; Kafka allows %d", full, len(full), maxTopicName))
	}
	return full
}

func checkPartitions(n int) *portal.Error {
	if n < topic.MinPartitions || n > topic.MaxPartitions {
		return portal.Invalid("partitions_count", "must be between %d and %d, not %d", topic.MinPartitions, topic.MaxPartitions, n)
	}
	return nil
}

// checkConfig validates settings against the allow-list and returns them
// normalised.
func checkConfig(v *portal.Validation, cfg map[string]string) map[string]string {
	out := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(cfg)) {
		if p := checkSetting(k, cfg[k]); p != nil {
			v.Add(p)
			continue
		}
		st, _ := topicconfig.LookupTopicSetting(k)
		out[k] = topicconfig.NormaliseSetting(st, cfg[k])
	}
	return out
}

func checkSetting(key, value string) *portal.Error {
	st, ok := topicconfig.LookupTopicSetting(key)
	if !ok {
		return portal.Invalid("config."+key, "%s is not an editable topic setting; editable settings are %s", key, settingKeys())
	}
	if p := st.Check(topicconfig.NormaliseSetting(st, value)); p != "" {
		return portal.Invalid("config."+key, "%s %s", key, p)
	}
	return nil
}

func settingKeys() string {
	keys := make([]string, len(topicconfig.TopicSettings()))
	for i, s := range topicconfig.TopicSettings() {
		keys[i] = s.Key
	}
	return strings.Join(keys, ", ")
}

// Replace sets a topic to a desired state: its partition count and the full
// set of overrides of editable settings. Editable settings missing from the
// state are reset; settings outside the allow-list are left alone.
func (s *Service) Replace(ctx context.Context, scope portal.Scope, name string, in topic.TopicState) (topic.TopicDetail, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "update topics", portal.ActTopicUpdate, name, func(ctx context.Context, call *gate.Call) (_ topic.TopicDetail, err error) {
		var v portal.Validation
		if in.Partitions == nil {
			v.Add(portal.Missing("partitions_count"))
		} else {
			v.Add(checkPartitions(*in.Partitions))
		}
		if !in.ConfigGiven {
			e := portal.Missing("config")
			e.Message = "config is required: PUT sets every override (send {} to reset them all); use PATCH to change only some"
			v.Add(e)
		}
		desired := checkConfig(&v, in.Config)
		s.checkShrink(ctx, call, name, in.Partitions, &v)
		if err := v.Err(); err != nil {
			return topic.TopicDetail{}, err
		}
		return s.apply(ctx, call, name, *in.Partitions, in.IfMatch, replaceState(desired))
	})
}

// Patch merges changes into a topic: given settings are set, null ones
// reset, others kept; partitions only grow.
func (s *Service) Patch(ctx context.Context, scope portal.Scope, name string, in topic.TopicPatch) (topic.TopicDetail, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "update topics", portal.ActTopicUpdate, name, func(ctx context.Context, call *gate.Call) (_ topic.TopicDetail, err error) {
		var v portal.Validation
		if in.Partitions != nil {
			v.Add(checkPartitions(*in.Partitions))
		}
		set := map[string]string{}
		var reset []string
		for _, k := range slices.Sorted(maps.Keys(in.Config)) {
			if in.Config[k] == nil {
				if _, ok := topicconfig.LookupTopicSetting(k); !ok {
					v.Add(checkSetting(k, ""))
				} else {
					reset = append(reset, k)
				}
				continue
			}
			set[k] = *in.Config[k]
		}
		set = checkConfig(&v, set)
		s.checkShrink(ctx, call, name, in.Partitions, &v)
		if err := v.Err(); err != nil {
			return topic.TopicDetail{}, err
		}
		partitions := 0
		if in.Partitions != nil {
			partitions = *in.Partitions
		}
		return s.apply(ctx, call, name, partitions, in.IfMatch, func(map[string]string) ([]string, map[string]string) { return reset, set })
	})
}

// checkShrink adds a partition count below the topic's current one to
// problems already found, so that a caller learns about every problem in
// one round. Without other problems apply checks it (it reads the topic
// anyway), which keeps the happy path at one read.
func (s *Service) checkShrink(ctx context.Context, call *gate.Call, name string, partitions *int, v *portal.Validation) {
	if len(v.Problems) == 0 || partitions == nil || *partitions < 1 {
		return
	}
	for _, p := range v.Problems {
		if p.Field == "partitions_count" {
			return
		}
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return
	}
	if d, err := call.Env.Topics.DescribeTopic(ctx, full); err == nil && *partitions < len(d.Partitions) {
		v.Add(shrinkProblem(full, len(d.Partitions), *partitions))
	}
}

func shrinkProblem(full string, current, asked int) *portal.Error {
	return portal.Invalid("partitions_count", "topic %s has %d partitions; Kafka cannot remove partitions, so %d is not possible", full, current, asked)
}

// apply reads the topic, works out the change, and makes it: settings
// first (reversible), then partitions (not). partitions 0 keeps the count.
func (s *Service) apply(ctx context.Context, call *gate.Call, name string, partitions int, ifMatch portal.IfMatch,
	change func(current map[string]string) (reset []string, set map[string]string)) (topic.TopicDetail, error) {
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return topic.TopicDetail{}, err
	}
	unlock, err := s.guard.Lock(ctx, topicLock(call, full))
	if err != nil {
		return topic.TopicDetail{}, err
	}
	defer unlock()
	cur, err := s.detail(ctx, call, full, false)
	if err != nil {
		return topic.TopicDetail{}, err
	}
	if err := ifMatch.Check("topic "+full, cur.Version); err != nil {
		return topic.TopicDetail{}, err
	}
	if partitions != 0 && partitions < cur.Partitions {
		return topic.TopicDetail{}, shrinkProblem(full, cur.Partitions, partitions)
	}
	cc := configChange(cur.Config, change)
	if !cc.Empty() || partitions > cur.Partitions {
		if err := s.guard.Check(ctx, call, portal.ActTopicUpdate, updateRule(call, full, cur, partitions, cc)); err != nil {
			return topic.TopicDetail{}, err
		}
	}
	if !cc.Empty() {
		err := s.guard.Write(ctx, call, gate.Change{Event: portal.ActTopicConfig, Resource: full,
			Do:      func(ctx context.Context) error { return call.Env.Topics.AlterTopicConfig(ctx, full, cc) },
			Confirm: &gate.Confirmation{What: "the settings of " + full + " changed", How: "GET the topic to see", Check: s.settingsChanged(call, full, cc)},
			Changes: configChanges(cur.Config, cc),
		})
		if err != nil {
			return topic.TopicDetail{}, err
		}
	}
	if partitions > cur.Partitions {
		err := s.guard.Write(ctx, call, gate.Change{Event: portal.ActTopicPartitions, Resource: full,
			Do: func(ctx context.Context) error { return call.Env.Topics.CreatePartitions(ctx, full, partitions) },
			Confirm: &gate.Confirmation{What: full + " has " + strconv.Itoa(partitions) + " partitions", How: "GET the topic to see",
				Check: partitionsAre(call, full, partitions)},
			Changes:  []trail.Change{{Field: "partitions_count", Before: strconv.Itoa(cur.Partitions), After: strconv.Itoa(partitions)}},
			Announce: s.announce(call, platform.TopicChange{Name: full, Partitions: partitions}),
		})
		if err != nil {
			if !cc.Empty() {
				return topic.TopicDetail{}, portal.Partial(err, "the settings of %s were changed, but its partitions were not", full)
			}
			return topic.TopicDetail{}, err
		}
	}
	return s.detail(ctx, call, full, false)
}

// announce brings every replica's topic list up to a topic write.
func (s *Service) announce(call *gate.Call, c platform.TopicChange) func(context.Context, error) {
	return func(ctx context.Context, err error) { s.guard.TopicChanged(ctx, call.Env, err, c) }
}

// Delete deletes a topic and its data.
func (s *Service) Delete(ctx context.Context, scope portal.Scope, name string, opt portal.DeleteOptions) error {
	return s.guard.Writing(ctx, scope, access.Write, "delete topics", portal.ActTopicDelete, name, func(ctx context.Context, call *gate.Call) (err error) {
		full, err := s.resolve(ctx, call, name)
		if err != nil {
			return err
		}
		unlock, err := s.guard.Lock(ctx, topicLock(call, full))
		if err != nil {
			return err
		}
		defer unlock()
		cur, err := s.detail(ctx, call, full, false)
		if err != nil {
			return err
		}
		if err := opt.IfMatch.Check("topic "+full, cur.Version); err != nil {
			return err
		}
		im, err := s.impact(ctx, call, full)
		if err != nil {
			return err
		}
		forced, err := gate.CheckDependants(call, im, cur.Identifier, opt)
		if err != nil {
			return err
		}
		return s.guard.Write(ctx, call, gate.Change{Event: portal.ActTopicDelete, Resource: full,
			Rule: rules.NewChange(rules.KindTopic, rules.OpDelete, full, nil, topicRule(call, full, cur.Partitions, cur.Config)),
			Ahead: func(ctx context.Context) ([]trail.Change, error) {
				if s.endGrants == nil {
					return nil, nil
				}
				return s.endGrants(ctx, call, full, "topic "+full+" is deleted by "+call.Principal.Actor())
			},
			Do: func(ctx context.Context) error { return call.Env.Topics.DeleteTopic(ctx, full) },
			Confirm: &gate.Confirmation{What: "topic " + full + " was deleted", How: "GET the topic to see", Check: func(ctx context.Context) (bool, error) {
				_, err := call.Env.Topics.DescribeTopic(ctx, full)
				if portal.Is(err, portal.NotFound) {
					return true, nil
				}
				return false, err
			}},
			Changes: forced,
			Announce: func(ctx context.Context, err error) {
				s.announce(call, platform.TopicChange{Name: full, Deleted: true})(ctx, err)
				if err == nil && s.catalog != nil {
					if cerr := s.catalog.Forget(context.WithoutCancel(ctx), call.Env.Name(), call.Scope.Zone().ID, call.Scope.Stage.Name, full); cerr != nil {
						// The entry outlives its topic; one made under the name
						// later starts with it, which its owner can change.
						s.guard.Log().WarnContext(ctx, "a deleted topic's catalog entry could not be dropped", "topic", full, "err", cerr)
					}
				}
			},
		})
	})
}

// topicLock names the lock of a topic's changes.
func topicLock(call *gate.Call, full string) string { return "topic " + call.Env.Name() + " " + full }

// configChanges lists a configuration change for the audit trail, as
// before and after per setting (an empty after is a reset).
func configChanges(before map[string]string, cc platform.ConfigChange) []trail.Change {
	var out []trail.Change
	for _, k := range slices.Sorted(maps.Keys(cc.Set)) {
		out = append(out, trail.Change{Field: "config." + k, Before: before[k], After: cc.Set[k]})
	}
	for _, k := range cc.Reset {
		out = append(out, trail.Change{Field: "config." + k, Before: before[k]})
	}
	return out
}

// Service implements the contract of the front doors.
var (
	_ topic.TopicService    = (*Service)(nil)
	_ metric.MetricsService = (*Service)(nil)
)
