package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/ebref/ebref/bench"
	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hwmodel"
)

func runBench(e *env, args []string) (code int) {
	const synopsis = "[--workload W] [--profile P,...] [--strategy S] [--json FILE] [--svg DIR] [--trace FILE] [--barriers] [--emit] [--quiet]\n" +
		"         [--profile-file F...]\n" +
		"         [--translator CMD [--translator-timeout D] [--translator-log F]]\n\n" +
		"Runs frame-structure workloads with legacy ResourceBarrier, with enhanced\n" +
		"barriers, with the oracle (the least synchronisation work, just in time) and\n" +
		"with the best clean program a bounded search finds, on every hardware\n" +
		"profile, and prints, per profile, what each costs the simulated GPU against\n" +
		"a lower bound no clean program beats, and the modelling choices that drive\n" +
		"the ratios (docs/bench.md). Frames transcribed from Microsoft's samples also\n" +
		"run the samples' own barriers (app-legacy, app-enhanced). The figures are\n" +
		"modelled, not calibrated against hardware. Exit status: 0 when every run was\n" +
		"hazard-free with the reference bytes (or found a sample's own declared bug,\n" +
		"which the report lists), 1 when one was not, 2 on a usage error. --barriers adds a\n" +
		"record per barrier call (and per point the oracle synchronised); --svg writes a\n" +
		"chart per profile (PROFILE.svg, cycles over the oracle's); --trace writes\n" +
		"the runs' timelines as Chrome trace-event JSON, which Perfetto opens. --emit\n" +
		"prints the selected workloads' scenarios instead (one per strategy), which\n" +
		"`ebref run` runs."
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	workload := fs.String("workload", "", "run only this workload (default: every one)")
	profile := fs.String("profile", "", "comma-separated profiles to run on (default: every profile)")
	profileFiles := addProfileFileFlag(fs)
	strategy := fs.String("strategy", "", "run only this strategy: legacy, enhanced, oracle, best, app-legacy, app-enhanced, or translator with --translator (default: all)")
	tf := addTranslatorFlags(fs)
	jsonFile := fs.String("json", "", "also write the rows as JSON to this file")
	emit := fs.Bool("emit", false, "print the workloads' scenarios instead of running them")
	svgDir := fs.String("svg", "", "write a chart per profile to this directory (PROFILE.svg), made if missing")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	barriers := fs.Bool("barriers", false, "print a record per barrier call after the table (and add them to --json)")
	tracePath := fs.String("trace", "", "write the runs' timelines to this file (Chrome trace-event JSON: a track per engine and stage, a slice per packet, counter tracks, fence arrows)")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(e, fs, synopsis, "unexpected argument %q", pos[0])
	}
	var c bench.Config
	if *workload != "" {
		w, err := bench.Lookup(*workload)
		if err != nil {
			return usageError(e, fs, synopsis, "%v", err)
		}
		c.Workloads = []*bench.Workload{w}
	}
	if *profile != "" || len(*profileFiles) > 0 {
		var err error
		if c.Profiles, err = selectProfiles(*profile, *profileFiles); err != nil {
			return profilesError(e, fs, synopsis, err)
		}
	}
	if *strategy != "" {
		s, err := bench.ParseStrategy(*strategy)
		if err != nil {
			return usageError(e, fs, synopsis, "%v", err)
		}
		c.Strategies = []bench.Strategy{s}
	}
	if len(c.Workloads) == 1 && len(c.Strategies) == 1 && !c.Workloads[0].Has(c.Strategies[0]) {
		// A sample without that form: say why rather than print an empty table.
		_, err := bench.Source(c.Workloads[0], c.Strategies[0])
		return usageError(e, fs, synopsis, "%s: %v", c.Strategies[0], err)
	}
	if *emit && *tf.cmd != "" {
		return usageError(e, fs, synopsis, "--emit writes the scenarios; a translator's are the enhanced ones")
	}
	if *tf.cmd == "" && len(c.Strategies) == 1 && c.Strategies[0] == bench.Translator {
		return usageError(e, fs, synopsis, "--strategy translator needs --translator CMD")
	}
	proc, code := tf.start(e, "bench")
	if code != exitOK {
		return code
	}
	if proc != nil {
		defer func() { code = tf.done(e, "bench", proc, code) }()
		c.Translator = proc
	}
	if *emit {
		if err := bench.Emit(e.stdout, c); err != nil {
			return benchError(e, err)
		}
		return 0
	}
	ctx, stop := interruptible()
	defer stop()
	// Made first, so a path that cannot be written fails before the run.
	files, cleanup, err := createOutputs(nil, []namedPath{{"--json", *jsonFile}, {"--trace", *tracePath}})
	if err != nil {
		return outputsError(e, fs, synopsis, err)
	}
	defer cleanup()
	if *svgDir != "" {
		if err := os.MkdirAll(*svgDir, 0o755); err != nil {
			return cannotError(e, "bench", fmt.Errorf("--svg: %w", err))
		}
	}
	c.Barriers = *barriers
	trace := newTrace(files[1])
	if trace != nil {
		defer trace.close() // on an early return; closing twice is closing once
		c.Result = func(w *bench.Workload, p *hwmodel.Profile, s bench.Strategy, r hlk.Result) {
			trace.add(fmt.Sprintf("%s, %s", w.Name, s), p.Name, r)
		}
	}
	prog := newProgress(e, "bench", *quiet)
	bad := 0
	c.Progress = func(done, total int, r *bench.Row) {
		if r.Failed() {
			bad++
		}
		prog.step(done, total, bad, fmt.Sprintf("%s, %s on %s", r.Workload, r.Strategy, r.Profile))
	}
	rows, err := bench.Run(ctx, c)
	if ctx.Err() != nil {
		// What ran is traced, ending as valid JSON; no table or report
		// of a part is written as if it were the bench.
		if trace != nil {
			if err := trace.close(); err != nil {
				fmt.Fprintf(e.stderr, "ebref bench: --trace: %v\n", err)
			}
		}
		return cannotError(e, "bench", fmt.Errorf("%w: no table or report written", errInterrupted))
	}
	if err != nil {
		return cannotError(e, "bench", err)
	}
	if err := bench.WriteTable(e.stdout, rows); err != nil {
		return benchError(e, err)
	}
	if *barriers {
		if err := bench.WriteBarriers(e.stdout, rows); err != nil {
			return benchError(e, err)
		}
	}
	if *svgDir != "" {
		if err := writeCharts(*svgDir, rows); err != nil {
			return cannotError(e, "bench", fmt.Errorf("--svg: %w", err))
		}
	}
	if trace != nil {
		if err := trace.close(); err != nil {
			return cannotError(e, "bench", fmt.Errorf("--trace: %w", err))
		}
	}
	if files[0] != nil {
		if err := writeOutput(files[0], func(w io.Writer) error { return bench.WriteJSON(w, rows) }); err != nil {
			return cannotError(e, "bench", fmt.Errorf("writing %s: %w", *jsonFile, err))
		}
	}
	for _, r := range rows {
		if r.Failed() { // a sample's own declared bug is reported, not failed
			return exitFailed
		}
	}
	return exitOK
}

// benchError reports err, unless it is the standard output that was lost,
// which run reports once (checkedWriter).
func benchError(e *env, err error) int {
	if stdoutLost(e) {
		return exitCannot
	}
	return cannotError(e, "bench", err)
}

// writeCharts writes dir/PROFILE.svg for every profile the rows ran on.
func writeCharts(dir string, rows []bench.Row) error {
	var profiles []string
	for _, r := range rows {
		if !slices.Contains(profiles, r.Profile) {
			profiles = append(profiles, r.Profile)
		}
	}
	for _, p := range profiles {
		f, err := createOutput(filepath.Join(dir, p+".svg"))
		if err != nil {
			return err
		}
		if err := writeOutput(f, func(w io.Writer) error { return bench.WriteSVG(w, p, rows) }); err != nil {
			return err
		}
	}
	return nil
}
