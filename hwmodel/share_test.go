package hwmodel

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireHoldersCounted checks the copy-on-write bookkeeping of a machine:
// no block of bytes is held (by a cache's block or memory's) more often
// than its count of holders says, none the store took back is held, and
// every block of bytes it made is held or taken back (a recycled block
// keeps its own). Fewer holders than counted only costs a copy; more would
// let one holder write another's bytes; a block neither held nor taken
// back is lost to reuse.
func requireHoldersCounted(t *testing.T, m *Machine, what string) {
	t.Helper()
	held := map[*lineData]int{}
	for _, lv := range m.allLevels() {
		for _, b := range lv.blocks {
			if b.data != nil {
				held[b.data]++
			}
		}
		for _, b := range lv.spare { // recycled, with their own bytes
			if b.data != nil {
				held[b.data]++
			}
		}
	}
	for _, p := range m.mem.pages {
		for _, d := range p.blocks {
			if d != nil {
				held[d]++
			}
		}
	}
	s := m.mem.store
	for d, n := range held {
		counted := 1
		if c, ok := s.holders[d]; ok {
			counted = int(c)
		}
		require.LessOrEqual(t, n, counted, "%s: bytes %p held %d times, counted %d", what, d, n, counted)
	}
	for _, d := range s.free {
		require.Zero(t, held[d], "%s: bytes %p taken back but held", what, d)
	}
	require.Equal(t, s.made, len(held)+len(s.free), "%s: blocks of bytes made, against held and taken back", what)
}

// TestMemMatchesFlatModel: memory read, written, filled (whole pages
// uniform, parts byte by byte), discarded, sharing blocks with a cache and
// written by generators (whole blocks kept as the generator) holds what a
// flat array would, from a store whose recycled blocks hold garbage: no
// byte depends on what a block held before, and a block a cache borrowed
// keeps its bytes whatever memory does after. Equal agrees with the array
// over any range.
func TestMemMatchesFlatModel(t *testing.T) {
	const size = 4 * PageSize
	const base = 1 << 32
	rng := rand.New(rand.NewSource(9))
	for round := 0; round < 50; round++ {
		store := newDataStore()
		for range 8 { // garbage to recycle
			d := new(lineData)
			rng.Read(bytesOf(d)[:])
			store.free = append(store.free, d)
		}
		m := newMem(store)
		flat := make([]byte, size)
		for i := range flat {
			flat[i] = FillByte(base + uint64(i))
		}
		type borrowed struct {
			d    *lineData
			want [1 << blockShift]byte
		}
		var lent []borrowed // blocks a "cache" holds, shared with memory
		for step := 0; step < 200; step++ {
			off := uint64(rng.Intn(size))
			n := uint64(rng.Intn(int(size-off)) + 1)
			switch rng.Intn(8) {
			case 0: // write
				src := make([]byte, n)
				rng.Read(src)
				m.Write(base+off, src)
				copy(flat[off:], src)
			case 1: // fill, whole pages uniform
				v := byte(rng.Intn(3)) // 0 most of all: fresh blocks are not zero
				if rng.Intn(2) == 0 {
					off, n = off&^(PageSize-1), PageSize*uint64(1+rng.Intn(2))
					n = min(n, size-off)
				}
				m.Fill(base+off, n, v)
				for i := off; i < off+n; i++ {
					flat[i] = v
				}
			case 2: // discard whole pages: they read as fresh memory again
				off, n = off&^(PageSize-1), PageSize
				m.Discard(base+off, n)
				for i := off; i < off+n; i++ {
					flat[i] = FillByte(base + i)
				}
			case 3: // a cache borrows a block
				a := off &^ (1<<blockShift - 1)
				d := m.lend(base + a)
				lent = append(lent, borrowed{d, *bytesOf(d)})
			case 4: // a cache's block is written back whole into memory
				a := off &^ (1<<blockShift - 1)
				d := store.get()
				rng.Read(bytesOf(d)[:])
				store.lend(d) // the cache keeps it too
				lent = append(lent, borrowed{d, *bytesOf(d)})
				m.share(base+a, d)
				copy(flat[a:], bytesOf(d)[:])
			case 5: // a cache lets go of a block
				if len(lent) > 0 {
					i := rng.Intn(len(lent))
					shared := true
					store.drop(&lent[i].d, &shared)
					lent = append(lent[:i], lent[i+1:]...)
				}
			case 6, 7: // an op's output, kept as its generator where whole blocks
				if rng.Intn(2) == 0 { // whole blocks more often than chance
					off &^= 1<<blockShift - 1
					n = min(size-off, uint64(1+rng.Intn(3))<<blockShift)
				}
				g := generator{kind: genStream, seed: rng.Uint64(), origin: base + off - uint64(rng.Intn(64))}
				if rng.Intn(3) == 0 {
					g = generator{kind: genDword, seed: uint64(rng.Uint32())}
				}
				m.WriteGen(base+off, n, g)
				g.fill(flat[off:off+n], base+off)
			}
			got := make([]byte, size)
			m.Read(base, got)
			if !bytes.Equal(flat, got) {
				require.Equal(t, flat, got, "round %d step %d", round, step)
			}
			// Compared in place over any range, and a byte off is seen.
			off = uint64(rng.Intn(size))
			want := slices.Clone(flat[off : off+uint64(rng.Intn(int(size-off)))+1])
			require.True(t, m.Equal(base+off, want), "round %d step %d", round, step)
			want[rng.Intn(len(want))] ^= 1 << rng.Intn(8)
			require.False(t, m.Equal(base+off, want), "round %d step %d", round, step)
			for _, b := range lent {
				if b.want != *bytesOf(b.d) {
					t.Fatalf("round %d step %d: a borrowed block changed", round, step)
				}
			}
		}
	}
}

