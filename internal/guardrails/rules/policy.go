package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
)

// Actions a policy takes on a change that breaks it.
const (
	// Enforce refuses the write (422 POLICY_VIOLATION).
	Enforce = policy.PolicyEnforce
	// Warn lets the write through with a warning in the answer, the page
	// and the audit event.
	Warn = policy.PolicyWarn
	// Report only lists the existing resources that break the policy.
	Report = policy.PolicyReportOnly
)

// Actions lists the actions a policy may take.
func Actions() []string { return policy.PolicyActions() }

// Bounds of a policy's texts.
const (
	MaxExpression  = 4096
	MaxMessage     = 1024
	MaxDescription = 1024
)

var policyID = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// Ops are the operations a policy checks.
func Ops(p policy.Policy) []string { return policy.PolicyOps(p) }

// Covers tells whether a policy is about a change of kind in this zone,
// unit, stage and operation.
func Covers(p policy.Policy, kind string, s Scope, op string) bool {
	return p.Kind == kind && p.Zone == s.Zone &&
		(len(p.Units) == 0 || slices.Contains(p.Units, s.Unit)) &&
		(len(p.Stages) == 0 || slices.Contains(p.Stages, s.Stage)) &&
		slices.Contains(Ops(p), op)
}

// check adds what is wrong with a policy's plain fields to v (the
// expression is the compiler's).
func check(p policy.Policy, v *portal.Validation) {
	if p.ID == "" {
		v.Add(portal.Missing("id"))
	} else if !policyID.MatchString(p.ID) {
		v.Add(portal.Invalid("id", "a policy id is 1 to 63 lower-case letters, digits and dashes, starting and ending with a letter or digit; %q is not", p.ID))
	}
	if p.Zone == "" {
		v.Add(portal.Missing("landing_zone"))
	}
	if p.Kind == "" {
		v.Add(portal.Missing("kind"))
	} else if !KnownKind(p.Kind) {
		v.Add(portal.Invalid("kind", "kind %q is not one of %s", p.Kind, strings.Join(Kinds(), ", ")))
	}
	if !slices.Contains(Actions(), p.Action) {
		v.Add(portal.Invalid("action", "action must be one of %s, not %q", strings.Join(Actions(), ", "), p.Action))
	}
	for i, op := range p.Operations {
		if op != OpCreate && op != OpUpdate && op != OpDelete {
			v.Add(portal.Invalid(fmt.Sprintf("operations[%d]", i), "an operation is create, update or delete, not %q", op))
		}
	}
	if strings.TrimSpace(p.Expression) == "" {
		v.Add(portal.Missing("expression"))
	} else if len(p.Expression) > MaxExpression {
		v.Add(portal.Invalid("expression", "the expression is %d characters long; at most %d", len(p.Expression), MaxExpression))
	}
	if strings.TrimSpace(p.Message) == "" {
		v.Add(portal.Missing("message"))
	} else if len(p.Message) > MaxMessage {
		v.Add(portal.Invalid("message", "the message is %d characters long; at most %d", len(p.Message), MaxMessage))
	}
	if e := portal.CheckText("description", p.Description, MaxDescription, true); e != nil {
		v.Add(e)
	}
	if len(p.Field) > portal.MaxField {
		v.Add(portal.Invalid("field", "the field is %d characters long; at most %d", len(p.Field), portal.MaxField))
	}
}
