package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// A bug is one entry of the catalogue of realistic driver bugs
// (tools/mutate/realistic/*.bug, whose README gives the format): a
// mistake a driver author could make, with the class it stands for and
// the text it replaces in one or more files of the tree.
type bug struct {
	Name  string // the file's name without .bug
	Class string
	Note  string
	Edits []edit
}

// An edit replaces the one occurrence of Old in File (relative to the
// module root) with New.
type edit struct {
	File     string
	Old, New string
	Line     int // of the <<< in the .bug file
}

// parseBug reads one .bug file.
func parseBug(name string, src []byte) (*bug, error) {
	b := &bug{Name: strings.TrimSuffix(filepath.Base(name), ".bug")}
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	var file string
	var note []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "class:") && b.Class == "" && file == "":
			b.Class = strings.TrimSpace(strings.TrimPrefix(l, "class:"))
		case strings.HasPrefix(l, "--- "):
			file = strings.TrimSpace(strings.TrimPrefix(l, "--- "))
			if file == "" || filepath.IsAbs(file) || strings.Contains(file, "..") {
				return nil, fmt.Errorf("%s:%d: a file section names a path inside the module", name, i+1)
			}
		case l == "<<<":
			if file == "" {
				return nil, fmt.Errorf("%s:%d: <<< before any --- FILE line", name, i+1)
			}
			e := edit{File: file, Line: i + 1}
			var old, repl []string
			j := i + 1
			for ; j < len(lines) && lines[j] != "==="; j++ {
				old = append(old, lines[j])
			}
			k := j + 1
			for ; k < len(lines) && lines[k] != ">>>"; k++ {
				repl = append(repl, lines[k])
			}
			if j >= len(lines) || k >= len(lines) {
				return nil, fmt.Errorf("%s:%d: a <<< block without its === and >>>", name, i+1)
			}
			e.Old, e.New = strings.Join(old, "\n"), strings.Join(repl, "\n")
			if strings.TrimSpace(e.Old) == "" {
				return nil, fmt.Errorf("%s:%d: a block replaces no text", name, i+1)
			}
			b.Edits = append(b.Edits, e)
			i = k
		case file == "" && b.Class != "":
			note = append(note, l)
		}
	}
	b.Note = strings.TrimSpace(strings.Join(note, "\n"))
	switch {
	case b.Class == "":
		return nil, fmt.Errorf("%s: no class: line", name)
	case len(b.Edits) == 0:
		return nil, fmt.Errorf("%s: no edit", name)
	}
	return b, nil
}

// loadCatalogue reads every .bug file of dir, in name order.
func loadCatalogue(dir string) ([]*bug, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.bug"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no .bug files", dir)
	}
	var out []*bug
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		b, err := parseBug(n, src)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// errStale is a bug whose text the tree no longer holds as written.
var errStale = errors.New("does not apply")

// apply returns each file the bug changes (by its path under root) with
// the bug in it.
func (b *bug) apply(root string) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, e := range b.Edits {
		path := filepath.Join(root, e.File)
		src, ok := out[path]
		if !ok {
			var err error
			if src, err = os.ReadFile(path); err != nil {
				return nil, err
			}
		}
		if n := bytes.Count(src, []byte(e.Old)); n != 1 {
			return nil, fmt.Errorf("%w: the block at %s.bug:%d occurs %d times in %s (once expected)", errStale, b.Name, e.Line, n, e.File)
		}
		out[path] = bytes.Replace(src, []byte(e.Old), []byte(e.New), 1)
	}
	return out, nil
}

func (b *bug) String() string { return fmt.Sprintf("%s (%s)", b.Name, b.Class) }

// minSafetyCases is how many distinct cases must catch a mutant or bug by
// safety for the catch not to be thin: a case edited for another reason
// can lose a single catch (hlk.MinCatches, for the driver's own faults).
const minSafetyCases = 3

// A catch is how a killed run's report failed.
type catch struct {
	safe  bool   // some case failed by safety
	first string // the first such case, or else the first that failed on cost
	cases int    // the distinct cases (suite/case, on any profile) that failed by safety
}

// thin reports whether fewer than minSafetyCases cases caught it by safety.
func (c catch) thin() bool { return c.cases < minSafetyCases }

// label is a killed verdict's word: killed, killed but thin, or COST-ONLY.
func (c catch) label() string {
	switch {
	case !c.safe:
		return "COST-ONLY"
	case c.thin():
		return "thin"
	}
	return "killed"
}

