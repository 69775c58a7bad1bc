package scenario

// For the external tests: the parse budget's hook and its limits.
var BudgetSpent = &budgetSpent

const (
	MaxCaseTokens = maxCaseTokens
	MaxCaseBytes  = maxCaseBytes
)