// TestLineBlockMasksAndTags: a block keeps its held lines' masks and tags
// as a table would, whether it holds them compactly (whole lines, one tag)
// or line by line, across every change between the two.
func TestLineBlockMasksAndTags(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	masks := []uint64{^uint64(0), 0, 0xff, 0xffff0000, 1 << 63}
	for round := 0; round < 200; round++ {
		var b lineBlock
		var want [blockLines]line
		var tags [blockLines]uint32
		for step := 0; step < 300; step++ {
			i := uint(rng.Intn(blockLines))
			switch rng.Intn(4) {
			case 0, 1: // store or fill: some valid bytes, some dirty
				v := masks[rng.Intn(len(masks))] | 1
				if rng.Intn(3) == 0 {
					v = ^uint64(0)
				}
				d := v & masks[rng.Intn(len(masks))]
				if rng.Intn(3) == 0 {
					d = v
				}
				b.held |= 1 << i
				b.setMask(i, v, d)
				if d != 0 {
					b.dirty |= 1 << i
				} else {
					b.dirty &^= 1 << i
				}
				want[i] = line{v, d}
			case 2: // drop
				b.held &^= 1 << i
				b.dirty &^= 1 << i
			case 3:
				g := uint32(rng.Intn(3))
				b.setTag(i, g)
				tags[i] = g
			}
			for j := range uint(blockLines) {
				if b.held>>j&1 == 0 {
					continue
				}
				if v, d := b.mask(j); want[j] != (line{v, d}) || tags[j] != b.tagOf(j) {
					t.Fatalf("round %d step %d line %d: masks %x %x tag %d, want %x %x tag %d",
						round, step, j, v, d, b.tagOf(j), want[j].valid, want[j].dirty, tags[j])
				}
			}
		}
	}
}

