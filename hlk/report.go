package hlk

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/ebref/ebref/internal/printable"
)

// WriteSummary prints the console summary: per suite and profile the
// totals by status, then every case that is not conformant with its
// messages, then the verdict.
func WriteSummary(w io.Writer, r *Report) error {
	// Names and messages may come from outside (a report read back, a
	// translator's standard error): nothing reaches the terminal raw.
	w = printableWriter{w}
	type key struct{ suite, profile string }
	counts := map[key]map[Status]int{}
	var keys []key
	for i := range r.Cases {
		c := &r.Cases[i]
		k := key{c.Suite, c.Profile}
		if counts[k] == nil {
			counts[k] = map[Status]int{}
			keys = append(keys, k)
		}
		counts[k][c.Status]++
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].suite != keys[j].suite {
			return keys[i].suite < keys[j].suite
		}
		return keys[i].profile < keys[j].profile
	})
	fmt.Fprintf(w, "%-28s %-10s %6s %6s %6s %6s %6s %6s %6s\n", "suite", "profile", "cases", "pass", "fail", "n/s", "skip", "crash", "t/o")
	for _, k := range keys {
		m := counts[k]
		total := 0
		for _, n := range m {
			total += n
		}
		fmt.Fprintf(w, "%-28s %-10s %6d %6d %6d %6d %6d %6d %6d\n", k.suite, k.profile, total, m[Pass], m[Fail], m[NotSupported],
			m[Skipped], m[Crash], m[Timeout])
	}
	writeNotes(w, r)
	var bad []*CaseResult
	for i := range r.Cases {
		if !r.Cases[i].Status.Conformant() {
			bad = append(bad, &r.Cases[i])
		}
	}
	if len(bad) > 0 {
		fmt.Fprintf(w, "\n%d cases not conformant:\n", len(bad))
		for i, c := range bad {
			if i == 50 {
				fmt.Fprintf(w, "... and %d more (a JSON report, --json FILE, lists every one)\n", len(bad)-50)
				break
			}
			fmt.Fprintf(w, "\n%s %s on %s (%.1f ms)\n", c.Status, c.Path(), c.Profile, c.Millis)
			for j, m := range c.Messages {
				if j == 6 {
					fmt.Fprintf(w, "    ... and %d more\n", len(c.Messages)-6)
					break
				}
				fmt.Fprintf(w, "    %s\n", m)
			}
		}
	}
	all := r.Counts()
	verdict := "NOT CONFORMANT"
	if r.Conformant() {
		verdict = "CONFORMANT"
	}
	fmt.Fprintf(w, "\n%s: %d cases: %d pass, %d fail, %d not supported, %d skipped, %d crash, %d timeout (driver %s",
		verdict, len(r.Cases), all[Pass], all[Fail], all[NotSupported], all[Skipped], all[Crash], all[Timeout], r.Environment.Driver)
	if r.Environment.Inject != "" {
		fmt.Fprintf(w, ", fault %s injected", r.Environment.Inject)
	}
	if r.Environment.CostBound != "" {
		fmt.Fprintf(w, ", cost bounded by %s", r.Environment.CostBound)
	}
	_, err := fmt.Fprintln(w, ")")
	if r.Summary != nil && r.Summary.Baseline != nil {
		err = writeBaselineOutcome(w, r.Summary.Baseline)
	}
	return err
}

// writeBaselineOutcome prints a run's outcome against its baseline, and
// the cases that make it (20 of each at most).
func writeBaselineOutcome(w io.Writer, o *BaselineOutcome) error {
	verdict := "PASSES"
	if !o.Pass {
		verdict = "FAILS"
	}
	for _, l := range []struct {
		what  string
		cases []CaseRef
	}{{"new failures (not in the baseline)", o.New}, {"unexpected passes (in the baseline, now passing: shrink it)", o.Fixed}} {
		if len(l.cases) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%d %s:\n", len(l.cases), l.what)
		for i, c := range l.cases {
			if i == 20 {
				fmt.Fprintf(w, "  ... and %d more\n", len(l.cases)-20)
				break
			}
			fmt.Fprintf(w, "  %s\n", c)
		}
	}
	_, err := fmt.Fprintf(w, "\nthe run %s its baseline %s: %d expected failures, %d new failures, %d unexpected passes\n",
		verdict, o.Baseline, o.Expected, len(o.New), len(o.Fixed))
	return err
}

// WriteJSON writes the report as JSON, sealed with a digest over its
// environment and cases (reportDigest) that ReadJSON checks.
func WriteJSON(w io.Writer, r *Report) error {
	d, err := reportDigest(r)
	if err != nil {
		return err
	}
	sealed := *r
	sealed.Digest = d
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&sealed)
}

