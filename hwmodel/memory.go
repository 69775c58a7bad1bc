package hwmodel

import (
	"bytes"
	"unsafe"
)

// PageSize is the granule in which memory materialises.
const PageSize = 16 << 10

// pageBlocks is the number of 4 KiB blocks (a cache's line blocks) a page
// holds.
const pageBlocks = PageSize >> blockShift

// Mem is a sparse byte-addressed memory: a page materialises on first touch,
// filled with a deterministic pattern, so a multi-GiB heap costs nothing
// until used. The pattern (FillByte) never produces the byte values of valid
// compression metadata, so metadata nobody initialised reads as invalid.
// A Fill that covers whole pages not yet touched records one byte per page
// instead (uniform), so zeroing a large resource costs nothing either.
//
// A page keeps its bytes in 4 KiB blocks, each made when first written,
// which a machine's memory shares with its caches and the reference
// (share.go). A block not made reads from its generator: fresh memory's
// pattern, its uniform page's value, or the rule an op's output followed
// (WriteGen), which is how the reference keeps most of what it holds.
type Mem struct {
	pages   map[uint64]*memPage
	uniform map[uint64]byte
	// store holds the blocks' bytes; nil for a memory that shares none,
	// whose blocks are its own.
	store *dataStore
	// last caches the most recent page lookup.
	lastIndex uint64
	last      *memPage
}

// memPage is one materialised page: its blocks, those not yet made reading
// as their generator (unmade).
type memPage struct {
	blocks [pageBlocks]*lineData
	shared [pageBlocks]bool // the block may be a cache's too
	// gens holds, for a block not made, the generator of its bytes
	// (WriteGen), if it has one; nil until the page has one.
	gens    *[pageBlocks]generator
	uniform bool
	value   byte
}

func newMem(store *dataStore) *Mem {
	return &Mem{pages: make(map[uint64]*memPage), uniform: make(map[uint64]byte), store: store}
}

// FillByte is the content of never-written memory at addr: a hash of the
// address with the top bit clear.
func FillByte(addr uint64) byte {
	x := addr>>2*0x9e3779b97f4a7c15 + addr&3
	x ^= x >> 29
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 32
	return byte(x>>(8*(addr&3))) & 0x7f
}

// page returns page index, materialising it (with no blocks yet) if absent.
func (m *Mem) page(index uint64) *memPage {
	if m.last != nil && m.lastIndex == index {
		return m.last
	}
	p, ok := m.pages[index]
	if !ok {
		p = new(memPage)
		if v, ok := m.uniform[index]; ok {
			p.uniform, p.value = true, v
			delete(m.uniform, index)
		}
		m.pages[index] = p
	}
	m.lastIndex, m.last = index, p
	return p
}

// bytesOf views a block of lines as its 4 KiB of bytes.
func bytesOf(d *lineData) *[1 << blockShift]byte {
	return (*[1 << blockShift]byte)(unsafe.Pointer(d))
}

// gen returns the generator WriteGen gave block i of page p, nil if the
// block is made or has none.
func (p *memPage) gen(i int) *generator {
	if p.gens == nil || p.gens[i].kind == genNone {
		return nil
	}
	return &p.gens[i]
}

// made notes that block i of page p now has bytes: its generator, if any,
// no longer says what it holds.
func (p *memPage) made(i int) {
	if p.gens != nil {
		p.gens[i] = generator{}
	}
}

// unmade is the generator of block i of page p while the block is not made:
// its own, the page's value if it is uniform, or fresh memory's pattern.
func (p *memPage) unmade(i int) generator {
	switch g := p.gen(i); {
	case g != nil:
		return *g
	case p.uniform:
		return generator{kind: genDword, seed: uint64(p.value) * 0x01010101}
	}
	return generator{kind: genFresh}
}

// cheap reports whether block i of page p is not made and reads from a
// generator cheaper than its bytes: an op's output or a uniform page's
// value. Fresh memory's pattern is a hash a byte, dearer than reading the
// block made once (a read of never-written memory makes it).
func (p *memPage) cheap(i int) bool {
	return p.blocks[i] == nil && (p.uniform || p.gen(i) != nil)
}

