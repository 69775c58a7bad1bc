package hlk

import (
	"context"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const flushCase = `
scenario "a render target sampled"
texture RT 64x64 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET
texture OUT 64x64 flags RENDER_TARGET layout RENDER_TARGET
queue Q DIRECT
list L DIRECT
  draw rt RT
  barrier texture RT sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE \
      layout RENDER_TARGET -> SHADER_RESOURCE
  draw ps-srv RT rt OUT
end
execute Q L
expect reference RT OUT
`

func runFlushCase(t *testing.T, c Config) *Report {
	t.Helper()
	sc, err := scenario.Parse("t.ebs", flushCase, nil)
	require.NoError(t, err)
	c.Suites = []Suite{{Name: "t", Cases: sc}}
	rep, err := Execute(context.Background(), c)
	require.NoError(t, err)
	return rep
}

// A record round-trips, and a case that costs more than its record on
// one counter fails, naming the counter; one that costs the same or less
// passes, as does a case the record does not have.
func TestCostRecordBoundsACase(t *testing.T) {
	rep := runFlushCase(t, Config{Driver: Reference, Profiles: []string{"discrete"}})
	require.True(t, rep.Conformant())
	assert.Contains(t, rep.Environment.CostBound, "the reference driver's record", "the reference is bounded by its record, which does not have this case")
	var b strings.Builder
	require.NoError(t, WriteCostRecord(&b, rep))
	rec, err := ParseCostRecord(strings.NewReader(b.String()))
	require.NoError(t, err)
	require.Equal(t, 1, rec.Len())

	same := runFlushCase(t, Config{Driver: Reference, Profiles: []string{"discrete"}, Costs: rec})
	assert.True(t, same.Conformant(), "%v", same.Cases[0].Messages)
	assert.Equal(t, "the given record (1 case-profile rows)", same.Environment.CostBound)

	// The record with one fewer flushed line than the run flushes.
	lines := strings.Split(b.String(), "\n")
	col := -1
	for i, n := range strings.Split(lines[0], "\t") {
		if n == "flushed-lines" {
			col = i
		}
	}
	require.Positive(t, col)
	f := strings.Split(lines[1], "\t")
	flushed := rep.Cases[0].Counters["flushed-lines"]
	require.Positive(t, flushed, "the case flushes the render target's lines")
	f[col] = "1"
	lines[1] = strings.Join(f, "\t")
	lower, err := ParseCostRecord(strings.NewReader(strings.Join(lines, "\n")))
	require.NoError(t, err)
	dear := runFlushCase(t, Config{Driver: Reference, Profiles: []string{"discrete"}, Costs: lower})
	c := dear.Cases[0]
	assert.Equal(t, Fail, c.Status)
	assert.True(t, c.Costlier)
	assert.Contains(t, c.Messages[0], "costs more than its record: flushed-lines")
	assert.Contains(t, c.Messages[0], "> 1")
	assert.False(t, dear.Conformant())

	// No bound: AnyCost, and another profile's case is not in the record.
	assert.True(t, runFlushCase(t, Config{Driver: Reference, Profiles: []string{"discrete"}, Costs: lower, AnyCost: true}).Conformant())
	assert.True(t, runFlushCase(t, Config{Driver: Reference, Profiles: []string{"coherent"}, Costs: lower}).Conformant())
	// A fault injected is judged on correctness alone.
	injected := runFlushCase(t, Config{Driver: Reference, Profiles: []string{"discrete"}, Inject: "drop-flush"})
	assert.Empty(t, injected.Environment.CostBound)
}

func TestWriteCostRecordRefuses(t *testing.T) {
	rep := runFlushCase(t, Config{Driver: Reference, Profiles: []string{"discrete"}, Inject: "drop-flush"})
	var b strings.Builder
	err := WriteCostRecord(&b, rep)
	require.Error(t, err)
	if rep.Conformant() {
		assert.Contains(t, err.Error(), "injected drop-flush")
	} else {
		assert.Contains(t, err.Error(), "not conformant")
	}
	rep.Cases[0].Status = Pass
	assert.ErrorContains(t, WriteCostRecord(&b, rep), "injected drop-flush")
	rep.Environment.Inject = ""
	rep.Cases = append(rep.Cases, rep.Cases[0])
	assert.ErrorContains(t, WriteCostRecord(&b, rep), "in the report twice")
}

func TestParseCostRecordErrors(t *testing.T) {
	head := costHeader + "cycles\tflushed-lines\n"
	for _, tc := range []struct{ text, want string }{
		{"", "empty"},
		{"case\tprofile\t1\n", "line 1: not a cost record"},
		{costHeader + "cycles\tteapots\n", `line 1: column 4: no counter "teapots"`},
		{head + "a/b\tdiscrete\t1\n", "line 2: 3 columns, want 4"},
		{head + "a/b\tdiscrete\t1\t-2\n", `line 2: column 4 (flushed-lines): "-2" is not a count`},
		{head + "a/b\tdiscrete\t1\t99999999999999999999\n", "is not a count"},
		{head + "# note\na/b\tdiscrete\t1\t2\na/b\tdiscrete\t1\t2\n", "line 4: a/b on discrete is recorded twice"},
		{head + strings.Repeat("x", maxCostLine+1), "line 2: bufio.Scanner: token too long"},
	} {
		_, err := ParseCostRecord(strings.NewReader(tc.text))
		if assert.Error(t, err, "%q", tc.text) {
			assert.Contains(t, err.Error(), tc.want)
		}
	}
	rec, err := ParseCostRecord(strings.NewReader(head + "\n# a comment\na/b\tdiscrete\t10\t2\n"))
	require.NoError(t, err)
	over, ok := rec.Exceeds(&CaseResult{Suite: "a", Case: "b", Profile: "discrete",
		Counters: map[string]uint64{"cycles": 11, "flushed-lines": 2, "invalidated-lines": 99}})
	assert.True(t, ok)
	assert.Equal(t, []string{"cycles 11 > 10"}, over, "only the recorded counters bound the case")
	_, ok = rec.Exceeds(&CaseResult{Suite: "a", Case: "b", Profile: "coherent"})
	assert.False(t, ok)
}

// The embedded record parses and bounds the default run.
func TestReferenceCostsParse(t *testing.T) {
	rec, err := ReferenceCosts()
	require.NoError(t, err)
	assert.Greater(t, rec.Len(), 3000)
	assert.Equal(t, CostCounters, rec.counters)
}
