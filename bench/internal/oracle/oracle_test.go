package oracle

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/require"
)

// program is a random single-engine program: submissions of WORK packets
// over three buffers and two compression surfaces, with the recording's
// own (random) synchronisation, which the oracle must replace.
type program struct {
	profile string
	engine  hwmodel.EngineKind
	meta    [2]int // per surface: 0 undefined, 1 plain, 2 cleared
	subs    [][]uint32
}

const (
	bufSize  = 2048
	numBufs  = 3
	numSurfs = 2
)

// writer reports whether a client may write (hardware.md "Faults").
func writer(c cmdbuf.Client) bool {
	switch c {
	case cmdbuf.ClientCP, cmdbuf.ClientVertexFetch, cmdbuf.ClientConstFetch, cmdbuf.ClientShaderLoad, cmdbuf.ClientRTTraverse:
		return false
	}
	return true
}

// randomProgram draws a program; addrs are where run maps the buffers and
// then the surfaces. With wholeBlocks, writes through compression cover
// whole blocks.
func randomProgram(rng *rand.Rand, addrs []uint64, wholeBlocks bool) program {
	names := hwmodel.ProfileNames()
	p := program{profile: names[rng.IntN(len(names))],
		engine: []hwmodel.EngineKind{hwmodel.EngineDirect, hwmodel.EngineCompute, hwmodel.EngineCopy}[rng.IntN(3)]}
	for i := range p.meta {
		p.meta[i] = rng.IntN(3)
		if prof, _ := hwmodel.LookupProfile(p.profile); !prof.Aware[p.engine][cmdbuf.ClientBlit] {
			p.meta[i] = rng.IntN(2) // a cleared surface it could never decompress
		}
	}
	var stages []cmdbuf.Stage
	for s := range cmdbuf.NumStages {
		if p.engine.Stages().Has(s) && s != cmdbuf.StageCP {
			stages = append(stages, s)
		}
	}
	access := func(dir cmdbuf.Dir) cmdbuf.Access {
		i := rng.IntN(numBufs + numSurfs)
		size := uint32(rng.IntN(bufSize/16)+1) * 4
		if rng.IntN(3) == 0 {
			size = uint32(rng.IntN(4)+1) * hwmodel.BlockSize
		}
		off := uint64(rng.IntN(int(bufSize-size)/4+1)) * 4
		a := cmdbuf.Access{Addr: addrs[i] + off, Size: uint64(size), Dir: dir, Client: cmdbuf.Client(rng.IntN(int(cmdbuf.NumClients)))}
		for dir == cmdbuf.DirWrite && !writer(a.Client) {
			a.Client = cmdbuf.Client(rng.IntN(int(cmdbuf.NumClients)))
		}
		if i >= numBufs {
			a.Surface, a.Compressed = uint16(i-numBufs+1), rng.IntN(3) != 0
			if wholeBlocks && a.Compressed && dir == cmdbuf.DirWrite {
				const bs = hwmodel.BlockSize
				lo, hi := a.Addr/bs*bs, (a.End()+bs-1)/bs*bs
				a.Addr, a.Size = lo, hi-lo
			}
		}
		return a
	}
	for range rng.IntN(3) + 1 {
		var w []uint32
		var last uint32
		for range rng.IntN(10) + 1 {
			switch rng.IntN(8) {
			case 0:
				w = cmdbuf.AppendWait(w, cmdbuf.Wait{Drain: cmdbuf.AllStages, Hold: cmdbuf.StageCP.Mask()})
			case 1:
				w = cmdbuf.AppendCache(w, cmdbuf.CacheOp{Flush: cmdbuf.AllCaches, Invalidate: cmdbuf.AllCaches}, false)
			}
			work := cmdbuf.Work{Kind: cmdbuf.WorkKind(rng.IntN(int(cmdbuf.NumWorkKinds))),
				Stage: stages[rng.IntN(len(stages))], Duration: uint32(rng.IntN(200)), ID: rng.Uint32(), Param: rng.Uint32()}
			if last != 0 && rng.IntN(4) == 0 {
				work.Chained, work.ID = true, last
			}
			last = work.ID
			var acc []cmdbuf.Access
			if work.Kind.IsCopy() {
				r, wr := access(cmdbuf.DirRead), access(cmdbuf.DirWrite)
				if wholeBlocks && wr.Compressed {
					// The read matches the write's whole blocks.
					base := r.Addr - (r.Addr-addrs[0])%bufSize
					r.Size = wr.Size
					r.Addr = min(r.Addr, base+bufSize-uint64(r.Size))
				}
				r.Size = min(r.Size, wr.Size)
				wr.Size = r.Size
				if r.Addr < wr.End() && wr.Addr < r.End() {
					// A copy onto itself changes no byte, so nothing could
					// see it unordered: make it a work that computes.
					work.Kind = cmdbuf.WorkDispatch
				}
				acc = append(acc, r, wr)
			} else {
				// A third of a direct engine's work writes through a back
				// end that retires in order, as draws do.
				backEnd := cmdbuf.Client(0)
				if p.engine == hwmodel.EngineDirect && rng.IntN(3) == 0 {
					work.Stage, backEnd = cmdbuf.StageColor, cmdbuf.ClientColor
					if rng.IntN(2) == 0 {
						work.Stage, backEnd = cmdbuf.StageDepth, cmdbuf.ClientDepth
					}
				}
				// One work writing the same bytes twice races itself (a
				// compressing write stores whole blocks).
				blocks := func(a cmdbuf.Access) (uint64, uint64) {
					const bs = hwmodel.BlockSize
					return a.Addr / bs * bs, (a.End() + bs - 1) / bs * bs
				}
				for range rng.IntN(3) + 1 {
					a := access(cmdbuf.Dir(rng.IntN(2) + 1))
					if backEnd != 0 && a.Dir == cmdbuf.DirWrite {
						a.Client = backEnd
					}
					// A clear writes its one dword wherever it writes, so a
					// later copy between two of its ranges would change no
					// byte (as a copy onto itself, above): a clear writes
					// one range.
					clearTwice := work.Kind == cmdbuf.WorkClear && a.Dir == cmdbuf.DirWrite &&
						slices.ContainsFunc(acc, func(b cmdbuf.Access) bool { return b.Dir == cmdbuf.DirWrite })
					alo, ahi := blocks(a)
					if !clearTwice && !slices.ContainsFunc(acc, func(b cmdbuf.Access) bool {
						blo, bhi := blocks(b)
						return (a.Dir == cmdbuf.DirWrite || b.Dir == cmdbuf.DirWrite) && alo < bhi && blo < ahi
					}) {
						acc = append(acc, a)
					}
				}
			}
			w = cmdbuf.AppendWork(w, work, acc...)
		}
		p.subs = append(p.subs, w)
	}
	return p
}

