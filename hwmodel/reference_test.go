package hwmodel

import (
	"math/rand"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference names each dword's last writer, keeping one gid for a
// page one op wrote whole and a table where writes cover part of one; the
// two forms give the same answers as a table per page would.
func TestReferenceWriters(t *testing.T) {
	r := newReference(nil)
	const base = 0x100000000
	pg := func(i uint64) uint64 { return base + i*PageSize }

	// A whole page: one writer, no table.
	r.fill(pg(0), PageSize, 0xaa, 7)
	assert.Equal(t, uint32(7), r.writer(pg(0)))
	assert.Equal(t, uint32(7), r.writer(pg(0)+PageSize-4))
	assert.Empty(t, r.writers)
	assert.Equal(t, map[uint64]uint32{pg(0) / PageSize: 7}, r.uniform)

	// Part of it: a table that keeps the rest's writer.
	r.fill(pg(0)+64, 8, 0, 9)
	assert.Equal(t, uint32(7), r.writer(pg(0)+60))
	assert.Equal(t, uint32(9), r.writer(pg(0)+64))
	assert.Equal(t, uint32(9), r.writer(pg(0)+68))
	assert.Equal(t, uint32(7), r.writer(pg(0)+72))
	assert.Len(t, r.writers, 1)
	assert.Empty(t, r.uniform)
	assert.Equal(t, uint32(9), r.lastWriter(pg(0), PageSize))
	assert.Equal(t, uint32(7), r.lastWriter(pg(0)+72, 64))

	// Whole again: the table goes back to the spares.
	r.fill(pg(0), PageSize, 0, 11)
	assert.Equal(t, uint32(11), r.writer(pg(0)+64))
	assert.Empty(t, r.writers)
	assert.Len(t, r.spare, 1)

	// A write across two pages' edge, whole on neither; then a range over
	// a written page, an unwritten one and a uniform one.
	r.fill(pg(2)-8, 16, 0, 13)
	assert.Equal(t, uint32(0), r.writer(pg(2)-12))
	assert.Equal(t, uint32(13), r.writer(pg(2)-8))
	assert.Equal(t, uint32(13), r.writer(pg(2)+4))
	assert.Equal(t, uint32(0), r.writer(pg(2)+8))
	assert.Equal(t, uint32(13), r.lastWriter(pg(1), 2*PageSize))
	assert.Equal(t, uint32(11), r.lastWriter(pg(0), PageSize))
	assert.Equal(t, uint32(0), r.lastWriter(pg(3), 64), "nobody wrote page 3 yet")

	// A page written in parts by one op, in any order: one writer again,
	// once the last part is in (reaching the page's start or its end), and
	// no table.
	r.fill(pg(4)+PageSize/2, PageSize/4, 0, 17)
	r.fill(pg(4)+PageSize/4, PageSize/4, 0, 17)
	r.fill(pg(4)+3*PageSize/4, PageSize/4, 0, 17)
	assert.Contains(t, r.writers, pg(4)/PageSize)
	r.fill(pg(4)-4, PageSize/4+4, 0, 17)
	assert.NotContains(t, r.writers, pg(4)/PageSize)
	assert.Equal(t, uint32(17), r.uniform[pg(4)/PageSize])
	assert.Equal(t, uint32(17), r.writer(pg(4)+PageSize-4))
	r.fill(pg(5), PageSize/2, 0, 19) // and when the last part ends the page
	assert.Contains(t, r.writers, pg(5)/PageSize)
	r.fill(pg(5)+PageSize/2, PageSize/2, 0, 19)
	assert.NotContains(t, r.writers, pg(5)/PageSize)
	assert.Equal(t, uint32(19), r.uniform[pg(5)/PageSize])

	// The CPU writing part of a uniform page: those dwords' writer is
	// nobody.
	r.fill(pg(3), PageSize, 2, 15)
	r.fill(pg(3)+128, 4, 0, 0)
	assert.Equal(t, uint32(0), r.writer(pg(3)+128))
	assert.Equal(t, uint32(15), r.writer(pg(3)+132))

	// A whole page written by nobody (the CPU): no writer, no entry.
	r.fill(pg(0), PageSize, 0, 0)
	assert.Equal(t, uint32(0), r.writer(pg(0)))
	assert.NotContains(t, r.uniform, pg(0)/PageSize)

	// Discarded memory has no writers left.
	r.fill(pg(4), 2*PageSize, 1, 17)
	r.discard(pg(1), 5*PageSize)
	for i := uint64(1); i < 6; i++ {
		assert.Equal(t, uint32(0), r.writer(pg(i)+8), "page %d", i)
	}
	assert.Empty(t, r.writers)
	assert.Empty(t, r.uniform)
}

// TestGeneratorBytes: a stream generator's byte at x is byte (x-origin)%8
// of the little-endian splitmix64(seed + (x-origin) rounded down to 8), and
// a dword generator's is byte x%4 of its dword, a fresh one's
// FillByte(x-origin), whatever range is filled
// or compared; equal sees one bit off anywhere; moved d bytes, the bytes
// are the same d bytes higher.
func TestGeneratorBytes(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for range 2000 {
		g := generator{kind: genStream, seed: rng.Uint64(), origin: uint64(rng.Intn(1 << 20))}
		switch rng.Intn(4) {
		case 0:
			g = generator{kind: genDword, seed: uint64(rng.Uint32())}
		case 1:
			g = generator{kind: genFresh, origin: g.origin}
		}
		addr := g.origin + uint64(rng.Intn(100))
		got := make([]byte, 1+rng.Intn(300))
		g.fill(got, addr)
		for i := range got {
			x := addr + uint64(i)
			want := byte(g.seed >> (8 * (x % 4)))
			switch k := x - g.origin; g.kind {
			case genStream:
				want = byte(splitmix64(g.seed+k&^7) >> (8 * (k % 8)))
			case genFresh:
				want = FillByte(k)
			}
			require.Equal(t, want, got[i], "%+v at %#x", g, x)
		}
		require.True(t, g.equal(got, addr))
		d := uint64(rng.Intn(64)) - 32
		moved := make([]byte, len(got))
		mg := g.moved(d)
		mg.fill(moved, addr+d)
		require.Equal(t, got, moved, "%+v moved by %d", g, int64(d))
		got[rng.Intn(len(got))] ^= 1 << rng.Intn(8)
		require.False(t, g.equal(got, addr))
	}
}

// TestOutputIsItsGenerator: a work's output, made in steps of 64 KiB, is
// its generator's bytes throughout, which the reference keeps instead.
func TestOutputIsItsGenerator(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	const size = 200<<10 + 12 // past several steps, and a tail
	a := cmdbuf.Access{Addr: 1<<32 + 20, Size: size, Dir: cmdbuf.DirWrite}
	for _, w := range []cmdbuf.Work{{Kind: cmdbuf.WorkDraw, ID: 3}, {Kind: cmdbuf.WorkClear, ID: 4, Param: 0x01020304}} {
		got := r.m.output(w, 1, a, 99)
		want := make([]byte, size)
		g := outputGen(w, 1, a, 99)
		g.fill(want, a.Addr)
		require.Equal(t, want, got, "%v", w.Kind)
	}
}