// block returns block i of page p (at base) to read, made if absent, from
// its generator.
func (m *Mem) block(p *memPage, i int, base uint64) *[1 << blockShift]byte {
	if p.blocks[i] == nil {
		g := p.unmade(i)
		p.blocks[i] = m.fresh()
		g.fill(bytesOf(p.blocks[i])[:], base)
		p.made(i)
	}
	return bytesOf(p.blocks[i])
}

// fresh returns a block of bytes with arbitrary contents: the store's, or a
// new one.
func (m *Mem) fresh() *lineData {
	if m.store != nil {
		return m.store.get()
	}
	return new(lineData)
}

// own returns block i of page p (at base) to write: made if absent, copied
// if a cache shares it.
func (m *Mem) own(p *memPage, i int, base uint64) *[1 << blockShift]byte {
	m.block(p, i, base)
	if p.shared[i] {
		m.store.own(&p.blocks[i], &p.shared[i])
	}
	return bytesOf(p.blocks[i])
}

// Read copies memory at addr into dst. A block not made is read from its
// generator, and stays unmade, unless it is fresh memory (cheap).
func (m *Mem) Read(addr uint64, dst []byte) {
	for len(dst) > 0 {
		off := addr % (1 << blockShift)
		p, i := m.page(addr/PageSize), int(addr%PageSize>>blockShift)
		n := min(len(dst), int(1<<blockShift-off))
		if p.cheap(i) {
			g := p.unmade(i)
			g.fill(dst[:n], addr)
		} else {
			copy(dst, m.block(p, i, addr-off)[off:])
		}
		dst, addr = dst[n:], addr+uint64(n)
	}
}

// Equal reports whether memory at addr holds b, comparing in place.
func (m *Mem) Equal(addr uint64, b []byte) bool {
	for len(b) > 0 {
		off := addr % (1 << blockShift)
		p, i := m.page(addr/PageSize), int(addr%PageSize>>blockShift)
		n := min(len(b), int(1<<blockShift-off))
		if p.cheap(i) {
			if g := p.unmade(i); !g.equal(b[:n], addr) {
				return false
			}
		} else if !bytes.Equal(b[:n], m.block(p, i, addr-off)[off:off+uint64(n)]) {
			return false
		}
		b, addr = b[n:], addr+uint64(n)
	}
	return true
}

// Write copies src to memory at addr.
func (m *Mem) Write(addr uint64, src []byte) {
	for len(src) > 0 {
		off := addr % (1 << blockShift)
		p, i := m.page(addr/PageSize), int(addr%PageSize>>blockShift)
		if off == 0 && len(src) >= 1<<blockShift && p.blocks[i] == nil {
			p.blocks[i] = m.fresh() // overwritten whole: no fill first
			p.made(i)
		}
		n := copy(m.own(p, i, addr-off)[off:], src)
		src, addr = src[n:], addr+uint64(n)
	}
}

// WriteGen writes n bytes of g's at addr. A whole block keeps only g, and
// lets go of its bytes: the reference, which keeps every byte the machine
// holds a second time, keeps most of them as generators. A block written
// in part is made, and g's bytes written into it.
func (m *Mem) WriteGen(addr, n uint64, g generator) {
	for end := addr + n; addr < end; {
		off := addr % (1 << blockShift)
		p, i := m.page(addr/PageSize), int(addr%PageSize>>blockShift)
		k := min(end-addr, 1<<blockShift-off)
		if k == 1<<blockShift {
			if m.store != nil {
				m.store.drop(&p.blocks[i], &p.shared[i])
			}
			p.blocks[i] = nil
			if p.gens == nil {
				p.gens = new([pageBlocks]generator)
			}
			p.gens[i] = g
		} else {
			g.fill(m.own(p, i, addr-off)[off:off+k], addr)
		}
		addr += k
	}
}

