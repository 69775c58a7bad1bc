package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

func runHLK(e *env, args []string) (code int) {
	if len(args) > 0 && args[0] == "merge" {
		return runMerge(e, args[1:])
	}
	const synopsis = "[flags] | merge REPORT.json... [--json F] [--junit F]\n\n" +
		"Runs the conformance suites (hlk/suites and the ones generated from the spec's\n" +
		"tables) against the reference driver on every profile and prints a summary.\n" +
		"Exit status: 0 when the run is conformant (every case Pass, NotSupported or\n" +
		"Skipped; with --baseline, when no failure is new; with --mutation, when every\n" +
		"fault is caught), 1 when it is not, 2 on a usage error. `ebref hlk merge` joins the JSON reports of a sharded run.\n" +
		"See docs/conformance.md."
	fs := flag.NewFlagSet("hlk", flag.ContinueOnError)
	profiles := fs.String("profile", "", "comma-separated profiles to run on (default: all)")
	profileFiles := addProfileFileFlag(fs)
	suites := fs.String("suite", "", "comma-separated suites to run (a name or a prefix such as rules; default: all)")
	runRe := fs.String("run", "", "run only the cases whose suite/case path matches this regular expression")
	jobs := fs.Int("jobs", 0, fmt.Sprintf("cases to run in parallel (default: the number of CPUs; with --translator, %d times that, and copies of the translator, %d a CPU, at most %d and never more than the cases)", translator.JobsPerCPU, translator.CopiesPerCPU, translator.MaxInstances))
	shard := fs.String("shard", "", "run shard K of N (K/N) of the selected cases (default: the CI system's, from the environment)")
	shardCount := fs.Int("shard-count", 0, "how many shards a Kubernetes Indexed Job has (its JOB_COMPLETION_INDEX names the shard)")
	caselist := fs.String("caselist", "", "run only the cases this file lists, one suite/case,profile a line (what --list prints)")
	rerun := fs.String("rerun-failed", "", "run only the cases that did not pass in this JSON report")
	baseline := fs.String("baseline", "", "known failures, one suite/case,profile,status a line: the run fails only on a failure the baseline does not list")
	flakes := fs.String("flakes", "", "known flaky cases, one regular expression a line: one that does not pass is run once more")
	writeBaseline := fs.String("write-baseline", "", "write this run's failures to this file as a baseline")
	failOnFixed := fs.Bool("fail-on-unexpected-pass", false, "with --baseline: a case the baseline lists that now passes fails the run too")
	inject := fs.String("inject", "", "inject one of the driver's faults ("+strings.Join(umd.FaultNames(), ", ")+")")
	mutation := fs.Bool("mutation", false, "run once per fault and show which cases catch each; fail if a fault is not caught")
	jsonOut := fs.String("json", "", "write the JSON report to this file")
	junitOut := fs.String("junit", "", "write a JUnit XML report to this file")
	timeout := fs.Duration("timeout", 30*time.Second, "time limit per case")
	list := fs.Bool("list", false, "list the selected cases and stop")
	emit := fs.String("emit", "", "write every suite's scenario files (generated ones included) under this directory and stop")
	quiet := fs.Bool("quiet", false, "no progress line")
	random := fs.Int("random", hlk.DefaultRandom, "random programs in the suite random (each a case, and its negative form another), and a quarter as many in random-legacy and random-validation")
	seed := fs.Uint64("seed", hlk.DefaultRandomSeed, "the first random program's seed (the others follow it)")
	shrinkDir := fs.String("shrink-dir", "",
		"where failing random programs are written, shrunk to a minimal scenario (default: a new private directory in the temporary directory)")
	tf := addTranslatorFlags(fs)
	writeCosts := fs.String("write-costs", "", "run the default suites without a cost bound and write their cost to this file as the reference driver's record (hlk/costs/reference.txt)")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(e, fs, synopsis, "unexpected argument %q", pos[0])
	}
	if *writeCosts != "" {
		// A record is of the default run: a part of it would drop the
		// rows of the rest.
		var set []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "write-costs", "jobs", "timeout", "quiet":
			default:
				set = append(set, "--"+f.Name)
			}
		})
		if len(set) > 0 {
			return usageError(e, fs, synopsis, "--write-costs records the default run; it does not take %s", strings.Join(set, ", "))
		}
	}
	if *random < 0 || *random > maxRandom {
		return usageError(e, fs, synopsis, "--random %d: want 0 to %d", *random, maxRandom)
	}
	all, err := hlk.SuitesFor(*random, *seed)
	if err != nil {
		return inputError(e, "hlk", err)
	}
	if *emit != "" {
		return emitSuites(e, all, *emit)
	}
	switch {
	case *jobs < 0 || *jobs > maxJobs:
		return usageError(e, fs, synopsis, "--jobs %d: want 0 (the default: one case a CPU, or %d a CPU with --translator) to %d", *jobs, translator.JobsPerCPU, maxJobs)
	case *timeout <= 0:
		return usageError(e, fs, synopsis, "--timeout %v: want a positive duration", *timeout)
	}
	c := hlk.Config{Driver: reference.Driver, Suites: all, Jobs: *jobs, Inject: *inject, Timeout: *timeout}
	if *tf.cmd != "" && *writeCosts != "" {
		return usageError(e, fs, synopsis, "--write-costs records the reference driver; it does not take --translator")
	}
	if *profiles != "" || len(*profileFiles) > 0 {
		if c.Profiles, err = selectProfiles(*profiles, *profileFiles); err != nil {
			return profilesError(e, fs, synopsis, err)
		}
	}
	if *suites != "" {
		c.Only = strings.Split(*suites, ",")
	}
	if *runRe != "" {
		if c.Run, err = regexp.Compile(*runRe); err != nil {
			return usageError(e, fs, synopsis, "--run: %v", err)
		}
	}
	if *shard != "" {
		k, n, ok := strings.Cut(*shard, "/")
		ki, err1 := strconv.Atoi(k)
		ni, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || ni < 1 || ki < 1 || ki > ni {
			return usageError(e, fs, synopsis, "--shard %q: expected K/N with 1 <= K <= N", *shard)
		}
		c.Shard, c.Shards = ki, ni
	} else {
		if *shardCount < 0 {
			return usageError(e, fs, synopsis, "--shard-count %d: want a positive count", *shardCount)
		}
		k, n, said, err := shardFromEnv(os.Getenv, *shardCount)
		if err != nil {
			return usageError(e, fs, synopsis, "%v", err)
		}
		if n > 0 {
			fmt.Fprintf(e.stderr, "ebref hlk: %s\n", said)
			c.Shard, c.Shards = k, n
			if err := touchShardStatus(os.Getenv); err != nil {
				return cannotError(e, "hlk", err)
			}
		}
	}
	switch {
	case *caselist != "" && *rerun != "":
		return usageError(e, fs, synopsis, "--caselist and --rerun-failed: choose one")
	case *caselist != "":
		r, err := readList(e, *caselist, "caselist")
		if err == nil {
			c.Caselist, err = hlk.ReadCaselist(r, *caselist)
		}
		if err != nil {
			return inputError(e, "hlk", err)
		}
	case *rerun != "":
		data, err := readInput(e.stdin, *rerun, "JSON report", maxReportBytes)
		var rep *hlk.Report
		if err == nil {
			rep, err = hlk.ReadJSON(bytes.NewReader(data))
		}
		if err == nil {
			c.Caselist, err = hlk.FailedCaselist(rep, *rerun)
		}
		if err != nil {
			return inputError(e, "hlk", fmt.Errorf("--rerun-failed %s: %w", *rerun, err))
		}
	}
	base, err := readBaseline(e, *baseline)
	if err != nil {
		return inputError(e, "hlk", err)
	}
	if *failOnFixed && base == nil {
		return usageError(e, fs, synopsis, "--fail-on-unexpected-pass judges against a baseline: it needs --baseline")
	}
	if *flakes != "" {
		r, err := readList(e, *flakes, "flakes file")
		if err == nil {
			c.Flakes, err = hlk.ReadFlakes(r, *flakes)
		}
		if err != nil {
			return inputError(e, "hlk", err)
		}
	}
	if *list {
		return listCases(e, all, c)
	}
	if *writeCosts != "" {
		c.AnyCost = true
		if fi, err := os.Stat(*writeCosts); err == nil && !fi.Mode().IsRegular() {
			return usageError(e, fs, synopsis, "--write-costs: %s is not a regular file; a record replaces a file", *writeCosts)
		}
	}
	// An interrupt stops the run between cases; no report of a part is
	// written as if it were the run, and the old reports stay.
	ctx, stop := interruptible()
	defer stop()
	// Every output is made first (beside its path, renamed over it when
	// whole), so a path that cannot be written fails before the run and a
	// failed write leaves the old file.
	files, cleanup, err := createOutputs([]namedPath{{"the caselist", *caselist}, {"the report", *rerun}, {"the baseline", *baseline}, {"the flakes file", *flakes}},
		[]namedPath{{"--json", *jsonOut}, {"--junit", *junitOut}, {"--write-costs", *writeCosts}, {"--write-baseline", *writeBaseline}})
	if err != nil {
		return outputsError(e, fs, synopsis, err)
	}
	defer cleanup()
	planned, err := hlk.Plan(c)
	if err != nil {
		return usageError(e, fs, synopsis, "%v", err)
	}
	if len(planned) == 0 {
		whole := c
		whole.Shard, whole.Shards = 0, 0
		if all, err := hlk.Plan(whole); err != nil || len(all) == 0 {
			// As 'ebref run' does: nothing to run is a usage error, not a
			// failed run.
			fmt.Fprintln(e.stderr, "ebref hlk: no case matches the selection (--suite, --run, --caselist, --profile)")
			return exitUsage
		}
		// A matrix wider than the selection: this shard's share is
		// empty, and its empty report is what merge expects of it.
		fmt.Fprintf(e.stderr, "ebref hlk: shard %d/%d of the selection's cases is empty\n", c.Shard, c.Shards)
	}
	prog := newProgress(e, "hlk", *quiet)
	bad := 0
	c.Progress = func(done, total int, cr *hlk.CaseResult) {
		if !cr.Status.Conformant() {
			bad++
		}
		prog.step(done, total, bad, fmt.Sprintf("%s %s on %s", cr.Status, cr.Path(), cr.Profile))
	}
	tf.instances = min(*jobs, translator.DefaultInstances()) // no more copies than cases; 0: the default
	proc, code := tf.start(e, "hlk")
	if code != exitOK {
		return code
	}
	if proc != nil {
		defer func() { code = tf.done(e, "hlk", proc, code) }() // no translator process outlives the run
		c.Driver = reference.WithTranslator(proc)
		// A translator that cannot be started again stops the run: the
		// cases left are not run, and the run says why and exits 2.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		progress := c.Progress
		c.Progress = func(done, total int, cr *hlk.CaseResult) {
			if proc.Fatal() != nil {
				cancel()
			}
			if progress != nil {
				progress(done, total, cr)
			}
		}
		defer func() {
			if err := proc.Fatal(); err != nil {
				fmt.Fprintf(e.stderr, "ebref hlk: the run stopped: %v\n", err)
				code = exitCannot
			}
		}()
	}
	start := time.Now()
	if *mutation {
		base, rows, err := hlk.Mutation(ctx, c)
		if err != nil {
			return usageError(e, fs, synopsis, "%v", err)
		}
		if code := writeReports(e, base, files[0], files[1]); code != 0 {
			return code
		}
		fmt.Fprintf(e.stdout, "mutation run: %d cases per fault, %d faults, %.1f s\n\n", len(base.Cases), len(rows), time.Since(start).Seconds())
		hlk.WriteMutation(e.stdout, rows)
		if !base.Conformant() {
			fmt.Fprintln(e.stdout, "\nthe run without a fault is not conformant:")
			hlk.WriteSummary(e.stdout, base)
			return exitFailed
		}
		if !hlk.AllCaught(rows) || !hlk.NoneFragile(rows) {
			return exitFailed
		}
		return exitOK
	}
	rep, err := hlk.Execute(ctx, c)
	if proc != nil && proc.Fatal() != nil {
		return exitCannot // the deferred line says why
	}
	if ctx.Err() != nil {
		return cannotError(e, "hlk", fmt.Errorf("%w: no report written", errInterrupted))
	}
	if err != nil {
		return usageError(e, fs, synopsis, "%v", err)
	}
	if files[2] != nil {
		return writeCostRecord(e, rep, files[2], *writeCosts)
	}
	if base != nil {
		judgeBaseline(e, rep, base, hlk.Known(c), *failOnFixed)
	}
	hlk.WriteSummary(e.stdout, rep)
	fmt.Fprintf(e.stdout, "%.1f s on %d jobs\n", time.Since(start).Seconds(), hlk.Jobs(c))
	if code := writeReports(e, rep, files[0], files[1]); code != 0 {
		return code
	}
	if files[3] != nil {
		if err := writeOutput(files[3], func(w io.Writer) error { return hlk.WriteBaseline(w, rep) }); err != nil {
			return cannotError(e, "hlk", fmt.Errorf("--write-baseline: %w", err))
		}
	}
	if !rep.Conformant() {
		shrinkFailures(e, c, rep, *shrinkDir)
	}
	return verdictCode(rep)
}

