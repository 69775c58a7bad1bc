package hwmodel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzProgram builds, from fuzz bytes, a machine with three engines, four
// buffers and two surfaces, and submits mostly well-formed random programs
// (with some raw garbage) to it.
type fuzzSource struct {
	data []byte
	i    int
}

func (s *fuzzSource) byte() byte {
	if s.i >= len(s.data) {
		return 0
	}
	b := s.data[s.i]
	s.i++
	return b
}

func (s *fuzzSource) u32() uint32 {
	return uint32(s.byte()) | uint32(s.byte())<<8 | uint32(s.byte())<<16 | uint32(s.byte())<<24
}

func (s *fuzzSource) done() bool { return s.i >= len(s.data) }

// fuzzLog, when set, sees every submission (for debugging a seed).
var fuzzLog func(*Engine, *cmdbuf.Buffer)

func runFuzzProgram(t *testing.T, data []byte, configure ...func(*Machine)) *Machine {
	return runFuzzProgramLines(t, data, false, configure...)
}

// runFuzzProgramLines is runFuzzProgram with, if whole, every access whole
// lines: the block paths (readBlock, storeAbsent) serve only those, and
// random offsets and sizes seldom are.
func runFuzzProgramLines(t *testing.T, data []byte, whole bool, configure ...func(*Machine)) *Machine {
	src := &fuzzSource{data: data}
	p := Profiles()[int(src.byte())%len(Profiles())]
	m, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range configure {
		c(m)
	}
	var engines []*Engine
	for _, k := range []EngineKind{EngineDirect, EngineCompute, EngineCopy, EngineVideoDecode} {
		e, err := m.NewEngine(k)
		if err != nil {
			t.Fatal(err)
		}
		engines = append(engines, e)
	}
	var bufs []uint64
	for i := 0; i < 4; i++ {
		a, _ := m.Allocate(4096, 0, i == 3)
		bufs = append(bufs, a)
	}
	var surfs []uint64
	for i := 0; i < 2; i++ {
		a, _ := m.Allocate(4096+MetadataSize(4096), 0, false)
		_ = m.DefineSurface(Surface{ID: uint16(i + 1), Base: a, Size: 4096, Meta: a + 4096})
		if src.byte()&1 == 0 {
			_ = m.InitializeMetadata(uint16(i+1), src.byte())
		}
		surfs = append(surfs, a)
	}
	fences := []uint32{m.NewFence(), m.NewFence()}
	m.RegisterBuffer(1, cmdbuf.FromWords(cmdbuf.AppendWait(nil, cmdbuf.Wait{Drain: cmdbuf.AllStages, Hold: cmdbuf.AllStages})))

	access := func() cmdbuf.Access {
		var a cmdbuf.Access
		sel := src.byte()
		off := uint64(src.byte()) * 16
		size := uint32(src.byte()%32+1) * 16
		if whole {
			off, size = off&^(LineSize-1), (size+LineSize-1)&^(LineSize-1)
			if src.byte()%4 == 0 { // the whole buffer: a block
				off, size = 0, 4096
			}
		}
		if off+uint64(size) > 4096 {
			off = 4096 - uint64(size)
		}
		if sel&1 == 0 {
			a.Addr = bufs[int(sel>>1)%len(bufs)] + off
		} else {
			i := int(sel>>1) % len(surfs)
			a.Addr, a.Surface, a.Compressed = surfs[i]+off, uint16(i+1), sel&4 != 0
		}
		a.Size = uint64(size)
		a.Dir = cmdbuf.Dir(src.byte()%2 + 1)
		a.Client = cmdbuf.Client(src.byte() % byte(cmdbuf.NumClients))
		for a.Dir == cmdbuf.DirWrite && !writes(a.Client) && src.byte()%16 != 0 {
			a.Client = (a.Client + 1) % cmdbuf.NumClients
		}
		return a
	}
	var lastID uint32
	for !src.done() {
		e := engines[int(src.byte())%len(engines)]
		var w []uint32
		for k := int(src.byte()%12) + 1; k > 0 && !src.done(); k-- {
			switch src.byte() % 13 {
			case 0, 1, 2, 3:
				kind := cmdbuf.WorkKind(src.byte() % byte(cmdbuf.NumWorkKinds))
				stage := cmdbuf.Stage(src.byte() % byte(cmdbuf.NumStages))
				if src.byte()%8 != 0 { // mostly a stage the engine has
					for !e.kind.Stages().Has(stage) {
						stage = (stage + 1) % cmdbuf.NumStages
					}
				}
				var acc []cmdbuf.Access
				for j := int(src.byte() % 4); j >= 0; j-- {
					acc = append(acc, access())
				}
				if kind.IsCopy() && len(acc) >= 2 {
					acc[0].Dir, acc[1].Dir = cmdbuf.DirRead, cmdbuf.DirWrite
					acc[1].Size = acc[0].Size
					acc = acc[:2]
				}
				work := cmdbuf.Work{Kind: kind, Stage: stage, Duration: uint32(src.byte()), ID: src.u32(), Param: src.u32()}
				if src.byte()%4 == 0 { // mostly continuing the last WORK
					work.Chained = true
					if src.byte()%8 != 0 {
						work.ID = lastID
					}
				}
				lastID = work.ID
				w = cmdbuf.AppendWork(w, work, acc...)
			case 4, 5:
				w = cmdbuf.AppendWait(w, cmdbuf.Wait{Drain: cmdbuf.StageMask(src.u32()) & cmdbuf.AllStages, Hold: cmdbuf.StageMask(src.u32()) & cmdbuf.AllStages})
			case 6:
				w = cmdbuf.AppendCache(w, cmdbuf.CacheOp{Flush: cmdbuf.CacheMask(src.byte()) & cmdbuf.AllCaches,
					Invalidate: cmdbuf.CacheMask(src.byte()) & cmdbuf.AllCaches}, src.byte()&1 == 0)
			case 7:
				r := cmdbuf.SurfaceRegion{Surface: uint16(src.byte()%2 + 1), Offset: uint64(src.byte()%16) * BlockSize,
					Size: uint64(src.byte()%4+1) * BlockSize, Value: src.byte(), Plain: src.byte()%3 == 0}
				if src.byte()&1 == 0 {
					w = cmdbuf.AppendDecompress(w, r, src.byte()&1 == 0)
				} else {
					w = cmdbuf.AppendMetadataInit(w, r, src.byte()&1 == 0)
				}
			case 8:
				ev := cmdbuf.Event{ID: uint32(src.byte() % 3), Stages: cmdbuf.StageMask(src.u32()) & cmdbuf.AllStages}
				if src.byte()&1 == 0 {
					w = cmdbuf.AppendEventSignal(w, ev)
				} else {
					w = cmdbuf.AppendEventWait(w, ev)
				}
			case 9:
				f := cmdbuf.Fence{ID: fences[src.byte()%2], Value: uint64(src.byte() % 3)}
				if src.byte()&1 == 0 {
					w = cmdbuf.AppendFenceSignal(w, f)
				} else {
					w = cmdbuf.AppendFenceWait(w, f)
				}
			case 10:
				w = cmdbuf.AppendCall(w, cmdbuf.Call{Buffer: uint32(src.byte() % 3)})
			case 11:
				w = append(w, src.u32())
			default:
				w = cmdbuf.AppendWork(w, cmdbuf.Work{Kind: cmdbuf.WorkCopy, Stage: cmdbuf.StageCopy, Duration: 10, ID: src.u32()},
					func() cmdbuf.Access { a := access(); a.Dir, a.Client = cmdbuf.DirRead, cmdbuf.ClientCopy; return a }(),
					func() cmdbuf.Access { a := access(); a.Dir, a.Client = cmdbuf.DirWrite, cmdbuf.ClientCopy; return a }())
			}
		}
		b := cmdbuf.NewBuffer(64)
		b.Append(w)
		if fuzzLog != nil {
			fuzzLog(e, b)
		}
		e.Submit(b)
		if src.byte()%4 == 0 {
			if err := m.Run(); err != nil && !errors.Is(err, ErrDeadlock) {
				t.Fatal(err)
			}
		}
	}
	if err := m.Run(); err != nil && !errors.Is(err, ErrDeadlock) {
		t.Fatal(err)
	}
	var regions []Region
	for i, b := range bufs {
		regions = append(regions, Region{Name: string(rune('A' + i)), Addr: b, Size: 4096})
	}
	for i, s := range surfs {
		regions = append(regions, Region{Name: "S", Addr: s, Size: 4096, Surface: uint16(i + 1)})
	}
	if _, err := m.Compare(regions...); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRandomProgramsAreExplained runs a thousand seeded random programs:
// what FuzzMachine checks, on a fixed corpus every test run.
func TestRandomProgramsAreExplained(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	seen := map[HazardKind]int{}
	for i := 0; i < 1000; i++ {
		data := make([]byte, 100+rng.Intn(1500))
		rng.Read(data)
		m := runFuzzProgram(t, data)
		for _, h := range m.Hazards() {
			seen[h.Kind]++
			if h.Kind == HazardUnexplained {
				t.Fatalf("program %d: %s", i, h.Message)
			}
		}
	}
	for k := HazardKind(0); k < HazardUnexplained; k++ {
		if k != HazardMissingFlush && k != HazardMissingInvalidate {
			assert.NotZero(t, seen[k], "random programs never produce %s", k)
		}
	}
}

// TestEagerRetireChangesNothing: dropping effects as soon as no engine can
// be unordered with them (here after every packet) must give the same
// bytes, hazards and costs as keeping them to the end of the submission.
func TestEagerRetireChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 300; i++ {
		data := make([]byte, 100+rng.Intn(1500))
		rng.Read(data)
		lazy := runFuzzProgram(t, data, func(m *Machine) { m.retireMin, m.retireAt = 1<<30, 1<<30 })
		eager := runFuzzProgram(t, data, func(m *Machine) { m.retireMin, m.retireAt = 0, 0 })
		requireSameRun(t, lazy, eager, i)
	}
}

