package service

import (
	"context"
	"crypto/rand"
	"slices"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
)

const (
	// bulkRunTime bounds a bulk create that runs after its request.
	bulkRunTime = 10 * time.Minute
	// bulkKeep is how long a finished bulk create can still be read.
	bulkKeep = 10 * time.Minute
	// maxBulkJobs bounds the bulk creates kept at once.
	maxBulkJobs = 200
)

// bulkJobs holds running and recently finished bulk creates.
type bulkJobs struct {
	mu   sync.Mutex
	jobs map[string]*runningJob
}

type runningJob struct {
	job  portal.BulkJob
	done chan struct{}
}

func newBulkJobs() *bulkJobs { return &bulkJobs{jobs: map[string]*runningJob{}} }

// add registers a new job, refusing when too many are kept.
func (b *bulkJobs) add(j portal.BulkJob) (*runningJob, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	for id, r := range b.jobs {
		if !r.job.Finished.IsZero() && now.Sub(r.job.Finished) > bulkKeep {
			delete(b.jobs, id)
		}
	}
	if len(b.jobs) >= maxBulkJobs {
		return nil, portal.New(portal.RateLimited, "too many bulk creates are running; try again in a minute")
	}
	r := &runningJob{job: j, done: make(chan struct{})}
	b.jobs[j.ID] = r
	return r, nil
}

func (b *bulkJobs) update(r *runningJob, f func(*portal.BulkJob)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f(&r.job)
}

// snapshot is a copy of a job as it stands.
func (b *bulkJobs) snapshot(r *runningJob) portal.BulkJob {
	b.mu.Lock()
	defer b.mu.Unlock()
	j := r.job
	j.Results = slices.Clone(j.Results)
	return j
}

func (b *bulkJobs) get(id string) *runningJob {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.jobs[id]
}

// StartBulk validates a batch and creates it in the background, under
// ctx's values (the principal, the request id) but not its cancellation,
// which comes when the request is answered. It returns the job as it
// stands when it finished or after wait, whichever comes first.
func (s *ServiceAccounts) StartBulk(ctx context.Context, bu, stage string, items []portal.NewServiceAccount, wait time.Duration) (portal.BulkJob, error) {
	b, err := s.prepareBulk(ctx, bu, stage, items)
	if err != nil {
		return portal.BulkJob{}, err
	}
	r, err := s.jobs.add(portal.BulkJob{ID: rand.Text(), BU: bu, Stage: stage, Owner: b.call.Principal.Subject,
		Items: slices.Clone(items), Results: make([]*portal.BulkResult, len(items)), State: portal.JobRunning, Created: time.Now()})
	if err != nil {
		return portal.BulkJob{}, err
	}
	go func() {
		defer close(r.done)
		run, cancel := context.WithTimeout(context.WithoutCancel(ctx), bulkRunTime)
		defer cancel()
		_, err := b.run(run, nil, func(res portal.BulkResult) {
			s.jobs.update(r, func(j *portal.BulkJob) { j.Results[res.Index] = &res })
		})
		s.jobs.update(r, func(j *portal.BulkJob) {
			j.State, j.Finished = portal.JobDone, time.Now()
			if err != nil {
				j.State, j.Error = portal.JobFailed, firstMessage(err)
			}
		})
	}()
	return s.waitJob(ctx, r, wait)
}

// BulkJob returns a batch's progress to whoever started it, or to a
// platform admin; to anyone else it does not exist.
func (s *ServiceAccounts) BulkJob(ctx context.Context, bu, stage, id string, wait time.Duration) (portal.BulkJob, error) {
	call, err := s.guard.Enter(ctx, bu, stage, access.Read, "read bulk creates")
	if err != nil {
		return portal.BulkJob{}, err
	}
	r := s.jobs.get(id)
	if r == nil || r.job.BU != bu || r.job.Stage != stage ||
		(r.job.Owner != call.Principal.Subject && !call.Principal.PlatformAdmin) {
		return portal.BulkJob{}, portal.New(portal.NotFound,
			"bulk create %s is not known (any longer); the service accounts list shows what was created", id)
	}
	return s.waitJob(ctx, r, wait)
}

func (s *ServiceAccounts) waitJob(ctx context.Context, r *runningJob, wait time.Duration) (portal.BulkJob, error) {
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-r.done:
		case <-t.C:
		case <-ctx.Done():
			return portal.BulkJob{}, ctx.Err()
		}
	}
	return s.jobs.snapshot(r), nil
}