// ReadJSON reads a report WriteJSON wrote. JSON that is not such a report
// ({}, null, another tool's), a case without a status, bytes after the
// report's value, or a report whose digest is not its content's (edited,
// or pasted together) is an error, not a run.
func ReadJSON(rd io.Reader) (*Report, error) {
	// A case's status is read as a pointer: one missing or null is an
	// error, not the zero status, Pass.
	type caseIn struct {
		CaseResult
		Status *Status `json:"status"`
	}
	var in struct {
		Environment Environment `json:"environment"`
		Summary     *Summary    `json:"summary"`
		Cases       []caseIn    `json:"cases"`
		Digest      string      `json:"digest"`
	}
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("hlk: reading a JSON report: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("hlk: reading a JSON report: more after the report's JSON value (at byte %d)", dec.InputOffset())
	}
	r := Report{Environment: in.Environment, Summary: in.Summary, Cases: []CaseResult{}}
	if r.Environment.Version == "" || r.Environment.Driver == "" {
		return nil, fmt.Errorf("hlk: not an ebref hlk report: it has no environment.version or environment.driver")
	}
	for i := range in.Cases {
		c := &in.Cases[i]
		if c.Status == nil {
			return nil, fmt.Errorf("hlk: reading a JSON report: case %d (%s on %s) has no status", i, c.Path(), c.Profile)
		}
		c.CaseResult.Status = *c.Status
		r.Cases = append(r.Cases, c.CaseResult)
	}
	if in.Digest == "" {
		return nil, fmt.Errorf("hlk: the report has no digest: ebref hlk writes one (an older ebref did not; run it again)")
	}
	d, err := reportDigest(&r)
	if err != nil {
		return nil, fmt.Errorf("hlk: reading a JSON report: %w", err)
	}
	if d != in.Digest {
		return nil, fmt.Errorf("hlk: the report's digest is %s, its content's %s: it was changed after ebref wrote it", in.Digest, d)
	}
	if len(r.Cases) != r.Environment.Planned {
		return nil, fmt.Errorf("hlk: the report holds %d cases of the %d its run planned: the run did not finish", len(r.Cases), r.Environment.Planned)
	}
	r.Digest = in.Digest
	return &r, nil
}

// junitTime is seconds, written to the millisecond (a sum of float
// seconds printed in full showed artefacts: 11.735349999999997).
type junitTime float64

func (t junitTime) MarshalXMLAttr(name xml.Name) (xml.Attr, error) {
	return xml.Attr{Name: name, Value: strconv.FormatFloat(float64(t), 'f', 3, 64)}, nil
}

// The JUnit XML schema CI systems read: a testsuite per suite and profile.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     junitTime    `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       junitTime       `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      junitTime     `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	// SystemOut carries the case's notes: reported beside the verdict,
	// never a failure (CI systems show it with the case).
	SystemOut string `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: Fail is a failure, Crash and
// Timeout are errors, NotSupported and Skipped are skipped.
func WriteJUnit(w io.Writer, r *Report) error {
	out := junitSuites{Name: "ebref hlk (" + r.Environment.Driver + ")"}
	index := map[string]int{}
	for i := range r.Cases {
		c := &r.Cases[i]
		name := c.Suite + "@" + c.Profile
		k, ok := index[name]
		if !ok {
			k = len(out.Suites)
			index[name] = k
			out.Suites = append(out.Suites, junitSuite{Name: name, Properties: []junitProperty{
				{"profile", c.Profile}, {"driver", r.Environment.Driver}, {"version", r.Environment.Version}, {"inject", r.Environment.Inject}}})
		}
		s := &out.Suites[k]
		jc := junitCase{Name: c.Case, Classname: strings.ReplaceAll(c.Suite, "/", ".") + "." + c.Profile, Time: junitTime(c.Millis / 1000),
			SystemOut: strings.Join(c.Notes, "\n")}
		msg := strings.Join(c.Messages, "\n")
		first := c.Status.String()
		if len(c.Messages) > 0 {
			first = c.Messages[0]
		}
		switch c.Status {
		case Fail:
			jc.Failure = &junitMessage{Message: first, Type: "Fail", Body: msg}
			s.Failures++
		case Crash, Timeout:
			jc.Error = &junitMessage{Message: first, Type: c.Status.String(), Body: msg + "\n" + c.Stack}
			s.Errors++
		case NotSupported, Skipped:
			jc.Skipped = &junitMessage{Message: c.Status.String() + ": " + first}
			s.Skipped++
		}
		s.Tests++
		s.Time += jc.Time
		s.Cases = append(s.Cases, jc)
	}
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
		out.Time += s.Time
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// writeNotes writes how many case-profiles carry each kind of note, beside
// the verdict (nothing when none does), and the counters summed over the
// cases a translator and the reference's record both have.
func writeNotes(w io.Writer, r *Report) {
	counts := make([]int, len(noteKinds))
	found := false
	for i := range r.Cases {
		for _, n := range r.Cases[i].Notes {
			for k, nk := range noteKinds {
				if strings.HasPrefix(n, nk.prefix) {
					counts[k]++
					found = true
					break
				}
			}
		}
	}
	if !found {
		return
	}
	fmt.Fprintln(w, "\nbeside the verdict (not failures; the JSON report's notes say which):")
	for k, nk := range noteKinds {
		if counts[k] > 0 {
			fmt.Fprintf(w, "  %6d %s\n", counts[k], nk.name)
		}
	}
	if counts[len(noteKinds)-1] == 0 {
		return // not a translator's run (only those are compared)
	}
	rec, err := ReferenceCosts()
	if err != nil {
		return
	}
	names, mine, ref, n := rec.Totals(r.Cases)
	fmt.Fprintf(w, "\ncost against the reference's record, summed over the %d case-profiles that passed and that the record has a row for:\n", n)
	fmt.Fprintf(w, "  %-24s %14s %14s\n", "counter", "translator", "reference")
	for k, name := range names {
		if mine[k] == 0 && ref[k] == 0 || strings.HasPrefix(name, "packets-") {
			continue
		}
		ratio := "-"
		if ref[k] > 0 {
			ratio = fmt.Sprintf("%.2fx", float64(mine[k])/float64(ref[k]))
		}
		fmt.Fprintf(w, "  %-24s %14d %14d  %s\n", name, mine[k], ref[k], ratio)
	}
}

// printableWriter escapes control characters in what it writes (each
// write a whole formatted string).
type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, printable.String(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}
