package handlers

import (
	"context"
	"crypto/rand"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/fault"
	"github.com/edh-platform/rms-portal/internal/service"
)

const (
	// bulkWait is how long a bulk create may run before the page answers
	// with its progress instead of its outcome.
	bulkWait = 600 * time.Millisecond
	// bulkRunTime bounds a bulk create that runs after its request.
	bulkRunTime = 10 * time.Minute
	// bulkKeep is how long a finished bulk create can still be read.
	bulkKeep = 10 * time.Minute
	// maxBulkJobs bounds the bulk creates kept in memory.
	maxBulkJobs = 200
)

// bulkJob is a bulk create that outlives its request, so that the page can
// show its progress.
type bulkJob struct {
	owner, bu, stage string
	items            []service.NewServiceAccount
	done             chan struct{}

	mu       sync.Mutex
	results  []*service.BulkResult // by index; nil until known
	err      error
	finished time.Time
}

// state is a copy of what is known so far.
func (j *bulkJob) state() (results []*service.BulkResult, finished bool, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]*service.BulkResult(nil), j.results...), !j.finished.IsZero(), j.err
}

// expired tells whether the job finished longer than bulkKeep ago.
func (j *bulkJob) expired(now time.Time) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return !j.finished.IsZero() && now.Sub(j.finished) > bulkKeep
}

// bulkJobs holds the running and recently finished bulk creates. Jobs
// live in this process's memory, like the sessions that own them.
type bulkJobs struct {
	mu   sync.Mutex
	jobs map[string]*bulkJob
}

func newBulkJobs() *bulkJobs { return &bulkJobs{jobs: map[string]*bulkJob{}} }

// start runs create in the background under ctx's values (the principal,
// the request id) but not its cancellation, which comes when the request
// is answered.
func (b *bulkJobs) start(ctx context.Context, owner, bu, stage string, items []service.NewServiceAccount,
	create func(ctx context.Context, report func(service.BulkResult)) ([]service.BulkResult, error)) (string, *bulkJob, error) {
	b.mu.Lock()
	now := time.Now()
	for id, j := range b.jobs {
		if j.expired(now) {
			delete(b.jobs, id)
		}
	}
	if len(b.jobs) >= maxBulkJobs {
		b.mu.Unlock()
		return "", nil, fault.New(fault.RateLimited, "too many bulk creates are running; try again in a minute")
	}
	id := rand.Text()
	j := &bulkJob{owner: owner, bu: bu, stage: stage, items: items, done: make(chan struct{}),
		results: make([]*service.BulkResult, len(items))}
	b.jobs[id] = j
	b.mu.Unlock()

	go func() {
		defer close(j.done)
		run, cancel := context.WithTimeout(context.WithoutCancel(ctx), bulkRunTime)
		defer cancel()
		_, err := create(run, func(r service.BulkResult) {
			j.mu.Lock()
			j.results[r.Index] = &r
			j.mu.Unlock()
		})
		j.mu.Lock()
		j.err, j.finished = err, time.Now()
		j.mu.Unlock()
	}()
	return id, j, nil
}

// get returns the owner's job in a scope; anyone else's is not found.
func (b *bulkJobs) get(id, owner, bu, stage string) (*bulkJob, error) {
	b.mu.Lock()
	j := b.jobs[id]
	b.mu.Unlock()
	if j == nil || j.owner != owner || j.bu != bu || j.stage != stage {
		return nil, fault.New(fault.NotFound, "this bulk create is not known (any longer); the accounts list shows what was created")
	}
	return j, nil
}