// readBaseline reads --baseline's file, nil for none.
func readBaseline(e *env, path string) (*hlk.Baseline, error) {
	if path == "" {
		return nil, nil
	}
	r, err := readList(e, path, "baseline")
	if err != nil {
		return nil, err
	}
	return hlk.ReadBaseline(r, path)
}

// judgeBaseline judges a run against a baseline, into its summary; lines
// naming no case of the run are warnings.
func judgeBaseline(e *env, rep *hlk.Report, base *hlk.Baseline, known map[hlk.CaseRef]bool, failOnFixed bool) {
	o := base.Judge(rep, known, failOnFixed)
	for _, u := range o.Unknown {
		fmt.Fprintf(e.stderr, "ebref hlk: warning: %s\n", u)
	}
	rep.Summary.Baseline = &o
}

// verdictCode is a run's exit status: with a baseline, 0 when it passes
// the baseline; without, 0 when conformant; an empty shard is 0.
func verdictCode(rep *hlk.Report) int {
	switch {
	case rep.Summary != nil && rep.Summary.Baseline != nil:
		if rep.Summary.Baseline.Pass {
			return exitOK
		}
	case rep.Conformant(), len(rep.Cases) == 0 && len(rep.Environment.Shards) == 1:
		return exitOK
	}
	return exitFailed
}

