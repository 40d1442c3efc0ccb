package identity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/jobs"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Item states in a bulk job's journal.
const (
	// itemStarted: the item's work may have begun upstream; whoever
	// resumes the job completes it.
	itemStarted = "started"
	// itemDone: the item has its outcome.
	itemDone = "done"
)

// itemRecord is one item of a bulk job's journal.
type itemRecord struct {
	// State is itemStarted or itemDone; empty in records written before
	// the journal had states, which were all outcomes.
	State string `json:"state,omitempty"`
	// Existed: the account existed before the job came to the item (so
	// it is completed, or reported as existing, rather than created).
	Existed bool `json:"existed,omitempty"`
	// Event is the item's audit event, once its outcome is known;
	// Settled, once the trail has the outcome too.
	Event   int64               `json:"event,omitempty"`
	Settled bool                `json:"settled,omitempty"`
	Outcome string              `json:"outcome,omitempty"`
	Item    *iam.ServiceAccount `json:"item,omitempty"`
	Kind    portal.Kind         `json:"kind,omitempty"`
	Message string              `json:"message,omitempty"`
}

func (r itemRecord) done() bool {
	return r.State == itemDone || r.State == "" && (r.Item != nil || r.Kind != "")
}

// journal reads a job's item records.
func journal(j store.Job, n int) ([]itemRecord, error) {
	out := make([]itemRecord, n)
	for i, raw := range j.Results {
		if raw == nil || i >= n {
			continue
		}
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			return nil, fmt.Errorf("job %s: item %d: %w", j.ID, i, err)
		}
	}
	return out, nil
}

// jobFromStore is a job as the services show it: items without an
// outcome yet are pending.
func jobFromStore(j store.Job) (iam.BulkJob, error) {
	out := iam.BulkJob{ID: j.ID, BU: j.BU, Stage: j.Stage, Owner: j.Owner, State: j.State, Error: j.Error,
		Created: j.Created, Finished: j.Finished}
	if err := json.Unmarshal(j.Items, &out.Items); err != nil {
		return out, fmt.Errorf("job %s: items: %w", j.ID, err)
	}
	recs, err := journal(j, len(out.Items))
	if err != nil {
		return out, err
	}
	out.Results = make([]*iam.BulkResult, len(out.Items))
	for i, r := range recs {
		if !r.done() {
			continue
		}
		res := &iam.BulkResult{Index: i, Item: r.Item, Outcome: r.Outcome}
		if r.Kind != "" {
			res.Error = &portal.Error{Kind: r.Kind, Message: r.Message}
		}
		out.Results[i] = res
	}
	return out, nil
}

