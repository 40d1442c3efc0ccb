package identity

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/jobs"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

const (
	// bulkWorkers bounds the accounts created at once: each takes several
	// sequential upstream calls (the account, then its role bindings), and
	// Confluent Cloud throttles IAM requests.
	bulkWorkers = 4
	// bulkRunTime bounds one run of a bulk create on one replica.
	bulkRunTime = 10 * time.Minute
	// maxBulkJobs bounds the bulk creates running at once, on all replicas.
	maxBulkJobs = 50
	jobKindBulk = "bulk-service-accounts"
)

// JobStore keeps bulk jobs where every replica reads them, and tells
// waiters when a job changes.
type JobStore interface {
	store.Jobs
	store.Notifier
}

// bulk is a validated batch, ready to run.
type bulk struct {
	call  *gate.Call
	items []iam.NewServiceAccount
	names []string
}

// prepareBulk authorizes and validates a batch.
func (s *Accounts) prepareBulk(ctx context.Context, scope portal.Scope, items []iam.NewServiceAccount) (*bulk, error) {
	ctx, call, err := s.guard.EnterWrite(ctx, scope, access.ManageIdentity, "create service accounts", portal.ActServiceAccountBulkCreate, fmt.Sprintf("%d accounts", len(items)))
	if err != nil {
		return nil, err
	}
	var v portal.Validation
	switch {
	case len(items) == 0:
		v.Add(portal.Missing("items"))
	case len(items) > MaxBulk:
		v.Add(portal.Invalid("items", "at most %d items per request, not %d", MaxBulk, len(items)))
	}
	names := make([]string, len(items))
	first := map[string]int{}
	for i, in := range items {
		field := fmt.Sprintf("items[%d].", i)
		names[i] = s.check(call, in, field, &v)
		if names[i] == "" {
			continue
		}
		if j, dup := first[names[i]]; dup {
			v.Add(portal.Invalid(field+"name", "%s is the same account as items[%d]", names[i], j))
		} else {
			first[names[i]] = i
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	// The guardrails judge the batch as a whole before anything is made:
	// a refused item refuses the job, with each problem at its item.
	changes := make([]rules.Change, len(items))
	for i, in := range items {
		changes[i] = accountChange(call, rules.OpCreate, names[i], in.Description, nil)
	}
	refused, err := s.guard.CheckAll(ctx, call, portal.ActServiceAccountCreate, changes)
	if err != nil {
		return nil, err
	}
	for i, e := range refused {
		for _, p := range portal.Problems(e) {
			p := *p
			p.Field = strings.TrimSuffix(fmt.Sprintf("items[%d].%s", i, p.Field), ".")
			v.Add(&p)
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return &bulk{call: call, items: items, names: names}, nil
}

// caller is who started a job, as the job keeps it: a replica that
// resumes the job acts for them, with the roles their groups give then,
// under the request id of the request that started it.
type caller struct {
	Subject       string   `json:"subject"`
	Name          string   `json:"name,omitempty"`
	Username      string   `json:"username"`
	Groups        []string `json:"groups,omitempty"`
	Service       bool     `json:"service,omitempty"`
	GroupsOverage bool     `json:"groups_overage,omitempty"`
	RequestID     string   `json:"request_id,omitempty"`
	SourceIP      string   `json:"source_ip,omitempty"`
	UserAgent     string   `json:"user_agent,omitempty"`
}

// context is ctx acting for the caller: with the principal ctx has when
// the job runs where it started, else resolved again from the caller's
// groups (a job resumed elsewhere).
func (c caller) context(ctx context.Context, g *gate.Guard) context.Context {
	if p := portal.PrincipalFrom(ctx); p == nil || p.Subject != c.Subject {
		ctx = portal.WithPrincipal(ctx, g.Principal(portal.Identity{Subject: c.Subject, Name: c.Name, Username: c.Username, Groups: c.Groups,
			Service: c.Service, GroupsOverage: c.GroupsOverage}))
	}
	// A job waits for its unit's share of an upstream; it never fails
	// an item for it.
	ctx = upstream.Patient(requestid.With(ctx, c.RequestID))
	return requestid.WithClient(ctx, requestid.Client{IP: c.SourceIP, UserAgent: c.UserAgent})
}

// StartBulk validates a batch and journals it as a job in the store; it
// returns before anything is created. The job runs in the background, on
// this replica or, if it stops, on another.
func (s *Accounts) StartBulk(ctx context.Context, scope portal.Scope, items []iam.NewServiceAccount) (iam.BulkJob, error) {
	b, err := s.prepareBulk(ctx, scope, items)
	if err != nil {
		return iam.BulkJob{}, err
	}
	return s.startJob(ctx, b.call, scope, items)
}

// startJob journals validated items as a job and starts it.
func (s *Accounts) startJob(ctx context.Context, call *gate.Call, scope portal.Scope, items []iam.NewServiceAccount) (iam.BulkJob, error) {
	counts, err := s.jobStore.CountJobs(ctx)
	if err != nil {
		return iam.BulkJob{}, err
	}
	if counts[iam.JobRunning] >= maxBulkJobs {
		e := portal.New(portal.RateLimited, "too many bulk creates are running; try again in a minute")
		e.RetryAfter = time.Minute
		return iam.BulkJob{}, e
	}
	p, client := call.Principal, requestid.ClientFrom(ctx)
	who := caller{Subject: p.Subject, Name: p.Name, Username: p.Username, Groups: p.Groups, Service: p.Service, GroupsOverage: p.GroupsOverage,
		RequestID: requestid.From(ctx), SourceIP: client.IP, UserAgent: client.UserAgent}
	if who.RequestID == "" {
		// Each item's audit attempt is found again by it.
		who.RequestID = "job-" + rand.Text()
	}
	whoJSON, _ := json.Marshal(who)
	itemsJSON, _ := json.Marshal(items)
	j := store.Job{ID: rand.Text(), Kind: jobKindBulk, BU: scope.BU, Stage: scope.Stage, Owner: p.Subject, Principal: whoJSON, Items: itemsJSON}
	if err := s.jobs.Start(ctx, j); err != nil {
		return iam.BulkJob{}, err
	}
	return iam.BulkJob{ID: j.ID, BU: j.BU, Stage: j.Stage, Owner: j.Owner, Items: items, Results: make([]*iam.BulkResult, len(items)),
		State: iam.JobRunning, Created: s.guard.Now()}, nil
}

// BulkJob returns a batch's progress to whoever started it, or to a
// platform admin; to anyone else it does not exist.
func (s *Accounts) BulkJob(ctx context.Context, scope portal.Scope, id string, wait time.Duration) (iam.BulkJob, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read bulk creates")
	if err != nil {
		return iam.BulkJob{}, err
	}
	notFound := portal.New(portal.NotFound, "bulk create %s is not known (any longer); the service accounts list shows what was created", id)
	j, err := s.jobStore.Job(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return iam.BulkJob{}, notFound
	}
	if err != nil {
		return iam.BulkJob{}, err
	}
	if j.Kind != jobKindBulk || j.BU != scope.BU || j.Stage != scope.Stage || (j.Owner != call.Principal.Subject && !call.Principal.PlatformAdmin) {
		return iam.BulkJob{}, notFound
	}
	return s.waitJob(ctx, id, wait)
}

// waitJob reads a job until it is no longer running or wait has passed.
func (s *Accounts) waitJob(ctx context.Context, id string, wait time.Duration) (iam.BulkJob, error) {
	raw, err := jobs.Waiter{Jobs: s.jobStore, Notify: s.jobStore}.Wait(ctx, id, wait)
	if err != nil {
		return iam.BulkJob{}, err
	}
	return jobFromStore(raw)
}
