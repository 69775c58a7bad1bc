package bench

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ebref/ebref/bench/internal/oracle"
	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/reference"
	"github.com/ebref/ebref/hwmodel"
)

// No clean run of any strategy costs less than the bound, in any cell;
// the bound is there for every cell; the best search's program is clean
// and costs no more than the oracle's (less where it kept an edit).
func TestNothingBelowTheBound(t *testing.T) {
	oracle := map[string]Row{}
	for _, r := range rows(t) {
		if r.Strategy == Oracle {
			oracle[r.Workload+"/"+r.Profile] = r
		}
	}
	for _, r := range rows(t) {
		if r.BoundCycles == 0 {
			t.Errorf("%s on %s, %s: no bound", r.Workload, r.Profile, r.Strategy)
		}
		if r.Clean() && r.Cycles < r.BoundCycles {
			t.Errorf("%s on %s: %s %d cycles, below the bound %d", r.Workload, r.Profile, r.Strategy, r.Cycles, r.BoundCycles)
		}
		if r.Strategy != Best {
			continue
		}
		o := oracle[r.Workload+"/"+r.Profile]
		switch {
		case !r.Clean():
			t.Errorf("%s on %s: best is not clean: %v", r.Workload, r.Profile, r.Failures)
		case r.Cycles > o.Cycles:
			t.Errorf("%s on %s: best %d cycles, above the oracle's %d", r.Workload, r.Profile, r.Cycles, o.Cycles)
		case r.Edits != "none" && r.Cycles >= o.Cycles:
			t.Errorf("%s on %s: best kept edits %s that save nothing (%d, oracle %d)", r.Workload, r.Profile, r.Edits, r.Cycles, o.Cycles)
		case r.Edits == "none" && r.Cycles != o.Cycles:
			t.Errorf("%s on %s: best without edits is not the oracle (%d, oracle %d)", r.Workload, r.Profile, r.Cycles, o.Cycles)
		}
	}
}

// rewriteDriver is the reference driver on a machine whose submissions a
// test's rewriter replaces, recorded first for the bound.
type rewriteDriver struct {
	hlk.Driver
	rec *recording
	rw  func() hwmodel.Rewriter
}

func (d rewriteDriver) Open(p *hwmodel.Profile, o hlk.DeviceOptions) (hlk.Device, error) {
	dev, err := d.Driver.Open(p, o)
	if err != nil {
		return nil, err
	}
	dev.Machine().SetRewriter(d.rec.capture(d.rw()))
	return dev, nil
}

// runRewritten runs the enhanced form of w on profile p with its
// submissions replaced by rw's, and returns the row and the bound of
// the work it recorded.
func runRewritten(t *testing.T, w *Workload, p string, rw func() hwmodel.Rewriter) (Row, uint64) {
	t.Helper()
	sc, err := Scenario(w, Enhanced)
	if err != nil {
		t.Fatal(err)
	}
	prof, err := hwmodel.LookupProfile(p)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recording{}
	row, _ := runWith(context.Background(), w, sc, prof, Best, rewriteDriver{Driver: reference.Driver, rec: rec, rw: rw})
	b, err := rec.bound()
	if err != nil {
		t.Fatal(err)
	}
	return row, b
}

// randomEdits edits a submission's synchronisation at random, seeded: each
// WAIT, CACHE and surface packet may be dropped, made asynchronous (or
// synchronous), have its wait hold the command processor or drain fewer
// stages, or be issued twice. Most such edits break the program; those the
// machine judges clean are what the bound must hold against.
func randomEdits(rng *rand.Rand) func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
	return func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
		out := make([]*cmdbuf.Buffer, len(bufs))
		for i, in := range bufs {
			ob := cmdbuf.NewBuffer(0)
			ob.SetName(in.Name())
			err := in.Walk(func(_ int, p cmdbuf.Packet, err error) error {
				if err != nil || p.Op() == cmdbuf.OpChain {
					return err
				}
				words := append([]uint32{uint32(p.Header)}, p.Payload...)
				switch p.Op() {
				case cmdbuf.OpWait, cmdbuf.OpCache, cmdbuf.OpDecompress, cmdbuf.OpMetadataInit:
					if rng.IntN(4) != 0 {
						break
					}
					switch rng.IntN(5) {
					case 0:
						return nil // dropped
					case 1:
						if p.Op() != cmdbuf.OpWait {
							words[0] ^= uint32(cmdbuf.FlagAsync) << 24
						}
					case 2:
						if p.Op() == cmdbuf.OpWait {
							words[2] |= uint32(cmdbuf.StageCP.Mask())
						}
					case 3:
						if p.Op() == cmdbuf.OpWait && words[1]&(words[1]-1) != 0 {
							words[1] &= words[1] - 1 // one stage fewer
						}
					case 4:
						ob.Append(words)
					}
				}
				ob.Append(words)
				return nil
			})
			if err != nil {
				return nil, err
			}
			out[i] = ob
		}
		return out, nil
	}
}

