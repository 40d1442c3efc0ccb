// Package jobs runs background jobs as journals in the store, leased to
// one replica at a time. A job is written before any of its work starts;
// its handler records each item's state as it goes (fenced by the lease);
// the replica running it renews the lease with a heartbeat. When a
// replica dies, another claims its jobs once their lease has run out and
// runs their handlers again, which pick up from the journal; when a
// replica stops, its handlers stop between two items and the jobs are
// handed over at once.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// Timing of leases.
const (
	// BeatEvery is how often a running job's lease is renewed.
	BeatEvery = 2 * time.Second
	// LeaseFor is how long a lease lasts without a heartbeat: after it,
	// another replica may claim the job.
	LeaseFor = 3 * BeatEvery
	// ClaimEvery is how often a replica looks for jobs to claim.
	ClaimEvery = 2 * time.Second
)

// Store is what the runner needs of the store.
type Store interface {
	store.Jobs
}

// Handler runs what is left of a job: it reads the journal (run.Job),
// records each item before and after its work (run.Save), and returns the
// job's end state and message when every item is done, or "" when it
// stopped early because run.Stopping was closed or the lease was lost.
// Its context has the values of the request that started the job when
// the job runs where it started, none when it was resumed elsewhere.
type Handler func(ctx context.Context, run *Run) (state, message string)

// Runner runs the jobs of one replica.
type Runner struct {
	store    Store
	replica  string
	log      *slog.Logger
	now      func() time.Time
	handlers map[string]Handler
	// The lease's timing: BeatEvery, LeaseFor, ClaimEvery (shorter in
	// tests).
	beatEvery, leaseFor, claimEvery time.Duration

	mu       sync.Mutex
	root     context.Context
	stopping chan struct{}
	running  map[string]bool
	wg       sync.WaitGroup
}

// New returns the runner of a replica.
func New(s Store, replica string, log *slog.Logger) *Runner {
	return &Runner{store: s, replica: replica, log: log, now: time.Now, handlers: map[string]Handler{},
		beatEvery: BeatEvery, leaseFor: LeaseFor, claimEvery: ClaimEvery,
		stopping: make(chan struct{}), running: map[string]bool{}}
}

// Handle sets the handler of a kind of job (before Run).
func (r *Runner) Handle(kind string, h Handler) { r.handlers[kind] = h }

// Replica names the runner's replica.
func (r *Runner) Replica() string { return r.replica }

// Start stores a new job, leased to this replica, and runs it under
// ctx's values (the caller, the request id) but not its cancellation.
func (r *Runner) Start(ctx context.Context, j store.Job) error {
	if _, ok := r.handlers[j.Kind]; !ok {
		return fmt.Errorf("no handler for jobs of kind %s", j.Kind)
	}
	now := r.now()
	j.Replica, j.Heartbeat, j.State = r.replica, now, "running"
	if j.Created.IsZero() {
		j.Created = now
	}
	if err := r.store.CreateJob(ctx, j); err != nil {
		return err
	}
	r.launch(j.ID, context.WithoutCancel(ctx))
	return nil
}

// Run claims the jobs whose replica died or handed them over, every
// ClaimEvery, until ctx ends; then it stops the jobs it runs between two
// items, hands them over, and returns when they have stopped.
func (r *Runner) Run(ctx context.Context) {
	r.mu.Lock()
	r.root = context.WithoutCancel(ctx)
	r.mu.Unlock()
	t := time.NewTicker(r.claimEvery)
	defer t.Stop()
	for {
		r.claim(ctx)
		select {
		case <-ctx.Done():
			r.mu.Lock()
			close(r.stopping)
			r.mu.Unlock()
			r.wg.Wait()
			return
		case <-t.C:
		}
	}
}

// claim takes over the stale jobs it can.
func (r *Runner) claim(ctx context.Context) {
	now := r.now()
	stale, err := r.store.StaleJobs(ctx, now.Add(-r.leaseFor))
	if err != nil {
		if ctx.Err() == nil {
			r.log.WarnContext(ctx, "looking for jobs to resume failed", "error", err)
		}
		return
	}
	for _, j := range stale {
		if _, ok := r.handlers[j.Kind]; !ok || r.isRunning(j.ID) {
			continue
		}
		ok, err := r.store.ClaimJob(ctx, j.ID, r.replica, r.now(), now.Add(-r.leaseFor))
		if err != nil || !ok {
			continue
		}
		r.log.InfoContext(ctx, "job resumed from another replica", "job", j.ID, "kind", j.Kind, "from", j.Replica)
		r.launch(j.ID, nil)
	}
}

