package service

import (
	"cmp"
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/identity"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// ReconcileAfter is how long an attempt stays unknown, by default,
// before another look settles it: longer than any write waits for its
// upstream and checks after a timeout (gate's confirmation window), so
// that only attempts whose replica stopped before it knew are left.
const ReconcileAfter = 2 * time.Minute

// Unknowns is what the reconciler needs of the store.
type Unknowns interface {
	UnknownAttempts(ctx context.Context, before time.Time, gone store.Gone, limit int) ([]trail.AuditEvent, error)
	SettleAudit(ctx context.Context, id int64, outcome, detail, resource string, changes []trail.Change) error
	PublishAudit(ctx context.Context, id int64) error
	// The records of the decisions whose outcome the portal's own
	// journal tells (a grant approved, a change request applied).
	GrantRecord(ctx context.Context, id string) (store.GrantRecord, error)
	RequestRecord(ctx context.Context, id string) (store.RequestRecord, error)
}

// Reconciler settles the attempts whose outcome nobody knows (their
// replica stopped between the write and its outcome, or the database was
// down when the outcome came) by looking at the upstream: the resource is
// there as intended, or it is not. What cannot be told from the upstream
// is published as unknown, so that no event waits for it for ever.
type Reconciler struct {
	envs  *platform.Environments
	store Unknowns
	after time.Duration
	// stopped settles the attempts of replicas known stopped at once.
	stopped bool
	now     func() time.Time
}

// NewReconciler returns the reconciler of the outcomes unknown for
// longer than after (ReconcileAfter when 0).
func NewReconciler(envs *platform.Environments, s Unknowns, after time.Duration) *Reconciler {
	return &Reconciler{envs: envs, store: s, after: cmp.Or(after, ReconcileAfter), now: time.Now}
}

// minAge is how old an attempt of a replica known stopped is before it
// is settled: a replica that said it stopped drained its requests first,
// and one killed began nothing since it was last seen.
const minAge = 2 * time.Second

// SettleStopped has the reconciler also settle, at once, the attempts
// left unknown by a replica known stopped (it said so, or its heartbeat
// went stale): such a replica finishes nothing any more, so nothing is
// gained by waiting, and its subject's later events wait for its attempt.
func (r *Reconciler) SettleStopped() *Reconciler {
	r.stopped = true
	return r
}

// check reads the upstream for an attempt: whether its change is in
// place (done), and whether that could be told (known).
type check func(ctx context.Context, env *platform.Environment, e trail.AuditEvent) (done, known bool, err error)

// checks are the attempts the upstream tells, by action.
var checks = map[portal.Action]check{
	portal.ActTopicCreate:          there(true, getTopic),
	portal.ActTopicDelete:          there(false, getTopic),
	portal.ActTopicPartitions:      topicPartitions,
	portal.ActTopicConfig:          topicConfig,
	portal.ActSchemaCreate:         subjectThere,
	portal.ActSchemaVersion:        subjectThere,
	portal.ActConnectorCreate:      there(true, getConnector),
	portal.ActConnectorDelete:      there(false, getConnector),
	portal.ActServiceAccountCreate: accountThere,
	portal.ActIdentityPoolCreate:   poolThere,
}

// Round settles (or publishes as unknown) the attempts unknown for long
// enough; it returns how many it settled.
func (r *Reconciler) Round(ctx context.Context) (int, error) {
	now := r.now()
	var gone store.Gone
	if r.stopped {
		gone = store.Gone{At: now, Begun: now.Add(-minAge)}
	}
	attempts, err := r.store.UnknownAttempts(ctx, now.Add(-r.after), gone, 200)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range attempts {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		done, known, err := r.look(ctx, e)
		if errors.Is(err, errInProgress) && e.Time.After(r.now().Add(-5*r.after)) {
			continue
		}
		switch {
		case errors.Is(err, errInProgress):
			err = r.store.PublishAudit(ctx, e.ID)
		case err != nil && !known:
			// The upstream cannot be read now: next round.
			continue
		case !known:
			err = r.store.PublishAudit(ctx, e.ID)
		case done:
			err = r.store.SettleAudit(ctx, e.ID, "ok", "confirmed by looking at the upstream after the replica that made it stopped", e.Resource, e.Changes)
		default:
			err = r.store.SettleAudit(ctx, e.ID, string(portal.UpstreamUnavailable),
				"not made: the replica that attempted it stopped before it was done (found by looking at the upstream)", e.Resource, e.Changes)
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// look runs the action's check in the attempt's environment; an action
// without one, or in no environment, cannot be told.
func (r *Reconciler) look(ctx context.Context, e trail.AuditEvent) (done, known bool, err error) {
	if d, ok := decisions[e.Action]; ok {
		return d(ctx, r.store, e)
	}
	c, ok := checks[e.Action]
	if !ok {
		return false, false, nil
	}
	env, err := r.envs.Get(e.LandingZone, e.Stage)
	if err != nil {
		return false, false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	done, known, err = c(ctx, env, e)
	if err != nil && portal.Is(err, portal.NotFound) {
		return done, known, nil
	}
	return done, known, err
}

// decisions are the attempts the portal's own records tell: a decision
// still under way is waited for (its resume settles it), a finished one
// is done or not by its state.
var decisions = map[portal.Action]func(ctx context.Context, s Unknowns, e trail.AuditEvent) (bool, bool, error){
	portal.ActGrantApprove: grantState(approved),
	portal.ActGrantCreate:  grantState(approved),
	portal.ActGrantRevoke:  grantState(map[string]bool{grant.GrantRevoked: true}),
	portal.ActGrantExpire:  grantState(map[string]bool{grant.GrantExpired: true}),
	portal.ActGrantEnd:     grantState(map[string]bool{grant.GrantEnded: true}),
	portal.ActChangeRequestApprove: func(ctx context.Context, s Unknowns, e trail.AuditEvent) (bool, bool, error) {
		rec, err := s.RequestRecord(ctx, name(e))
		switch {
		case errors.Is(err, store.ErrNotFound):
			return false, true, nil
		case err != nil:
			return false, false, err
		case rec.State == changerequest.RequestApplying:
			return false, false, errInProgress
		case rec.State == changerequest.RequestApplied:
			return true, true, nil
		case rec.State == changerequest.RequestPartlyApplied:
			return false, false, nil // part of it: told as unknown, the request says what
		}
		return false, true, nil
	},
}

// approved are the states of a grant whose approval was made: active, or
// closed since.
var approved = map[string]bool{grant.GrantActive: true, grant.GrantRevoking: true, grant.GrantRevoked: true,
	grant.GrantExpired: true, grant.GrantEnding: true, grant.GrantEnded: true}

// grantState tells a grant decision by the grant's state: under way
// (waited for), one of done, or another (not made).
func grantState(done map[string]bool) func(ctx context.Context, s Unknowns, e trail.AuditEvent) (bool, bool, error) {
	return func(ctx context.Context, s Unknowns, e trail.AuditEvent) (bool, bool, error) {
		g, err := s.GrantRecord(ctx, name(e))
		switch {
		case errors.Is(err, store.ErrNotFound):
			return false, true, nil // a grant given whose bindings could not be made is forgotten
		case err != nil:
			return false, false, err
		case g.State == grant.GrantApproving || (g.State == grant.GrantRevoking || g.State == grant.GrantEnding) && !done[g.State]:
			return false, false, errInProgress
		}
		return done[g.State], true, nil
	}
}

// name is the resource an attempt names, without an id added later
// ("name (id)").
func name(e trail.AuditEvent) string {
	n, _, _ := strings.Cut(e.Resource, " (")
	return n
}

// after is what an attempt's change says a field became.
func after(e trail.AuditEvent, field string) (string, bool) {
	for _, c := range e.Changes {
		if c.Field == field {
			return c.After, true
		}
	}
	return "", false
}

// there is the check of a create (want true) or a delete (false) of a
// resource that get reads by name.
func there(want bool, get func(ctx context.Context, env *platform.Environment, name string) error) check {
	return func(ctx context.Context, env *platform.Environment, e trail.AuditEvent) (bool, bool, error) {
		err := get(ctx, env, name(e))
		switch {
		case err == nil:
			return want, true, nil
		case portal.Is(err, portal.NotFound):
			return !want, true, nil
		}
		return false, false, err
	}
}

func getTopic(ctx context.Context, env *platform.Environment, name string) error {
	_, err := env.Topics.DescribeTopic(ctx, name)
	return err
}

func getConnector(ctx context.Context, env *platform.Environment, name string) error {
	_, err := env.Connectors.GetConnector(ctx, name)
	return err
}

func topicPartitions(ctx context.Context, env *platform.Environment, e trail.AuditEvent) (bool, bool, error) {
	wanted, ok := after(e, "partitions")
	n, err := strconv.Atoi(wanted)
	if !ok || err != nil {
		return false, false, nil
	}
	d, err := env.Topics.DescribeTopic(ctx, name(e))
	if err != nil {
		return false, portal.Is(err, portal.NotFound), err
	}
	return len(d.Partitions) >= n, true, nil
}

func topicConfig(ctx context.Context, env *platform.Environment, e trail.AuditEvent) (bool, bool, error) {
	d, err := env.Topics.DescribeTopic(ctx, name(e))
	if err != nil {
		return false, portal.Is(err, portal.NotFound), err
	}
	current := map[string]string{}
	for _, c := range d.Config {
		current[c.Name] = c.Value
	}
	for _, c := range e.Changes {
		key, ok := strings.CutPrefix(c.Field, "config.")
		if !ok {
			continue
		}
		if c.After != "" && current[key] != c.After {
			return false, true, nil
		}
	}
	return true, true, nil
}

func subjectThere(ctx context.Context, env *platform.Environment, e trail.AuditEvent) (bool, bool, error) {
	_, err := env.Schemas.GetSchema(ctx, name(e), 0)
	switch {
	case err == nil:
		return true, true, nil
	case portal.Is(err, portal.NotFound):
		return false, true, nil
	}
	return false, false, err
}

// accountThere is done when the account exists with every role binding
// of its type: an account without its bindings is not what was asked.
func accountThere(ctx context.Context, env *platform.Environment, e trail.AuditEvent) (bool, bool, error) {
	all, err := env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return false, false, err
	}
	for _, a := range all {
		if a.DisplayName != name(e) {
			continue
		}
		kind := accountTypeOf(a.DisplayName)
		if kind == "" {
			return true, true, nil
		}
		have, err := env.IAM.RoleBindings(ctx, "User:"+a.ID)
		if err != nil {
			return false, false, err
		}
		if len(have) < len(identity.BindingsFor(kind, "")) {
			// Its job may still be making them (a slow Cloud API): the
			// job settles the attempt, or a later round does.
			return false, false, errInProgress
		}
		return true, true, nil
	}
	return false, true, nil
}

// errInProgress says that a change may still be under way: the attempt
// is looked at again next round, and published as unknown only once it
// is far older than the bound.
var errInProgress = errors.New("in progress")

// accountTypeOf is the type a service account's display name ends with
// ("" for none).
func accountTypeOf(displayName string) string {
	for _, t := range iam.AccountTypes() {
		if strings.HasSuffix(displayName, "-"+t.Name) {
			return t.Name
		}
	}
	return ""
}

func poolThere(ctx context.Context, env *platform.Environment, e trail.AuditEvent) (bool, bool, error) {
	pools, err := env.Pools.ListPools(ctx)
	if err != nil {
		return false, false, err
	}
	for _, p := range pools {
		if p.DisplayName == name(e) {
			return true, true, nil
		}
	}
	return false, true, nil
}
