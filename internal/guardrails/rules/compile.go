package rules

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
)

// costLimit bounds one evaluation of a policy: CEL cannot loop without
// bound, but a comprehension over a large config can still be costly.
const costLimit = 100_000

// Compiler type-checks policies against each kind's declared variables.
type Compiler struct {
	envs map[string]*cel.Env
}

// NewCompiler builds the CEL environments of every kind.
func NewCompiler() (*Compiler, error) {
	c := &Compiler{envs: map[string]*cel.Env{}}
	for _, k := range Kinds() {
		s, _ := Sample(k)
		typ := reflect.TypeOf(s).Elem()
		// CEL names a native type after its Go package: rules.Topic.
		name := typ.String()
		env, err := cel.NewEnv(
			// Types that register themselves come before the native ones,
			// whose provider takes no more registrations.
			cel.OptionalTypes(),
			ext.Strings(),
			ext.NativeTypes(reflect.TypeOf(s), reflect.TypeOf(&Scope{}), reflect.TypeOf(&Principal{}), ext.ParseStructTags(true)),
			cel.Variable("resource", cel.ObjectType(name)),
			cel.Variable("before", cel.ObjectType(name)),
			cel.Variable("scope", cel.ObjectType(reflect.TypeFor[Scope]().String())),
			cel.Variable("principal", cel.ObjectType(reflect.TypeFor[Principal]().String())),
			cel.Variable("operation", cel.StringType),
			cel.CrossTypeNumericComparisons(true),
		)
		if err != nil {
			return nil, fmt.Errorf("the CEL environment of %s: %w", k, err)
		}
		c.envs[k] = env
	}
	return c, nil
}

// Rule is a compiled policy.
type Rule struct {
	policy.Policy
	test    cel.Program
	message []messagePart
}

// messagePart is literal text, or a CEL expression whose value is shown.
type messagePart struct {
	text string
	expr cel.Program
}

// Compile checks a policy and compiles its expression and message: an
// expression that does not compile, or is not a boolean, is an
// InvalidParameter on expression with the place of the problem.
func (c *Compiler) Compile(p policy.Policy) (*Rule, error) {
	var v portal.Validation
	check(p, &v)
	env := c.envs[p.Kind]
	if env == nil || len(v.Problems) > 0 {
		return nil, v.Err()
	}
	r := &Rule{Policy: p}
	prg, perr := program(env, p.Expression, "expression", true)
	v.Add(perr)
	r.test = prg
	parts, perr := c.messageParts(env, p.Message)
	v.Add(perr)
	r.message = parts
	if err := v.Err(); err != nil {
		return nil, err
	}
	return r, nil
}

// program compiles one CEL expression, a boolean one when boolean.
func program(env *cel.Env, src, field string, boolean bool) (cel.Program, *portal.Error) {
	ast, iss := env.Compile(src)
	if iss.Err() != nil {
		msg := strings.ReplaceAll(strings.TrimPrefix(iss.Err().Error(), "ERROR: "), "<input>:", "at ")
		return nil, portal.Invalid(field, "not valid CEL: %s", msg)
	}
	if boolean && !ast.OutputType().IsExactType(cel.BoolType) {
		return nil, portal.Invalid(field, "the expression must be true or false (true: the change keeps the rule), but this one gives %s; compare, as in resource.partitions <= 12", ast.OutputType())
	}
	prg, err := env.Program(ast, cel.CostLimit(costLimit), cel.InterruptCheckFrequency(100))
	if err != nil {
		return nil, portal.Invalid(field, "the expression cannot run: %v", err)
	}
	return prg, nil
}

// messageParts splits a message into text and ${expr} parts.
func (c *Compiler) messageParts(env *cel.Env, msg string) ([]messagePart, *portal.Error) {
	var parts []messagePart
	for {
		i := strings.Index(msg, "${")
		if i < 0 {
			break
		}
		end := closing(msg[i+2:])
		if end < 0 {
			return nil, portal.Invalid("message", "the ${ at character %d has no closing }", i+1)
		}
		prg, err := program(env, msg[i+2:i+2+end], "message", false)
		if err != nil {
			err.Message = fmt.Sprintf("${%s}: %s", msg[i+2:i+2+end], err.Message)
			return nil, err
		}
		parts = append(parts, messagePart{text: msg[:i]}, messagePart{expr: prg})
		msg = msg[i+2+end+1:]
	}
	return append(parts, messagePart{text: msg}), nil
}

// closing finds the } that closes an expression (braces of maps within
// it nest), or -1.
func closing(s string) int {
	depth := 0
	for i, r := range s {
		switch r {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// Verdict is a rule's judgement of one change.
type Verdict struct {
	// Kept is true when the change keeps the rule.
	Kept bool
	// Message says what breaks the rule (the policy's message, or why it
	// could not be evaluated: a failing evaluation does not keep it).
	Message string
}

// Judge evaluates the rule on a change.
func (r *Rule) Judge(ctx context.Context, ch Change) Verdict {
	vars := activation(ch)
	out, _, err := r.test.ContextEval(ctx, vars)
	if err != nil {
		return Verdict{Message: fmt.Sprintf("policy %s could not be evaluated on %s (%v), so it does not allow it", r.ID, ch.Name, err)}
	}
	if kept, ok := out.Value().(bool); ok && kept {
		return Verdict{Kept: true}
	}
	return Verdict{Message: r.render(ctx, vars)}
}

func (r *Rule) render(ctx context.Context, vars map[string]any) string {
	var b strings.Builder
	for _, p := range r.message {
		if p.expr == nil {
			b.WriteString(p.text)
			continue
		}
		out, _, err := p.expr.ContextEval(ctx, vars)
		if err != nil {
			b.WriteString("?")
			continue
		}
		b.WriteString(show(out))
	}
	return portal.Clip(b.String(), MaxMessage)
}

// show renders a value of a message.
func show(v ref.Val) string {
	switch v.Type() {
	case types.NullType:
		return "null"
	case types.StringType:
		return v.Value().(string)
	}
	return fmt.Sprint(v.Value())
}

// activation gives the variables of a change; what is absent is null.
func activation(ch Change) map[string]any {
	vars := map[string]any{"resource": nullable(ch.Resource), "before": nullable(ch.Before), "operation": ch.Operation}
	s, p := ch.Scope, ch.Principal
	vars["scope"], vars["principal"] = &s, &p
	return vars
}

func nullable(v any) any {
	if v == nil || reflect.ValueOf(v).IsNil() {
		return types.NullValue
	}
	return v
}
