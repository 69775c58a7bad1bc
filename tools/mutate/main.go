// Command mutate measures how many deliberately broken drivers the
// conformance suites catch: it applies one operator mutation at a time to
// the non-test Go files of a package (umd by default; sites.go lists the
// operators), builds ebref with the mutant through go build -overlay (the
// tree is never written), runs `ebref hlk`, and counts the mutant killed
// when the run is not conformant (or does not finish), survived when it is.
// Mutants that do not compile are not scored. It takes minutes per dozen
// mutants, so it is not part of CI; docs/conformance.md has the command and
// the score.
//
// Beside the score it reports the safety-only score: a mutant killed only
// by the reference's cost record (a case that passed but cost more than
// its record) does not count there, since that record judges no other
// driver. A kill by fewer than three distinct cases is flagged thin.
//
// A site in the translator seam (umd/seam.go, umd/reference.go: the code
// `ebref translator serve` runs, which the driver in process never calls)
// that survives the plain run is judged again with every Barrier call
// translated through the mutant's own `ebref translator serve`
// (--translator), so the seam is judged by the same cases.
//
// With --realistic it runs the catalogue of realistic bugs written by hand
// (tools/mutate/realistic, realistic.go) instead of operator mutants, with
// the same two scores.
//
//	go run ./tools/mutate [--pkg umd] [--since REV] [--match RE] [--every K [--offset I]] [--limit N] [--timeout D] [--hlk "ARGS"]
//	go run ./tools/mutate --realistic [--match RE] [--timeout D] [--hlk "ARGS"]
//
// This command imports nothing of ebref: it builds and runs ebref as a
// program.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pkg := fs.String("pkg", "umd", "the package directory to mutate, relative to the module root")
	every := fs.Int("every", 1, "take every K-th mutation site (a sample; 1: all)")
	offset := fs.Int("offset", 0, "with --every K, start at this site (0 to K-1): another sample of the same size")
	match := fs.String("match", "", "only the sites whose line (as --list prints it) matches this regular expression")
	limit := fs.Int("limit", 0, "stop after N mutants (0: no limit)")
	timeout := fs.Duration("timeout", 2*time.Minute, "a mutant whose hlk run takes longer is killed")
	hlkArgs := fs.String("hlk", "", "extra arguments for ebref hlk (e.g. \"--suite hlk,barriers\")")
	list := fs.Bool("list", false, "list the mutation sites and stop")
	since := fs.String("since", "", "only sites on lines changed since this git revision")
	minScore := fs.Float64("min-score", 0, "exit 1 when the score (killed of scored, in %) is below this")
	realistic := fs.Bool("realistic", false, "run the catalogue of realistic bugs (--catalogue) instead of operator mutants")
	catalogue := fs.String("catalogue", filepath.Join("tools", "mutate", "realistic"), "with --realistic, the directory of .bug files, relative to the module root")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *every < 1 || *offset < 0 || *offset >= *every || *limit < 0 || *timeout <= 0 || *minScore < 0 || *minScore > 100 || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "mutate: --every must be at least 1, --offset from 0 to --every less 1, --limit and --timeout not negative, --min-score from 0 to 100, and no arguments")
		return 2
	}
	matchRe, err := regexp.Compile(*match)
	if err != nil {
		fmt.Fprintf(stderr, "mutate: --match: %v\n", err)
		return 2
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	if *realistic {
		return runCatalogue(root, filepath.Join(root, *catalogue), matchRe, *list, *minScore,
			runner{root: root, timeout: *timeout, hlkArgs: strings.Fields(*hlkArgs)}, stdout, stderr)
	}
	all, err := packageSites(root, *pkg)
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	if *since != "" {
		if all, err = changedSince(root, *since, all); err != nil {
			fmt.Fprintf(stderr, "mutate: --since %s: %v\n", *since, err)
			return 2
		}
	}
	all = slices.DeleteFunc(all, func(s site) bool { return !matchRe.MatchString(s.String()) })
	var chosen []site
	for i := *offset; i < len(all); i += *every {
		chosen = append(chosen, all[i])
	}
	if *limit > 0 && len(chosen) > *limit {
		chosen = chosen[:*limit]
	}
	if *list {
		for _, s := range chosen {
			fmt.Fprintln(stdout, s)
		}
		fmt.Fprintf(stdout, "%d sites in %s, %d chosen\n", len(all), *pkg, len(chosen))
		return 0
	}
	tmp, err := os.MkdirTemp("", "ebref-mutate-")
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	r := runner{root: root, tmp: tmp, timeout: *timeout, hlkArgs: strings.Fields(*hlkArgs)}
	if v, detail := r.try(nil); v != survived {
		fmt.Fprintf(stderr, "mutate: the unmutated driver is not conformant (%s): %s\n", v, detail)
		return 1
	}
	fmt.Fprintf(stdout, "mutating %s: %d sites, %d chosen\n", *pkg, len(all), len(chosen))
	counts := map[verdict]int{}
	var safeN, thinN int
	start := time.Now()
	for i, s := range chosen {
		repl, err := s.replace()
		if err != nil {
			fmt.Fprintf(stderr, "mutate: %v\n", err)
			return 1
		}
		v, detail := r.try(repl)
		via := ""
		if v == survived && seamSite(s.Name) {
			if v2, d2 := r.rerun(r.translatorArgs()); v2 == killed {
				v, detail, via = v2, d2, ", through the seam"
			} else {
				detail += "; through the seam too"
			}
		}
		counts[v]++
		label := string(v)
		if v == killed {
			c := r.judge(detail)
			if c.safe {
				safeN++
			}
			if c.safe && c.thin() {
				thinN++
			}
			label = c.label()
			detail = fmt.Sprintf("%d cases by safety%s: %s", c.cases, via, c.first)
		}
		line := fmt.Sprintf("%-9s %s  (%s)", label, s, detail)
		// The running score: a long run shows where it stands.
		fmt.Fprintf(stdout, "[%d/%d %s, safety %s] %s\n", i+1, len(chosen), scoreOf(counts), pct(safeN, counts[killed]+counts[survived]), line)
	}
	scored := counts[killed] + counts[survived]
	score := 0.0
	if scored > 0 {
		score = 100 * float64(counts[killed]) / float64(scored)
	}
	fmt.Fprintf(stdout, "\n%d mutants in %s: %d killed (%d by safety, %d of them thin: fewer than %d cases; %d by the cost record alone), %d survived, %d did not compile;"+
		" score %.1f%%, safety-only %s of %d scored\n",
		len(chosen), time.Since(start).Round(time.Second), counts[killed], safeN, thinN, minSafetyCases, counts[killed]-safeN,
		counts[survived], counts[invalid], score, pct(safeN, scored), scored)
	if score < *minScore {
		fmt.Fprintf(stderr, "mutate: the score %.1f%% is below --min-score %.1f%%\n", score, *minScore)
		return 1
	}
	return 0
}

