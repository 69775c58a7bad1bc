package hwmodel

import (
	"math/rand"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/require"
)

// TestMergedEffectsChangeNothing: merging a line's adjacent records of ops
// no reader to come can tell apart (merge.go) gives the same bytes, hazards
// and costs as keeping every record. Records are retired, and merged, after
// every packet; the random programs' waits leave ops of one stage alike
// and not, and their readers on other stages and engines unordered with
// them.
func TestMergedEffectsChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	merged := 0
	for i := 0; i < 300; i++ {
		data := make([]byte, 100+rng.Intn(1500))
		rng.Read(data)
		eager := func(m *Machine) { m.retireMin, m.retireAt = 0, 0 }
		apart := runFuzzProgramLines(t, data, i%2 == 1, eager, func(m *Machine) { m.noMerge = true })
		one := runFuzzProgramLines(t, data, i%2 == 1, eager)
		requireSameRun(t, apart, one, i)
		merged += one.effects.merged
	}
	require.NotZero(t, merged, "the programs merge records")
	t.Logf("%d records merged", merged)
}

// TestUAVChainMergesWhatItCan: in a chain of dispatches over one buffer
// with UAV barriers between them, every dispatch's reads and writes and a
// CP-stage reader (a CACHE flushing between two of them, which is ordered
// after none) see what they saw with every record kept; and the records
// in flight stay a few per line, not one per dispatch.
func TestUAVChainMergesWhatItCan(t *testing.T) {
	for _, prof := range Profiles() {
		t.Run(prof.Name, func(t *testing.T) {
			run := func(noMerge bool) (*Machine, int) {
				r := newRig(t, prof)
				r.m.noMerge = noMerge
				const size = 64 << 10
				buf := r.alloc("B", size)
				p := uavChain(r, buf, size, 48)
				p.cache(cmdbuf.AllCaches, 0)
				p.work(cmdbuf.WorkCopy, cmdbuf.StageCopy, rd(buf, size/2, cmdbuf.ClientCopy), wr(buf+size/2, size/2, cmdbuf.ClientCopy))
				peak := 0
				r.m.OnPacket(func(PacketCost) { peak = max(peak, r.m.effects.lines) })
				r.direct.Submit(p.buffer())
				require.NoError(t, r.m.Run())
				return r.m, peak
			}
			apart, peakApart := run(true)
			one, peak := run(false)
			t.Logf("peak records: %d merged, %d apart", peak, peakApart)
			requireSameRun(t, apart, one, 0)
			require.NotEmpty(t, one.Hazards(), "the copy, unordered with the dispatches, races them")
			require.NotZero(t, one.effects.merged)
			lines := (64 << 10) / LineSize
			require.Less(t, peak, 12*lines, "records in flight at the peak: a few a line, not one a dispatch")
		})
	}
}

