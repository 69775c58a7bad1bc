package bench

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/bench/internal/chart"
	"github.com/ebref/ebref/hwmodel"
)

// synthetic makes a profile's rows: a workload per name, each strategy's
// cycles the oracle's (1,000,000) times its ratio.
func synthetic(profile string, names []string, ratios map[Strategy]func(i int) float64) []Row {
	var rows []Row
	for i, n := range names {
		for _, s := range []Strategy{Legacy, Enhanced, Oracle, Translator} {
			f, ok := ratios[s]
			if !ok {
				continue
			}
			rows = append(rows, Row{Workload: n, Profile: profile, Strategy: s, Cycles: uint64(math.Round(f(i) * 1e6))})
		}
	}
	return rows
}

func constant(v float64) func(int) float64 { return func(int) float64 { return v } }

func workloadNames(n int, f func(i int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// adversarialCharts are charts made to break a layout: ratios that all
// equal 1, that differ in the fourth place, that reach a million; one
// workload and sixty; names of eighty characters and of none in ASCII; a
// translator's fourth bar; no oracle (bars of cycles); nothing at all; and
// random ones.
func adversarialCharts() map[string][]Row {
	eleven := workloadNames(11, func(i int) string { return Workloads[i].Name })
	charts := map[string][]Row{
		"all equal": synthetic("p", eleven, map[Strategy]func(int) float64{Legacy: constant(1), Enhanced: constant(1), Oracle: constant(1)}),
		"tiny differences": synthetic("p", eleven, map[Strategy]func(int) float64{
			Legacy: func(i int) float64 { return 1 + float64(i%3)*0.0004 }, Enhanced: func(i int) float64 { return 1 - float64(i%2)*0.0004 },
			Oracle: constant(1)}),
		"just under 1": synthetic("p", eleven, map[Strategy]func(int) float64{
			Legacy: func(i int) float64 { return 0.999 - float64(i)*0.002 }, Enhanced: constant(0.9996), Oracle: constant(1)}),
		"huge": synthetic("p", eleven, map[Strategy]func(int) float64{
			Legacy: func(i int) float64 { return math.Pow(10, float64(i)/2) }, Enhanced: func(i int) float64 { return 1 + float64(i)*0.001 },
			Oracle: constant(1)}),
		"a million":    synthetic("p", []string{"w"}, map[Strategy]func(int) float64{Legacy: constant(999_999.9), Enhanced: constant(1.0001), Oracle: constant(1)}),
		"far under 1":  synthetic("p", eleven, map[Strategy]func(int) float64{Legacy: constant(0.2), Enhanced: constant(0.999), Oracle: constant(1)}),
		"one workload": synthetic("p", []string{"self-copy"}, map[Strategy]func(int) float64{Legacy: constant(1.445), Enhanced: constant(1), Oracle: constant(1)}),
		"many workloads": synthetic("p", workloadNames(60, func(i int) string { return fmt.Sprintf("workload-%02d", i) }),
			map[Strategy]func(int) float64{Legacy: func(i int) float64 { return 1 + float64(i%7)*0.07 }, Enhanced: func(i int) float64 { return 1 + float64(i%5)*0.004 },
				Oracle: constant(1)}),
		"long names": synthetic("p", workloadNames(5, func(i int) string {
			return strings.Repeat("MW", 20) + strings.Repeat("-frame", 7) + fmt.Sprint(i)
		}), map[Strategy]func(int) float64{Legacy: constant(1.2), Enhanced: constant(1.01), Oracle: constant(1)}),
		"names beyond ASCII": synthetic("p", []string{"ケース", "Ωmega-pass", "<&\"'>"},
			map[Strategy]func(int) float64{Legacy: constant(1.1), Enhanced: constant(1), Oracle: constant(1)}),
		"a translator": synthetic("p", eleven, map[Strategy]func(int) float64{
			Legacy: func(i int) float64 { return 1 + float64(i)*0.04 }, Enhanced: constant(1.001),
			Oracle: constant(1), Translator: func(i int) float64 { return 1 + float64(i%4)*0.7 }}),
		"no oracle": synthetic("p", eleven, map[Strategy]func(int) float64{
			Legacy: func(i int) float64 { return float64(i+1) * 1.7 }, Enhanced: func(i int) float64 { return float64(i+1) * 1.6 }}),
		"one strategy, cycles close": synthetic("p", eleven, map[Strategy]func(int) float64{Legacy: func(i int) float64 { return 8 + float64(i)*0.01 }}),
		"only the oracle":            synthetic("p", eleven, map[Strategy]func(int) float64{Oracle: constant(1)}),
		"nothing":                    nil,
	}
	rng := rand.New(rand.NewPCG(35, 7))
	for k := range 40 {
		n := 1 + rng.IntN(15)
		spread := math.Pow(10, rng.Float64()*4-3) // 0.001 to 10
		r := func(int) float64 { return max(0.01, 1+(rng.Float64()-0.3)*spread) }
		charts[fmt.Sprintf("random %d", k)] = synthetic("p", workloadNames(n, func(i int) string {
			return strings.Repeat("x", rng.IntN(30)) + fmt.Sprint(i)
		}), map[Strategy]func(int) float64{Legacy: r, Enhanced: r, Oracle: constant(1)})
	}
	return charts
}

// everyChart is every chart the default bench draws (one per profile) and
// the adversarial ones.
func everyChart(t *testing.T) map[string]svgChart {
	out := map[string]svgChart{}
	all := rows(t)
	for _, p := range hwmodel.ProfileNames() {
		out["bench on "+p] = layoutChart(p, all)
	}
	for name, rs := range adversarialCharts() {
		out[name] = layoutChart("p", rs)
	}
	return out
}

// Nothing overlaps a label: every text the chart writes (titles, tick
// values, bar values, workload names, the legend) is measured in the
// charts' font from the layout, and no other mark's area (a bar, an axis,
// a tick, the dashed line of 1, the break, a swatch, another text) meets
// it; and every mark lies inside the picture. For each profile's chart of
// the default bench and for charts made to break the layout.
func TestChartLabelsOverlapNothing(t *testing.T) {
	for name, c := range everyChart(t) {
		texts := 0
		for i, a := range c.marks {
			x0, y0, x1, y1 := a.area.Bounds()
			if len(a.area) > 0 && (x0 < 0 || y0 < 0 || x1 > c.width || y1 > c.height) {
				t.Errorf("%s: %s reaches outside the %gx%g picture: (%.1f,%.1f)-(%.1f,%.1f)", name, a.what, c.width, c.height, x0, y0, x1, y1)
			}
			if !a.text {
				continue
			}
			texts++
			for j, b := range c.marks {
				if i != j && chart.Overlap(a.area, b.area) {
					t.Errorf("%s: %s overlaps %s\n  %s\n  %s", name, a.what, b.what, a.svg, b.svg)
				}
			}
		}
		// The check saw every text: the three titles, each bar's value,
		// each workload's name.
		var workloads []string
		for _, b := range c.bars {
			if !slices.Contains(workloads, b.workload) {
				workloads = append(workloads, b.workload)
			}
		}
		if want := 3 + len(c.bars) + len(workloads); texts < want {
			t.Errorf("%s: %d texts for %d bars of %d workloads", name, texts, len(c.bars), len(workloads))
		}
	}
}

// The overlap test measures what it claims: a label moved onto the dashed
// line, or onto its neighbour, is caught.
func TestChartOverlapIsCaught(t *testing.T) {
	c := layoutChart("p", adversarialCharts()["all equal"])
	var line, label, other chart.Shape
	for _, m := range c.marks {
		switch {
		case m.what == "the line of 1":
			line = m.area
		case strings.HasPrefix(m.what, "the value of") && label == nil:
			label = m.area
		case strings.HasPrefix(m.what, "the value of") && other == nil:
			other = m.area
		}
	}
	require.NotNil(t, line)
	require.NotNil(t, other)
	_, ly, _, _ := line.Bounds()
	_, y0, _, y1 := label.Bounds()
	down := (ly - y0) - (y1-y0)/2 // the label's middle onto the line
	moved := make(chart.Shape, len(label))
	for i, p := range label {
		moved[i] = chart.Point{X: p.X, Y: p.Y + down}
	}
	assert.True(t, chart.Overlap(moved, line), "a label struck through by the line")
	ox0, _, _, _ := other.Bounds()
	lx0, _, _, _ := label.Bounds()
	for i, p := range label {
		moved[i] = chart.Point{X: p.X + (ox0-lx0)/2, Y: p.Y}
	}
	assert.True(t, chart.Overlap(moved, other), "a label half over its neighbour")
}

// An axis that does not start at zero says so: its foot is 0, with a break
// between 0 and its lowest tick, across the axis and every bar; one that
// does has no break. The axis always has a title, and every bar's value is
// inside the axis's range.
func TestChartAxisOrigin(t *testing.T) {
	for name, c := range everyChart(t) {
		has := func(what string) bool {
			return slices.ContainsFunc(c.marks, func(m mark) bool { return m.what == what })
		}
		assert.Equal(t, c.scale.Broken(), has("the break"), "%s: scale %+v", name, c.scale)
		assert.Equal(t, c.scale.Broken(), has("the value 0"), "%s: scale %+v", name, c.scale)
		assert.True(t, has("the axis's title"), name)
		assert.NotEmpty(t, c.axisTitle, name)
		for _, b := range c.bars {
			assert.True(t, b.value > c.scale.Lo && b.value <= c.scale.Hi+1e-9, "%s: %s, %s = %g outside %+v", name, b.workload, b.strategy, b.value, c.scale)
		}
	}
	// The bench's own charts follow the rule: the axis starts at zero
	// when the smallest value is at most half the largest (xe's legacy
	// ratios reach well past twice the oracle), and is broken otherwise
	// (a few per cent between strategies); a chart of ratios from 0.2 is
	// not broken.
	broken := 0
	for _, p := range hwmodel.ProfileNames() {
		c := layoutChart(p, rows(t))
		lo, hi := math.Inf(1), 0.0
		for _, b := range c.bars {
			lo, hi = min(lo, b.value), max(hi, b.value)
		}
		assert.Equal(t, lo > hi/2, c.scale.Broken(), "%s: values %g to %g", p, lo, hi)
		if c.scale.Broken() {
			broken++
		}
	}
	assert.Positive(t, broken, "some real chart shows a broken axis")
	assert.False(t, layoutChart("p", adversarialCharts()["far under 1"]).scale.Broken())
	assert.False(t, layoutChart("p", adversarialCharts()["huge"]).scale.Broken())
}

// The chart's quantity is a column of the table, under the name the axis's
// title gives it, with the same values: each bar's label is the table's
// cell for its workload and strategy.
func TestChartQuantityInTable(t *testing.T) {
	check := func(name string, rs []Row, profile string) {
		var b bytes.Buffer
		require.NoError(t, WriteTable(&b, rs))
		header, cells := tableOf(t, b.String(), profile)
		c := layoutChart(profile, rs)
		title := strings.TrimSuffix(c.axisTitle, " (the oracle = 1)")
		for _, col := range strings.Split(title, ", ") {
			if !slices.Contains(header, col) {
				t.Errorf("%s: the axis's title names %q, which the table's header %q lacks", name, col, header)
			}
		}
		n := 0
		for _, bar := range c.bars {
			if bar.strategy == Oracle {
				continue
			}
			col := slices.Index(header, OverOracle(bar.strategy))
			require.GreaterOrEqual(t, col, 0, "%s: no column %s in %q", name, OverOracle(bar.strategy), header)
			cell := cells[bar.workload][col]
			if want := fmt.Sprintf("%.3f", bar.value); cell != want {
				t.Errorf("%s: %s, %s: the table says %s, the chart %s (%s)", name, bar.workload, bar.strategy, cell, want, bar.label)
			}
			n++
		}
		assert.NotZero(t, n, name)
	}
	for _, p := range hwmodel.ProfileNames() {
		check("bench on "+p, rows(t), p)
	}
	check("a translator", adversarialCharts()["a translator"], "p")
	// Without an oracle the bars are cycles, the table's column of that name.
	c := layoutChart("p", adversarialCharts()["no oracle"])
	assert.Equal(t, "cycles", c.axisTitle)
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, adversarialCharts()["no oracle"]))
	header, _ := tableOf(t, b.String(), "p")
	assert.Contains(t, header, "cycles")
}

