package hlk

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
)

// Config is what a run runs and how.
type Config struct {
	Driver   Driver         // the driver judged (hlk/reference.Driver is ebref's)
	Suites   []Suite        // what to run (Suites() for the default set)
	Profiles []string       // nil: every profile
	Only     []string       // suite names (or prefixes ending at a /) to keep; nil: all
	Run      *regexp.Regexp // keeps cases whose "suite/case" matches; nil: all
	Caselist *Caselist      // keeps the cases it lists; nil: all
	Shard    int            // 1-based shard of Shards; 0: no sharding
	Shards   int
	// Flakes are cases known to be flaky: one that does not pass and
	// whose suite/case path matches is run once more, and the second
	// run's status counts (a note says it was retried).
	Flakes  []*regexp.Regexp
	Jobs    int           // parallel cases; 0: the driver's choice or GOMAXPROCS (Jobs)
	Inject  string        // a fault of the driver's, "" for none
	Timeout time.Duration // per case; 0: 30 s
	// Costs bounds each case's cost: a case that passes but costs more
	// than its record on some counter fails (costrecord.go). nil: the
	// reference driver's record when the driver is Reference and no fault
	// is injected; no bound otherwise.
	Costs *CostRecord
	// AnyCost runs without a cost bound (to write a new record).
	AnyCost bool
	// Progress, if set, is called after each case (from one goroutine at
	// a time).
	Progress func(done, total int, c *CaseResult)
}

// CaseResult is one case on one profile, as reports carry it.
type CaseResult struct {
	Suite    string            `json:"suite"`
	Case     string            `json:"case"`
	Profile  string            `json:"profile"`
	Status   Status            `json:"status"`
	Millis   float64           `json:"duration_ms"`
	Messages []string          `json:"messages,omitempty"`
	Counters map[string]uint64 `json:"counters,omitempty"`
	// Packets is a digest of every list's packets: two runs of a case
	// recorded the same packets when their digests are equal (--mutation
	// uses it to tell where a fault changes the translation).
	Packets string `json:"packets_digest,omitempty"`
	// Notes are reported beside the status: promises of the reference's
	// not met, hazards masked, invalid programs (Result.Notes), and a
	// case that cost more than its record.
	Notes []string `json:"notes,omitempty"`
	// Costlier: the case passed but cost more than its record
	// (Config.Costs); its first message says which counters.
	Costlier bool   `json:"costlier,omitempty"`
	Stack    string `json:"stack,omitempty"`
}

// Path is the case's full name: suite/case.
func (c *CaseResult) Path() string { return c.Suite + "/" + c.Case }

// Environment is what a report was produced with.
type Environment struct {
	Version  string   `json:"version"`
	Go       string   `json:"go"`
	Driver   string   `json:"driver"`
	Profiles []string `json:"profiles"`
	// ProfileFiles identifies each profile of the run that a file gave
	// (hwmodel.AddProfile), by name: the digest of its file
	// (hwmodel.ProfileDigest). A merge, or anything else that rebuilds the
	// run's plan, needs the same files.
	ProfileFiles map[string]string `json:"profile_files,omitempty"`
	Inject       string            `json:"inject,omitempty"`
	// CostBound names the cost record the run's cases were bounded by,
	// "" for none.
	CostBound string `json:"cost_bound,omitempty"`
	// Only and Run are the selection (--suite, --run): reports of
	// different selections are not shards of one run.
	Only []string `json:"only,omitempty"`
	Run  string   `json:"run,omitempty"`
	// Caselist is the list the run kept to (--caselist, --rerun-failed),
	// CaselistName where it came from.
	Caselist     []CaseRef `json:"caselist,omitempty"`
	CaselistName string    `json:"caselist_name,omitempty"`
	Flakes       []string  `json:"flakes,omitempty"`
	// Random and Seed are the random suite's program count and first
	// seed (0 and 0 when the run has no suite random).
	Random int    `json:"random"`
	Seed   uint64 `json:"seed"`
	// Build identifies the build that ran (BuildID): two builds differ
	// here even when both are "(devel)" without VCS stamping.
	Build string `json:"build"`
	// Suites is a digest of the suites the run planned from (SuitesDigest).
	Suites string `json:"suites_digest"`
	// Planned is how many cases the selection planned for this report:
	// a report holding fewer or more is not a whole run.
	Planned int      `json:"planned"`
	Shards  []string `json:"shards,omitempty"` // "K/N" of each merged shard
	Started string   `json:"started"`
}

