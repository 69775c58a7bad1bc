package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd"
)

func runRun(e *env, args []string) (code int) {
	const synopsis = "FILE.ebs [--profile P,...] [--profile-file F...] [--json] [--inject FAULT] [--case REGEX] [--trace F]\n" +
		"         [--translator CMD [--translator-timeout D] [--translator-log F] [--compare reference]]\n\n" +
		"Runs one scenario file (every case in it, on every profile unless --profile)\n" +
		"and prints, per case and profile, each list's packets with the barrier calls\n" +
		"they came from, the hazards, the cost counters and each expectation's result.\n" +
		"Exit status: 0 when every expectation holds, 1 when one fails, 2 on a parse or\n" +
		"usage error. The language is described in docs/scenarios.md. --trace writes\n" +
		"the GPU's timeline as Chrome trace-event JSON, which Perfetto opens."
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	profile := fs.String("profile", "", "comma-separated profiles to run on (default: every profile)")
	profileFiles := addProfileFileFlag(fs)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	tf := addTranslatorFlags(fs)
	compare := fs.String("compare", "", "with --translator: reference, to show each Barrier call whose packets or cost differ from the reference's")
	inject := fs.String("inject", "", "inject one of the driver's faults ("+strings.Join(umd.FaultNames(), ", ")+")")
	caseRe := fs.String("case", "", "run only the cases whose names match this regular expression")
	tracePath := fs.String("trace", "", "write the runs' timelines to this file (Chrome trace-event JSON: a track per engine and stage, a slice per packet)")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(e, fs, synopsis, "expected one scenario file")
	}
	profiles := hwmodel.ProfileNames()
	if *profile != "" || len(*profileFiles) > 0 {
		var err error
		if profiles, err = selectProfiles(*profile, *profileFiles); err != nil {
			return profilesError(e, fs, synopsis, err)
		}
	}
	if *inject != "" {
		if _, err := umd.FaultByName(*inject); err != nil {
			return usageError(e, fs, synopsis, "%v", err)
		}
	}
	var re *regexp.Regexp
	if *caseRe != "" {
		var err error
		if re, err = regexp.Compile(*caseRe); err != nil {
			return usageError(e, fs, synopsis, "--case: %v", err)
		}
	}
	cases, err := loadScenario(e, pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "ebref run: %v\n", err)
		return exitUsage
	}
	// --json streams one case at a time: the array is never held whole
	// (a file of thousands of cases once took gigabytes).
	out := jsonStream{w: e.stdout}
	ctx, stop := interruptible()
	defer stop()
	// Made first, so a path that cannot be written fails before the run.
	files, cleanup, err := createOutputs([]namedPath{{"the scenario file", pos[0]}}, []namedPath{{"--trace", *tracePath}})
	if err != nil {
		return outputsError(e, fs, synopsis, err)
	}
	defer cleanup()
	trace := newTrace(files[0])
	if trace != nil {
		defer trace.close() // on an early return; closing twice is closing once
	}
	switch {
	case *compare != "" && *compare != "reference":
		return usageError(e, fs, synopsis, "--compare %q: the only comparison is reference", *compare)
	case *compare != "" && *tf.cmd == "":
		return usageError(e, fs, synopsis, "--compare reference compares a translator's packets: it needs --translator CMD")
	}
	driver := reference.Driver
	proc, code := tf.start(e, "run")
	if code != exitOK {
		return code
	}
	if proc != nil {
		defer func() { code = tf.done(e, "run", proc, code) }()
		driver = reference.WithTranslator(proc)
	}
	failed, ran := false, 0
	tally := map[string][2]int{} // profile: conformant, not
