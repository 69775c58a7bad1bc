package scenario_test

import (
	"testing"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuitesFarFromTheBudget: the default suites' largest file spends
// less than a tenth of a case's token and byte budget, so the limits that
// stop hostile files never come near a real one.
func TestSuitesFarFromTheBudget(t *testing.T) {
	mt, mb := 0, 0
	*scenario.BudgetSpent = func(tk, by int) { mt, mb = max(mt, tk), max(mb, by) }
	defer func() { *scenario.BudgetSpent = nil }()
	_, err := hlk.Suites()
	require.NoError(t, err)
	assert.Less(t, mt, scenario.MaxCaseTokens/10, "the default suites' largest file in tokens")
	assert.Less(t, mb, scenario.MaxCaseBytes/10, "the default suites' largest file in bytes")
}