// Report is a run's results, in case order.
type Report struct {
	Environment Environment  `json:"environment"`
	Cases       []CaseResult `json:"cases"`
	// Summary is what a machine reads first: the verdict, counts and
	// duration (and the baseline's outcome, when one was given).
	Summary *Summary `json:"summary,omitempty"`
	// Digest seals the environment and cases (WriteJSON sets it, ReadJSON
	// checks it): an integrity check against mistakes, not a signature.
	Digest string `json:"digest,omitempty"`
}

// Conformant reports whether every case is Pass, NotSupported or Skipped
// (and there is at least one case).
func (r *Report) Conformant() bool {
	for i := range r.Cases {
		if !r.Cases[i].Status.Conformant() {
			return false
		}
	}
	return len(r.Cases) > 0
}

// Counts tallies statuses.
func (r *Report) Counts() map[Status]int {
	m := map[Status]int{}
	for i := range r.Cases {
		m[r.Cases[i].Status]++
	}
	return m
}

// job is one case on one profile.
type job struct {
	suite   string
	sc      *scenario.Scenario
	profile *hwmodel.Profile
}

// Summary sums a report up.
type Summary struct {
	Verdict string         `json:"verdict"` // CONFORMANT, NOT CONFORMANT, or EMPTY (a shard with no case)
	Cases   int            `json:"cases"`
	Counts  map[string]int `json:"counts"` // by status, every status named
	// Millis is the run's wall time (a merge's: its shards' summed).
	Millis   int64            `json:"duration_ms"`
	Baseline *BaselineOutcome `json:"baseline,omitempty"`
}

// Summarize sets the report's summary from its cases.
func (r *Report) Summarize(d time.Duration) {
	s := &Summary{Verdict: "NOT CONFORMANT", Cases: len(r.Cases), Counts: map[string]int{}, Millis: d.Milliseconds()}
	switch {
	case r.Conformant():
		s.Verdict = "CONFORMANT"
	case len(r.Cases) == 0:
		s.Verdict = "EMPTY" // a shard of a selection smaller than the matrix
	}
	for _, n := range statusNames {
		s.Counts[n] = 0
	}
	for st, n := range r.Counts() {
		s.Counts[st.String()] = n
	}
	if r.Summary != nil {
		s.Baseline = r.Summary.Baseline
	}
	r.Summary = s
}

// Plan lists the jobs a config selects, in report order: suites, cases,
// then profiles; then the shard's share.
func (c *Config) plan() ([]job, error) {
	profiles := c.Profiles
	if len(profiles) == 0 {
		profiles = hwmodel.ProfileNames()
	}
	var profs []*hwmodel.Profile
	for _, n := range profiles {
		p, err := hwmodel.LookupProfile(n)
		if err != nil {
			return nil, err
		}
		profs = append(profs, p)
	}
	if c.Shards < 0 || c.Shards > 0 && (c.Shard < 1 || c.Shard > c.Shards) {
		return nil, fmt.Errorf("hlk: shard %d/%d: K must be 1..N", c.Shard, c.Shards)
	}
	want, err := c.caselist()
	if err != nil {
		return nil, err
	}
	var jobs []job
	matched := map[string]bool{}
	for _, s := range c.Suites {
		if !selected(s.Name, c.Only, matched) {
			continue
		}
		for _, sc := range s.Cases {
			if c.Run != nil && !c.Run.MatchString(s.Name+"/"+sc.Name()) {
				continue
			}
			for _, p := range profs {
				if want != nil && !want[CaseRef{s.Name + "/" + sc.Name(), p.Name}] {
					continue
				}
				jobs = append(jobs, job{s.Name, sc, p})
			}
		}
	}
	for _, o := range c.Only {
		if !matched[o] {
			return nil, fmt.Errorf("hlk: no suite %q", o)
		}
	}
	if c.Shards > 0 {
		var mine []job
		for i, j := range jobs {
			if i%c.Shards == c.Shard-1 {
				mine = append(mine, j)
			}
		}
		jobs = mine
	}
	return jobs, nil
}

