package bench

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/ebref/ebref/bench/internal/oracle"
	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
)

// Row is one workload run with one strategy on one profile: what its
// barriers cost the modelled GPU. The JSON keys are the report's
// (docs/bench.md).
type Row struct {
	Workload          string   `json:"workload"`
	Shortcomings      []int    `json:"shortcomings"`
	Profile           string   `json:"profile"`
	Strategy          Strategy `json:"strategy"`
	Cycles            uint64   `json:"cycles"`
	StallCycles       uint64   `json:"stall_cycles"`
	FlushedLines      uint64   `json:"flushed_lines"`
	InvalidatedLines  uint64   `json:"invalidated_lines"`
	DecompressedBytes uint64   `json:"decompressed_bytes"`
	MetadataBytes     uint64   `json:"metadata_bytes"`
	BarrierCalls      int      `json:"barrier_calls"`
	// BarrierCycles is the frame's barrier cost: what its barrier calls
	// cost, their CP time and the background work they started, found by
	// the calls' records (hlk.ListDump.BarrierCycles). The oracle's has
	// no calls: 0.
	BarrierCycles uint64            `json:"barrier_cycles"`
	Packets       map[string]uint64 `json:"packets"`
	Hazards       int               `json:"hazards"`
	ReferenceOK   bool              `json:"reference_ok"`
	// Failures say why a run is not clean: a hazard, bytes that differ
	// from the reference, a validation message (none when it is).
	Failures []string `json:"failures,omitempty"`
	// SampleBug, on a sample's own form that is not clean, says it is the
	// sample's own bug as Microsoft wrote it, declared and found where
	// declared (Sample.Bugs): the report flags it, and it does not fail
	// the bench.
	SampleBug string `json:"sample_bug,omitempty"`
	// Barriers is a record per barrier call (Config.Barriers).
	Barriers []BarrierRecord `json:"barriers,omitempty"`
	// BoundCycles is the workload's lower bound on the profile, the same
	// in every row of the two (docs/bench.md "Bound"); 0 where the
	// enhanced strategy did not run.
	BoundCycles uint64 `json:"bound_cycles,omitempty"`
	// Edits are the best strategy's edits of the oracle's program ("none":
	// the oracle's was the cheapest clean one), or of the expert's program
	// as written ("expert", "expert+EDITS": runBest).
	Edits string `json:"edits,omitempty"`
	// DecompressCycles is the command processor's cycles in DECOMPRESS
	// and METADATA_INIT (docs/bench.md "What drives the ratios").
	DecompressCycles uint64 `json:"decompress_cycles"`
	// CacheCycles is the command processor's cycles in synchronous CACHE
	// packets and the ends of submissions (their write-backs).
	CacheCycles uint64 `json:"cache_cycles"`
	// SyncCopyLists are the enhanced form's lists whose copies the expert
	// left synchronous on the profile, as cheaper (runExpert).
	SyncCopyLists []string `json:"sync_copy_lists,omitempty"`
	// SplitBarriers are the resources whose barriers the expert split on
	// the profile, as cheaper (runExpert, bench/split.go).
	SplitBarriers []string `json:"split_barriers,omitempty"`
	// CrossListSplits are the resources whose barriers the expert split
	// across command lists on the profile, the begin in an earlier list
	// than the end (crossSites, bench/crosslist.go).
	CrossListSplits []string `json:"cross_list_splits,omitempty"`
}

// Clean reports whether the run was hazard-free with the reference bytes.
func (r *Row) Clean() bool { return r.Hazards == 0 && r.ReferenceOK && len(r.Failures) == 0 }

// Failed reports whether the run fails the bench: it is not clean, and
// not for a sample's own declared bug.
func (r *Row) Failed() bool { return !r.Clean() && r.SampleBug == "" }