// TestChainsOfWorkMergeAlike: random programs of chains of work, most of it
// in one or two stages held only by waits on those stages (so their
// records are merged), with readers and writers on other stages, engines
// behind fences, split barriers' events, CACHE packets and surfaces, give
// the same bytes, hazards
// and costs with records merged as kept apart — retiring after every
// packet or at the machine's own pace.
func TestChainsOfWorkMergeAlike(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	merged, faulted, hazards := 0, 0, 0
	for i := 0; i < 60; i++ {
		seed, prof, eager := rng.Int63(), Profiles()[i%len(Profiles())], i%3 != 2
		run := func(noMerge bool) *Machine {
			r := newRig(t, prof)
			r.m.noMerge = noMerge
			if eager {
				r.m.retireMin, r.m.retireAt = 0, 0
			} else {
				r.m.retireMin, r.m.retireAt = 64, 64
			}
			src := rand.New(rand.NewSource(seed))
			bufs := []uint64{r.alloc("a", 3<<12), r.alloc("b", 3<<12)}
			surf := r.surface("s", 3<<12, 1, src.Intn(2) == 0)
			fence := r.m.NewFence()
			at := func() (uint64, uint32) {
				if src.Intn(4) == 0 {
					base := surf
					off := uint64(src.Intn(3*16)) * 256
					return base + off, uint32(256 * (1 + src.Intn(int(3<<12-off)/256)))
				}
				base := bufs[src.Intn(len(bufs))]
				if src.Intn(2) == 0 { // whole blocks
					n := 1 + src.Intn(2)
					return base + uint64(src.Intn(4-n))<<12, uint32(n) << 12
				}
				off := 4 * src.Intn(3<<10-1)
				return base + uint64(off), uint32(4 * (1 + src.Intn(3<<10-off/4)))
			}
			access := func(dir cmdbuf.Dir, c cmdbuf.Client) cmdbuf.Access {
				a, n := at()
				acc := cmdbuf.Access{Addr: a, Size: uint64(n), Dir: dir, Client: c}
				if a >= surf && a < surf+3<<12 {
					acc = onSurface(acc, 1, src.Intn(2) == 0)
				}
				return acc
			}
			clients := []cmdbuf.Client{cmdbuf.ClientShaderStore, cmdbuf.ClientShaderLoad, cmdbuf.ClientColor, cmdbuf.ClientCopy}
			main := []cmdbuf.Stage{cmdbuf.StageCompute, cmdbuf.StagePixel}
			direct, compute := r.prog(), r.prog()
			signals, waits := 0, 0
			var events [NumEngineKinds]bool // an engine kind's event 1 was signalled
			for range 48 {
				p, e := direct, EngineDirect
				if src.Intn(5) == 0 {
					p, e = compute, EngineCompute
				}
				switch k := src.Intn(10); {
				case k < 6: // work, mostly in the main stages, with one client
					stage := main[src.Intn(len(main))]
					if src.Intn(4) == 0 {
						stage = []cmdbuf.Stage{cmdbuf.StageCopy, cmdbuf.StageColor, cmdbuf.StageVertex}[src.Intn(3)]
					}
					if e == EngineCompute {
						stage = []cmdbuf.Stage{cmdbuf.StageCompute, cmdbuf.StageCopy}[src.Intn(2)]
					}
					c := clients[src.Intn(2)]
					if stage == cmdbuf.StageColor {
						c = cmdbuf.ClientColor
					} else if stage == cmdbuf.StageCopy {
						c = cmdbuf.ClientCopy
					}
					wc := c
					if !writes(wc) {
						wc = cmdbuf.ClientShaderStore
					}
					if stage == cmdbuf.StageCopy { // into the second buffer, where it fits
						ra, n := at()
						n = min(n, 4096)
						wa := bufs[1] + uint64(4*src.Intn(int(3<<12-n)/4+1))
						p.work(cmdbuf.WorkCopy, stage, rd(ra, n, c), wr(wa, n, wc))
						continue
					}
					p.work(cmdbuf.WorkDispatch, stage, access(cmdbuf.DirRead, c), access(cmdbuf.DirWrite, wc))
				case k == 7 && src.Intn(2) == 0: // a split barrier: an event's signal, later its wait
					ev := &events[e]
					if *ev && src.Intn(2) == 0 {
						p.w = cmdbuf.AppendEventWait(p.w, cmdbuf.Event{ID: 1, Stages: stages(main[src.Intn(2)]) & e.Stages()})
					} else {
						p.w = cmdbuf.AppendEventSignal(p.w, cmdbuf.Event{ID: 1, Stages: stages(main[src.Intn(2)]) & e.Stages()})
						*ev = true
					}
				case k < 8: // a wait on the main stages, sometimes on more
					d := stages(main[src.Intn(2)])
					h := d
					if src.Intn(4) == 0 {
						d |= cmdbuf.StageMask(src.Intn(int(cmdbuf.AllStages) + 1))
					}
					if src.Intn(4) == 0 {
						h |= cmdbuf.StageMask(src.Intn(int(cmdbuf.AllStages) + 1))
					}
					if e == EngineCompute {
						d &= EngineCompute.Stages()
						h &= EngineCompute.Stages()
					}
					p.wait(d, h)
				case k == 8:
					p.cache(cmdbuf.CacheMask(src.Intn(int(cmdbuf.AllCaches)+1)), cmdbuf.CacheMask(src.Intn(int(cmdbuf.AllCaches)+1)))
				default: // the direct engine signals, the compute engine waits
					if src.Intn(2) == 0 {
						signals++
						direct.w = cmdbuf.AppendFenceSignal(direct.w, cmdbuf.Fence{ID: fence, Value: uint64(signals)})
					} else if waits < signals {
						waits++
						compute.w = cmdbuf.AppendFenceWait(compute.w, cmdbuf.Fence{ID: fence, Value: uint64(waits)})
					}
				}
			}
			r.direct.Submit(direct.buffer())
			r.compute.Submit(compute.buffer())
			require.NoError(t, r.m.Run())
			return r.m
		}
		apart, one := run(true), run(false)
		requireSameRun(t, apart, one, i)
		merged += one.effects.merged
		faulted += min(len(one.Faults()), 1)
		hazards += len(one.Hazards())
	}
	require.NotZero(t, merged, "the programs merge records")
	require.Less(t, faulted, 10, "programs run to their end")
	t.Logf("%d records merged, %d programs faulted, %d hazards", merged, faulted, hazards)
}

