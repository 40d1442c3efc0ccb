// Package policy is the contract of guardrails: policies, their tests and
// reports, and budgets.
package policy

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Policy is a guardrail of a landing zone, optionally narrowed to units
// and stages, about one kind of resource (a document kind, or APIKey):
// Expression, in CEL, is true for a change that keeps the rule. Message
// says what is wrong; ${expr} in it shows the value of a CEL expression.
type Policy struct {
	ID          string
	Zone        string
	Description string
	Kind        string
	Units       []string
	Stages      []string
	// Operations are what the policy checks: create and update when
	// empty; on a delete, resource is null.
	Operations []string
	Expression string
	Message    string
	// Field names the input a violation points at (partitions_count).
	Field string
	// Action is enforce, warn or report.
	Action    string
	UpdatedBy string
	Updated   time.Time
}

// PolicyViolator is an existing resource that breaks a policy.
type PolicyViolator struct {
	portal.Scope
	Kind, Resource, Message string
}

// PolicyReport is a policy evaluated against every existing resource in
// its scope (as if each were created today).
type PolicyReport struct {
	Policy    Policy
	Checked   int
	Violators []PolicyViolator
	// Unread names the units and stages whose resources could not be
	// read, with why: the report is incomplete for them.
	Unread []string
}

// PolicyTest is a sample change to judge with a policy (saved or not).
type PolicyTest struct {
	Policy Policy
	// Scope is where the change is made (the principal is the caller,
	// with the role they have there).
	portal.Scope
	Operation string
	// Resource and Before are the kind's fields as JSON (null: none).
	Resource, Before json.RawMessage
}

// PolicyVerdict is the outcome of a test: whether the policy covers the
// change, and whether the change keeps it (Message when not).
type PolicyVerdict struct {
	Covers  bool
	Kept    bool
	Message string
}

// ClusterUse is a landing zone cluster's partitions against its limit.
type ClusterUse struct {
	Zone, Stage, Cluster string
	Partitions           int64
	// Limit is 0 when none is known; Source says where it comes from
	// (configuration, Confluent Cloud's Service Quotas API).
	Limit  int64
	Source string
	// Warning is set at 80% of the limit.
	Warning bool
}

// BudgetOverview is every unit's use in a zone's stages, and the zone
// clusters' totals.
type BudgetOverview struct {
	Budgets  []portal.Budget
	Clusters []ClusterUse
}

// GuardrailService manages the platform's policies and budgets (platform
// admins change them; a zone's Super Admins read its own) and shows a
// unit its budget.
type GuardrailService interface {
	// Policies lists the policies of a zone ("" for every zone the caller
	// may read).
	Policies(ctx context.Context, zone string) ([]Policy, error)
	Policy(ctx context.Context, id string) (Policy, error)
	// PutPolicy creates or replaces a policy (only creates when create is
	// set: AlreadyExists otherwise), type-checking its expression; created
	// tells which. Errors: Validation (with the expression's positions).
	PutPolicy(ctx context.Context, p Policy, create bool) (out Policy, created bool, err error)
	DeletePolicy(ctx context.Context, id string) error
	// TestPolicy judges a sample change with a policy (saved or not).
	TestPolicy(ctx context.Context, t PolicyTest) (PolicyVerdict, error)
	// Report evaluates a saved policy against every existing resource in
	// its scope.
	Report(ctx context.Context, id string) (PolicyReport, error)
	// Budgets is every unit's use against its budgets, and the clusters'
	// partitions against their limits.
	Budgets(ctx context.Context) (BudgetOverview, error)
	// SetBudget sets a unit's limits in a stage (an empty map removes the
	// budget). A limit below the use is allowed, with a warning.
	SetBudget(ctx context.Context, bu, stage string, limits map[string]int64) (portal.Budget, error)
	// UnitBudget is a unit's use against its budget in a stage; with
	// limitedOnly, a unit without a budget is answered without reading
	// its use (no lines).
	UnitBudget(ctx context.Context, scope portal.Scope, limitedOnly bool) (portal.Budget, error)
}