// writeCostRecord writes a run's cost as a record to path, through out.
func writeCostRecord(e *env, rep *hlk.Report, out *outputFile, path string) int {
	if !rep.Conformant() {
		hlk.WriteSummary(e.stdout, rep)
		fmt.Fprintf(e.stderr, "ebref hlk: --write-costs: the run is not conformant; %s is left as it was\n", path)
		return exitFailed
	}
	if err := writeOutput(out, func(w io.Writer) error { return hlk.WriteCostRecord(w, rep) }); err != nil {
		return cannotError(e, "hlk", fmt.Errorf("--write-costs: %w", err))
	}
	fmt.Fprintf(e.stdout, "recorded the cost of the %d cases of a conformant run in %s\n", len(rep.Cases), path)
	return 0
}

// maxRandom bounds --random: the suite is generated and parsed before it
// runs (10000 programs: about 0.8 GB); a longer run is several seed ranges.
const maxRandom = 10000

// maxShrinks is how many failing random programs a run shrinks.
const maxShrinks = 3

// shrinkFailures writes the first failing random programs (suites random,
// random-legacy, random-validation), shrunk to
// minimal scenarios, under dir and prints their paths.
func shrinkFailures(e *env, c hlk.Config, rep *hlk.Report, dir string) {
	done := map[string]bool{} // once per case, on the first profile it fails on
	for _, cr := range rep.Cases {
		// A crash or a timeout is not shrunk: the shrinker reruns the case
		// many times, in this process and without a recover.
		// A case that fails on cost alone is not shrunk either: the
		// shrinker judges correctness, which it keeps.
		if !strings.HasPrefix(cr.Suite, "random") || cr.Status != hlk.Fail || cr.Costlier || done[cr.Case] || len(done) == maxShrinks {
			continue
		}
		done[cr.Case] = true
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		text, err := hlk.ShrinkCase(ctx, c, cr)
		cancel()
		if err == nil && dir == "" {
			// A directory of its own, made for this run: a fixed shared
			// path in /tmp is one anyone can make first, or fill with links.
			dir, err = os.MkdirTemp("", "ebref-shrunk-*")
		}
		if err == nil {
			err = os.MkdirAll(dir, 0o755)
		}
		name := strings.TrimSuffix(cr.Case, ".ebs")
		if cr.Suite != "random" { // random-legacy, random-validation: their seeds are the suite random's too
			name = cr.Suite + "-" + name
		}
		path := filepath.Join(dir, name+"-"+cr.Profile+".ebs")
		if err == nil {
			err = writeNoFollow(path, []byte(fmt.Sprintf("# %s on %s, shrunk by ebref hlk\nprofiles %s\n%s", cr.Case, cr.Profile, cr.Profile, text)))
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "ebref hlk: shrinking %s on %s: %v\n", cr.Path(), cr.Profile, err)
			continue
		}
		fmt.Fprintf(e.stdout, "shrunk %s on %s: %s\n", cr.Path(), cr.Profile, path)
	}
}

