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
)

// CreateBatch creates many topics with one request to the cluster (an
// apply's creates): each is checked and its attempt audited first, as a
// single create is, and each gets its own outcome. The answer has one
// error per topic, nil for those made.
func (s *Service) CreateBatch(ctx context.Context, scope portal.Scope, ins []portal.NewTopic) []error {
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
		w    *gate.Write
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
		if err != nil {
			out[p.i] = err
			continue
		}
		if refused[j] != nil {
			out[p.i] = refused[j]
			continue
		}
		w, err := s.guard.Begin(ctx, call, portal.ActTopicCreate, p.spec.Name)
		if out[p.i] = err; err != nil {
			continue
		}
		p.w = w
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return out
	}
	specs := make([]platform.TopicSpec, len(todo))
	for j, p := range todo {
		specs[j] = p.spec
	}
	bctx, cancel := todo[0].w.Bound(ctx)
	errs, err := call.Env.Topics.CreateTopics(bctx, specs)
	cancel()
	for j, p := range todo {
		e := err
		if e == nil {
			e = errs[j]
		}
		e = p.w.Confirm(ctx, e, "topic "+p.spec.Name+" was created", "GET the topic to see", func(ctx context.Context) (bool, error) {
			d, err := call.Env.Topics.DescribeTopic(ctx, p.spec.Name)
			return err == nil && len(d.Partitions) == p.spec.Partitions, err
		})
		s.guard.TopicChanged(ctx, call.Env, e, platform.TopicChange{Name: p.spec.Name, Partitions: p.spec.Partitions})
		p.w.Done(ctx, e)
		out[p.i] = e
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
	cur        portal.TopicDetail
	cc         platform.ConfigChange
	w          *gate.Write
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
			if p.w, out[p.i] = s.guard.Begin(ctx, call, portal.ActTopicConfig, p.full); out[p.i] == nil {
				settings = append(settings, p)
			}
		}
	}
	if len(settings) > 0 {
		changes := make(map[string]platform.ConfigChange, len(settings))
		for _, p := range settings {
			changes[p.full] = p.cc
		}
		bctx, cancel := settings[0].w.Bound(ctx)
		errs, err := call.Env.Topics.AlterTopicConfigs(bctx, changes)
		cancel()
		for _, p := range settings {
			e := err
			if e == nil {
				e = errs[p.full]
			}
			e = p.w.Confirm(ctx, e, "the settings of "+p.full+" changed", "GET the topic to see", s.settingsChanged(call, p.full, p.cc))
			p.w.Done(ctx, e, configChanges(p.cur.Config, p.cc)...)
			if out[p.i] = e; e == nil && p.partitions > p.cur.Partitions {
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
	var todo []*pendingUpdate
	for _, p := range grow {
		w, err := s.guard.Begin(ctx, call, portal.ActTopicPartitions, p.full)
		if err != nil {
			out[p.i] = grownPartly(p, err)
			continue
		}
		p.w = w
		todo = append(todo, p)
	}
	if len(todo) == 0 {
		return
	}
	totals := make(map[string]int, len(todo))
	for _, p := range todo {
		totals[p.full] = p.partitions
	}
	bctx, cancel := todo[0].w.Bound(ctx)
	errs, err := call.Env.Topics.AddPartitions(bctx, totals)
	cancel()
	for _, p := range todo {
		e := err
		if e == nil {
			e = errs[p.full]
		}
		e = p.w.Confirm(ctx, e, p.full+" has "+strconv.Itoa(p.partitions)+" partitions", "GET the topic to see", partitionsAre(call, p.full, p.partitions))
		s.guard.TopicChanged(ctx, call.Env, e, platform.TopicChange{Name: p.full, Partitions: p.partitions})
		p.w.Done(ctx, e, portal.Change{Field: "partitions_count", Before: strconv.Itoa(p.cur.Partitions), After: strconv.Itoa(p.partitions)})
		if e != nil {
			out[p.i] = grownPartly(p, e)
		}
	}
}

// grownPartly is a failure to raise a topic's partitions, saying that its
// settings were changed when they were.
func grownPartly(p *pendingUpdate, err error) error {
	if !p.cc.Empty() {
		return portal.Partial(err, "the settings of %s were changed, but its partitions were not", p.full)
	}
	return err
}