// TestBlockPathsChangeNothing: the frame-scale paths — reading a block of
// lines one level serves whole, storing whole lines into a block a cache
// holds none of, writing a block back straight into memory, invalidating a
// block of clean lines at once — and a CACHE packet that finds nothing
// going without an op, must give the same bytes, hazards and costs as
// doing it all line by line. Half the programs access whole lines only,
// and a quarter of their accesses are whole blocks, which the block paths
// need; half of those retire records after every packet, so that a block
// written whole can be written back whole (flushBlock) by an op that is
// not settled, logging what it changed. (Random programs seldom leave a
// block in a cache with nothing in flight:
// TestSettledBlockPathsChangeNothing.)
func TestBlockPathsChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	eager := func(m *Machine) { m.retireMin, m.retireAt = 0, 0 }
	for i := 0; i < 600; i++ {
		data := make([]byte, 100+rng.Intn(1500))
		rng.Read(data)
		whole := i%2 == 1
		var opts []func(*Machine)
		if i%4 == 3 {
			opts = append(opts, eager)
		}
		block := runFuzzProgramLines(t, data, whole, opts...)
		line := runFuzzProgramLines(t, data, whole, append(opts, (*Machine).setPerLine)...)
		requireSameRun(t, block, line, i)
		requireHoldersCounted(t, block, fmt.Sprintf("program %d", i))
	}
}

