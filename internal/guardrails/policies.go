package guardrails

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// enter checks an admin action on the guardrails for the caller in ctx;
// the refusal is the admin area's: not found.
func (gr *Service) enter(ctx context.Context, a access.AdminAction, zone string) (*portal.Principal, *tenancy.Tenancy, error) {
	p, err := gr.guard.EnterAdmin(ctx)
	if err != nil {
		return nil, nil, err
	}
	t := gr.guard.Tenancy()
	if err := access.CheckAdmin(p, t, a, zone); err != nil {
		return nil, nil, err
	}
	return p, t, nil
}

// event is the audit event of a change of the rules.
func event(p *portal.Principal, action portal.Action, zone, unit, stage, resource string) trail.AuditEvent {
	return trail.AuditEvent{Actor: p.Actor(), ActorRole: "platform_admin", Groups: p.Groups, Service: p.Service, LandingZone: zone,
		BU: unit, Stage: stage, Action: action, Resource: resource}
}

// Policies lists the policies of a zone, or of every zone the caller may
// read.
func (gr *Service) Policies(ctx context.Context, zone string) ([]policy.Policy, error) {
	p, t, err := gr.enter(ctx, access.ReadGuardrails, zone)
	if err != nil {
		return nil, err
	}
	recs, err := gr.o.Store.PolicyRecords(ctx)
	if err != nil {
		return nil, err
	}
	out := []policy.Policy{}
	for _, r := range recs {
		if zone != "" && r.Zone != zone || access.CheckAdmin(p, t, access.ReadGuardrails, r.Zone) != nil {
			continue
		}
		pol, err := decodePolicy(r)
		if err != nil {
			return nil, err
		}
		out = append(out, pol)
	}
	return out, nil
}

// Policy returns one policy.
func (gr *Service) Policy(ctx context.Context, id string) (policy.Policy, error) {
	p, t, err := gr.enter(ctx, access.ReadGuardrails, "")
	if err != nil {
		return policy.Policy{}, err
	}
	pol, err := gr.find(ctx, id)
	if err != nil {
		return policy.Policy{}, err
	}
	if access.CheckAdmin(p, t, access.ReadGuardrails, pol.Zone) != nil {
		return policy.Policy{}, policyNotFound(id)
	}
	return pol, nil
}

func (gr *Service) find(ctx context.Context, id string) (policy.Policy, error) {
	recs, err := gr.o.Store.PolicyRecords(ctx)
	if err != nil {
		return policy.Policy{}, err
	}
	i := slices.IndexFunc(recs, func(r store.PolicyRecord) bool { return r.ID == id })
	if i < 0 {
		return policy.Policy{}, policyNotFound(id)
	}
	return decodePolicy(recs[i])
}

func policyNotFound(id string) error {
	return portal.New(portal.NotFound, "policy %q not found", portal.Clip(id, 64))
}

// validate checks a policy against the tenancy and compiles it.
func (gr *Service) validate(t *tenancy.Tenancy, p policy.Policy) error {
	var v portal.Validation
	if _, err := gr.compiler.Compile(p); err != nil {
		v.Problems = append(v.Problems, portal.Problems(err)...)
	}
	z, ok := t.LandingZone(p.Zone)
	if p.Zone != "" && !ok {
		ids := []string{}
		for _, z := range t.LandingZones() {
			ids = append(ids, z.ID)
		}
		v.Add(portal.Invalid("landing_zone", "landing zone %q not found; zones are %s", p.Zone, strings.Join(ids, ", ")))
	}
	for i, u := range p.Units {
		if ok && !slices.Contains(z.BusinessUnits, u) {
			v.Add(portal.Invalid(fmt.Sprintf("units[%d]", i), "%q is not a business unit of %s", u, p.Zone))
		}
	}
	for i, s := range p.Stages {
		if _, ok := t.Stage(s); !ok {
			v.Add(portal.Invalid(fmt.Sprintf("stages[%d]", i), "stage %q not found; stages are %s", s, strings.Join(t.StageNames(), ", ")))
		}
	}
	return v.Err()
}

// PutPolicy creates or replaces a policy, audited with its before and
// after.
func (gr *Service) PutPolicy(ctx context.Context, pol policy.Policy, create bool) (policy.Policy, bool, error) {
	p, t, err := gr.enter(ctx, access.ManageGuardrails, "")
	if err != nil {
		return policy.Policy{}, false, err
	}
	if err := gr.validate(t, pol); err != nil {
		return policy.Policy{}, false, err
	}
	before, err := gr.find(ctx, pol.ID)
	exists := err == nil
	switch {
	case err != nil && !portal.Is(err, portal.NotFound):
		return policy.Policy{}, false, err
	case exists && create:
		return policy.Policy{}, false, portal.New(portal.AlreadyExists, "policy %s exists already; PUT /api/v1/admin/policy/%s replaces it", pol.ID, pol.ID)
	case exists && before.Zone != pol.Zone:
		return policy.Policy{}, false, portal.Invalid("landing_zone", "policy %s belongs to %s; delete it and create it in %s", pol.ID, before.Zone, pol.Zone)
	}
	action := portal.ActPolicyCreate
	if exists {
		action = portal.ActPolicyUpdate
	}
	pol.UpdatedBy, pol.Updated = p.Actor(), gr.guard.Now().UTC()
	var old *policy.Policy
	if exists {
		old = &before
	}
	err = gr.guard.WriteEvent(ctx, event(p, action, pol.Zone, "", "", pol.ID), gate.Change{
		Do: func(ctx context.Context) error {
			return gr.o.Store.PutPolicyRecord(ctx, store.PolicyRecord{ID: pol.ID, Zone: pol.Zone, Body: encodePolicy(pol), UpdatedBy: pol.UpdatedBy, Updated: pol.Updated})
		},
		Changes: policyChanges(old, &pol)})
	if err != nil {
		return policy.Policy{}, false, err
	}
	return pol, !exists, nil
}