// TestMemPagesCountsMadeBlocks: a page counts as materialised once a block
// of it is made, by a write or a read, and no longer once discarded; a
// page filled whole is uniform and made of nothing, and blocks written
// whole by a generator are made of nothing until written in part.
func TestMemPagesCountsMadeBlocks(t *testing.T) {
	m := newMem(newDataStore())
	require.Zero(t, m.Pages())
	g := generator{kind: genStream, seed: 5, origin: 9*PageSize - 100}
	m.WriteGen(9*PageSize, PageSize, g)
	var got [64]byte
	m.Read(9*PageSize+1000, got[:])
	require.True(t, m.Equal(9*PageSize+1000, got[:]))
	require.Zero(t, m.Pages())
	m.Write(9*PageSize+1, []byte{1})
	require.Equal(t, 1, m.Pages())
	require.True(t, m.Equal(9*PageSize+1000, got[:]), "the block made from its generator")
	m.Discard(9*PageSize, PageSize)
	require.Zero(t, m.Pages())
	m.Write(PageSize+8, []byte{1})
	require.Equal(t, 1, m.Pages())
	var b [1]byte
	m.Read(5*PageSize, b[:])
	require.Equal(t, 2, m.Pages())
	m.Fill(3*PageSize, PageSize, 7)
	require.Equal(t, 2, m.Pages())
	m.Write(6*PageSize, make([]byte, PageSize)) // every block of a page
	require.Equal(t, 3, m.Pages())
	m.Discard(0, 8*PageSize)
	require.Zero(t, m.Pages())
}

// TestEffectNodesKeepEachLinesChain: lines an op changed alike share a node
// only when their chains below it are the same node, so every line's chain
// of effects — newest first, after logging and after retire compacts the
// records of ops gone — is what a chain a line would be. The model keeps
// one list a line.
func TestEffectNodesKeepEachLinesChain(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for round := 0; round < 300; round++ {
		m, err := New(Profiles()[0])
		require.NoError(t, err)
		lv := m.levels[0]
		b := lv.addFx(0)
		var model [blockLines][]uint32 // each line's effects' gids, newest first
		for op := 0; op < 1+rng.Intn(12); op++ {
			gid := uint32(len(m.ops))
			m.ops = append(m.ops, &opRec{gid: gid})
			b.effects = append(b.effects, lineEffect{gid: gid, reach: ^uint64(0)})
			first := uint64(rng.Intn(blockLines))
			lines := make([]uint64, 0, 20)
			for i := first; i < min(blockLines, first+uint64(1+rng.Intn(20))); i++ {
				lines = append(lines, i)
			}
			if rng.Intn(2) == 0 { // an op's accesses need not rise
				slices.Reverse(lines)
			}
			for _, i := range lines {
				b.push(i, uint32(len(b.effects)-1), true)
				model[i] = append([]uint32{gid}, model[i]...)
				m.effects.lines++
			}
		}
		chains := func(what string) {
			for i := range uint64(blockLines) {
				var got []uint32
				for k := b.newest[i]; k >= 0; k = b.nodes[k].older {
					nd := b.nodes[k]
					require.True(t, uint64(nd.line) <= i && i < uint64(nd.line)+uint64(nd.n), "%s: round %d line %d: a node of lines %d+%d", what, round, i, nd.line, nd.n)
					got = append(got, b.effects[nd.effect].gid)
				}
				require.Equal(t, model[i], got, "%s: round %d line %d", what, round, i)
			}
		}
		chains("logged")
		// Retire a random set of ops: a line drops a gone op's record
		// unless an older record of it is kept (all reach the whole line).
		gone := map[uint32]bool{}
		for _, op := range m.ops[1:] {
			gone[op.gid] = rng.Intn(2) == 0
		}
		for i := range model {
			var kept []uint32
			for j := len(model[i]) - 1; j >= 0; j-- { // oldest first
				if g := model[i][j]; !gone[g] || len(kept) > 0 {
					kept = append([]uint32{g}, kept...)
				}
			}
			model[i] = kept
		}
		m.effects.pass++
		m.retireEffects(func(o *opRec) bool { return gone[o.gid] })
		if len(lv.fx) == 0 {
			b = newFxBlock() // dropped: every chain is empty
		}
		chains("retired")
	}
}
