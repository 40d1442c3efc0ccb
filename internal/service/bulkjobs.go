package service

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
)

const (
	// bulkRunTime bounds a bulk create that runs after its request.
	bulkRunTime = 10 * time.Minute
	// maxBulkJobs bounds the bulk creates running at once, on all replicas.
	maxBulkJobs = 50
	// heartbeatEvery is how often a running job says its replica is alive;
	// a job silent for staleAfter is marked failed (its replica died).
	heartbeatEvery = 10 * time.Second
	staleAfter     = 6 * heartbeatEvery
	jobKindBulk    = "bulk-service-accounts"
)

// JobStore keeps bulk jobs where every replica reads them, and tells
// waiters when a job changes.
type JobStore interface {
	store.Jobs
	store.Notifier
}

// Jobs runs background jobs in the store.
type Jobs struct {
	store   JobStore
	replica string
	log     *slog.Logger
	now     func() time.Time
}

// NewJobs returns the job runner of one replica.
func NewJobs(s JobStore, replica string, log *slog.Logger) *Jobs {
	return &Jobs{store: s, replica: replica, log: log, now: time.Now}
}

// resultJSON is one item's outcome as stored.
type resultJSON struct {
	Item    *portal.ServiceAccount `json:"item,omitempty"`
	Kind    portal.Kind            `json:"kind,omitempty"`
	Message string                 `json:"message,omitempty"`
}

func jobFromStore(j store.Job) (portal.BulkJob, error) {
	out := portal.BulkJob{ID: j.ID, BU: j.BU, Stage: j.Stage, Owner: j.Owner, State: j.State, Error: j.Error,
		Created: j.Created, Finished: j.Finished}
	if err := json.Unmarshal(j.Items, &out.Items); err != nil {
		return out, fmt.Errorf("job %s: items: %w", j.ID, err)
	}
	out.Results = make([]*portal.BulkResult, len(out.Items))
	for i, raw := range j.Results {
		if raw == nil || i >= len(out.Results) {
			continue
		}
		var r resultJSON
		if err := json.Unmarshal(raw, &r); err != nil {
			return out, fmt.Errorf("job %s: result %d: %w", j.ID, i, err)
		}
		res := &portal.BulkResult{Index: i, Item: r.Item}
		if r.Kind != "" {
			res.Error = &portal.Error{Kind: r.Kind, Message: r.Message}
		}
		out.Results[i] = res
	}
	return out, nil
}

// StartBulk validates a batch and creates it in the background, under
// ctx's values (the principal, the request id) but not its cancellation,
// which comes when the request is answered. The job lives in the store, so
// any replica can report it. It returns the job as it stands when it
// finished or after wait, whichever comes first.
func (s *ServiceAccounts) StartBulk(ctx context.Context, scope portal.Scope, items []portal.NewServiceAccount, wait time.Duration) (portal.BulkJob, error) {
	b, err := s.prepareBulk(ctx, scope, items)
	if err != nil {
		return portal.BulkJob{}, err
	}
	jobs := s.jobs
	counts, err := jobs.store.CountJobs(ctx)
	if err != nil {
		return portal.BulkJob{}, err
	}
	if counts[portal.JobRunning] >= maxBulkJobs {
		e := portal.New(portal.RateLimited, "too many bulk creates are running; try again in a minute")
		e.RetryAfter = time.Minute
		return portal.BulkJob{}, e
	}
	itemsJSON, _ := json.Marshal(items)
	who, _ := json.Marshal(map[string]any{"subject": b.call.Principal.Subject, "username": b.call.Principal.Username})
	now := jobs.now()
	id := rand.Text()
	if err := jobs.store.CreateJob(ctx, store.Job{ID: id, Kind: jobKindBulk, BU: scope.BU, Stage: scope.Stage, Owner: b.call.Principal.Subject,
		Principal: who, Items: itemsJSON, State: portal.JobRunning, Replica: jobs.replica, Created: now, Heartbeat: now}); err != nil {
		return portal.BulkJob{}, err
	}
	// Subscribe before the job can change, so that no change is missed.
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	changes, err := jobs.store.Subscribe(wctx, store.ChannelJobs)
	if err != nil {
		return portal.BulkJob{}, err
	}
	go jobs.run(context.WithoutCancel(ctx), id, b)
	return s.waitJob(ctx, id, wait, changes)
}