// run runs a program with the oracle (edited by edit, if not nil) and
// returns what went wrong: hazards, faults, bytes unlike the reference.
func (p program) run(t testing.TB, edit Edit) []string {
	prof, err := hwmodel.LookupProfile(p.profile)
	require.NoError(t, err)
	m, err := hwmodel.New(prof)
	require.NoError(t, err)
	e, err := m.NewEngine(p.engine)
	require.NoError(t, err)
	var regions []hwmodel.Region
	for i := range numBufs {
		a, err := m.Allocate(bufSize, 0, false)
		require.NoError(t, err)
		regions = append(regions, hwmodel.Region{Name: fmt.Sprint("B", i), Addr: a, Size: bufSize})
	}
	for i := range numSurfs {
		id := uint16(i + 1)
		a, err := m.Allocate(bufSize+hwmodel.MetadataSize(bufSize), 0, false)
		require.NoError(t, err)
		require.NoError(t, m.DefineSurface(hwmodel.Surface{ID: id, Base: a, Size: bufSize, Meta: a + bufSize}))
		switch p.meta[i] {
		case 1:
			require.NoError(t, m.InitializeMetadataPlain(id))
		case 2:
			// Each its own value: a copy between them changes bytes.
			require.NoError(t, m.InitializeMetadata(id, 0x5c+byte(i)*0x21))
		}
		regions = append(regions, hwmodel.Region{Name: fmt.Sprint("S", i), Addr: a, Size: bufSize, Surface: id})
	}
	r := Rewriter(edit)
	m.SetRewriter(func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
		out, err := r(e, bufs)
		if onRewrite != nil {
			onRewrite(out)
		}
		return out, err
	})
	for i, w := range p.subs {
		b := cmdbuf.NewBuffer(0)
		b.SetName(fmt.Sprint("sub", i))
		b.Append(w)
		e.Submit(b)
		if i%2 == 1 {
			require.NoError(t, m.Run())
		}
	}
	require.NoError(t, m.Run())
	var bad []string
	for _, h := range m.Hazards() {
		bad = append(bad, h.Message)
	}
	for _, f := range m.Faults() {
		bad = append(bad, f.Reason)
	}
	diffs, err := m.Compare(regions...)
	require.NoError(t, err)
	for _, d := range diffs {
		bad = append(bad, d.String())
	}
	return bad
}

