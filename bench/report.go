package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ebref/ebref/hlk"
)

// Modelled says what the figures are, for every report to say it.
const Modelled = "figures are the simulated GPU's modelled cycles and counts, not calibrated against any hardware"

// Report is the JSON report: the version of ebref that ran it and a row
// per run.
type Report struct {
	Version string `json:"version"`
	Note    string `json:"note"`
	// Assumptions are, by profile, the modelling choices that drive its
	// ratios (Assumptions).
	Assumptions map[string][]string `json:"assumptions"`
	Rows        []Row               `json:"rows"`
}

// WriteJSON writes the rows as the JSON report (docs/bench.md).
func WriteJSON(w io.Writer, rows []Row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	as := map[string][]string{}
	for _, p := range profilesOf(rows) {
		as[p] = Assumptions(rows, p)
	}
	return enc.Encode(Report{Version: hlk.Version(), Note: Modelled, Assumptions: as, Rows: rows})
}

// WriteTable writes a table per profile, a line per workload: each
// measure for every strategy that ran ("legacy / enhanced / oracle"), and
// the ratios of legacy's cycles to enhanced's and of each strategy's to the
// oracle's (the ratios WriteSVG's chart plots, under the names its axis
// gives them: legacy/oracle, ...); then every run that was not clean with
// why.
func WriteTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ebref bench: %s.\n", Modelled)
	all := rows
	rows = compiled(rows) // the samples' own forms have their table (writeSamples)
	var strategies []Strategy
	for _, r := range rows {
		if !slices.Contains(strategies, r.Strategy) {
			strategies = append(strategies, r.Strategy)
		}
	}
	names := make([]string, len(strategies))
	for i, s := range strategies {
		names[i] = string(s)
	}
	order := strings.Join(names, " / ")
	var profiles []string
	for _, r := range rows {
		if !slices.Contains(profiles, r.Profile) {
			profiles = append(profiles, r.Profile)
		}
	}
	for _, p := range profiles {
		fmt.Fprintf(tw, "\n%s (%s)\n", p, order)
		withT := slices.Contains(strategies, Translator)
		head := "workload\tshortcomings\tcycles\tstall cycles\tflushed lines\tdecompressed bytes\tbarrier calls\tlegacy/enhanced\t" +
			OverOracle(Legacy) + "\t" + OverOracle(Enhanced)
		if withT {
			head += "\ttranslator/enhanced\t" + OverOracle(Translator)
		}
		withB := slices.Contains(strategies, Best)
		if withB {
			head += "\t" + OverOracle(Best)
		}
		head += "\tbound\tenhanced/best\tenhanced/bound\tbest/bound"
		fmt.Fprintln(tw, head)
		for _, g := range byWorkload(rows, p) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", g[0].Workload, tags(g[0].Shortcomings),
				each(g, func(r *Row) uint64 { return r.Cycles }),
				each(g, func(r *Row) uint64 { return r.StallCycles }),
				each(g, func(r *Row) uint64 { return r.FlushedLines }),
				each(g, func(r *Row) uint64 { return r.DecompressedBytes }),
				each(g, func(r *Row) uint64 { return uint64(r.BarrierCalls) }),
				ratio(g, Legacy, Enhanced), ratio(g, Legacy, Oracle), ratio(g, Enhanced, Oracle))
			if withT {
				fmt.Fprintf(tw, "\t%s\t%s", ratio(g, Translator, Enhanced), ratio(g, Translator, Oracle))
			}
			if withB {
				fmt.Fprintf(tw, "\t%s", ratio(g, Best, Oracle))
			}
			fmt.Fprintf(tw, "\t%s\t%s\t%s\t%s", boundOf(g), ratio(g, Enhanced, Best), boundRatio(g, Enhanced), boundRatio(g, Best))
			fmt.Fprintln(tw)
		}
		fmt.Fprintln(tw, "\nWhat drives these ratios:")
		for _, a := range Assumptions(rows, p) {
			fmt.Fprintf(tw, "  - %s\n", a)
		}
	}
	writeSamples(tw, all)
	failed := 0
	for _, r := range all {
		if r.Failed() {
			if failed == 0 {
				fmt.Fprintln(tw, "\nRuns that were not hazard-free with the reference bytes:")
			}
			failed++
			ref := "equal"
			if !r.ReferenceOK {
				ref = "differs"
			}
			fmt.Fprintf(tw, "  %s %s %s: %d hazards, reference %s; %s\n", r.Workload, r.Profile, r.Strategy, r.Hazards,
				ref, strings.Join(r.Failures, "; "))
		}
	}
	writeSampleBugs(tw, all)
	return tw.Flush()
}

// OverOracle names a strategy's cycles over the oracle's, as the table's
// column and the chart's axis title do: "legacy/oracle".
func OverOracle(s Strategy) string { return string(s) + "/" + string(Oracle) }

// byWorkload groups a profile's rows by workload, in the order they came.
func byWorkload(rows []Row, profile string) [][]*Row {
	var groups [][]*Row
	index := map[string]int{}
	for i := range rows {
		r := &rows[i]
		if r.Profile != profile {
			continue
		}
		j, ok := index[r.Workload]
		if !ok {
			j = len(groups)
			index[r.Workload] = j
			groups = append(groups, nil)
		}
		groups[j] = append(groups[j], r)
	}
	return groups
}

func each(g []*Row, f func(*Row) uint64) string {
	parts := make([]string, len(g))
	for i, r := range g {
		parts[i] = strconv.FormatUint(f(r), 10)
	}
	return strings.Join(parts, " / ")
}

// ratio is a's cycles over b's, "-" when either did not run.
func ratio(g []*Row, a, b Strategy) string {
	var x, y *Row
	for _, r := range g {
		switch r.Strategy {
		case a:
			x = r
		case b:
			y = r
		}
	}
	if x == nil || y == nil || y.Cycles == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", float64(x.Cycles)/float64(y.Cycles))
}

func tags(s []int) string {
	parts := make([]string, len(s))
	for i, n := range s {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}