// readCatch reads a killed run's report: whether some case failed by
// safety (a status that is not conformant and not only the cost record's
// bound), the first such case, or else the first that failed on cost, and
// how many distinct cases failed by safety.
func readCatch(report string) (catch, error) {
	data, err := os.ReadFile(report)
	if err != nil {
		return catch{}, err
	}
	var rep struct {
		Cases []struct {
			Suite, Case, Profile, Status string
			Messages                     []string
			Costlier                     bool
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return catch{}, fmt.Errorf("%s: %w", report, err)
	}
	var out catch
	cost := ""
	seen := map[string]bool{}
	for _, c := range rep.Cases {
		if c.Status == "Pass" || c.Status == "NotSupported" || c.Status == "Skipped" {
			continue
		}
		first := ""
		if len(c.Messages) > 0 {
			first = c.Messages[0]
		}
		what := fmt.Sprintf("%s/%s on %s: %s", c.Suite, c.Case, c.Profile, first)
		if !c.Costlier {
			if !out.safe {
				out.safe, out.first = true, what
			}
			if path := c.Suite + "/" + c.Case; !seen[path] {
				seen[path] = true
				out.cases++
			}
			continue
		}
		if cost == "" {
			cost = what
		}
	}
	if !out.safe {
		out.first = cost
	}
	return out, nil
}

// judge reads the report of a run try called killed: its catch, or, when
// the run left no report or no failing case (it did not finish, or
// crashed), a safety catch by the run itself, which is no cost verdict.
func (r *runner) judge(detail string) catch {
	c, err := readCatch(r.report())
	if err != nil || c.first == "" {
		return catch{safe: true, first: detail, cases: minSafetyCases}
	}
	return c
}

// runCatalogue runs every bug of the catalogue in dir whose line matches
// match, as run does operator mutants, and reports the score and the
// safety-only score.
func runCatalogue(root, dir string, match interface{ MatchString(string) bool }, list bool, minScore float64, r runner,
	stdout, stderr io.Writer) int {
	all, err := loadCatalogue(dir)
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	var chosen []*bug
	for _, b := range all {
		if match.MatchString(b.String()) {
			chosen = append(chosen, b)
		}
	}
	if list {
		for _, b := range chosen {
			fmt.Fprintln(stdout, b)
		}
		fmt.Fprintf(stdout, "%d bugs in the catalogue, %d chosen\n", len(all), len(chosen))
		return 0
	}
	if r.tmp, err = os.MkdirTemp("", "ebref-mutate-"); err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 1
	}
	defer os.RemoveAll(r.tmp)
	if v, detail := r.try(nil); v != survived {
		fmt.Fprintf(stderr, "mutate: the unmodified driver is not conformant (%s): %s\n", v, detail)
		return 1
	}
	fmt.Fprintf(stdout, "the realistic catalogue: %d bugs, %d chosen\n", len(all), len(chosen))
	var killedN, safeN, thinN, survivedN, stale, broken int
	start := time.Now()
	for i, b := range chosen {
		repl, err := b.apply(root)
		var v verdict
		var detail string
		switch {
		case errors.Is(err, errStale):
			v, detail = invalid, err.Error()
			stale++
		case err != nil:
			fmt.Fprintf(stderr, "mutate: %s: %v\n", b.Name, err)
			return 1
		default:
			v, detail = r.try(repl)
		}
		label := string(v)
		switch v {
		case killed:
			killedN++
			c := r.judge(detail)
			if c.safe {
				safeN++
			}
			if c.safe && c.thin() {
				thinN++
				detail = fmt.Sprintf("%s (only %d cases by safety)", c.first, c.cases)
			} else {
				detail = c.first
			}
			label = c.label()
		case survived:
			survivedN++
		case invalid:
			if !errors.Is(err, errStale) {
				broken++
			}
		}
		scored := killedN + survivedN
		fmt.Fprintf(stdout, "[%d/%d %s, safety %s] %-9s %s: %s\n", i+1, len(chosen), pct(killedN, scored), pct(safeN, scored), label, b, detail)
	}
	scored := killedN + survivedN
	fmt.Fprintf(stdout, "\n%d bugs in %s: %d killed (%d by safety, %d of them thin: fewer than %d cases; %d by the cost record alone), %d survived, %d did not apply, %d did not compile;"+
		" score %s, safety-only %s of %d scored\n",
		len(chosen), time.Since(start).Round(time.Second), killedN, safeN, thinN, minSafetyCases, killedN-safeN, survivedN, stale, broken,
		pct(killedN, scored), pct(safeN, scored), scored)
	if scored > 0 && 100*float64(killedN)/float64(scored) < minScore {
		fmt.Fprintf(stderr, "mutate: the score %s is below --min-score %.1f%%\n", pct(killedN, scored), minScore)
		return 1
	}
	return 0
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}