// onRewrite, when set, sees what the oracle made of each submission.
var onRewrite func([]*cmdbuf.Buffer)

// listing runs p again and lists what the oracle made of it, for a
// failure's message.
func (p program) listing(t testing.TB) string {
	var b strings.Builder
	onRewrite = func(bufs []*cmdbuf.Buffer) {
		for _, buf := range bufs {
			fmt.Fprintf(&b, "submission:\n")
			_ = cmdbuf.WriteListing(&b, cmdbuf.Listing(buf, nil))
		}
	}
	defer func() { onRewrite = nil }()
	p.run(t, nil)
	return b.String()
}

// addrs are where run maps the buffers and surfaces: the same on every
// machine, as allocation is deterministic.
func addrs(t testing.TB) []uint64 {
	m, err := hwmodel.New(hwmodel.Profiles()[0])
	require.NoError(t, err)
	var out []uint64
	for range numBufs {
		a, err := m.Allocate(bufSize, 0, false)
		require.NoError(t, err)
		out = append(out, a)
	}
	for range numSurfs {
		a, err := m.Allocate(bufSize+hwmodel.MetadataSize(bufSize), 0, false)
		require.NoError(t, err)
		out = append(out, a)
	}
	return out
}

// TestRandomProgramsRunClean: whatever a single-engine program does, the
// oracle's synchronisation makes it hazard-free with the reference bytes
// on every profile.
func TestRandomProgramsRunClean(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	at := addrs(t)
	for i := range 2000 {
		p := randomProgram(rng, at, false)
		if bad := p.run(t, nil); len(bad) > 0 {
			t.Fatalf("program %d (%s, %s): %d problems, first: %s\n%s", i, p.profile, p.engine, len(bad), bad[0], p.listing(t))
		}
	}
}

// TestEveryPacketIsNeeded: dropping any one packet the oracle emits, or
// one stage of a WAIT's drain, or one cache of a CACHE packet, breaks the
// program — the oracle emits nothing a program could do without.
//
// Here writes through compression cover whole blocks. One that covers part
// of a block stores the rest again, re-encoded, and the oracle orders later
// accesses of the rest after it; the model cannot see a reader miss that
// (the bytes mean the same before and after), but hardware can read the
// block half re-encoded.
func TestEveryPacketIsNeeded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	at := addrs(t)
	seen := map[cmdbuf.Opcode]int{}
	for i := range 300 {
		p := randomProgram(rng, at, true)
		requireEveryPacketNeeded(t, fmt.Sprint("program ", i), p, seen)
	}
	for _, op := range []cmdbuf.Opcode{cmdbuf.OpWait, cmdbuf.OpCache, cmdbuf.OpDecompress, cmdbuf.OpMetadataInit} {
		require.NotZero(t, seen[op], "no program made the oracle emit %s", op)
	}
	t.Logf("packets checked: %v", seen)
}