// caselist checks that every case the caselist names exists (on a
// profile that exists) and returns the set, nil for no caselist.
func (c *Config) caselist() (map[CaseRef]bool, error) {
	if c.Caselist == nil {
		return nil, nil
	}
	paths := map[string]bool{}
	for _, s := range c.Suites {
		for _, sc := range s.Cases {
			paths[s.Name+"/"+sc.Name()] = true
		}
	}
	want := make(map[CaseRef]bool, len(c.Caselist.Cases))
	for i, ref := range c.Caselist.Cases {
		if !paths[ref.Path] {
			return nil, fmt.Errorf("hlk: %s: no case %s in the suites", c.Caselist.where(i), ref.Path)
		}
		if _, err := hwmodel.LookupProfile(ref.Profile); err != nil {
			return nil, fmt.Errorf("hlk: %s: %w", c.Caselist.where(i), err)
		}
		want[ref] = true
	}
	return want, nil
}

// Known is every case of the config's suites on its profiles (all when
// it names none): what a baseline's lines may name.
func Known(c Config) map[CaseRef]bool {
	profiles := c.Profiles
	if len(profiles) == 0 {
		profiles = hwmodel.ProfileNames()
	}
	known := map[CaseRef]bool{}
	for _, s := range c.Suites {
		for _, sc := range s.Cases {
			for _, p := range profiles {
				known[CaseRef{s.Name + "/" + sc.Name(), p}] = true
			}
		}
	}
	return known
}

// selected says whether a suite is in the --suite list (names, or
// prefixes: "rules" keeps "rules/layout-access").
func selected(name string, only []string, matched map[string]bool) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if name == o || strings.HasPrefix(name, strings.TrimSuffix(o, "/")+"/") {
			matched[o] = true
			return true
		}
	}
	return false
}

// PlannedCase is one case a config selects, on one profile.
type PlannedCase struct{ Path, Profile string }

// Plan lists the cases a config selects, in report order.
func Plan(c Config) ([]PlannedCase, error) {
	jobs, err := c.plan()
	if err != nil {
		return nil, err
	}
	out := make([]PlannedCase, len(jobs))
	for i, j := range jobs {
		out[i] = PlannedCase{j.suite + "/" + j.sc.Name(), j.profile.Name}
	}
	return out, nil
}

// errNoDriver is a run without a driver: hlk imports none.
var errNoDriver = errors.New("hlk: no driver to judge (Config.Driver; ebref's own is hlk/reference.Driver)")