// Random clean edits of the oracle's and the best search's programs never
// go below the bound (and some of them are clean and cost otherwise than
// the program they edit, so the test edits something).
func TestBoundAgainstRandomEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs whole frames")
	}
	names := map[string]bool{"self-copy": true, "gpu-driven-indirect": true, "multi-queue": true}
	clean, moved := 0, 0
	for _, w := range Workloads {
		if !names[w.Name] {
			continue
		}
		for _, p := range []string{"discrete", "coherent"} {
			for _, edits := range []edit{0, bestCandidates[0]} {
				base, _ := runRewritten(t, w, p, func() hwmodel.Rewriter {
					or := oracle.Rewriter(nil)
					return func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
						out, err := or(e, bufs)
						if err != nil {
							return nil, err
						}
						return improve(e, out, edits)
					}
				})
				for seed := range uint64(4) {
					rng := rand.New(rand.NewPCG(seed, 38))
					row, b := runRewritten(t, w, p, func() hwmodel.Rewriter {
						or, re := oracle.Rewriter(nil), randomEdits(rng)
						return func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
							out, err := or(e, bufs)
							if err == nil {
								out, err = improve(e, out, edits)
							}
							if err != nil {
								return nil, err
							}
							return re(e, out)
						}
					})
					if !row.Clean() {
						continue
					}
					clean++
					if row.Cycles != base.Cycles {
						moved++
					}
					if row.Cycles < b {
						t.Errorf("%s on %s, edits %s, seed %d: a clean edit costs %d cycles, below the bound %d", w.Name, p, edits, seed, row.Cycles, b)
					}
				}
			}
		}
	}
	t.Logf("%d clean random edits, %d of them changed the cost", clean, moved)
	if clean == 0 || moved == 0 {
		t.Errorf("%d clean random edits, %d changed the cost: the test edits nothing that runs", clean, moved)
	}
}

// The bound holds against the exhaustive optimum of small frames: every
// program that puts one of a menu of synchronisation sequences before each
// work and at the end (the recording's own stripped) is run, and the
// cheapest clean one costs no less than the bound.
func TestBoundExhaustive(t *testing.T) {
	frames := []*Workload{
		{Name: "tiny-uav", Frame: `
buffer A 4KiB flags UNORDERED_ACCESS
buffer B 4KiB flags UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  dispatch uav A
  dispatch srv A uav B
  dispatch uav A
end
execute Q L
`},
		{Name: "tiny-draw", Frame: `
buffer A 16KiB flags UNORDERED_ACCESS
buffer B 16KiB flags UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  dispatch uav A
  dispatch srv A uav B
  draw ps-srv B vb A
end
execute Q L
`},
	}
	all := cmdbuf.AllStages
	menu := [][]func([]uint32) []uint32{
		nil,
		{func(d []uint32) []uint32 {
			return cmdbuf.AppendWait(d, cmdbuf.Wait{Drain: all, Hold: all &^ cmdbuf.StageCP.Mask()})
		}},
		{func(d []uint32) []uint32 { return cmdbuf.AppendWait(d, cmdbuf.Wait{Drain: all, Hold: all}) },
			func(d []uint32) []uint32 {
				return cmdbuf.AppendCache(d, cmdbuf.CacheOp{Flush: cmdbuf.AllCaches, Invalidate: cmdbuf.AllCaches}, false)
			}},
		{func(d []uint32) []uint32 {
			return cmdbuf.AppendWait(d, cmdbuf.Wait{Drain: all, Hold: cmdbuf.StageBlit.Mask()})
		},
			func(d []uint32) []uint32 {
				return cmdbuf.AppendCache(d, cmdbuf.CacheOp{Flush: cmdbuf.AllCaches}, true)
			},
			func(d []uint32) []uint32 {
				return cmdbuf.AppendWait(d, cmdbuf.Wait{Drain: cmdbuf.StageBlit.Mask(), Hold: all &^ cmdbuf.StageCP.Mask()})
			}},
	}
	for _, c := range []struct {
		w *Workload
		p string
	}{{frames[0], "discrete"}, {frames[0], "coherent"}, {frames[1], "discrete"}} {
		w, p := c.w, c.p
		{
			// The frame's WORK packets: one choice before each, one at the end.
			works := 0
			probe, bound := runRewritten(t, w, p, func() hwmodel.Rewriter { return menuRewriter(menu, nil, &works) })
			if probe.Cycles == 0 {
				t.Fatalf("%s on %s: nothing ran", w.Name, p)
			}
			n := works + 1
			choices := make([]int, n)
			best, clean := uint64(0), 0
			for {
				row, b := runRewritten(t, w, p, func() hwmodel.Rewriter { return menuRewriter(menu, choices, new(int)) })
				if b != bound {
					t.Fatalf("%s on %s: the bound moved with the synchronisation: %d, %d", w.Name, p, b, bound)
				}
				if row.Clean() {
					clean++
					if best == 0 || row.Cycles < best {
						best = row.Cycles
					}
				}
				i := 0
				for ; i < n; i++ {
					if choices[i]++; choices[i] < len(menu) {
						break
					}
					choices[i] = 0
				}
				if i == n {
					break
				}
			}
			if clean == 0 {
				t.Fatalf("%s on %s: no program of the menu is clean", w.Name, p)
			}
			if best < bound {
				t.Errorf("%s on %s: the exhaustive optimum %d is below the bound %d", w.Name, p, best, bound)
			}
			t.Logf("%s on %s: %d works, %d clean programs, optimum %d, bound %d", w.Name, p, works, clean, best, bound)
		}
	}
}