// scoreOf is the score so far: killed of scored.
func scoreOf(counts map[verdict]int) string {
	scored := counts[killed] + counts[survived]
	if scored == 0 {
		return "score -"
	}
	return fmt.Sprintf("score %.1f%%", 100*float64(counts[killed])/float64(scored))
}

type verdict string

const (
	killed   verdict = "killed"
	survived verdict = "SURVIVED"
	invalid  verdict = "invalid"
)

// runner builds and runs one mutant at a time.
type runner struct {
	root, tmp string
	timeout   time.Duration
	hlkArgs   []string
	// base is each case's packet digest in the unmutated run, to tell a
	// survivor that changes no packet anywhere (equivalent on these
	// profiles, or on code no case reaches) from one whose packets the
	// judge accepted.
	base map[string]string
}

// digests reads a report's packet digest per case and profile.
func digests(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep struct {
		Cases []struct {
			Suite, Case, Profile string
			Packets              string `json:"packets_digest"`
		}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m := make(map[string]string, len(rep.Cases))
	for _, c := range rep.Cases {
		m[c.Suite+"/"+c.Case+"@"+c.Profile] = c.Packets
	}
	return m, nil
}

// survivorDetail says whether a surviving mutant changed any packet.
func (r *runner) survivorDetail(report string) string {
	got, err := digests(report)
	if err != nil {
		return "ebref hlk stays conformant"
	}
	n := 0
	for k, d := range got {
		if r.base[k] != d {
			n++
		}
	}
	if n == 0 {
		return "ebref hlk stays conformant; no case records other packets"
	}
	return fmt.Sprintf("ebref hlk stays conformant; %d cases record other packets", n)
}

// report is where try leaves the last run's JSON report.
func (r *runner) report() string { return filepath.Join(r.tmp, "report.json") }

// replace is the site's file with the mutation in it, by its path.
func (s *site) replace() (map[string][]byte, error) {
	src, err := os.ReadFile(s.File)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{s.File: s.apply(src)}, nil
}

// seamSite reports whether a site's file (relative to the module root) is
// the translator seam's: code only `ebref translator serve` runs.
func seamSite(name string) bool {
	name = filepath.ToSlash(name)
	return name == "umd/seam.go" || name == "umd/reference.go"
}

// translatorArgs are the hlk arguments that translate every Barrier call
// through the last built ebref's own translator server.
func (r *runner) translatorArgs() []string {
	return []string{"--translator", shellQuote(r.bin()) + " translator serve"}
}

// shellQuote quotes s for --translator, which splits its command line as
// a POSIX shell would.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'" }

// bin is where try builds ebref.
func (r *runner) bin() string { return filepath.Join(r.tmp, "ebref") }

// try builds ebref with the files repl replaces (by path; nil: none) and
// runs the suites, whose report it leaves at r.report().
func (r *runner) try(repl map[string][]byte) (verdict, string) {
	var overlay []string
	if len(repl) > 0 {
		m := map[string]string{}
		i := 0
		for path, src := range repl {
			mutant := filepath.Join(r.tmp, fmt.Sprintf("mutant%d.go", i))
			i++
			if err := os.WriteFile(mutant, src, 0o644); err != nil {
				return invalid, err.Error()
			}
			m[path] = mutant
		}
		cfg, _ := json.Marshal(map[string]map[string]string{"Replace": m})
		ov := filepath.Join(r.tmp, "overlay.json")
		if err := os.WriteFile(ov, cfg, 0o644); err != nil {
			return invalid, err.Error()
		}
		overlay = []string{"-overlay", ov}
	}
	bin := r.bin()
	build := exec.Command("go", append(append([]string{"build"}, overlay...), "-o", bin, "./tools/ebref")...)
	build.Dir = r.root
	if out, err := build.CombinedOutput(); err != nil {
		if repl == nil {
			return invalid, "building ebref: " + string(out)
		}
		return invalid, firstError(out)
	}
	return r.hlk(repl == nil, nil)
}

// rerun runs the suites again with the ebref try built last, with extra
// arguments.
func (r *runner) rerun(extra []string) (verdict, string) { return r.hlk(false, extra) }

// hlk runs the built ebref's suites; base: the unmutated run, whose
// packet digests survivors are compared with.
func (r *runner) hlk(base bool, extra []string) (verdict, string) {
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	report := r.report()
	os.Remove(report)
	args := append(append([]string{"hlk", "--json", report}, r.hlkArgs...), extra...)
	cmd := exec.CommandContext(ctx, r.bin(), args...)
	cmd.Dir = r.root
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return killed, "timed out"
	}
	var exit *exec.ExitError
	switch {
	case err == nil && base:
		if r.base, err = digests(report); err != nil {
			return invalid, err.Error()
		}
		return survived, "ebref hlk stays conformant"
	case err == nil:
		return survived, r.survivorDetail(report)
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return killed, lastLine(out)
	default:
		return killed, fmt.Sprintf("ebref hlk: %v: %s", err, lastLine(out))
	}
}