// Execute runs a config and returns its report.
func Execute(ctx context.Context, c Config) (*Report, error) {
	if c.Driver == nil {
		return nil, errNoDriver
	}
	if c.Inject != "" && !slices.Contains(c.Driver.Faults(), c.Inject) {
		return nil, fmt.Errorf("hlk: the driver has no fault %q (have %s)", c.Inject, strings.Join(c.Driver.Faults(), ", "))
	}
	jobs, err := c.plan()
	if err != nil {
		return nil, err
	}
	bound, boundName := c.Costs, "the given record"
	switch {
	case c.AnyCost:
		bound = nil
	case bound == nil && isReference(c.Driver) && c.Inject == "":
		if bound, err = ReferenceCosts(); err != nil {
			return nil, err
		}
		boundName = "the reference driver's record"
	}
	// A translator's cost is compared with the reference's record and
	// reported beside its verdict, never as one.
	var compare *CostRecord
	if translates(c.Driver) && bound == nil && !c.AnyCost {
		if compare, err = ReferenceCosts(); err != nil {
			return nil, err
		}
	}
	profiles := c.Profiles
	if len(profiles) == 0 {
		profiles = hwmodel.ProfileNames()
	}
	rep := &Report{Environment: Environment{Version: Version(), Go: runtime.Version(), Driver: c.Driver.Name(),
		Profiles: profiles, Inject: c.Inject, Only: c.Only, Build: BuildID(), Suites: SuitesDigest(c.Suites),
		Planned: len(jobs), Started: time.Now().UTC().Format(time.RFC3339)}}
	for _, n := range profiles {
		if d, ok := hwmodel.ProfileFileDigest(n); ok {
			if rep.Environment.ProfileFiles == nil {
				rep.Environment.ProfileFiles = map[string]string{}
			}
			rep.Environment.ProfileFiles[n] = d
		}
	}
	for _, s := range c.Suites {
		if s.Name == "random" {
			rep.Environment.Random, rep.Environment.Seed = s.random, s.seed
		}
	}
	if c.Run != nil {
		rep.Environment.Run = c.Run.String()
	}
	if c.Caselist != nil {
		rep.Environment.Caselist, rep.Environment.CaselistName = c.Caselist.Cases, c.Caselist.Name
	}
	for _, f := range c.Flakes {
		rep.Environment.Flakes = append(rep.Environment.Flakes, f.String())
	}
	started := time.Now()
	if bound != nil {
		rep.Environment.CostBound = fmt.Sprintf("%s (%d case-profile rows)", boundName, bound.Len())
	}
	if c.Shards > 0 {
		rep.Environment.Shards = []string{fmt.Sprintf("%d/%d", c.Shard, c.Shards)}
	}
	rep.Cases = make([]CaseResult, len(jobs))
	workers := Jobs(c)
	workers = max(1, min(workers, len(jobs))) // no idle goroutines
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rep.Cases[i] = runJob(ctx, c.Driver, jobs[i], c.Inject, timeout, bound, compare)
				if cr := &rep.Cases[i]; !cr.Status.Conformant() && flaky(c.Flakes, cr.Path()) && ctx.Err() == nil {
					first := *cr
					*cr = runJob(ctx, c.Driver, jobs[i], c.Inject, timeout, bound, compare)
					cr.Notes = append(cr.Notes, fmt.Sprintf("%s: retried as a known flake; the first run was %s: %s", NoteFlaky, first.Status, firstMessage(first.Messages)))
				}
				if c.Progress != nil {
					mu.Lock()
					done++
					c.Progress(done, len(jobs), &rep.Cases[i])
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	rep.Summarize(time.Since(started))
	return rep, nil
}

// flaky says whether a case's path matches a known flake.
func flaky(flakes []*regexp.Regexp, path string) bool {
	for _, f := range flakes {
		if f.MatchString(path) {
			return true
		}
	}
	return false
}

func firstMessage(m []string) string {
	if len(m) == 0 {
		return "no message"
	}
	return m[0]
}

// runJob runs one case with a timeout, turning a panic into Crash, and
// bounds a passing case's cost by its record, if bound has one.
func runJob(ctx context.Context, d Driver, j job, fault string, timeout time.Duration, bound, compare *CostRecord) CaseResult {
	cr := CaseResult{Suite: j.suite, Case: j.sc.Name(), Profile: j.profile.Name}
	start := time.Now()
	type outcome struct {
		r     Result
		stack string
		panic any
	}
	// The case runs under a context its timeout cancels, so a case that
	// times out stops (and frees its CPU and memory) instead of running on.
	jctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ch := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- outcome{panic: p, stack: string(debug.Stack())}
			}
		}()
		ch <- outcome{r: RunContext(jctx, d, j.sc, j.profile, fault)}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case o := <-ch:
		if o.panic != nil {
			cr.Status, cr.Stack = Crash, o.stack
			cr.Messages = []string{fmt.Sprintf("panic: %v", o.panic)}
			break
		}
		cr.Status = o.r.Status
		cr.Messages = o.r.Failures
		cr.Notes = o.r.Notes
		cr.Counters = counters(o.r.Counters)
		cr.Packets = packetsDigest(o.r.Lists)
		if bound != nil && cr.Status == Pass {
			if over, _ := bound.Exceeds(&cr); len(over) > 0 {
				cr.Status, cr.Costlier = Fail, true
				cr.Messages = append([]string{"costs more than its record: " + strings.Join(over, ", ")}, cr.Messages...)
			}
		}
		if compare != nil && cr.Status == Pass {
			if over, _ := compare.Exceeds(&cr); len(over) > 0 {
				cr.Costlier = true
				cr.Notes = append(cr.Notes, NoteCostlier+strings.Join(over, ", "))
			}
		}
	case <-timer.C:
		cr.Status = Timeout
		cr.Messages = []string{fmt.Sprintf("did not finish in %s", timeout)}
	case <-ctx.Done():
		cr.Status = Skipped
		cr.Messages = []string{"the run was cancelled"}
	}
	cr.Millis = float64(time.Since(start).Microseconds()) / 1000
	return cr
}