// tableOf reads a profile's table from WriteTable's text: its header's
// columns, and each workload's cells.
func tableOf(t *testing.T, text, profile string) ([]string, map[string][]string) {
	t.Helper()
	cols := regexp.MustCompile(`\S+(?: \S+)*`)
	lines := strings.Split(text, "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, profile+" (") })
	require.GreaterOrEqual(t, at, 0, "no table for %s:\n%s", profile, text)
	head := lines[at+1]
	starts := cols.FindAllStringIndex(head, -1)
	var header []string
	for _, s := range starts {
		header = append(header, head[s[0]:s[1]])
	}
	cells := map[string][]string{}
	for _, l := range lines[at+2:] {
		if l == "" {
			break
		}
		row := make([]string, len(starts))
		for i, s := range starts {
			end := len(l)
			if i+1 < len(starts) {
				end = min(end, starts[i+1][0])
			}
			if s[0] < len(l) {
				row[i] = strings.TrimSpace(l[s[0]:end])
			}
		}
		cells[row[0]] = row
	}
	return header, cells
}

// Every adversarial chart is well-formed XML: names with markup characters
// or beyond ASCII are escaped.
func TestChartsAreWellFormed(t *testing.T) {
	for name, rs := range adversarialCharts() {
		var b bytes.Buffer
		require.NoError(t, WriteSVG(&b, "p", rs))
		dec := xml.NewDecoder(&b)
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if !assert.NoError(t, err, name) {
				break
			}
		}
	}
	var b bytes.Buffer
	require.NoError(t, WriteSVG(&b, "p", adversarialCharts()["names beyond ASCII"]))
	assert.Contains(t, b.String(), "&lt;&amp;&#34;&#39;&gt;")
}