cases:
	for _, sc := range cases {
		if re != nil && !re.MatchString(sc.Name()) {
			continue
		}
		for _, pn := range profiles {
			if ctx.Err() != nil {
				break cases
			}
			p, _ := hwmodel.LookupProfile(pn)
			r := hlk.RunContext(ctx, driver, sc, p, *inject)
			if ctx.Err() != nil {
				break cases // the case was cut short: not a result
			}
			ran++
			t := tally[pn]
			if r.Status.Conformant() {
				t[0]++
			} else {
				failed = true
				t[1]++
			}
			tally[pn] = t
			if trace != nil {
				trace.add(sc.Name(), pn, r)
			}
			var diffs []hlk.CallDiff
			calls := 0
			if *compare != "" {
				diffs, calls = hlk.CompareCalls(r, hlk.Run(reference.Driver, sc, p, *inject))
			}
			if *asJSON {
				jc := caseJSON(sc.Name(), pn, r)
				if *compare != "" {
					jc.Compare = &jsonCompare{Calls: calls, Differ: diffs}
				}
				if err := out.add(jc); err != nil {
					return cannotError(e, "run", err)
				}
				continue
			}
			printCase(e.stdout, sc, pn, r)
			if *compare != "" {
				printCompare(e.stdout, diffs, calls)
			}
		}
	}
	if ctx.Err() != nil {
		// The cases run so far are shown and traced; the run failed.
		defer fmt.Fprintf(e.stderr, "ebref run: %v after %d case runs\n", errInterrupted, ran)
		defer func() { code = exitCannot }()
	} else if ran == 0 {
		fmt.Fprintf(e.stderr, "ebref run: no case of %s matches\n", pos[0])
		return exitUsage
	}
	if trace != nil {
		if err := trace.close(); err != nil {
			return cannotError(e, "run", fmt.Errorf("--trace: %w", err))
		}
		if trace.dropped > 0 {
			fmt.Fprintf(e.stderr, "ebref run: --trace: the file holds the first %d events; %d more were left out\n", maxTraceEvents, trace.dropped)
		}
	}
	if err := out.end(); err != nil {
		return cannotError(e, "run", err)
	}
	if !*asJSON && ran > 0 {
		writeRunSummary(e.stdout, profiles, tally)
	}
	if failed {
		return exitFailed
	}
	return exitOK
}

// writeRunSummary ends run's text with one line: the case runs, and per
// profile how many held and how many failed.
func writeRunSummary(w io.Writer, profiles []string, tally map[string][2]int) {
	pass, fail := 0, 0
	var per []string
	for _, p := range profiles {
		t, ok := tally[p]
		if !ok {
			continue
		}
		pass, fail = pass+t[0], fail+t[1]
		per = append(per, fmt.Sprintf("%s %d pass, %d fail", p, t[0], t[1]))
	}
	fmt.Fprintf(w, "\n%d case runs: %d pass, %d fail (%s)\n", pass+fail, pass, fail, strings.Join(per, "; "))
}

// loadScenario reads a scenario file from disk ("-": standard input, which
// may not include other files).
func loadScenario(e *env, name string) ([]*scenario.Scenario, error) {
	src, err := readInput(e.stdin, name, "scenario file", maxScenarioBytes)
	if err != nil {
		return nil, err
	}
	if name == "-" {
		return scenario.Parse("<stdin>", string(src), nil)
	}
	// Positions name the files as given; includes are relative to the
	// file that includes them, and bounded as it is.
	return scenario.Parse(filepath.ToSlash(name), string(src), func(p string) (string, error) {
		b, err := readInput(nil, filepath.FromSlash(p), "scenario file", maxScenarioBytes)
		return string(b), err
	})
}

// jsonCase is one case on one profile for --json: labelled snake_case keys,
// as the hlk report and decode --json use, and counters named as `expect
// cost` names them.
type jsonCase struct {
	Case         string            `json:"case"`
	Profile      string            `json:"profile"`
	Status       string            `json:"status"`
	Failures     []string          `json:"failures,omitempty"`
	Expectations []jsonExpect      `json:"expectations"`
	Hazards      []string          `json:"hazards,omitempty"`
	Counters     map[string]uint64 `json:"counters"`
	Engines      []jsonEngine      `json:"engines,omitempty"`
	Lists        []jsonList        `json:"lists"`
	Compare      *jsonCompare      `json:"compare,omitempty"`
}

// jsonCompare is --compare reference's finding for one case and profile.
type jsonCompare struct {
	Calls  int            `json:"calls"`
	Differ []hlk.CallDiff `json:"differ"`
}

// printCompare writes the Barrier calls whose packets or cost differ from
// the reference's.
func printCompare(w io.Writer, diffs []hlk.CallDiff, calls int) {
	fmt.Fprintf(w, "compared with the reference: %d of %d Barrier calls differ\n", len(diffs), calls)
	for _, d := range diffs {
		fmt.Fprintf(w, "  list %s, Barrier #%d: %d cycles, the reference %d\n", d.List, d.Call, d.Cycles, d.RefCycles)
		for _, p := range d.Packets {
			fmt.Fprintf(w, "    translator  %s\n", p)
		}
		for _, p := range d.RefPackets {
			fmt.Fprintf(w, "    reference   %s\n", p)
		}
	}
}

