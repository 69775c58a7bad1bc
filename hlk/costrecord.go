package hlk

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The judge accepts any translation that is sufficient: a barrier that
// flushes a cache it need not, waits twice or decompresses a surface a
// reader could decode still ends with the reference bytes and no hazard.
// The reference driver is also a claim about cost, so its cost is
// recorded per case and profile (costs/reference.txt), and a run of the
// reference driver fails any case that costs more than its record on any
// counter. A change that makes the reference dearer on purpose rewrites
// the record (`ebref hlk --write-costs hlk/costs/reference.txt`), and the
// record's diff shows which cases it made dearer, by how much.

//go:embed costs/reference.txt
var referenceCosts string

// CostCounters are the counters a cost record keeps, in its columns'
// order: every counter a report carries per case but the hazards.
var CostCounters = func() []string {
	names := slices.Clone(caseMetrics)
	for _, op := range casePackets {
		names = append(names, "packets-"+op.String())
	}
	return names
}()

// CostRecord is a driver's cost per case and profile: each case's
// CostCounters as a run measured them.
type CostRecord struct {
	counters []string // the columns, as the record's header names them
	rows     map[costKey][]uint64
}

type costKey struct{ path, profile string }

// Len is how many case-and-profile rows the record has.
func (r *CostRecord) Len() int { return len(r.rows) }

// ReferenceCosts is the reference driver's recorded cost over the default
// suites, as embedded in the package.
var ReferenceCosts = sync.OnceValues(func() (*CostRecord, error) {
	r, err := ParseCostRecord(strings.NewReader(referenceCosts))
	if err != nil {
		return nil, fmt.Errorf("costs/reference.txt: %w", err)
	}
	return r, nil
})

// costHeader starts a record; the counters' names follow it.
const costHeader = "# ebref cost record: case\tprofile\t"

// maxCostLine bounds a record's line: a case's path and its counters.
const maxCostLine = 64 << 10

// ParseCostRecord reads a record WriteCostRecord wrote: a header line
// naming the counters, then one line per case and profile, tab-separated:
// the case's suite/case path, the profile and one number per counter.
// Lines starting with '#' after the header are comments.
func ParseCostRecord(rd io.Reader) (*CostRecord, error) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 0, 4096), maxCostLine)
	r := &CostRecord{rows: map[costKey][]uint64{}}
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			names, ok := strings.CutPrefix(text, costHeader)
			if !ok {
				return nil, fmt.Errorf("line 1: not a cost record (want a header starting %q)", costHeader)
			}
			r.counters = strings.Split(names, "\t")
			for i, n := range r.counters {
				if !slices.Contains(CostCounters, n) {
					return nil, fmt.Errorf("line 1: column %d: no counter %q (have %s)", i+3, n, strings.Join(CostCounters, ", "))
				}
			}
			continue
		}
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 2+len(r.counters) {
			return nil, fmt.Errorf("line %d: %d columns, want %d (case, profile and %d counters)", line, len(f), 2+len(r.counters), len(r.counters))
		}
		k := costKey{f[0], f[1]}
		if _, dup := r.rows[k]; dup {
			return nil, fmt.Errorf("line %d: %s on %s is recorded twice", line, k.path, k.profile)
		}
		v := make([]uint64, len(r.counters))
		for i, s := range f[2:] {
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: column %d (%s): %q is not a count", line, i+3, r.counters[i], s)
			}
			v[i] = n
		}
		r.rows[k] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("empty: not a cost record")
	}
	return r, nil
}

// WriteCostRecord writes the cost of every case of a report that ran on
// the GPU, sorted by case and profile. It refuses a report that is not
// conformant: a record is what a correct run costs.
func WriteCostRecord(w io.Writer, rep *Report) error {
	if !rep.Conformant() {
		return fmt.Errorf("hlk: the run is not conformant; only a conformant run's cost is recorded")
	}
	if rep.Environment.Inject != "" {
		return fmt.Errorf("hlk: the run injected %s; only the driver's own cost is recorded", rep.Environment.Inject)
	}
	type row struct {
		k costKey
		c map[string]uint64
	}
	var rows []row
	for i := range rep.Cases {
		c := &rep.Cases[i]
		if c.Counters == nil {
			continue
		}
		if strings.ContainsAny(c.Path()+c.Profile, "\t\n") {
			return fmt.Errorf("hlk: %s on %s: a case or profile name with a tab or newline cannot be recorded", c.Path(), c.Profile)
		}
		rows = append(rows, row{costKey{c.Path(), c.Profile}, c.Counters})
	}
	slices.SortFunc(rows, func(a, b row) int {
		if n := strings.Compare(a.k.path, b.k.path); n != 0 {
			return n
		}
		return strings.Compare(a.k.profile, b.k.profile)
	})
	bw := bufio.NewWriter(w)
	bw.WriteString(costHeader + strings.Join(CostCounters, "\t") + "\n")
	for i, r := range rows {
		if i > 0 && rows[i-1].k == r.k {
			return fmt.Errorf("hlk: %s on %s is in the report twice", r.k.path, r.k.profile)
		}
		bw.WriteString(r.k.path + "\t" + r.k.profile)
		for _, n := range CostCounters {
			bw.WriteString("\t" + strconv.FormatUint(r.c[n], 10))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Exceeds compares a case's counters with its record: ok is whether the
// record has the case on that profile, and over names each counter that
// costs more than recorded ("flushed-lines 256 > 128").
func (r *CostRecord) Exceeds(c *CaseResult) (over []string, ok bool) {
	v, ok := r.rows[costKey{c.Path(), c.Profile}]
	if !ok {
		return nil, false
	}
	for i, n := range r.counters {
		if got, has := c.Counters[n]; has && got > v[i] {
			over = append(over, fmt.Sprintf("%s %d > %d", n, got, v[i]))
		}
	}
	return over, true
}

// Totals sums, over the passing cases the record has a row for, each of
// the record's counters as the cases measured them (mine) and as the
// record holds them (recorded); n is how many cases were summed.
func (r *CostRecord) Totals(cases []CaseResult) (counters []string, mine, recorded []uint64, n int) {
	mine, recorded = make([]uint64, len(r.counters)), make([]uint64, len(r.counters))
	for i := range cases {
		c := &cases[i]
		v, ok := r.rows[costKey{c.Path(), c.Profile}]
		if !ok || c.Status != Pass {
			continue
		}
		n++
		for k, name := range r.counters {
			mine[k] += c.Counters[name]
			recorded[k] += v[k]
		}
	}
	return r.counters, mine, recorded, n
}