// requireEveryPacketNeeded runs p with each packet the oracle emits
// weakened in turn (seen counts them by opcode) and requires every run to
// fail.
func requireEveryPacketNeeded(t *testing.T, name string, p program, seen map[cmdbuf.Opcode]int) {
	t.Helper()
	var emitted [][]uint32
	p.run(t, func(_ int, w []uint32) []uint32 { emitted = append(emitted, append([]uint32(nil), w...)); return w })
	for k, w := range emitted {
		for _, v := range weakenings(w) {
			bad := p.run(t, func(n int, w []uint32) []uint32 {
				if n == k {
					return v.words
				}
				return w
			})
			if len(bad) == 0 {
				pk, _ := cmdbuf.Decode(w, 0)
				t.Fatalf("%s (%s, %s): packet %d, %s, %s: the program still runs clean\n%s",
					name, p.profile, p.engine, k, cmdbuf.Describe(pk), v.what, p.listing(t))
			}
		}
		seen[cmdbuf.Header(w[0]).Op()]++
	}
}

// TestKnownCases are programs the random ones found once, kept so the
// rules they need stay tested whatever the random programs draw.
func TestKnownCases(t *testing.T) {
	at := addrs(t)
	b0 := at[0]
	work := func(stage cmdbuf.Stage, acc ...cmdbuf.Access) []uint32 {
		return cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkDispatch, Stage: stage, Duration: 50, ID: uint32(len(acc)) + uint32(stage)<<8}, acc...)
	}
	acc := func(dir cmdbuf.Dir, lo, hi uint64, c cmdbuf.Client) cmdbuf.Access {
		return cmdbuf.Access{Addr: b0 + lo, Size: hi - lo, Dir: dir, Client: c}
	}
	rd := func(lo, hi uint64, c cmdbuf.Client) cmdbuf.Access { return acc(cmdbuf.DirRead, lo, hi, c) }
	wr := func(lo, hi uint64, c cmdbuf.Client) cmdbuf.Access { return acc(cmdbuf.DirWrite, lo, hi, c) }
	for _, c := range []struct {
		name string
		p    program
	}{
		{
			// A flush over a range holding the dirty bytes of a write it
			// is not ordered after leaves them dirty: a later reader of
			// them needs its own flush.
			"a flush sees only the writes it follows",
			program{profile: "discrete", engine: hwmodel.EngineCompute, subs: [][]uint32{slices.Concat(
				work(cmdbuf.StageCopy, wr(0x400, 0x500, cmdbuf.ClientStreamOut)),
				work(cmdbuf.StageRaytrace, wr(0x000, 0x100, cmdbuf.ClientStreamOut), wr(0x600, 0x700, cmdbuf.ClientStreamOut)),
				work(cmdbuf.StageASBuild, rd(0x000, 0x100, cmdbuf.ClientColor), rd(0x600, 0x700, cmdbuf.ClientColor)),
				work(cmdbuf.StageASBuild, rd(0x400, 0x500, cmdbuf.ClientColor)),
			)}},
		},
		{
			// A read fills whole lines: the bytes beside it that a write
			// it does not follow is writing come in stale, which a reader
			// ordered after both then hits (it follows the first read
			// because it writes what that one read).
			"a miss fills stale bytes beside the read",
			program{profile: "discrete", engine: hwmodel.EngineDirect, subs: [][]uint32{slices.Concat(
				work(cmdbuf.StageClear, wr(0x4fc, 0x71c, cmdbuf.ClientCopy)),
				work(cmdbuf.StageCopy, rd(0x738, 0x7a0, cmdbuf.ClientConstFetch)),
				work(cmdbuf.StageInput, rd(0x6d4, 0x720, cmdbuf.ClientRTTraverse), wr(0x780, 0x7a0, cmdbuf.ClientShaderStore)),
			)}},
		},
		{
			// The same without the later write: the reader does not follow
			// the first read, so it does not see what that one filled,
			// and nothing need be dropped.
			"a miss a reader does not follow fills nothing it sees",
			program{profile: "discrete", engine: hwmodel.EngineDirect, subs: [][]uint32{slices.Concat(
				work(cmdbuf.StageClear, wr(0x4fc, 0x71c, cmdbuf.ClientCopy)),
				work(cmdbuf.StageCopy, rd(0x738, 0x7a0, cmdbuf.ClientConstFetch)),
				work(cmdbuf.StageInput, rd(0x6d4, 0x720, cmdbuf.ClientRTTraverse)),
			)}},
		},
	} {
		if bad := c.p.run(t, nil); len(bad) > 0 {
			t.Fatalf("%s: %s\n%s", c.name, bad[0], c.p.listing(t))
		}
		requireEveryPacketNeeded(t, c.name, c.p, map[cmdbuf.Opcode]int{})
	}
}

