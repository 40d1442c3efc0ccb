package topics

import (
	"context"
	"fmt"
	"strconv"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// CreateBatch creates many topics with one request to the cluster (an
// apply's creates): each is checked and its attempt audited first, as a
// single create is, and each gets its own outcome. The answer has one
// error per topic, nil for those made.
func (s *Service) CreateBatch(ctx context.Context, scope portal.Scope, ins []topic.NewTopic) []error {
	out := make([]error, len(ins))
	ctx, call, err := s.guard.EnterWrite(ctx, scope, access.Write, "create topics", portal.ActTopicCreate, "")
	if err != nil {
		for i := range out {
			out[i] = err
		}
		return out
	}
	type pending struct {
		i    int
		spec platform.TopicSpec
	}
	var valid []pending
	var changes []rules.Change
	for i, in := range ins {
		spec, err := newTopicSpec(call, in)
		if out[i] = err; err != nil {
			continue
		}
		valid = append(valid, pending{i: i, spec: spec})
		changes = append(changes, rules.NewChange(rules.KindTopic, rules.OpCreate, spec.Name, topicRule(call, spec.Name, spec.Partitions, spec.Config), nil))
	}
	refused, err := s.guard.CheckAll(ctx, call, portal.ActTopicCreate, changes)
	var todo []pending
	for j, p := range valid {
		switch {
		case err != nil:
			out[p.i] = err
		case refused[j] != nil:
			out[p.i] = refused[j]
		default:
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return out
	}
	names := make([]string, len(todo))
	for j, p := range todo {
		names[j] = p.spec.Name
	}
	errs := s.guard.WriteBatch(ctx, call, gate.Batch{Event: portal.ActTopicCreate, Resources: names,
		Send: func(ctx context.Context, begun []int) ([]error, error) {
			specs := make([]platform.TopicSpec, len(begun))
			for j, i := range begun {
				specs[j] = todo[i].spec
			}
			return call.Env.Topics.CreateTopics(ctx, specs)
		},
		Each: func(ctx context.Context, i int, w *gate.Write, err error) ([]trail.Change, error) {
			spec := todo[i].spec
			err = w.Confirm(ctx, err, "topic "+spec.Name+" was created", "GET the topic to see", func(ctx context.Context) (bool, error) {
				d, err := call.Env.Topics.DescribeTopic(ctx, spec.Name)
				return err == nil && len(d.Partitions) == spec.Partitions, err
			})
			s.guard.TopicChanged(ctx, call.Env, err, platform.TopicChange{Name: spec.Name, Partitions: spec.Partitions})
			return nil, err
		},
	})
	for j, p := range todo {
		out[p.i] = errs[j]
	}
	return out
}

// topicUpdate is one topic of an apply's batch of updates: the state its
// document declares, as Replace takes it.
type topicUpdate struct {
	name       string
	partitions int
	config     map[string]string
}

// pendingUpdate is a topic of updateBatch on its way: where it is in the
// batch, what is asked, what it is, what changes, and its audit event.
type pendingUpdate struct {
	i          int
	full       string
	partitions int
	desired    map[string]string
	cur        topic.TopicDetail
	cc         platform.ConfigChange
}

// updateBatch sets many topics to their declared state as Replace does
// (an apply's updates), with one request per kind of change for all of
// them: the topics are locked together, read in one describe, each
// change is checked and its attempt audited first, the settings change in
// one request and the partition counts in another, and each topic gets
// its own outcome (a topic whose settings failed keeps its partitions).
// The answer has one error per topic, nil for those set.
func (s *Service) updateBatch(ctx context.Context, scope portal.Scope, ins []topicUpdate) []error {
	out := make([]error, len(ins))
	failAll := func(err error) []error {
		for i := range out {
			if out[i] == nil {
				out[i] = err
			}
		}
		return out
	}
	ctx, call, err := s.guard.EnterWrite(ctx, scope, access.Write, "update topics", portal.ActTopicUpdate, "")
	if err != nil {
		return failAll(err)
	}
	var valid []*pendingUpdate
	var names, keys []string
	for i, in := range ins {
		var v portal.Validation
		v.Add(checkPartitions(in.partitions))
		desired := checkConfig(&v, in.config)
		if out[i] = v.Err(); out[i] != nil {
			continue
		}
		full, err := s.resolve(ctx, call, in.name)
		if out[i] = err; err != nil {
			continue
		}
		valid = append(valid, &pendingUpdate{i: i, full: full, partitions: in.partitions, desired: desired})
		names, keys = append(names, full), append(keys, topicLock(call, full))
	}
	if len(valid) == 0 {
		return out
	}
	unlock, err := s.guard.LockAll(ctx, keys, fmt.Sprintf("%d topics of %s", len(keys), call.Env.Name()))
	if err != nil {
		return failAll(err)
	}
	defer unlock()
	details, err := call.Env.Topics.DescribeTopics(ctx, names)
	if err != nil {
		return failAll(err)
	}
	var todo []*pendingUpdate
	var checks []rules.Change
	for _, p := range valid {
		d, ok := details[p.full]
		if !ok {
			out[p.i] = portal.New(portal.NotFound, "topic %s not found", p.full)
			continue
		}
		p.cur = s.detailOf(call, d, len(d.Partitions), false)
		if p.partitions < p.cur.Partitions {
			out[p.i] = shrinkProblem(p.full, p.cur.Partitions, p.partitions)
			continue
		}
		if p.cc = configChange(p.cur.Config, replaceState(p.desired)); p.cc.Empty() && p.partitions == p.cur.Partitions {
			continue // already as declared
		}
		todo = append(todo, p)
		checks = append(checks, updateRule(call, p.full, p.cur, p.partitions, p.cc))
	}
	refused, err := s.guard.CheckAll(ctx, call, portal.ActTopicUpdate, checks)
	var settings, grow []*pendingUpdate
	for j, p := range todo {
		switch {
		case err != nil:
			out[p.i] = err
		case refused[j] != nil:
			out[p.i] = refused[j]
		case p.cc.Empty():
			grow = append(grow, p)
		default:
			settings = append(settings, p)
		}
	}
	if len(settings) > 0 {
		errs := s.guard.WriteBatch(ctx, call, gate.Batch{Event: portal.ActTopicConfig, Resources: fullNames(settings),
			Send: func(ctx context.Context, begun []int) ([]error, error) {
				changes := make(map[string]platform.ConfigChange, len(begun))
				for _, i := range begun {
					changes[settings[i].full] = settings[i].cc
				}
				errs, err := call.Env.Topics.AlterTopicConfigs(ctx, changes)
				return inOrder(settings, begun, errs), err
			},
			Each: func(ctx context.Context, i int, w *gate.Write, err error) ([]trail.Change, error) {
				p := settings[i]
				err = w.Confirm(ctx, err, "the settings of "+p.full+" changed", "GET the topic to see", s.settingsChanged(call, p.full, p.cc))
				return configChanges(p.cur.Config, p.cc), err
			},
		})
		for j, p := range settings {
			if out[p.i] = errs[j]; errs[j] == nil && p.partitions > p.cur.Partitions {
				grow = append(grow, p)
			}
		}
	}
	s.growBatch(ctx, call, grow, out)
	return out
}

// growBatch raises the partition counts of an update batch's topics in one
// request, each audited, patched into the topic lists and answered on its
// own; a topic whose settings were changed says so when its partitions
// were not.
func (s *Service) growBatch(ctx context.Context, call *gate.Call, grow []*pendingUpdate, out []error) {
	if len(grow) == 0 {
		return
	}
	errs := s.guard.WriteBatch(ctx, call, gate.Batch{Event: portal.ActTopicPartitions, Resources: fullNames(grow),
		Send: func(ctx context.Context, begun []int) ([]error, error) {
			totals := make(map[string]int, len(begun))
			for _, i := range begun {
				totals[grow[i].full] = grow[i].partitions
			}
			errs, err := call.Env.Topics.AddPartitions(ctx, totals)
			return inOrder(grow, begun, errs), err
		},
		Each: func(ctx context.Context, i int, w *gate.Write, err error) ([]trail.Change, error) {
			p := grow[i]
			err = w.Confirm(ctx, err, p.full+" has "+strconv.Itoa(p.partitions)+" partitions", "GET the topic to see", partitionsAre(call, p.full, p.partitions))
			s.guard.TopicChanged(ctx, call.Env, err, platform.TopicChange{Name: p.full, Partitions: p.partitions})
			return []trail.Change{{Field: "partitions_count", Before: strconv.Itoa(p.cur.Partitions), After: strconv.Itoa(p.partitions)}}, err
		},
	})
	for j, p := range grow {
		if errs[j] != nil {
			out[p.i] = grownPartly(p, errs[j])
		}
	}
}

// fullNames are the topics of a batch, for its writes' resources.
func fullNames(ps []*pendingUpdate) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.full
	}
	return out
}

// inOrder puts a batch request's errors by topic in the order of the
// changes begun.
func inOrder(ps []*pendingUpdate, begun []int, errs map[string]error) []error {
	out := make([]error, len(begun))
	for j, i := range begun {
		out[j] = errs[ps[i].full]
	}
	return out
}

// grownPartly is a failure to raise a topic's partitions, saying that its
// settings were changed when they were.
func grownPartly(p *pendingUpdate, err error) error {
	if !p.cc.Empty() {
		return portal.Partial(err, "the settings of %s were changed, but its partitions were not", p.full)
	}
	return err
}