type jsonExpect struct {
	Position    string `json:"position"` // file:line:col
	Expectation string `json:"expectation"`
	OK          bool   `json:"ok"`
	Detail      string `json:"detail"`
}

type jsonEngine struct {
	Engine   string            `json:"engine"`
	Counters map[string]uint64 `json:"counters"`
}

func caseJSON(name, profile string, r hlk.Result) jsonCase {
	jc := jsonCase{Case: name, Profile: profile, Status: r.Status.String(), Failures: r.Failures,
		Counters: hlk.CounterMap(r.Counters)}
	for _, x := range r.Expectations {
		jc.Expectations = append(jc.Expectations, jsonExpect{x.Pos.String(), x.Text, x.OK, x.Detail})
	}
	for _, h := range r.Hazards {
		jc.Hazards = append(jc.Hazards, h.Message)
	}
	for _, e := range r.Engines {
		jc.Engines = append(jc.Engines, jsonEngine{e.Engine, hlk.CounterMap(e.Counters)})
	}
	for _, l := range r.Lists {
		jc.Lists = append(jc.Lists, listJSON(l))
	}
	return jc
}

// jsonList is a list's packets for --json.
type jsonList struct {
	Name     string        `json:"name"`
	Type     string        `json:"type"`
	Calls    []string      `json:"barrier_calls"`
	Lines    []string      `json:"packets"`
	Commands []jsonCommand `json:"command_costs,omitempty"`
	// BarrierCycles is what the list's barrier calls cost: their
	// commands' cycles add up to it.
	BarrierCycles uint64 `json:"barrier_cycles"`
}

// jsonCommand is what one command's packets cost, over every execution:
// Cycles is the CP's time (counters' cycles) and the background work the
// command started (a split begin's asynchronous operations, which it
// carries: BackgroundCycles).
type jsonCommand struct {
	Command          int               `json:"command"` // its ordinal in the list, as its MARKER numbers it
	Cycles           uint64            `json:"cycles"`
	BackgroundCycles uint64            `json:"background_cycles"`
	Counters         map[string]uint64 `json:"counters"`
}

func listJSON(l hlk.ListDump) jsonList {
	jl := jsonList{Name: l.Name, Type: l.Type.String()}
	for _, c := range l.Calls {
		jl.Calls = append(jl.Calls, callName(c)+": "+strings.Join(c.Named, "; "))
	}
	for _, ln := range l.Lines {
		jl.Lines = append(jl.Lines, fmt.Sprintf("%5d %-13s %s", ln.Offset, ln.Op, ln.Text))
	}
	for _, n := range slices.Sorted(maps.Keys(l.Costs)) {
		jl.Commands = append(jl.Commands, jsonCommand{n, l.CommandCycles(n), l.Background[n], hlk.CounterMap(l.Costs[n])})
	}
	jl.BarrierCycles = l.BarrierCycles
	return jl
}

// callName names a barrier call as its MARKER does.
func callName(c hlk.BarrierCall) string {
	if c.Ordinal == 0 {
		return "Barrier (no packets)"
	}
	return fmt.Sprintf("Barrier #%d", c.Ordinal)
}