// runBulk is the bulk job's handler: it creates the items without an
// outcome, each recorded as started before its first upstream call and
// done after its last, a few at a time. An item found started (its
// replica died) is completed: the account is found by name and given the
// bindings it lacks. It stops between two items when the run must stop.
func (s *Accounts) runBulk(ctx context.Context, run *jobs.Run) (state, message string) {
	ctx, cancel := context.WithTimeout(ctx, bulkRunTime)
	defer cancel()
	j := run.Job
	var who caller
	var items []iam.NewServiceAccount
	if err := errors.Join(json.Unmarshal(j.Principal, &who), json.Unmarshal(j.Items, &items)); err != nil {
		return iam.JobFailed, "the batch could not be read: " + err.Error()
	}
	ctx = who.context(ctx, s.guard)
	recs, err := journal(j, len(items))
	if err != nil {
		return iam.JobFailed, "the batch could not be read: " + err.Error()
	}
	// Authorized and validated again: the caller's role may have changed
	// since the batch was sent.
	b, err := s.prepareBulk(ctx, portal.Scope{BU: j.BU, Stage: j.Stage}, items)
	if err != nil {
		return iam.JobFailed, "the batch can no longer run: " + portal.FirstMessage(err)
	}
	existing, err := b.call.Env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return iam.JobFailed, fmt.Sprintf("Confluent Cloud could not list the service accounts after %d of %d items (%s); send the batch again to create the rest",
			countDone(recs), len(items), portal.FirstMessage(err))
	}
	byName := map[string]platform.ServiceAccount{}
	for _, a := range existing {
		byName[a.DisplayName] = a
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(bulkWorkers, len(items)) {
		wg.Go(func() {
			for i := range next {
				s.bulkItem(ctx, run, b.call, i, b.names[i], items[i], recs[i], byName)
			}
		})
	}
feed:
	for i := range items {
		if recs[i].done() {
			if !recs[i].Settled {
				// The replica died between journalling the outcome and
				// writing it to the trail.
				s.settleDone(ctx, run, b.call, i, b.names[i], recs[i])
			}
			continue
		}
		select {
		case next <- i:
		case <-run.Stopping():
			break feed
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if run.Stopped() {
		return "", "" // handed over between two items
	}
	if err := ctx.Err(); err != nil {
		return iam.JobFailed, fmt.Sprintf("the batch ran out of time; send it again to create the rest (%v)", err)
	}
	return iam.JobDone, ""
}

func countDone(recs []itemRecord) int {
	n := 0
	for _, r := range recs {
		if r.done() {
			n++
		}
	}
	return n
}

// bulkItem runs one item: journalled as started, audited ahead, made
// idempotently, journalled as done, its outcome settled.
func (s *Accounts) bulkItem(ctx context.Context, run *jobs.Run, call *gate.Call, i int, name string, in iam.NewServiceAccount,
	rec itemRecord, byName map[string]platform.ServiceAccount) {
	if rec.State != itemStarted {
		_, existed := byName[name]
		rec = itemRecord{State: itemStarted, Existed: existed}
		raw, _ := json.Marshal(rec)
		if err := run.Save(ctx, i, raw); err != nil {
			return // another replica runs the job, or the store is down: the item stays pending
		}
	}
	var out *itemRecord
	began := false
	err := s.guard.Write(ctx, call, gate.Change{Event: portal.ActServiceAccountCreate, Resource: name, Resume: true,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			began = true
			a, outcome, err := s.ensureAccount(ctx, call, name, in, byName, rec.Existed, w)
			out = &itemRecord{State: itemDone, Existed: rec.Existed, Event: w.ID(), Outcome: outcome}
			if err != nil {
				out.Kind, out.Message = portal.KindOf(err), portal.FirstMessage(err)
			} else {
				out.Item = &a
			}
			if !s.saveOutcome(ctx, run, i, *out) {
				w.Leave() // whoever resumes the job settles the attempt
				out = nil
			}
			return nil, err
		}})
	switch {
	case !began:
		s.saveOutcome(ctx, run, i, itemRecord{State: itemDone, Existed: rec.Existed, Kind: portal.KindOf(err), Message: portal.FirstMessage(err)})
	case out != nil:
		out.Settled = true
		raw, _ := json.Marshal(*out)
		_ = run.Save(ctx, i, raw)
	}
}

// saveOutcome journals an item's outcome and tells the job's waiters.
func (s *Accounts) saveOutcome(ctx context.Context, run *jobs.Run, i int, rec itemRecord) bool {
	raw, _ := json.Marshal(rec)
	if err := run.Save(ctx, i, raw); err != nil {
		s.guard.Log().ErrorContext(ctx, "a bulk item's outcome was not journalled; whoever resumes the job completes it", "job", run.Job.ID, "index", i, "error", err)
		return false
	}
	_ = s.jobStore.Publish(ctx, store.ChannelJobs, run.Job.ID)
	return true
}

// settleDone writes a done item's outcome to the trail, for the replica
// that died between journalling it and settling it (settling an outcome
// the trail has changes nothing).
func (s *Accounts) settleDone(ctx context.Context, run *jobs.Run, call *gate.Call, i int, name string, rec itemRecord) {
	if rec.Event == 0 {
		return
	}
	ran := false
	_ = s.guard.Write(ctx, call, gate.Change{Event: portal.ActServiceAccountCreate, Resource: name, Resume: true, Attempt: rec.Event,
		Steps: func(_ context.Context, w *gate.Write) ([]trail.Change, error) {
			ran = true
			if rec.Kind != "" {
				return nil, portal.New(rec.Kind, "%s", rec.Message)
			}
			if rec.Item != nil {
				w.Rename(name + " (" + rec.Item.ID + ")")
			}
			return nil, nil
		}})
	if !ran {
		return
	}
	rec.Settled = true
	raw, _ := json.Marshal(rec)
	_ = run.Save(ctx, i, raw)
}