// menuRewriter strips a submission's synchronisation and puts menu item
// choices[k] before its k-th work (and the last choice at its end); it
// counts the works in *works (nil choices: none put).
func menuRewriter(menu [][]func([]uint32) []uint32, choices []int, works *int) hwmodel.Rewriter {
	return func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
		k := 0
		put := func(ob *cmdbuf.Buffer) {
			if k < len(choices) {
				for _, f := range menu[choices[k]] {
					ob.Emit(f)
				}
			}
			k++
		}
		out := make([]*cmdbuf.Buffer, len(bufs))
		for i, in := range bufs {
			ob := cmdbuf.NewBuffer(0)
			err := in.Walk(func(_ int, p cmdbuf.Packet, err error) error {
				if err != nil {
					return err
				}
				switch p.Op() {
				case cmdbuf.OpWait, cmdbuf.OpCache, cmdbuf.OpDecompress, cmdbuf.OpMetadataInit,
					cmdbuf.OpEventSignal, cmdbuf.OpEventWait, cmdbuf.OpChain:
					return nil
				case cmdbuf.OpWork:
					if !p.Work().Chained {
						put(ob)
					}
				}
				ob.Append(append([]uint32{uint32(p.Header)}, p.Payload...))
				return nil
			})
			if err != nil {
				return nil, err
			}
			if i == len(bufs)-1 {
				*works = max(*works, k)
				put(ob)
			}
			out[i] = ob
		}
		return out, nil
	}
}

// The expert's barriers, settled on the profile (runExpert: synchronous
// copies where they cost less, hand-overs on the queue that does not gate
// the frame), cost no more than legacy's in any cell, the samples' too.
func TestEnhancedAtMostLegacy(t *testing.T) {
	cost := map[string]Row{}
	for _, r := range rows(t) {
		cost[r.Workload+"/"+r.Profile+"/"+string(r.Strategy)] = r
	}
	for _, w := range All() {
		for _, p := range hwmodel.ProfileNames() {
			l, e := cost[w.Name+"/"+p+"/legacy"], cost[w.Name+"/"+p+"/enhanced"]
			if e.Cycles > l.Cycles {
				t.Errorf("%s on %s: enhanced %d cycles (synchronous copy lists %v), legacy %d", w.Name, p, e.Cycles, e.SyncCopyLists, l.Cycles)
			}
		}
	}
}

// The expert's choices are made by cost, list by list, and written back
// as they were chosen: a list is synchronous only in the source it names.
func TestExpertCopyLists(t *testing.T) {
	src := "list A COPY flags ALLOW_EXTENDED_ASYNC\nend\nlist B DIRECT\nend\nlist C DIRECT flags ALLOW_EXTENDED_ASYNC\nend\n"
	sc := parseOne(t, src)
	if got := asyncLists(sc); len(got) != 2 || got[0] != "A" || got[1] != "C" {
		t.Errorf("asyncLists: %v", got)
	}
	if got := formatted(t, withSyncCopies(sc, "C")); got != "list A COPY flags ALLOW_EXTENDED_ASYNC\nend\nlist B DIRECT\nend\nlist C DIRECT\nend\n" {
		t.Errorf("withSyncCopies: %q", got)
	}
	if got := formatted(t, sc); got != src {
		t.Errorf("withSyncCopies changed the scenario it was given: %q", got)
	}
}

// Every report names what drives its ratios: where legacy decompresses,
// that first, with its share of legacy's extra cycles; where nothing is
// compressed, that.
func TestAssumptionsNamed(t *testing.T) {
	for _, p := range hwmodel.ProfileNames() {
		as := Assumptions(rows(t), p)
		prof, _ := hwmodel.LookupProfile(p)
		switch {
		case !prof.Compresses.RenderTarget && !prof.Compresses.DepthStencil:
			if !strings.Contains(as[0], "nothing is compressed") {
				t.Errorf("%s: %q", p, as[0])
			}
		case !strings.Contains(as[0], "decompresses") || !strings.Contains(as[0], "% of legacy's extra cycles"):
			t.Errorf("%s: decompression is not named first: %q", p, as)
		}
	}
}