// printCase prints one case's run: packets per list (each Barrier MARKER
// followed by the call's barriers), hazards, costs, expectations.
func printCase(w io.Writer, sc *scenario.Scenario, profile string, r hlk.Result) {
	fmt.Fprintf(w, "== %s on %s: %s\n", sc.Name(), profile, r.Status)
	if r.Status == hlk.Skipped || r.Status == hlk.NotSupported {
		for _, f := range r.Failures {
			fmt.Fprintf(w, "   %s\n", f)
		}
		fmt.Fprintln(w)
		return
	}
	for _, l := range r.Lists {
		fmt.Fprintf(w, "list %s (%s)\n", l.Name, l.Type)
		calls := map[int]hlk.BarrierCall{}
		for _, c := range l.Calls {
			if c.Ordinal != 0 {
				calls[c.Ordinal] = c
			} else {
				fmt.Fprintf(w, "  ; %s: %s\n", callName(c), strings.Join(c.Named, "; "))
			}
		}
		for _, ln := range l.Lines {
			fmt.Fprintf(w, "  %5d  %-13s %s\n", ln.Offset, ln.Op, ln.Text)
			if ln.Op == "MARKER" && ln.Depth == 0 {
				for j, b := range calls[l.CommandAt(ln.Offset)].Named {
					fmt.Fprintf(w, "         ; barrier %d: %s\n", j, b)
				}
			}
		}
		for _, rec := range l.Records {
			fmt.Fprintf(w, "  ; Barrier #%d: %d barriers, %d waits (drain %s, hold %s), %d cache ops (flush %s, invalidate %s), %d surface ops, %d dwords; %s\n",
				rec.Call, rec.Barriers, rec.Waits, rec.Drain, rec.Hold, rec.CacheOps, rec.Flush, rec.Invalidate, rec.NumOps, rec.Dwords,
				callCost(&l, rec.Call))
		}
		if len(l.Records) > 0 {
			fmt.Fprintf(w, "  ; the list's barrier calls: %d cycles\n", l.BarrierCycles)
		}
	}
	if len(r.Hazards) == 0 {
		fmt.Fprintln(w, "hazards: none")
	} else {
		fmt.Fprintf(w, "hazards: %d\n", len(r.Hazards))
		for _, h := range r.Hazards {
			fmt.Fprintf(w, "  %s\n", h.Message)
		}
	}
	for _, o := range r.Observed {
		where := ""
		if o.Pos.File != "" {
			where = " at " + o.Pos.String()
		}
		fmt.Fprintf(w, "message%s: %s\n", where, o.Text)
	}
	c := r.Counters
	fmt.Fprintf(w, "cost: %d cycles; %d lines flushed, %d invalidated; %d bytes decompressed, %d metadata bytes initialised\n",
		c.Cycles, sumU(c.FlushedLines[:]), sumU(c.InvalidatedLines[:]), c.DecompressedBytes, c.MetadataBytes)
	for _, e := range r.Engines {
		writeEngineCost(w, e)
	}
	for _, x := range r.Expectations {
		mark := "ok  "
		if !x.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "%s %s: expect %s: %s\n", mark, x.Pos, x.Text, x.Detail)
	}
	for _, f := range r.Failures {
		if !strings.Contains(f, ": expect ") { // those are the FAIL lines above
			fmt.Fprintf(w, "FAIL %s\n", f)
		}
	}
	fmt.Fprintln(w)
}

// callCost says what a command's packets cost the GPU, over every
// execution of its list.
// (A split barrier's begin carries the background work it started.)
func callCost(l *hlk.ListDump, command int) string {
	c, ok := l.Costs[command]
	if !ok {
		return "not executed"
	}
	bg := ""
	if b := l.Background[command]; b > 0 {
		bg = fmt.Sprintf(" = CP %d + background %d", c.Cycles, b)
	}
	return fmt.Sprintf("cost %d cycles%s (%d stalled), %d lines flushed, %d invalidated, %d bytes decompressed, %d metadata bytes",
		l.CommandCycles(command), bg, c.StallCycles, sumU(c.FlushedLines[:]), sumU(c.InvalidatedLines[:]), c.DecompressedBytes, c.MetadataBytes)
}

// writeEngineCost prints an engine's cycles as the sum of its CP's parts
// (docs/hardware.md "Cost model"), then what ran beside the CP.
func writeEngineCost(w io.Writer, e hlk.EngineCost) {
	c := e.Counters
	fmt.Fprintf(w, "  %s: %d cycles = issue %d + waits %d + cache %d + compression %d + end of submission %d + stalls %d; beside the CP: work %d, async %d, held %d\n",
		e.Engine, c.Cycles, c.IssueCycles, c.WaitCycles, c.CacheCycles, c.CompressionCycles, c.BatchEndCycles, c.StallCycles,
		c.WorkCycles, c.AsyncCycles, c.HeldCycles)
}

func sumU(v []uint64) (s uint64) {
	for _, x := range v {
		s += x
	}
	return s
}

// jsonStream writes a JSON array an element at a time.
type jsonStream struct {
	w io.Writer
	n int
}

func (s *jsonStream) add(v any) error {
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		return err
	}
	sep := ",\n  "
	if s.n == 0 {
		sep = "[\n  "
	}
	s.n++
	_, err = fmt.Fprintf(s.w, "%s%s", sep, b)
	return err
}

// end closes the array, if one was started.
func (s *jsonStream) end() error {
	if s.n == 0 {
		return nil
	}
	_, err := io.WriteString(s.w, "\n]\n")
	return err
}