func (r *Runner) isRunning(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running[id]
}

// launch runs a job this replica holds, under base (the runner's own
// context when nil), unless the replica is stopping (then it hands the
// job over).
func (r *Runner) launch(id string, base context.Context) {
	r.mu.Lock()
	select {
	case <-r.stopping:
		r.mu.Unlock()
		r.release(id)
		return
	default:
	}
	if r.running[id] {
		r.mu.Unlock()
		return
	}
	root := base
	if root == nil {
		root = r.root
	}
	if root == nil {
		// Not running yet (a job started before Run): it runs anyway and
		// stops with the process.
		root = context.Background()
	}
	r.running[id] = true
	r.wg.Add(1)
	r.mu.Unlock()
	go func() {
		defer r.wg.Done()
		defer func() {
			r.mu.Lock()
			delete(r.running, id)
			r.mu.Unlock()
		}()
		r.execute(root, id)
	}()
}

// execute runs a job's handler with a heartbeat, and records its end, or
// hands it over when it stopped early.
func (r *Runner) execute(ctx context.Context, id string) {
	log := r.log.With("job", id)
	j, err := r.store.Job(ctx, id)
	if err != nil {
		log.ErrorContext(ctx, "a job could not be read; another replica will claim it", "error", err)
		r.release(id)
		return
	}
	h := r.handlers[j.Kind]
	run := &Run{Job: j, runner: r, stop: make(chan struct{})}
	beatCtx, stopBeat := context.WithCancel(ctx)
	defer stopBeat()
	go r.beat(beatCtx, run)
	state, msg := h(ctx, run)
	stopBeat()
	if state == "" {
		if !run.lost() {
			r.release(id)
			log.InfoContext(ctx, "job handed over between two items")
		}
		return
	}
	fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := r.store.FinishJob(fctx, id, r.replica, state, msg, r.now()); err != nil {
		log.ErrorContext(ctx, "a job's end was not stored; another replica will finish it", "error", err)
		return
	}
	// Whoever waits for the job (the request that started it, on any
	// replica) learns of its end at once.
	if n, ok := r.store.(store.Notifier); ok {
		_ = n.Publish(fctx, store.ChannelJobs, id)
	}
}

// beat renews the lease until ctx ends; a lease found lost, or the
// replica stopping, tells the handler to stop.
func (r *Runner) beat(ctx context.Context, run *Run) {
	t := time.NewTicker(r.beatEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.stopping:
			run.halt(false)
			return
		case <-t.C:
			ok, err := r.store.Heartbeat(ctx, run.Job.ID, r.replica, r.now())
			switch {
			case err != nil:
				r.log.WarnContext(ctx, "a job's heartbeat failed", "job", run.Job.ID, "error", err)
			case !ok:
				r.log.WarnContext(ctx, "a job's lease was lost: another replica runs it", "job", run.Job.ID)
				run.halt(true)
				return
			}
		}
	}
}

// release hands a job over.
func (r *Runner) release(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.store.ReleaseJob(ctx, id, r.replica); err != nil {
		r.log.Warn("a job could not be handed over; its lease runs out instead", "job", id, "error", err)
	}
}

// Run is one run of a job on this replica.
type Run struct {
	// Job is the job as it was when the run began, with its journal.
	Job    store.Job
	runner *Runner

	once     sync.Once
	stop     chan struct{}
	mu       sync.Mutex
	leaseOff bool
}

// Save records one item's state in the journal; an error means the item
// must not go on (store.ErrLeaseLost: another replica runs the job).
func (r *Run) Save(ctx context.Context, index int, result []byte) error {
	err := r.runner.store.SaveJobResult(ctx, r.Job.ID, r.runner.replica, index, result, r.runner.now())
	if errors.Is(err, store.ErrLeaseLost) {
		r.halt(true)
	}
	return err
}

// Stopping is closed when the handler must stop between two items: the
// replica is stopping, or it lost the lease.
func (r *Run) Stopping() <-chan struct{} { return r.stop }

// Stopped reports whether Stopping is closed.
func (r *Run) Stopped() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

func (r *Run) halt(lost bool) {
	r.mu.Lock()
	r.leaseOff = r.leaseOff || lost
	r.mu.Unlock()
	r.once.Do(func() { close(r.stop) })
}

func (r *Run) lost() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.leaseOff
}
