package hlk

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// Caselists and baselines: how CI names cases (issue 35). A case on a
// profile is written "suite/case,profile", one a line: `ebref hlk --list`
// prints that form, `--caselist` reads it back exactly (no regular
// expression: case names hold brackets, bars and dots), and a baseline
// adds the status a case is known to end in, "suite/case,profile,status",
// as deqp-runner's *-fails.txt files do. Case names may hold commas but
// profiles and statuses never do, so a line splits at its last commas.

// CaseRef names one case on one profile.
type CaseRef struct{ Path, Profile string }

func (r CaseRef) String() string { return r.Path + "," + r.Profile }

// Caselist is a list of cases to run.
type Caselist struct {
	Name  string    // where it came from, for errors: a file, "the failures of r.json"
	Cases []CaseRef // in the list's order
	Lines []int     // each case's line in Name (0: not from a file)
}

// MaxListBytes bounds a caselist or baseline file (the default run's
// caselist is about 1.3 MB).
const MaxListBytes = 16 << 20

// listLines reads a caselist or baseline: lines without their CR, skipping
// blank ones and # comments; f gets each with its number.
func listLines(r io.Reader, name string, f func(n int, line string) error) error {
	return listLinesComments(r, name, f, nil)
}

// listLinesComments is listLines that also hands comment lines to c.
func listLinesComments(r io.Reader, name string, f func(n int, line string) error, c func(line string)) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxListBytes+1))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxListBytes {
		return fmt.Errorf("%s: more than %d bytes; a list may have at most that", name, MaxListBytes)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxListBytes+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if line == "" || line[0] == '#' {
			if c != nil && line != "" {
				c(line)
			}
			continue
		}
		if err := f(n, line); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	return sc.Err()
}

// splitRef reads "suite/case,profile" from the start of fields.
func splitRef(line string, fields int) ([]string, error) {
	parts := make([]string, fields)
	rest := line
	for i := fields - 1; i > 0; i-- {
		j := strings.LastIndexByte(rest, ',')
		if j < 0 {
			return nil, fmt.Errorf("%q has %d comma-separated fields; want %d", line, fields-i, fields)
		}
		parts[i] = strings.TrimSpace(rest[j+1:])
		rest = rest[:j]
	}
	parts[0] = strings.TrimSpace(rest)
	if !strings.Contains(parts[0], "/") {
		return nil, fmt.Errorf("%q: want suite/case first", parts[0])
	}
	for i, p := range parts {
		if p == "" {
			return nil, fmt.Errorf("%q: field %d is empty", line, i+1)
		}
	}
	return parts, nil
}

