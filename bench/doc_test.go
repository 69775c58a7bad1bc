package bench

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ebref/ebref/internal/docgen"
	"github.com/stretchr/testify/require"
)

var updateDocs = flag.Bool("update", false, "rewrite the generated sections of docs/bench.md")

// workloadTable lists the workloads as docs/bench.md carries them.
func workloadTable() string {
	var b strings.Builder
	b.WriteString("| workload | shortcomings (000 order) | the frame |\n|---|---|---|\n")
	for _, w := range Workloads {
		var s []string
		for _, n := range w.Shortcomings {
			s = append(s, fmt.Sprintf("%d %s", n, Shortcomings[n]))
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", w.Name, strings.Join(s, "; "), w.About)
	}
	b.WriteString(sampleTable())
	first := true
	for _, w := range Workloads {
		for _, p := range slices.Sorted(maps.Keys(w.Even)) {
			if first {
				b.WriteString("\nWhere a workload's shortcomings cost nothing, measured, the enhanced form need only be as cheap as legacy (within 2 %):\n\n")
				first = false
			}
			fmt.Fprintf(&b, "- `%s` on `%s`: %s.\n", w.Name, p, w.Even[p])
		}
	}
	return b.String()
}

// The workload list and the measured table in docs/bench.md are the
// code's and the model's: go test ./bench -update rewrites them.
func TestDocIsCurrent(t *testing.T) {
	var table, ratios bytes.Buffer
	require.NoError(t, WriteTable(&table, rows(t)))
	require.NoError(t, WriteRatios(&ratios, rows(t)))
	require.NoError(t, docgen.Check("../docs/bench.md", "go test ./bench -update", []docgen.Section{
		{Name: "workloads", Body: workloadTable()},
		{Name: "results", Body: "```\n$ go run ./tools/ebref bench\n" + table.String() + "```\n"},
		{Name: "ratios", Body: ratios.String()},
	}, *updateDocs))
}
