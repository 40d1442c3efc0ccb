package portal

import "time"

// BudgetLine is a unit's use of one budget dimension in a stage.
type BudgetLine struct {
	Dimension string
	Use       int64
	// Limit is nil when the dimension has no budget.
	Limit *int64
	// Unbounded counts the topics without retention.bytes, which the
	// storage use leaves out.
	Unbounded int
}

// Budget is a unit's budget in a stage with its use.
type Budget struct {
	Scope
	Zone      string
	Lines     []BudgetLine
	UpdatedBy string
	Updated   time.Time
	// MonthlyCost is the unit's monthly amount in the stage (the Billing
	// API's currency; 0: none): a forecast over it warns.
	MonthlyCost int64
	// Warnings say which limits are at or below the use (new writes that
	// add to them are refused; nothing is deleted).
	Warnings []string
}

// Budget dimensions: what a unit holds in a stage.
const (
	// BudgetMonthlyCost is a monthly amount of money, not a judged
	// dimension.
	BudgetMonthlyCost     = "monthly_cost"
	BudgetTopics          = "topics"
	BudgetPartitions      = "partitions"
	BudgetStorageBytes    = "storage_bytes"
	BudgetConnectors      = "connectors"
	BudgetConnectorTasks  = "connector_tasks"
	BudgetServiceAccounts = "service_accounts"
	BudgetAPIKeys         = "api_keys"
)
