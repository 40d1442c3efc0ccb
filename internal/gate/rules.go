package gate

import (
	"context"
	"strings"

	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Rules judge writes by the platform's policies and budgets
// (guardrails.Service): each change of a batch (a plan) is judged with the
// budget use of those before it; withUse asks for the use after them
// (what a plan shows) even when no change adds to it.
type Rules interface {
	Judge(ctx context.Context, call *Call, changes []rules.Change, withUse bool) (rules.Judged, error)
}

// UseRules makes every write checked by r; assembly sets it once, before
// the portal serves (the rules read the services' upstreams through the
// guard, hence after it).
func (g *Guard) UseRules(r Rules) { g.rules = r }

// Rules are the rules in force (nil when none are used).
func (g *Guard) Rules() Rules { return g.rules }

// Check judges one write before its attempt: a change the rules refuse is
// answered with their problems (and audited as refused under event); one
// they let through with warnings keeps them for the answer and for the
// write's audit event. Rules that cannot be read refuse the write.
func (g *Guard) Check(ctx context.Context, call *Call, event portal.Action, ch rules.Change) error {
	errs, err := g.CheckAll(ctx, call, event, []rules.Change{ch})
	if err != nil {
		return err
	}
	return errs[0]
}

// CheckAll is Check for changes made together (a batch of creates): each
// is judged with the budget use of those before it, and gets its own
// refusal (nil when it may be made). err is the rules' own failure, which
// refuses them all.
func (g *Guard) CheckAll(ctx context.Context, call *Call, event portal.Action, chs []rules.Change) ([]error, error) {
	out := make([]error, len(chs))
	if g.rules == nil || len(chs) == 0 {
		return out, nil
	}
	judged, err := g.rules.Judge(ctx, call, chs, false)
	if err != nil {
		return nil, err
	}
	for i, j := range judged.Each {
		if len(j.Errors) > 0 {
			v := portal.Validation{Problems: j.Errors}
			g.Record(ctx, call, event, chs[i].Name, v.Err())
			out[i] = v.Err()
			continue
		}
		call.Warn(ctx, j.Warnings...)
	}
	return out, nil
}

// Warn keeps warnings for the call's answer and its writes' events.
func (c *Call) Warn(ctx context.Context, msgs ...string) {
	c.warnings = append(c.warnings, msgs...)
	portal.Warn(ctx, msgs...)
}

// warningDetail is an event's detail with the call's warnings first.
func warningDetail(warnings []string, detail string) string {
	if len(warnings) == 0 {
		return detail
	}
	w := "warning: " + strings.Join(warnings, "; warning: ")
	if detail == "" {
		return w
	}
	return w + "; " + detail
}

// RuleScope is the call's scope as policies see it.
func RuleScope(call *Call) rules.Scope { return RuleScopeOf(call.Scope) }

// RuleScopeOf is a resolved scope as policies see it: the one place the
// policies' view of a scope is made (a policy's test makes one without a
// call).
func RuleScopeOf(sc tenancy.Scope) rules.Scope {
	return rules.Scope{Zone: sc.Zone().ID, Unit: sc.Unit.ID, Stage: sc.Stage.Name, Prefix: sc.Prefix()}
}

// RulePrincipal is the call's caller as policies see it.
func RulePrincipal(call *Call) rules.Principal { return RulePrincipalOf(call.Principal, call.Role) }

// RulePrincipalOf is a principal with its role in the scope, as policies
// see it.
func RulePrincipalOf(p *portal.Principal, role portal.Role) rules.Principal {
	return rules.Principal{Subject: p.Subject, Name: p.Actor(), Role: role.String(), Groups: p.Groups, Service: p.Service, PlatformAdmin: p.PlatformAdmin}
}

// Holder reads one kind's existing resources in the call's unit and
// stage as the guardrails see them (a *rules.Topic for a topic), by
// full name: what a policy's report judges.
type Holder interface {
	Kind() string
	Holdings(ctx context.Context, call *Call) (map[string]any, error)
}

// HolderOf is a Holder of kind whose holdings read reads.
func HolderOf(kind string, read func(ctx context.Context, call *Call) (map[string]any, error)) Holder {
	return holderFunc{kind: kind, read: read}
}

type holderFunc struct {
	kind string
	read func(ctx context.Context, call *Call) (map[string]any, error)
}

func (h holderFunc) Kind() string { return h.kind }

func (h holderFunc) Holdings(ctx context.Context, call *Call) (map[string]any, error) {
	return h.read(ctx, call)
}