// Config selects what Run runs.
type Config struct {
	Workloads  []*Workload // nil: All (the frame structures and the samples)
	Profiles   []string    // nil: every profile
	Strategies []Strategy  // nil: Strategies and AppStrategies, each where a workload has it (Workload.Has)
	Barriers   bool        // keep a record per barrier call in each row
	// Translator, if set, adds the Translator strategy: the enhanced
	// frame with its Barrier calls translated by it.
	Translator translator.Opener
	// Result, if set, sees every run's full result (its timelines), as
	// the run ends.
	Result func(w *Workload, p *hwmodel.Profile, s Strategy, r hlk.Result)
	// Progress, if set, is called after each run with how many of how
	// many are done.
	Progress func(done, total int, row *Row)
}

// withDefaults fills in what c leaves nil.
func (c Config) withDefaults() Config {
	if c.Workloads == nil {
		c.Workloads = All()
	}
	if c.Profiles == nil {
		c.Profiles = hwmodel.ProfileNames()
	}
	if c.Strategies == nil {
		c.Strategies = append(slices.Clone(Strategies), AppStrategies...)
		if c.Translator != nil {
			c.Strategies = append(c.Strategies, Translator)
		}
	}
	return c
}

// Emit writes each selected workload in each selected strategy's barriers
// as one scenario file, a section per workload and strategy, which
// `ebref run` runs (profiles are not a scenario's: Emit ignores them).
func Emit(w io.Writer, c Config) error {
	c = c.withDefaults()
	for _, wl := range c.Workloads {
		for _, s := range c.Strategies {
			if !wl.Has(s) {
				continue
			}
			if s == Oracle || s == Best {
				if _, err := fmt.Fprintf(w, "# ebref bench --emit: %s, %s: the enhanced scenario, its synchronisation replaced at the packet level when it runs\n\n", wl.Name, s); err != nil {
					return err
				}
				continue
			}
			src, err := Source(wl, s)
			if err != nil {
				return err
			}
			// A compiled source starts with its first statement (Format),
			// a sample's own form with a newline.
			if _, err := fmt.Fprintf(w, "# ebref bench --emit: %s (shortcomings %v), %s barriers\n# %s\nscenario \"%s, %s\"\n%s\n",
				wl.Name, wl.Shortcomings, s, wl.About, wl.Name, s, strings.TrimPrefix(src, "\n")); err != nil {
				return err
			}
		}
	}
	return nil
}