type weakening struct {
	what  string
	words []uint32
}

// weakenings lists a packet's weaker forms: dropped, and with each stage
// of a WAIT's drain or each cache of a CACHE packet left out.
func weakenings(w []uint32) []weakening {
	out := []weakening{{"dropped", nil}}
	p, err := cmdbuf.Decode(w, 0)
	if err != nil {
		return out
	}
	switch p.Op() {
	case cmdbuf.OpWait:
		wt := p.Wait()
		for s := range cmdbuf.NumStages {
			if wt.Drain.Has(s) && wt.Drain != s.Mask() {
				out = append(out, weakening{"without draining " + s.String(),
					cmdbuf.AppendWait(nil, cmdbuf.Wait{Drain: wt.Drain &^ s.Mask(), Hold: wt.Hold})})
			}
		}
	case cmdbuf.OpCache:
		c := p.Cache()
		for k := range cmdbuf.NumCaches {
			if c.Flush.Has(k) && (c.Flush|c.Invalidate) != k.Mask() {
				d := c
				d.Flush &^= k.Mask()
				out = append(out, weakening{"without flushing " + k.String(), cmdbuf.AppendCache(nil, d, false)})
			}
			if c.Invalidate.Has(k) && (c.Flush|c.Invalidate) != k.Mask() {
				d := c
				d.Invalidate &^= k.Mask()
				out = append(out, weakening{"without invalidating " + k.String(), cmdbuf.AppendCache(nil, d, false)})
			}
		}
	}
	return out
}

func TestExtents(t *testing.T) {
	var m extents[int]
	m.set(10, 20, 1)
	m.set(15, 30, 2)
	m.set(0, 5, 3)
	m.clear(12, 13)
	var got []string
	m.each(0, 100, func(lo, hi uint64, v int) { got = append(got, fmt.Sprintf("%d-%d:%d", lo, hi, v)) })
	require.Equal(t, "0-5:3 10-12:1 13-15:1 15-20:2 20-30:2", strings.Join(got, " "))
	m.update(0, 40, func(lo, hi uint64, v int, ok bool) (int, bool) { return v + 10, ok || lo >= 30 })
	got = nil
	m.each(0, 100, func(lo, hi uint64, v int) { got = append(got, fmt.Sprintf("%d-%d:%d", lo, hi, v)) })
	require.Equal(t, "0-5:13 10-12:11 13-15:11 15-20:12 20-30:12 30-40:10", strings.Join(got, " "))
	require.True(t, m.any(11, 12, func(v int) bool { return v == 11 }))
	require.False(t, m.any(5, 10, func(int) bool { return true }))
}
