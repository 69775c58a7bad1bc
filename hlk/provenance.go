package hlk

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ebref/ebref/hwmodel"
)

// What a report proves about the run that wrote it, and how a merge checks
// that its shards are one whole run (issue 32): the report records its
// selection, the digest of the suites it planned from, the build that ran
// it and how many cases it planned; WriteJSON seals environment and cases
// with a digest that ReadJSON checks. The digest catches mistakes (a case
// edited by hand, a file cut short, two reports pasted together); it is not
// a signature and no security control: anyone can recompute it.

// BuildID identifies the running build: a SHA-256 of the executable and
// the Go version, so two builds differ even when both call themselves
// "(devel)" (-buildvcs=false). Where the executable cannot be read, it is
// a digest of what decides a run's plan and verdicts: the embedded suites
// and the reference's cost record.
func BuildID() string { return buildID() }

var buildID = sync.OnceValue(func() string {
	h := sha256.New()
	io.WriteString(h, runtime.Version())
	if exe, err := os.Executable(); err == nil {
		if f, err := os.Open(exe); err == nil {
			_, err = io.Copy(h, f)
			f.Close()
			if err == nil {
				return "exe-sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
			}
		}
	}
	h.Reset()
	io.WriteString(h, runtime.Version())
	io.WriteString(h, referenceCosts)
	fs.WalkDir(suitesFS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(suitesFS, p)
			fmt.Fprintf(h, "%s %d\n", p, len(b))
			h.Write(b)
		}
		return nil
	})
	return "embedded-sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
})