// Run runs every selected workload with every selected strategy on every
// selected profile, in that order (workload, profile, strategy), and
// returns a row per run. A workload that does not compile is an error; a
// run that is not clean is a row with its failures.
func Run(ctx context.Context, c Config) ([]Row, error) {
	c = c.withDefaults()
	type cell struct {
		w    *Workload
		prof *hwmodel.Profile
		rows []Row
		err  error
	}
	var cells []*cell
	for _, w := range c.Workloads {
		// Compiled once here, so a frame that does not compile is said
		// before anything runs; each cell parses its own copy below.
		for _, s := range c.Strategies {
			if !w.Has(s) {
				continue
			}
			if s == Translator && c.Translator == nil {
				return nil, fmt.Errorf("the %s strategy needs a translator (Config.Translator)", s)
			}
			if _, err := Scenario(w, s); err != nil {
				return nil, err
			}
		}
		for _, p := range c.Profiles {
			prof, err := hwmodel.LookupProfile(p)
			if err != nil {
				return nil, err
			}
			cells = append(cells, &cell{w: w, prof: prof})
		}
	}
	total := 0
	for _, cl := range cells {
		for _, s := range c.Strategies {
			if cl.w.Has(s) {
				total++
			}
		}
	}
	// Cells run side by side, one per processor (one at a time when
	// Config.Result sees every run's timelines); rows come back in order.
	workers := runtime.GOMAXPROCS(0)
	if c.Result != nil {
		workers = 1
	}
	var mu sync.Mutex
	done := 0
	next := make(chan *cell)
	var wg sync.WaitGroup
	for range min(workers, max(len(cells), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for cl := range next {
				cl.rows, cl.err = runCell(ctx, c, cl.w, cl.prof, func(row *Row, w *Workload, p *hwmodel.Profile, s Strategy, res hlk.Result) {
					mu.Lock()
					defer mu.Unlock()
					done++
					if c.Result != nil {
						c.Result(w, p, s, res)
					}
					if c.Progress != nil {
						c.Progress(done, total, row)
					}
				})
			}
		}()
	}
	for _, cl := range cells {
		if ctx.Err() != nil {
			break
		}
		next <- cl
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rows []Row
	for _, cl := range cells {
		if cl.err != nil {
			return nil, cl.err
		}
		rows = append(rows, cl.rows...)
	}
	return rows, nil
}

// runCell runs every selected strategy of one workload on one profile, in
// order, and gives each row its bound (from the enhanced run's recording).
func runCell(ctx context.Context, c Config, w *Workload, prof *hwmodel.Profile, ran func(*Row, *Workload, *hwmodel.Profile, Strategy, hlk.Result)) ([]Row, error) {
	var rows []Row
	var rec *recording
	var expertSrc string
	var oracleRow *Row
	var oracleRes hlk.Result
	var expertRow *Row
	var expertRes hlk.Result
	for _, s := range c.Strategies {
		if !w.Has(s) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sc, err := Scenario(w, s)
		if err != nil {
			return nil, err
		}
		var row Row
		var res hlk.Result
		switch s {
		case Enhanced:
			row, res, rec, expertSrc, err = runExpert(ctx, w, prof)
			if err != nil {
				return nil, err
			}
		case Translator:
			if expertSrc != "" { // the expert's form on this profile
				cases, err := scenario.Parse(fmt.Sprintf("%s.%s.ebs", w.Name, s), expertSrc, nil)
				if err != nil {
					return nil, err
				}
				sc = cases[0]
			}
			row, res = run(ctx, w, sc, prof, s, c.Translator)
		case Best:
			var expert *scenario.Scenario
			if expertSrc != "" {
				cases, err := scenario.Parse(fmt.Sprintf("%s.%s.ebs", w.Name, Enhanced), expertSrc, nil)
				if err != nil {
					return nil, err
				}
				expert = cases[0]
			}
			row, res, _ = runBest(ctx, w, sc, prof, oracleRow, oracleRes, expert, expertRow, expertRes)
		case AppLegacy, AppEnhanced:
			if rec != nil {
				row, res = run(ctx, w, sc, prof, s, c.Translator)
				break
			}
			// No compiled enhanced run to bound (small-resources has
			// none, or it was not selected): the sample's own form does
			// the same work (TestSampleFormsDoTheSameWork), so its
			// recording bounds every program that does it.
			rec = &recording{}
			row, res = runWith(ctx, w, sc, prof, s, captureDriver{Driver: driverFor(s, c.Translator), rec: rec})
		default:
			row, res = run(ctx, w, sc, prof, s, c.Translator)
		}
		if s == Oracle {
			oracleRow, oracleRes = &row, res
		}
		if s == Enhanced {
			expertRow, expertRes = &row, res
		}
		if c.Barriers {
			row.Barriers = barrierRecords(res, s)
		}
		rows = append(rows, row)
		ran(&rows[len(rows)-1], w, prof, s, res)
	}
	if rec != nil {
		b, err := rec.bound()
		if err != nil {
			return nil, fmt.Errorf("%s on %s: the bound: %w", w.Name, prof.Name, err)
		}
		for i := range rows {
			rows[i].BoundCycles = b
		}
	}
	return rows, nil
}

// Scenario is a workload written in a strategy's barriers, parsed.
func Scenario(w *Workload, s Strategy) (*scenario.Scenario, error) {
	src, err := Source(w, s)
	if err != nil {
		return nil, err
	}
	cases, err := scenario.Parse(fmt.Sprintf("%s.%s.ebs", w.Name, s), src, nil)
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", w.Name, s, err)
	}
	return cases[0], nil
}