// firstError is the first line of the go command's output that is not a
// "# package" header: the compiler's first complaint.
func firstError(b []byte) string {
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return strings.TrimSpace(string(b))
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// changedSince keeps the sites on lines that git diff REV shows added or
// changed.
func changedSince(root, rev string, all []site) ([]site, error) {
	changed := map[string]map[int]bool{}
	for _, s := range all {
		if changed[s.File] != nil {
			continue
		}
		cmd := exec.Command("git", "diff", "-U0", rev, "--", s.File)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git diff: %w", err)
		}
		changed[s.File] = addedLines(out)
	}
	var keep []site
	for _, s := range all {
		if changed[s.File][s.Line] {
			keep = append(keep, s)
		}
	}
	return keep, nil
}

// addedLines reads a unified diff with no context and returns the new
// file's line numbers its hunks add.
func addedLines(diff []byte) map[int]bool {
	lines := map[int]bool{}
	for _, l := range strings.Split(string(diff), "\n") {
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		// @@ -a,b +c,d @@: lines c .. c+d-1 (d omitted: 1).
		f := strings.Fields(l)
		if len(f) < 3 || !strings.HasPrefix(f[2], "+") {
			continue
		}
		var start, n int
		if k, _ := fmt.Sscanf(f[2], "+%d,%d", &start, &n); k == 1 {
			n = 1
		}
		for i := start; i < start+n; i++ {
			lines[i] = true
		}
	}
	return lines
}

// moduleRoot is the directory of the go.mod the go command uses here.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside a Go module: run from the ebref checkout")
	}
	return filepath.Dir(mod), nil
}

// packageSites lists the mutation sites of the non-test Go files of the
// directory pkg under root, file by file in name order.
func packageSites(root, pkg string) ([]site, error) {
	dir := filepath.Join(root, pkg)
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []site
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		ss, err := sites(n, src, skipFunc)
		if err != nil {
			return nil, err
		}
		for i := range ss {
			ss[i].Name, _ = filepath.Rel(root, n)
		}
		out = append(out, ss...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no Go files with mutation sites", dir)
	}
	return out, nil
}