// packetsDigest hashes the lists' packets (their disassembly), "" for none.
func packetsDigest(lists []ListDump) string {
	if len(lists) == 0 {
		return ""
	}
	h := fnv.New64a()
	for _, l := range lists {
		fmt.Fprintf(h, "list %s\n", l.Name)
		for _, ln := range l.Lines {
			fmt.Fprintf(h, "%d %s %s\n", ln.Offset, ln.Op, ln.Text)
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// caseMetrics and casePackets are the cost counters a report carries per
// case: these metrics, and these opcodes' packet counts.
var (
	caseMetrics = []string{"cycles", "stall-cycles", "cache-cycles", "compression-cycles", "flushed-lines",
		"invalidated-lines", "decompressed-bytes", "metadata-bytes"}
	casePackets = []cmdbuf.Opcode{cmdbuf.OpWait, cmdbuf.OpCache, cmdbuf.OpDecompress, cmdbuf.OpMetadataInit, cmdbuf.OpEventWait}
)

// counters are the cost counters a report carries per case, and its
// hazards.
func counters(c hwmodel.Counters) map[string]uint64 {
	if c.Submissions == 0 {
		return nil
	}
	m := map[string]uint64{}
	for _, n := range caseMetrics {
		m[n] = scenario.Metrics[n](c)
	}
	for _, op := range casePackets {
		m["packets-"+op.String()] = c.PacketCount(op)
	}
	m["hazards"] = c.Hazards
	return m
}

// CounterMap labels every counter: each `expect cost` metric by its name,
// the non-zero stalls by stage ("stall-cycles-COLOR"), lines by cache
// ("flushed-lines-L2", "invalidated-lines-TEXTURE_L0") and packets by
// opcode ("packets-WAIT"), and the faults and hazards.
func CounterMap(c hwmodel.Counters) map[string]uint64 {
	m := map[string]uint64{"faults": c.Faults, "hazards": c.Hazards}
	for n, f := range scenario.Metrics {
		m[n] = f(c)
	}
	nonZero := func(k string, v uint64) {
		if v != 0 {
			m[k] = v
		}
	}
	for s, v := range c.StallsByStage {
		nonZero("stall-cycles-"+cmdbuf.Stage(s).String(), v)
	}
	for k := range c.FlushedLines {
		nonZero("flushed-lines-"+cmdbuf.Cache(k).String(), c.FlushedLines[k])
		nonZero("invalidated-lines-"+cmdbuf.Cache(k).String(), c.InvalidatedLines[k])
	}
	for _, op := range cmdbuf.Opcodes() {
		nonZero("packets-"+op.String(), c.PacketCount(op))
	}
	return m
}

// Version is ebref's version: the module's, or the VCS revision the
// binary was built from.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}
