package hwmodel

// PageSize is the granule in which memory materialises.
const PageSize = 16 << 10

// Mem is a sparse byte-addressed memory: a page materialises on first touch,
// filled with a deterministic pattern, so a multi-GiB heap costs nothing
// until used. The pattern (FillByte) never produces the byte values of valid
// compression metadata, so metadata nobody initialised reads as invalid.
// A Fill that covers whole pages not yet touched records one byte per page
// instead (uniform), so zeroing a large resource costs nothing either.
type Mem struct {
	pages   map[uint64]*[PageSize]byte
	uniform map[uint64]byte
	// last caches the most recent page lookup.
	lastIndex uint64
	last      *[PageSize]byte
}

func newMem() *Mem {
	return &Mem{pages: make(map[uint64]*[PageSize]byte), uniform: make(map[uint64]byte)}
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

func (m *Mem) page(index uint64) *[PageSize]byte {
	if m.last != nil && m.lastIndex == index {
		return m.last
	}
	p, ok := m.pages[index]
	if !ok {
		p = new([PageSize]byte)
		if v, ok := m.uniform[index]; ok {
			if v != 0 {
				for i := range p {
					p[i] = v
				}
			}
			delete(m.uniform, index)
		} else {
			base := index * PageSize
			for i := range p {
				p[i] = FillByte(base + uint64(i))
			}
		}
		m.pages[index] = p
	}
	m.lastIndex, m.last = index, p
	return p
}

// Read copies memory at addr into dst.
func (m *Mem) Read(addr uint64, dst []byte) {
	for len(dst) > 0 {
		p := m.page(addr / PageSize)
		n := copy(dst, p[addr%PageSize:])
		dst, addr = dst[n:], addr+uint64(n)
	}
}

// Write copies src to memory at addr.
func (m *Mem) Write(addr uint64, src []byte) {
	for len(src) > 0 {
		p := m.page(addr / PageSize)
		n := copy(p[addr%PageSize:], src)
		src, addr = src[n:], addr+uint64(n)
	}
}

// Fill sets n bytes at addr to v. Whole pages become uniform: their
// materialised copy, if any, is dropped.
func (m *Mem) Fill(addr, n uint64, v byte) {
	for n > 0 {
		off := addr % PageSize
		k := min(n, PageSize-off)
		if index := addr / PageSize; k == PageSize {
			delete(m.pages, index)
			m.uniform[index] = v
			if m.lastIndex == index {
				m.last = nil
			}
		} else {
			s := m.page(index)[off : off+k]
			for i := range s {
				s[i] = v
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
		delete(m.pages, index)
		delete(m.uniform, index)
	}
	if m.lastIndex >= first && m.lastIndex < end {
		m.last = nil
	}
}

// Pages is the number of materialised pages.
func (m *Mem) Pages() int { return len(m.pages) }