// SuitesDigest is a digest of a suite set: every suite's name, its cases'
// names in order and its files' text. A merge rebuilds the plan from the
// suites only when their digest is the one its reports record.
func SuitesDigest(suites []Suite) string {
	h := sha256.New()
	for _, s := range suites {
		fmt.Fprintf(h, "suite %q %d\n", s.Name, len(s.Cases))
		for _, c := range s.Cases {
			fmt.Fprintf(h, "case %q\n", c.Name())
		}
		for _, f := range slices.Sorted(maps.Keys(s.Files)) {
			fmt.Fprintf(h, "file %q %d\n", f, len(s.Files[f]))
			io.WriteString(h, s.Files[f])
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// reportDigest seals a report's environment, summary and cases, in their canonical
// JSON (as encoding/json writes them: fields in order, map keys sorted).
func reportDigest(r *Report) (string, error) {
	cases := r.Cases
	if cases == nil {
		cases = []CaseResult{} // as ReadJSON reads "null"
	}
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(struct {
		Environment Environment  `json:"environment"`
		Summary     *Summary     `json:"summary"`
		Cases       []CaseResult `json:"cases"`
	}{r.Environment, r.Summary, cases}); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// Merge joins the reports of a sharded run: the cases of all, in suite,
// case and profile order, and the shards they came from. The reports must
// be the shards of one run: the same build, Go version, driver,
// injection, cost bound, suites and selection, each sharded K/N with the
// same N, every K from 1 to N exactly once; and each must hold exactly the
// cases its selection plans for its shard, which Merge rebuilds from the
// suites the reports record (SuitesFor of their random count and seed,
// whose digest must be theirs). A set with a shard missing, cut short or
// edited, or of two runs, is an error that names what differs or is
// missing, never a smaller conformant run.
func Merge(reports ...*Report) (*Report, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("hlk: nothing to merge")
	}
	base := reports[0].Environment
	out := &Report{Environment: base}
	out.Environment.Shards = nil
	out.Environment.Planned = 0
	shards := map[int]int{} // K -> report
	total := 0
	for i, r := range reports {
		e := r.Environment
		for _, d := range []struct{ what, a, b string }{
			{"build", e.Build, base.Build}, {"Go version", e.Go, base.Go},
			{"version", e.Version, base.Version}, {"driver", e.Driver, base.Driver}, {"injected fault", e.Inject, base.Inject},
			{"profiles", strings.Join(e.Profiles, ","), strings.Join(base.Profiles, ",")},
			{"suites", strings.Join(e.Only, ","), strings.Join(base.Only, ",")}, {"case filter", e.Run, base.Run},
			{"random programs", fmt.Sprintf("%d from seed %d", e.Random, e.Seed), fmt.Sprintf("%d from seed %d", base.Random, base.Seed)},
			{"suite digest", e.Suites, base.Suites},
			{"caselist", fmt.Sprint(e.CaselistName, e.Caselist), fmt.Sprint(base.CaselistName, base.Caselist)},
			{"flakes", strings.Join(e.Flakes, "\n"), strings.Join(base.Flakes, "\n")},
			{"cost bound", e.CostBound, base.CostBound},
			{"profile files", fmt.Sprint(e.ProfileFiles), fmt.Sprint(base.ProfileFiles)},
		} {
			if d.a != d.b {
				return nil, fmt.Errorf("hlk: report %d is of %s %q, report 0 of %q: not shards of one run", i, d.what, d.a, d.b)
			}
		}
		if len(e.Shards) != 1 {
			return nil, fmt.Errorf("hlk: report %d is not one shard (shards %v): only the shards of one run merge", i, e.Shards)
		}
		var k, n int
		if _, err := fmt.Sscanf(e.Shards[0], "%d/%d", &k, &n); err != nil || k < 1 || k > n || e.Shards[0] != fmt.Sprintf("%d/%d", k, n) {
			return nil, fmt.Errorf("hlk: report %d has shard %q, not K/N", i, e.Shards[0])
		}
		switch {
		case total == 0:
			total = n
		case n != total:
			return nil, fmt.Errorf("hlk: report %d is shard %d/%d, report 0 of %d shards: not shards of one run", i, k, n, total)
		}
		if j, dup := shards[k]; dup {
			return nil, fmt.Errorf("hlk: shard %d/%d is both report %d and report %d", k, n, j, i)
		}
		shards[k] = i
	}
	var missing []string
	for k := 1; k <= total; k++ {
		if _, ok := shards[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, total))
		}
		out.Environment.Shards = append(out.Environment.Shards, fmt.Sprintf("%d/%d", k, total))
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("hlk: the run is incomplete: shards %s are missing", strings.Join(missing, ", "))
	}
	suites, err := SuitesFor(base.Random, base.Seed)
	if err != nil {
		return nil, err
	}
	if d := SuitesDigest(suites); d != base.Suites {
		return nil, fmt.Errorf("hlk: the reports ran suites of digest %s; this ebref's default suites with %d random programs from seed %d are %s: merge with the ebref that ran the shards",
			base.Suites, base.Random, base.Seed, d)
	}
	for _, n := range slices.Sorted(maps.Keys(base.ProfileFiles)) {
		want := base.ProfileFiles[n]
		switch got, ok := hwmodel.ProfileFileDigest(n); {
		case !ok:
			return nil, fmt.Errorf("hlk: the reports ran profile %s from a file (%s): give merge the same file (--profile-file)", n, want)
		case got != want:
			return nil, fmt.Errorf("hlk: the reports ran profile %s from a file of digest %s; the file given is %s: not the profile they ran", n, want, got)
		}
	}
	c := Config{Suites: suites, Profiles: base.Profiles, Only: base.Only, Shards: total}
	if base.Caselist != nil {
		c.Caselist = &Caselist{Name: base.CaselistName, Cases: base.Caselist}
	}
	if base.Run != "" {
		if c.Run, err = regexp.Compile(base.Run); err != nil {
			return nil, fmt.Errorf("hlk: the reports' case filter %q: %w", base.Run, err)
		}
	}
	for k := 1; k <= total; k++ {
		i := shards[k]
		c.Shard = k
		plan, err := Plan(c)
		if err != nil {
			return nil, fmt.Errorf("hlk: rebuilding the plan of report %d (shard %d/%d): %w", i, k, total, err)
		}
		if err := holdsPlan(reports[i], plan); err != nil {
			return nil, fmt.Errorf("hlk: report %d (shard %d/%d) %w", i, k, total, err)
		}
		out.Cases = append(out.Cases, reports[i].Cases...)
		out.Environment.Planned += len(plan)
	}
	var millis int64
	for _, r := range reports {
		if r.Summary != nil {
			millis += r.Summary.Millis
		}
	}
	out.Summary = nil
	defer out.Summarize(time.Duration(millis) * time.Millisecond)
	slices.SortStableFunc(out.Cases, func(a, b CaseResult) int {
		if c := strings.Compare(a.Suite, b.Suite); c != 0 {
			return c
		}
		if c := strings.Compare(a.Case, b.Case); c != 0 {
			return c
		}
		return strings.Compare(a.Profile, b.Profile)
	})
	return out, nil
}

// holdsPlan checks that a report holds exactly the planned cases, in plan
// order, each once, and says so as a report does not.
func holdsPlan(r *Report, plan []PlannedCase) error {
	if r.Environment.Planned != len(plan) {
		return fmt.Errorf("records %d planned cases; its selection plans %d", r.Environment.Planned, len(plan))
	}
	for i, p := range plan {
		if i == len(r.Cases) {
			return fmt.Errorf("holds %d cases of the %d its selection plans: it ends before %s on %s", len(r.Cases), len(plan), p.Path, p.Profile)
		}
		if c := &r.Cases[i]; c.Path() != p.Path || c.Profile != p.Profile {
			return fmt.Errorf("has %s on %s as case %d; its selection plans %s on %s there", c.Path(), c.Profile, i, p.Path, p.Profile)
		}
	}
	if len(r.Cases) > len(plan) {
		c := &r.Cases[len(plan)]
		return fmt.Errorf("holds %d cases; its selection plans %d (the first extra: %s on %s)", len(r.Cases), len(plan), c.Path(), c.Profile)
	}
	return nil
}