// WriteCopy writes data, which a copy read at src, to memory at addr. A
// whole block whose bytes are those of the source block's generator, moved
// by the copy's distance, keeps that generator instead: a copy of
// generated, uniform or fresh bytes costs no bytes either. A whole block
// copied a multiple of 4 KiB away shares the source block's bytes, if they
// are the data (memory with a store only).
func (m *Mem) WriteCopy(addr uint64, data []byte, src uint64) {
	for len(data) > 0 {
		off := addr % (1 << blockShift)
		n := min(len(data), int(1<<blockShift-off))
		p, i := m.page(src/PageSize), int(src%PageSize>>blockShift)
		switch whole := n == 1<<blockShift; {
		case whole && p.blocks[i] == nil:
			if g := p.unmade(i).moved(addr - src); g.equal(data[:n], addr) {
				m.WriteGen(addr, uint64(n), g)
				break
			}
			m.Write(addr, data[:n])
		case whole && src%(1<<blockShift) == 0 && m.store != nil && bytes.Equal(data[:n], bytesOf(p.blocks[i])[:]):
			m.share(addr, m.lend(src))
		default:
			m.Write(addr, data[:n])
		}
		data, addr, src = data[n:], addr+uint64(n), src+uint64(n)
	}
}

// WriteFrom writes data, which from (another memory with the same store)
// holds at addr, to memory at addr: whole blocks share from's bytes.
func (m *Mem) WriteFrom(addr uint64, data []byte, from *Mem) {
	for len(data) > 0 {
		off := addr % (1 << blockShift)
		n := min(len(data), int(1<<blockShift-off))
		if n == 1<<blockShift && m.store != nil && m.store == from.store {
			m.share(addr, from.lend(addr))
		} else {
			m.Write(addr, data[:n])
		}
		data, addr = data[n:], addr+uint64(n)
	}
}

// lend returns memory's block at addr (4 KiB-aligned), made if absent, for
// a cache's block to share.
func (m *Mem) lend(addr uint64) *lineData {
	p := m.page(addr / PageSize)
	i := int(addr % PageSize >> blockShift)
	m.block(p, i, addr)
	p.shared[i] = true
	m.store.lend(p.blocks[i])
	return p.blocks[i]
}

// share makes memory's block at addr (4 KiB-aligned) the bytes d a cache's
// block lent it.
func (m *Mem) share(addr uint64, d *lineData) {
	p := m.page(addr / PageSize)
	i := int(addr % PageSize >> blockShift)
	m.store.drop(&p.blocks[i], &p.shared[i])
	p.blocks[i], p.shared[i] = d, true
	p.made(i)
}

// dropPage forgets page index, letting go of its blocks.
func (m *Mem) dropPage(index uint64) {
	if p, ok := m.pages[index]; ok && m.store != nil {
		for i := range p.blocks {
			m.store.drop(&p.blocks[i], &p.shared[i])
		}
	}
	delete(m.pages, index)
	if m.lastIndex == index {
		m.last = nil
	}
}

// Fill sets n bytes at addr to v. Whole pages become uniform: their
// materialised copy, if any, is dropped.
func (m *Mem) Fill(addr, n uint64, v byte) {
	for n > 0 {
		off := addr % PageSize
		k := min(n, PageSize-off)
		if index := addr / PageSize; k == PageSize {
			m.dropPage(index)
			m.uniform[index] = v
		} else {
			for a, end := addr, addr+k; a < end; {
				boff := a % (1 << blockShift)
				s := m.own(m.page(index), int(a%PageSize>>blockShift), a-boff)[boff:min(1<<blockShift, boff+end-a)]
				for i := range s {
					s[i] = v
				}
				a += uint64(len(s))
			}
		}
		n, addr = n-k, addr+k
	}
}

// Discard forgets the whole pages of [addr, addr+n), materialised or
// uniform, so unmapped memory costs nothing. A page the range covers only
// in part is kept: its other bytes may belong to another mapping.
func (m *Mem) Discard(addr, n uint64) {
	first := (addr + PageSize - 1) / PageSize
	end := (addr + n) / PageSize
	for index := first; index < end; index++ {
		m.dropPage(index)
		delete(m.uniform, index)
	}
}

// Pages is the number of materialised pages: those with a block made.
func (m *Mem) Pages() int {
	n := 0
	for _, p := range m.pages {
		for _, d := range p.blocks {
			if d != nil {
				n++
				break
			}
		}
	}
	return n
}