// DeletePolicy removes a policy, audited with what it was.
func (gr *Service) DeletePolicy(ctx context.Context, id string) error {
	p, _, err := gr.enter(ctx, access.ManageGuardrails, "")
	if err != nil {
		return err
	}
	before, err := gr.find(ctx, id)
	if err != nil {
		return err
	}
	return gr.guard.WriteEvent(ctx, event(p, portal.ActPolicyDelete, before.Zone, "", "", id), gate.Change{
		Do: func(ctx context.Context) error {
			err := gr.o.Store.DeletePolicyRecord(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				err = policyNotFound(id)
			}
			return err
		},
		Changes: policyChanges(&before, nil)})
}

// policyChanges lists a policy's fields before and after, for the trail.
func policyChanges(before, after *policy.Policy) []trail.Change {
	fields := func(p *policy.Policy) map[string]string {
		if p == nil {
			return map[string]string{}
		}
		return map[string]string{"description": p.Description, "kind": p.Kind, "units": strings.Join(p.Units, ","), "stages": strings.Join(p.Stages, ","),
			"operations": strings.Join(rules.Ops(*p), ","), "expression": p.Expression, "message": p.Message, "field": p.Field, "action": p.Action}
	}
	b, a := fields(before), fields(after)
	var out []trail.Change
	for _, k := range []string{"kind", "action", "units", "stages", "operations", "expression", "message", "field", "description"} {
		if b[k] != a[k] {
			out = append(out, trail.Change{Field: k, Before: b[k], After: a[k]})
		}
	}
	return out
}

// TestPolicy judges a sample change with a policy as it is written (saved
// or not), made by the caller in a unit and stage.
func (gr *Service) TestPolicy(ctx context.Context, in policy.PolicyTest) (policy.PolicyVerdict, error) {
	p, t, err := gr.enter(ctx, access.ReadGuardrails, in.Policy.Zone)
	if err != nil {
		return policy.PolicyVerdict{}, err
	}
	if in.Policy.ID == "" {
		in.Policy.ID = "test"
	}
	if in.Policy.Action == "" {
		in.Policy.Action = rules.Enforce
	}
	rule, err := gr.compiler.Compile(in.Policy)
	if err != nil {
		return policy.PolicyVerdict{}, err
	}
	ch := rules.Change{Kind: in.Policy.Kind, Operation: in.Operation, Name: "the sample"}
	if ch.Operation == "" {
		ch.Operation = rules.OpCreate
	}
	var v portal.Validation
	ch.Resource = sampleOf(&v, "resource", in.Policy.Kind, in.Resource)
	ch.Before = sampleOf(&v, "before", in.Policy.Kind, in.Before)
	u, ok := t.Unit(in.BU)
	st, sok := t.Stage(in.Stage)
	switch {
	case !ok || u.LandingZone.ID != in.Policy.Zone:
		v.Add(portal.Invalid("business_unit", "%q is not a business unit of %s", in.BU, in.Policy.Zone))
	case !sok:
		v.Add(portal.Invalid("stage", "stage %q not found; stages are %s", in.Stage, strings.Join(t.StageNames(), ", ")))
	}
	if err := v.Err(); err != nil {
		return policy.PolicyVerdict{}, err
	}
	ch.Scope = gate.RuleScopeOf(tenancy.Scope{Unit: u, Stage: st})
	ch.Principal = gate.RulePrincipalOf(p, p.Role(u.ID))
	out := policy.PolicyVerdict{Covers: rules.Covers(rule.Policy, ch.Kind, ch.Scope, ch.Operation)}
	verdict := rule.Judge(ctx, ch)
	out.Kept, out.Message = verdict.Kept, verdict.Message
	return out, nil
}

// sampleOf decodes a sample resource of a kind (nil for none or null).
func sampleOf(v *portal.Validation, field, kind string, raw json.RawMessage) any {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	s, err := rules.Sample(kind)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(s); err != nil {
		v.Add(portal.Invalid(field, "not a %s as policies see it (%s): %v", kind, portal.PolicyFields(kind), err))
		return nil
	}
	return s
}