// ParseStrategy accepts a strategy's name.
func ParseStrategy(name string) (Strategy, error) {
	for _, s := range append(append(slices.Clone(Strategies), AppStrategies...), Translator) {
		if string(s) == name {
			return s, nil
		}
	}
	return "", fmt.Errorf("no strategy %.64q (strategies: %v, %s with a translator, %v on samples)", name, Strategies, Translator, AppStrategies)
}

// Source is a workload written in a strategy's barriers, as scenario text
// `ebref run` runs. The oracle's is the enhanced scenario, which it runs
// with its synchronisation replaced.
func Source(w *Workload, s Strategy) (string, error) {
	if _, err := ParseStrategy(string(s)); err != nil {
		return "", err
	}
	if s.app() {
		return appSource(w, s)
	}
	return compile(w, s.recorded())
}

func run(ctx context.Context, w *Workload, sc *scenario.Scenario, p *hwmodel.Profile, s Strategy, t translator.Opener) (Row, hlk.Result) {
	return runWith(ctx, w, sc, p, s, driverFor(s, t))
}

// runWith runs a strategy's scenario on driver d.
func runWith(ctx context.Context, w *Workload, sc *scenario.Scenario, p *hwmodel.Profile, s Strategy, d hlk.Driver) (Row, hlk.Result) {
	res := hlk.RunContext(ctx, d, sc, p, "")
	c := res.Counters
	row := Row{Workload: w.Name, Shortcomings: w.Shortcomings, Profile: p.Name, Strategy: s,
		Cycles: c.Cycles, StallCycles: c.StallCycles, DecompressedBytes: c.DecompressedBytes, MetadataBytes: c.MetadataBytes,
		DecompressCycles: c.CompressionCycles, CacheCycles: c.CacheCycles + c.BatchEndCycles,
		Packets: map[string]uint64{}, Hazards: len(res.Hazards), ReferenceOK: true}
	for i := range c.FlushedLines {
		row.FlushedLines += c.FlushedLines[i]
		row.InvalidatedLines += c.InvalidatedLines[i]
	}
	for _, op := range cmdbuf.Opcodes() {
		if n := c.PacketCount(op); n > 0 {
			row.Packets[op.String()] = n
		}
	}
	for _, l := range res.Lists {
		if s != Oracle && s != Best { // they replaced them
			row.BarrierCalls += len(l.Calls)
			row.BarrierCycles += l.BarrierCycles
		}
	}
	for _, e := range res.Expectations { // compile writes one: expect reference
		row.ReferenceOK = row.ReferenceOK && e.OK
	}
	if res.Status != hlk.Pass {
		row.Failures = res.Failures
	}
	row.SampleBug = sampleBug(w, s, &row)
	return row, res
}

// driverFor is the driver a strategy's scenario runs on: the reference
// driver, on a machine whose submissions the oracle rewrites for the
// oracle.
func driverFor(s Strategy, t translator.Opener) hlk.Driver {
	switch s {
	case Oracle:
		return oracleDriver{Driver: reference.Driver}
	case Best: // the search's first candidate (runBest tries the rest)
		return bestDriver{Driver: reference.Driver, edits: bestCandidates[0]}
	case Translator:
		return reference.WithTranslator(t)
	}
	return reference.Driver
}

// oracleDriver is the reference driver on a machine whose submissions the
// oracle rewrites.
type oracleDriver struct {
	hlk.Driver
	edit oracle.Edit
}

func (d oracleDriver) Name() string { return "oracle" }

func (d oracleDriver) Open(p *hwmodel.Profile, o hlk.DeviceOptions) (hlk.Device, error) {
	dev, err := d.Driver.Open(p, o)
	if err != nil {
		return nil, err
	}
	dev.Machine().SetRewriter(oracle.Rewriter(d.edit))
	return dev, nil
}