// requireSameRun requires two runs of program i to end alike: hazards,
// faults, every engine's counters and all mapped memory.
func requireSameRun(t *testing.T, a, b *Machine, i int) {
	t.Helper()
	require.Equal(t, a.Hazards(), b.Hazards(), "program %d", i)
	require.Equal(t, a.Faults(), b.Faults(), "program %d", i)
	for j := range a.Engines() {
		require.Equal(t, a.Engines()[j].Counters(), b.Engines()[j].Counters(), "program %d", i)
	}
	for _, mp := range a.mappings {
		x, y := make([]byte, mp.size), make([]byte, mp.size)
		a.mem.Read(mp.base, x)
		b.mem.Read(mp.base, y)
		require.Equal(t, x, y, "program %d: memory at 0x%x", i, mp.base)
	}
}

// FuzzMachine: random packet streams never panic the model; faults and
// deadlocks are reported, not thrown; and every mismatch the model serves
// is explained by a hazard kind other than "unexplained".
func FuzzMachine(f *testing.F) {
	f.Add([]byte{0, 1, 2, 0, 5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	f.Add([]byte{1, 0, 0, 0, 7, 3, 0, 9, 9, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 4, 5, 6, 7})
	f.Add([]byte{2, 1, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 1, 1, 4, 255, 255, 255, 255})
	raw := make([]byte, 64)
	binary.LittleEndian.PutUint32(raw[8:], uint32(cmdbuf.MakeHeader(cmdbuf.OpWork, 0, 100)))
	f.Add(raw)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			data = data[:4096]
		}
		m := runFuzzProgram(t, data)
		for _, h := range m.Hazards() {
			if h.Kind == HazardUnexplained {
				t.Fatalf("unexplained hazard: %s", h.Message)
			}
		}
	})
}