// run creates a batch's items, recording each outcome as it comes, and
// beats while it runs so that other replicas know it is alive.
func (j *Jobs) run(ctx context.Context, id string, b *bulk) {
	ctx, cancel := context.WithTimeout(ctx, bulkRunTime)
	defer cancel()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-beat.C:
				if err := j.store.Heartbeat(ctx, id, j.now()); err != nil {
					j.log.WarnContext(ctx, "a bulk job's heartbeat failed", "job", id, "error", err)
				}
			}
		}
	}()
	_, err := b.run(ctx, nil, func(r portal.BulkResult) {
		res := resultJSON{Item: r.Item}
		if r.Error != nil {
			res.Kind, res.Message = r.Error.Kind, r.Error.Message
		}
		raw, _ := json.Marshal(res)
		if err := j.store.SaveJobResult(ctx, id, r.Index, raw, j.now()); err != nil {
			j.log.ErrorContext(ctx, "a bulk job's result was not stored", "job", id, "index", r.Index, "error", err)
		}
		_ = j.store.Publish(ctx, store.ChannelJobs, id)
	})
	state, msg := portal.JobDone, ""
	if err != nil {
		state, msg = portal.JobFailed, portal.FirstMessage(err)
	}
	// The outcome must be written even when the run ran out of time.
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer fcancel()
	if _, err := j.store.FinishJob(fctx, id, state, msg, j.now()); err != nil {
		j.log.ErrorContext(ctx, "a bulk job's end was not stored", "job", id, "error", err)
	}
	_ = j.store.Publish(fctx, store.ChannelJobs, id)
}

// BulkJob returns a batch's progress to whoever started it, or to a
// platform admin; to anyone else it does not exist.
func (s *ServiceAccounts) BulkJob(ctx context.Context, scope portal.Scope, id string, wait time.Duration) (portal.BulkJob, error) {
	call, err := s.guard.Enter(ctx, scope, access.Read, "read bulk creates")
	if err != nil {
		return portal.BulkJob{}, err
	}
	notFound := portal.New(portal.NotFound, "bulk create %s is not known (any longer); the service accounts list shows what was created", id)
	j, err := s.jobs.store.Job(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return portal.BulkJob{}, notFound
	}
	if err != nil {
		return portal.BulkJob{}, err
	}
	if j.Kind != jobKindBulk || j.BU != scope.BU || j.Stage != scope.Stage || (j.Owner != call.Principal.Subject && !call.Principal.PlatformAdmin) {
		return portal.BulkJob{}, notFound
	}
	var changes <-chan string
	if wait > 0 {
		wctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if changes, err = s.jobs.store.Subscribe(wctx, store.ChannelJobs); err != nil {
			return portal.BulkJob{}, err
		}
	}
	return s.waitJob(ctx, id, wait, changes)
}

// waitJob reads a job until it is no longer running or wait has passed,
// reading again whenever the job (or any job) changes.
func (s *ServiceAccounts) waitJob(ctx context.Context, id string, wait time.Duration, changes <-chan string) (portal.BulkJob, error) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	// Notifications can be lost while the database reconnects; a slow
	// poll bounds how long a waiter can miss the end.
	poll := time.NewTicker(time.Second)
	defer poll.Stop()
	for {
		raw, err := s.jobs.store.Job(ctx, id)
		if err != nil {
			return portal.BulkJob{}, err
		}
		j, err := jobFromStore(raw)
		if err != nil || j.State != portal.JobRunning || wait <= 0 {
			return j, err
		}
		select {
		case <-deadline.C:
			return j, nil
		case <-ctx.Done():
			return portal.BulkJob{}, ctx.Err()
		case <-changes:
		case <-poll.C:
		}
	}
}

// FailStaleJobs marks failed the running jobs whose replica stopped
// beating: what they did is kept, and the message says how to finish.
// Nothing is retried by itself, so nothing is created twice; sending the
// batch again reports the accounts that exist as such.
func (j *Jobs) FailStaleJobs(ctx context.Context) (int, error) {
	stale, err := j.store.StaleJobs(ctx, j.now().Add(-staleAfter))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, sj := range stale {
		full, err := j.store.Job(ctx, sj.ID) // with its results
		if err != nil {
			return n, err
		}
		job, err := jobFromStore(full)
		if err != nil {
			return n, err
		}
		msg := fmt.Sprintf("the replica running this batch stopped after %d of %d items; send the batch again to create the rest (accounts that exist are reported, not created twice)",
			job.Done(), len(job.Items))
		ok, err := j.store.FinishJob(ctx, sj.ID, portal.JobFailed, msg, j.now())
		if err != nil {
			return n, err
		}
		if ok {
			n++
			_ = j.store.Publish(ctx, store.ChannelJobs, sj.ID)
		}
	}
	return n, nil
}