// Policy actions.
const (
	// PolicyEnforce refuses a write that breaks the policy.
	PolicyEnforce = "enforce"
	// PolicyWarn lets it through with a warning.
	PolicyWarn = "warn"
	// PolicyReportOnly only lists the existing resources that break it.
	PolicyReportOnly = "report"
)

// PolicyActions lists the actions a policy may take.
func PolicyActions() []string { return []string{PolicyEnforce, PolicyWarn, PolicyReportOnly} }

// Operations a policy may check.
const (
	OpCreate = "create"
	OpUpdate = "update"
	OpDelete = "delete"
)

// PolicyOperations lists the operations a policy may check.
func PolicyOperations() []string { return []string{OpCreate, OpUpdate, OpDelete} }

// PolicyOps are the operations a policy checks: create and update when
// it names none.
func PolicyOps(p Policy) []string {
	if len(p.Operations) == 0 {
		return []string{OpCreate, OpUpdate}
	}
	return p.Operations
}

// BudgetDimensions lists the dimensions in the order pages show them.
func BudgetDimensions() []string {
	return []string{portal.BudgetTopics, portal.BudgetPartitions, portal.BudgetStorageBytes, portal.BudgetConnectors, portal.BudgetConnectorTasks, portal.BudgetServiceAccounts, portal.BudgetAPIKeys}
}

// DimensionLabel names a budget dimension as people read it.
func DimensionLabel(dim string) string {
	switch dim {
	case portal.BudgetStorageBytes:
		return "storage"
	case portal.BudgetConnectorTasks:
		return "connector tasks"
	case portal.BudgetServiceAccounts:
		return "service accounts"
	case portal.BudgetAPIKeys:
		return "API keys"
	}
	return dim
}

// storageUnits are the units a storage amount may be written in.
var storageUnits = map[string]float64{"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
	"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30, "TIB": 1 << 40}

// ParseAmount reads an amount of a dimension as people write it: a whole
// count, or for storage a number with a unit ("500 GiB", "1.5 TB"; GiB
// when the unit is left out).
func ParseAmount(dim, s string) (int64, error) {
	s = strings.TrimSpace(s)
	if dim != portal.BudgetStorageBytes {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s must be a whole number, not %q", DimensionLabel(dim), s)
		}
		return n, nil
	}
	num := strings.TrimRightFunc(s, func(r rune) bool { return r == ' ' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' })
	unit := strings.ToUpper(strings.TrimSpace(s[len(num):]))
	if unit == "" {
		unit = "GIB"
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	mult, known := storageUnits[unit]
	if err != nil || !known || f < 0 || f*mult > 1<<62 {
		return 0, fmt.Errorf("storage must be an amount such as 500 GiB or 1.5 TB, not %q", s)
	}
	return int64(f * mult), nil
}

// ShowAmount renders an amount of a dimension (bytes in binary units).
func ShowAmount(dim string, v int64) string {
	if dim != portal.BudgetStorageBytes {
		return strconv.FormatInt(v, 10)
	}
	const unit = 1024
	if v < unit {
		return fmt.Sprintf("%d B", v)
	}
	f, i := float64(v), 0
	for f >= unit && i < 5 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGTPE"[i-1])
}

// WritePolicyReportCSV writes a report's violators as CSV, one per line
// after a header; both doors answer the same file.
func WritePolicyReportCSV(w io.Writer, r PolicyReport) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"business_unit", "stage", "kind", "resource", "message"})
	for _, v := range r.Violators {
		_ = cw.Write([]string{v.BU, v.Stage, v.Kind, csvSafe(v.Resource), csvSafe(v.Message)})
	}
	cw.Flush()
	return cw.Error()
}

// ServePolicyReportCSV answers a report as a CSV file to download, the
// same file from both doors.
func ServePolicyReportCSV(w http.ResponseWriter, r PolicyReport) error {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="policy-`+r.Policy.ID+`-report.csv"`)
	w.WriteHeader(http.StatusOK)
	return WritePolicyReportCSV(w, r)
}

// csvSafe keeps a cell from being read as a formula by a spreadsheet.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