// TestSettledBlockPathsChangeNothing: programs on one engine whose work is
// mostly settled by full waits, over whole lines and often whole blocks, so
// that blocks sit in caches with no effect in flight — where a read is
// served a block at a time by a cache (readBlock) and the caches it fills
// share the block's bytes, a whole block is written back into a cache by
// sharing its bytes (flushBlock), and write-backs go straight to memory —
// give the same bytes, hazards and costs as line by line. Every read feeds
// a write, so a wrong byte served shows in memory as well as in a hazard.
// Half the programs retire records after every packet, as a frame's long
// passes do, so that no effect is left in flight under a settled block.
func TestSettledBlockPathsChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 300; i++ {
		seed := rng.Int63()
		prof := Profiles()[i%len(Profiles())]
		eager := i%2 == 1
		run := func(perLine bool) *Machine {
			r := newRig(t, prof)
			if perLine {
				r.m.setPerLine()
			}
			if eager {
				r.m.retireMin, r.m.retireAt = 0, 0
			}
			src := rand.New(rand.NewSource(seed))
			bufs := []uint64{r.alloc("a", 3<<12), r.alloc("b", 3<<12), r.alloc("c", 3<<12)}
			p := r.prog()
			for range 40 {
				c := cmdbuf.Client(src.Intn(int(cmdbuf.NumClients)))
				at := func() (uint64, uint32) {
					lines := 1 + src.Intn(96)
					off := src.Intn(3*64 - lines + 1)
					if src.Intn(2) == 0 { // whole blocks
						lines = blockLines * (1 + src.Intn(2))
						off = blockLines * src.Intn(3-lines/blockLines+1)
					}
					return bufs[src.Intn(len(bufs))] + uint64(off)*LineSize, uint32(lines) * LineSize
				}
				switch src.Intn(6) {
				case 0, 1, 2: // read, and write what was read somewhere
					ra, rn := at()
					wa, wn := at()
					wc := c
					for !writes(wc) {
						wc = (wc + 1) % cmdbuf.NumClients
					}
					p.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, rd(ra, rn, c), wr(wa, wn, wc))
				case 3:
					p.cache(cmdbuf.CacheMask(src.Intn(int(cmdbuf.AllCaches)+1)), cmdbuf.CacheMask(src.Intn(int(cmdbuf.AllCaches)+1)))
				default:
					p.wait(cmdbuf.AllStages, cmdbuf.AllStages)
				}
				if src.Intn(4) != 0 {
					p.wait(cmdbuf.AllStages, cmdbuf.AllStages)
				}
			}
			r.run(r.direct, p)
			return r.m
		}
		block := run(false)
		requireSameRun(t, block, run(true), i)
		requireHoldersCounted(t, block, fmt.Sprintf("program %d", i))
	}
}
