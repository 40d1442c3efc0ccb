package records

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/interpreter"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/record"
)

// recordFilterCost bounds the work of one record's CEL evaluation; the
// read's own time bound (its context) stops the whole scan.
const recordFilterCost = 10_000

// recordFilters compiles the record browser's filters: text searches and
// a CEL expression over the decoded record. CEL only: it cannot call out,
// loop without bound or touch the host (a script language could).
type recordFilters struct {
	env *cel.Env
}

func newRecordFilters() *recordFilters {
	env, err := cel.NewEnv(
		cel.Variable("key", cel.StringType),
		cel.Variable("value", cel.DynType),
		cel.Variable("headers", cel.MapType(cel.StringType, cel.StringType)),
		cel.Variable("partition", cel.IntType),
		cel.Variable("offset", cel.IntType),
		cel.Variable("timestamp", cel.TimestampType),
		cel.CrossTypeNumericComparisons(true),
	)
	if err != nil {
		panic("the record filter's CEL environment: " + err.Error()) // fixed declarations: a bug, not an input
	}
	return &recordFilters{env: env}
}

// compile turns a query's filters into one test, nil when it has none.
// A CEL expression that does not compile, or is not a boolean, is an
// InvalidParameter on filter with the place of the problem.
func (f *recordFilters) compile(q record.MessageQuery) (func(context.Context, record.BrowsedMessage) bool, *portal.Error) {
	if !q.Filtered() {
		return nil, nil
	}
	var prg cel.Program
	if strings.TrimSpace(q.Filter) != "" {
		if len(q.Filter) > record.MaxRecordFilter {
			return nil, portal.Invalid("filter", "the filter is %d characters long; at most %d", len(q.Filter), record.MaxRecordFilter)
		}
		ast, iss := f.env.Compile(q.Filter)
		if iss.Err() != nil {
			msg := strings.ReplaceAll(strings.TrimPrefix(iss.Err().Error(), "ERROR: "), "<input>:", "at ")
			return nil, portal.Invalid("filter", "the filter is not valid CEL: %s", msg)
		}
		if !ast.OutputType().IsExactType(cel.BoolType) {
			return nil, portal.Invalid("filter", "the filter must be true or false for a record, but this one gives %s; compare, as in value.amount > 100", ast.OutputType())
		}
		// A constant pattern of matches() is compiled once here, not for
		// each record the scan reads (which was nearly half of a filter's
		// time), and a pattern that is not a valid expression is the
		// caller's error now rather than no record matching.
		var err error
		if prg, err = f.env.Program(ast, cel.CostLimit(recordFilterCost), cel.InterruptCheckFrequency(100),
			cel.OptimizeRegex(interpreter.MatchesRegexOptimization)); err != nil {
			return nil, portal.Invalid("filter", "the filter cannot run: %v", err)
		}
	}
	key, value, header := strings.ToLower(q.Key), strings.ToLower(q.Value), strings.ToLower(q.Header)
	return func(ctx context.Context, m record.BrowsedMessage) bool {
		if key != "" && !strings.Contains(strings.ToLower(m.Key), key) {
			return false
		}
		if value != "" && !strings.Contains(strings.ToLower(m.Value), value) {
			return false
		}
		if header != "" && !hasHeader(m, header) {
			return false
		}
		if prg == nil {
			return true
		}
		out, _, err := prg.ContextEval(ctx, recordVars(m))
		// A record the expression cannot judge (a missing field, the
		// cost limit) does not match.
		if err != nil {
			return false
		}
		b, _ := out.Value().(bool)
		return b
	}, nil
}

func hasHeader(m record.BrowsedMessage, text string) bool {
	for _, h := range m.Headers {
		if strings.Contains(strings.ToLower(h.Key), text) || strings.Contains(strings.ToLower(h.Value), text) {
			return true
		}
	}
	return false
}

// recordVars are a decoded record as the filter sees it: the value as
// JSON when it is (decoded Avro, JSON Schema or plain JSON), else text.
func recordVars(m record.BrowsedMessage) map[string]any {
	var value any = m.Value
	if m.ValueEncoding != record.EncodingHex && m.ValueEncoding != record.EncodingNone {
		var doc any
		if json.Unmarshal([]byte(m.Value), &doc) == nil {
			value = doc
		}
	}
	headers := make(map[string]string, len(m.Headers))
	for _, h := range m.Headers {
		headers[h.Key] = h.Value
	}
	ts := m.Timestamp
	if ts.IsZero() {
		ts = time.Unix(0, 0)
	}
	return map[string]any{"key": m.Key, "value": value, "headers": headers, "partition": int64(m.Partition), "offset": m.Offset, "timestamp": ts}
}