// maxJobs bounds --jobs: cases run in goroutines that share two cores; more
// than this buys nothing and costs memory.
const maxJobs = 1024

// writeReports writes the JSON and JUnit reports to the outputs made for
// them (nil for none).
func writeReports(e *env, rep *hlk.Report, jsonOut, junitOut *outputFile) int {
	for _, w := range []struct {
		out   *outputFile
		write func(io.Writer, *hlk.Report) error
	}{{jsonOut, hlk.WriteJSON}, {junitOut, hlk.WriteJUnit}} {
		if w.out == nil {
			continue
		}
		if err := writeOutput(w.out, func(f io.Writer) error { return w.write(f, rep) }); err != nil {
			return cannotError(e, "hlk", fmt.Errorf("writing %s: %w", w.out.path, err))
		}
	}
	return 0
}

func runMerge(e *env, args []string) int {
	const synopsis = "REPORT.json... [--json F] [--junit F] [--baseline F [--fail-on-unexpected-pass]] [--profile-file F...]\n\nJoins the JSON reports of a sharded run, prints the summary and writes the\nmerged reports; with --baseline, judges the merged run against it. A run on\nprofiles from files merges given the same files (--profile-file, compared by\ndigest). Exit status: 0 when the merged run is conformant, 1 when not, 2 on a\nusage error or an unreadable report."
	fs := flag.NewFlagSet("hlk merge", flag.ContinueOnError)
	var profileFiles profileFileFlag
	fs.Var(&profileFiles, "profile-file", "a profile file the shards ran on (as ebref hlk --profile-file); repeatable")
	jsonOut := fs.String("json", "", "write the merged JSON report to this file")
	junitOut := fs.String("junit", "", "write the merged JUnit XML report to this file")
	baseline := fs.String("baseline", "", "known failures (as ebref hlk --baseline): the merged run fails only on a failure the baseline does not list")
	failOnFixed := fs.Bool("fail-on-unexpected-pass", false, "with --baseline: a case the baseline lists that now passes fails the run too")
	pos, code, ok := parseFlags(e, fs, synopsis, args)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		return usageError(e, fs, synopsis, "expected JSON reports to merge")
	}
	if _, err := selectProfiles("", profileFiles); err != nil {
		return profilesError(e, fs, synopsis, err)
	}
	inputs := make([]namedPath, len(pos))
	for i, p := range pos {
		inputs[i] = namedPath{"a report", p}
	}
	base, err := readBaseline(e, *baseline)
	if err != nil {
		return inputError(e, "hlk merge", err)
	}
	inputs = append(inputs, namedPath{"the baseline", *baseline})
	if *failOnFixed && base == nil {
		return usageError(e, fs, synopsis, "--fail-on-unexpected-pass judges against a baseline: it needs --baseline")
	}
	files, cleanup, err := createOutputs(inputs, []namedPath{{"--json", *jsonOut}, {"--junit", *junitOut}})
	if err != nil {
		return outputsError(e, fs, synopsis, err)
	}
	defer cleanup()
	var reps []*hlk.Report
	for _, p := range pos {
		data, err := readInput(e.stdin, p, "JSON report", maxReportBytes)
		if err != nil {
			fmt.Fprintf(e.stderr, "ebref hlk merge: %v\n", err)
			return exitUsage
		}
		r, err := hlk.ReadJSON(bytes.NewReader(data))
		if err != nil {
			fmt.Fprintf(e.stderr, "ebref hlk merge: %s: %v\n", p, err)
			return exitUsage
		}
		reps = append(reps, r)
	}
	merged, err := hlk.Merge(reps...)
	if err != nil {
		fmt.Fprintf(e.stderr, "ebref hlk merge: %v\n", err)
		return exitUsage
	}
	if base != nil {
		suites, err := hlk.SuitesFor(merged.Environment.Random, merged.Environment.Seed)
		if err != nil {
			return inputError(e, "hlk merge", err)
		}
		judgeBaseline(e, merged, base, hlk.Known(hlk.Config{Suites: suites, Profiles: merged.Environment.Profiles}), *failOnFixed)
	}
	hlk.WriteSummary(e.stdout, merged)
	if code := writeReports(e, merged, files[0], files[1]); code != 0 {
		return code
	}
	return verdictCode(merged)
}

// listCases prints the selected cases as a caselist (suite/case,profile a
// line, which --caselist reads back), and their count on stderr.
func listCases(e *env, all []hlk.Suite, c hlk.Config) int {
	rep, err := hlk.Plan(c)
	if err != nil {
		fmt.Fprintf(e.stderr, "ebref hlk: %v\n", err)
		return exitUsage
	}
	if err := hlk.WriteCaselist(e.stdout, rep); err != nil {
		return cannotError(e, "hlk", err)
	}
	fmt.Fprintf(e.stderr, "ebref hlk: %d cases\n", len(rep))
	return 0
}

// emitSuites writes every suite's files under dir/SUITE/.
func emitSuites(e *env, all []hlk.Suite, dir string) int {
	n := 0
	for _, s := range all {
		for _, f := range slices.Sorted(maps.Keys(s.Files)) {
			p := filepath.Join(dir, filepath.FromSlash(s.Name), f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return cannotError(e, "hlk", err)
			}
			if err := os.WriteFile(p, []byte(s.Files[f]), 0o644); err != nil {
				return cannotError(e, "hlk", err)
			}
			n++
		}
	}
	fmt.Fprintf(e.stdout, "wrote %d scenario files under %s\n", n, dir)
	return 0
}

func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
