package identity

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// MaxFilter bounds an identity pool's filter, as Confluent Cloud does.
const MaxFilter = 300

// maxFilterCost bounds the work of evaluating a filter in Test.
const maxFilterCost = 100_000

// Filters checks and evaluates identity pool filters: CEL expressions
// over a token's claims that must yield a boolean.
type Filters struct {
	env *cel.Env
}

// NewFilters returns the filter checker.
func NewFilters() (*Filters, error) {
	env, err := cel.NewEnv(cel.Variable("claims", cel.MapType(cel.StringType, cel.DynType)))
	if err != nil {
		return nil, fmt.Errorf("CEL environment: %w", err)
	}
	return &Filters{env: env}, nil
}

// Check returns nil when filter is a valid boolean expression over claims,
// otherwise an error on field whose message points at the problem.
func (f *Filters) Check(field, filter string) *portal.Error {
	_, e := f.compile(field, filter)
	return e
}

func (f *Filters) compile(field, filter string) (*cel.Ast, *portal.Error) {
	switch {
	case strings.TrimSpace(filter) == "":
		return nil, portal.Missing(field)
	case len(filter) > MaxFilter:
		return nil, portal.Invalid(field, "the filter is %d characters long; at most %d are allowed", len(filter), MaxFilter)
	}
	ast, iss := f.env.Compile(filter)
	if iss.Err() != nil {
		msg := strings.TrimPrefix(iss.Err().Error(), "ERROR: ")
		msg = strings.ReplaceAll(msg, "<input>:", "at ")
		return nil, portal.Invalid(field, "the filter is not valid CEL: %s", msg)
	}
	if !ast.OutputType().IsExactType(cel.BoolType) {
		return nil, portal.Invalid(field, "the filter must evaluate to a boolean, but this one gives %s; compare values, as in claims.aud == \"confluent\"", ast.OutputType())
	}
	return ast, nil
}

// Test evaluates filter against claims.
func (f *Filters) Test(filter string, claims map[string]any) (iam.FilterResult, error) {
	ast, e := f.compile("filter", filter)
	if e != nil {
		return iam.FilterResult{}, e
	}
	// The cost limit keeps a 300-character expression with nested
	// comprehensions from occupying a request for long.
	prg, err := f.env.Program(ast, cel.CostLimit(maxFilterCost))
	if err != nil {
		return iam.FilterResult{}, portal.Invalid("filter", "the filter cannot run: %v", err)
	}
	out, _, err := prg.Eval(map[string]any{"claims": claims})
	if err != nil {
		return iam.FilterResult{Reason: "evaluation failed, so the token does not match: " + err.Error()}, nil
	}
	b, _ := out.Value().(bool)
	return iam.FilterResult{Matches: b}, nil
}