// TestOwnFillNeedsNoImage: a dispatch that reads a buffer through a cache
// that held none of it, then writes it, keeps no image of the lines it
// writes: its own record of filling them already rolls them back to
// invalid. What it holds is the buffer's bytes, not their images too.
func TestOwnFillNeedsNoImage(t *testing.T) {
	r := newRig(t, Profiles()[0]) // discrete: shader stores go through SHADER_L0
	const size = 1 << 20
	buf := r.alloc("B", size)
	// Bytes that repeat no dword, in memory and in no cache.
	r.run(r.direct, r.prog().work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(buf, size, cmdbuf.ClientShaderStore)))
	images := 0
	r.m.OnPacket(func(PacketCost) {
		for _, lv := range r.m.allLevels() {
			images = max(images, int(lv.undo.used)-len(lv.undo.free))
		}
	})
	r.run(r.direct, r.prog().work(cmdbuf.WorkDispatch, cmdbuf.StageCompute,
		rd(buf, size, cmdbuf.ClientShaderStore), wr(buf, size, cmdbuf.ClientShaderStore)))
	require.Zero(t, images, "line images kept while the dispatch was in flight")
}

// TestEventKeepsRecordsApart: two unordered dispatches write the same
// bytes with an EVENT_SIGNAL draining COMPUTE between them; nothing but
// the event's snapshot orders anything between the two. A draw held by
// the event's wait reads the bytes, ordered after the first dispatch and
// not the second: it must see the first's bytes, so the two records must
// stay apart (cutPoints counts the event's clock) — the same run as with
// every record kept.
func TestEventKeepsRecordsApart(t *testing.T) {
	for _, prof := range Profiles() {
		t.Run(prof.Name, func(t *testing.T) {
			run := func(noMerge bool) *Machine {
				r := newRig(t, prof)
				r.m.noMerge = noMerge
				r.m.retireMin, r.m.retireAt = 0, 0
				x, out := r.alloc("X", 4096), r.alloc("OUT", 4096)
				p := r.prog()
				p.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(x, 4096, cmdbuf.ClientShaderStore))
				p.w = cmdbuf.AppendEventSignal(p.w, cmdbuf.Event{ID: 1, Stages: stages(cmdbuf.StageCompute)})
				p.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(x, 4096, cmdbuf.ClientShaderStore))
				p.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(out, 64, cmdbuf.ClientShaderStore)) // a retire pass
				p.w = cmdbuf.AppendEventWait(p.w, cmdbuf.Event{ID: 1, Stages: stages(cmdbuf.StagePixel)})
				p.work(cmdbuf.WorkDraw, cmdbuf.StagePixel, rd(x, 4096, cmdbuf.ClientShaderStore), wr(out, 4096, cmdbuf.ClientShaderStore))
				r.direct.Submit(p.buffer())
				require.NoError(t, r.m.Run())
				require.Empty(t, r.m.Faults())
				return r.m
			}
			requireSameRun(t, run(true), run(false), 0)
		})
	}
}

// TestFenceKeepsRecordsApart: as TestEventKeepsRecordsApart, across
// engines: a fence signalled between two unordered dispatches on the
// direct engine orders a compute-engine read after the first and not the
// second, and the fence's clock keeps their records apart.
func TestFenceKeepsRecordsApart(t *testing.T) {
	for _, prof := range Profiles() {
		t.Run(prof.Name, func(t *testing.T) {
			run := func(noMerge bool) *Machine {
				r := newRig(t, prof)
				r.m.noMerge = noMerge
				r.m.retireMin, r.m.retireAt = 0, 0
				x, out := r.alloc("X", 4096), r.alloc("OUT", 4096)
				f := r.m.NewFence()
				a, b := r.prog(), r.prog()
				b.w = cmdbuf.AppendFenceWait(b.w, cmdbuf.Fence{ID: f, Value: 1})
				b.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, rd(x, 4096, cmdbuf.ClientShaderStore), wr(out, 4096, cmdbuf.ClientShaderStore))
				a.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(x, 4096, cmdbuf.ClientShaderStore))
				a.w = cmdbuf.AppendFenceSignal(a.w, cmdbuf.Fence{ID: f, Value: 1})
				a.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(x, 4096, cmdbuf.ClientShaderStore))
				a.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(out, 64, cmdbuf.ClientShaderStore)) // a retire pass
				r.compute.Submit(b.buffer())
				r.direct.Submit(a.buffer())
				require.NoError(t, r.m.Run())
				require.Empty(t, r.m.Faults())
				return r.m
			}
			requireSameRun(t, run(true), run(false), 0)
		})
	}
}