// ReadCaselist reads a caselist: "suite/case,profile" lines. A malformed
// line, a case twice and a file over MaxListBytes are errors naming the
// line; whether each case exists is checked when a run plans it.
func ReadCaselist(r io.Reader, name string) (*Caselist, error) {
	cl := &Caselist{Name: name}
	seen := map[CaseRef]int{}
	err := listLines(r, name, func(n int, line string) error {
		p, err := splitRef(line, 2)
		if err != nil {
			return err
		}
		ref := CaseRef{p[0], p[1]}
		if m, dup := seen[ref]; dup {
			return fmt.Errorf("%s on %s is line %d too", ref.Path, ref.Profile, m)
		}
		seen[ref] = n
		cl.Cases = append(cl.Cases, ref)
		cl.Lines = append(cl.Lines, n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(cl.Cases) == 0 {
		return nil, fmt.Errorf("%s: no case in the list", name)
	}
	return cl, nil
}

// where names a caselist entry for an error.
func (cl *Caselist) where(i int) string {
	if i < len(cl.Lines) && cl.Lines[i] > 0 {
		return fmt.Sprintf("%s:%d", cl.Name, cl.Lines[i])
	}
	return fmt.Sprintf("%s, entry %d", cl.Name, i+1)
}

// WriteCaselist writes cases in the form ReadCaselist reads.
func WriteCaselist(w io.Writer, cases []PlannedCase) error {
	bw := bufio.NewWriter(w)
	for _, c := range cases {
		fmt.Fprintf(bw, "%s,%s\n", c.Path, c.Profile)
	}
	return bw.Flush()
}

// FailedCaselist is the cases of a report that were not conformant, to
// run again (`--rerun-failed`).
func FailedCaselist(r *Report, name string) (*Caselist, error) {
	cl := &Caselist{Name: "the failures of " + name}
	for i := range r.Cases {
		if c := &r.Cases[i]; !c.Status.Conformant() {
			cl.Cases = append(cl.Cases, CaseRef{c.Path(), c.Profile})
		}
	}
	if len(cl.Cases) == 0 {
		return nil, fmt.Errorf("%s has no case that did not pass: nothing to run again", name)
	}
	return cl, nil
}

// Baseline is what a run is known to end in: each listed case's
// non-passing status. A case not listed is expected to pass.
type Baseline struct {
	Name   string
	expect map[CaseRef]Status
	lines  map[CaseRef]int
	// build and profiles are what the comment WriteBaseline writes
	// names, "" when the file has none.
	build, profiles string
}

// baselineHeader is the comment line WriteBaseline writes first.
const baselineHeader = "# ebref hlk baseline: "

// ReadBaseline reads "suite/case,profile,status" lines (the status a
// non-conformant one: Fail, Crash or Timeout).
func ReadBaseline(r io.Reader, name string) (*Baseline, error) {
	b := &Baseline{Name: name, expect: map[CaseRef]Status{}, lines: map[CaseRef]int{}}
	header := func(line string) {
		rest, ok := strings.CutPrefix(line, baselineHeader)
		if !ok {
			return
		}
		for _, f := range strings.Split(rest, ", ") {
			if v, ok := strings.CutPrefix(f, "build "); ok {
				b.build = v
			}
			if v, ok := strings.CutPrefix(f, "profiles "); ok {
				b.profiles = v
			}
		}
	}
	err := listLinesComments(r, name, func(n int, line string) error {
		p, err := splitRef(line, 3)
		if err != nil {
			return err
		}
		st, err := ParseStatus(p[2])
		if err != nil {
			return err
		}
		if st.Conformant() {
			return fmt.Errorf("status %s: a baseline lists the cases that do not pass (Fail, Crash, Timeout)", st)
		}
		ref := CaseRef{p[0], p[1]}
		if m, dup := b.lines[ref]; dup {
			return fmt.Errorf("%s on %s is line %d too", ref.Path, ref.Profile, m)
		}
		b.expect[ref], b.lines[ref] = st, n
		return nil
	}, header)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// WriteBaseline writes the baseline of a run: its cases that did not pass,
// sorted, under a comment naming the run.
func WriteBaseline(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	e := r.Environment
	fmt.Fprintf(bw, "%sdriver %s, version %s, build %s, profiles %s\n", baselineHeader, e.Driver, e.Version, e.Build, strings.Join(e.Profiles, ","))
	var lines []string
	for i := range r.Cases {
		if c := &r.Cases[i]; !c.Status.Conformant() {
			lines = append(lines, fmt.Sprintf("%s,%s,%s", c.Path(), c.Profile, c.Status))
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(bw, l)
	}
	return bw.Flush()
}

// BaselineOutcome is a run judged against a baseline.
type BaselineOutcome struct {
	Baseline string `json:"baseline"`
	// Expected failed as the baseline says; New did not pass and the
	// baseline does not say so (or says another status); Fixed passed
	// although the baseline lists them.
	Expected int       `json:"expected_failures"`
	New      []CaseRef `json:"new_failures,omitempty"`
	Fixed    []CaseRef `json:"unexpected_passes,omitempty"`
	// Unknown are the baseline's lines that name no case of the run's
	// suites and profiles (a baseline of another version), and what its
	// header says differs from the run (another build, other profiles):
	// reported, not an error.
	Unknown []string `json:"unknown_lines,omitempty"`
	// FailOnFixed: an unexpected pass fails the run too.
	FailOnFixed bool `json:"fail_on_unexpected_pass,omitempty"`
	// Pass: no new failure (and no unexpected pass, if FailOnFixed).
	Pass bool `json:"pass"`
}

// MarshalText writes a CaseRef as its caselist line.
func (r CaseRef) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Judge compares a run with the baseline. known is every case the suites
// have on the run's profiles: a baseline line outside it is Unknown. Lines
// for cases the run did not select (another shard's, a filtered suite's)
// are neither.
func (b *Baseline) Judge(r *Report, known map[CaseRef]bool, failOnFixed bool) BaselineOutcome {
	o := BaselineOutcome{Baseline: b.Name, FailOnFixed: failOnFixed}
	for i := range r.Cases {
		c := &r.Cases[i]
		ref := CaseRef{c.Path(), c.Profile}
		want, listed := b.expect[ref]
		switch {
		case c.Status.Conformant() && listed:
			o.Fixed = append(o.Fixed, ref)
		case c.Status.Conformant():
		case listed && want == c.Status:
			o.Expected++
		default:
			o.New = append(o.New, ref)
		}
	}
	for ref, n := range b.lines {
		if !known[ref] {
			o.Unknown = append(o.Unknown, fmt.Sprintf("%s:%d: %s on %s is no case of this run's suites and profiles", b.Name, n, ref.Path, ref.Profile))
		}
	}
	sort.Strings(o.Unknown)
	if e := r.Environment; b.build != "" && b.build != e.Build {
		o.Unknown = append(o.Unknown, fmt.Sprintf("%s was written by build %s; this run is build %s: its cases may have changed since", b.Name, b.build, e.Build))
	}
	if e := r.Environment; b.profiles != "" && b.profiles != strings.Join(e.Profiles, ",") {
		o.Unknown = append(o.Unknown, fmt.Sprintf("%s was written on profiles %s; this run is on %s", b.Name, b.profiles, strings.Join(e.Profiles, ",")))
	}
	o.Pass = len(o.New) == 0 && (!failOnFixed || len(o.Fixed) == 0)
	return o
}

// ReadFlakes reads known flakes: one regular expression a line, matched
// against suite/case paths (Config.Flakes).
func ReadFlakes(r io.Reader, name string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	err := listLines(r, name, func(n int, line string) error {
		re, err := regexp.Compile(line)
		if err != nil {
			return err
		}
		out = append(out, re)
		return nil
	})
	return out, err
}
