package hwmodel

import (
	"unsafe"

	"github.com/ebref/ebref/cmdbuf"
)

// lineView is the line at la of lv as the op in rc may see it: the present
// state, except that the effects of ops not ordered before rc are undone.
// Walking the effects newest to oldest, one of an op ordered before rc
// settles the bytes it reaches (they are at least as new as right after
// it); an unordered one rolls the bytes it reaches that are not settled yet
// back to before it.
func (m *Machine) lineView(rc *opCtx, lv *level, la uint64) (data [LineSize]byte, valid, dirty uint64) {
	data, valid, dirty = lv.state(la)
	b := lv.fxAt(la >> blockShift)
	if b == nil {
		return data, valid, dirty
	}
	var settled uint64
	for k := b.newest[la>>6%blockLines]; k >= 0 && settled != ^uint64(0); k = b.nodes[k].older {
		e := &b.effects[b.nodes[k].effect]
		mask := e.reach &^ settled
		if mask == 0 {
			continue
		}
		if m.orderedBefore(m.ops[e.gid], e.client, rc) {
			settled |= mask
			continue
		}
		if e.image != noImage {
			var buf [LineSize]byte
			blend(&data, lv.imageOf(e, &buf, la), mask)
		}
		if !lv.isMem() {
			valid = valid&^mask | e.prevV&mask
			dirty = dirty&^mask | e.prevD&mask
		}
	}
	return data, valid, dirty
}

// spanMask is the mask of bytes [off, off+k) of a line.
func spanMask(off, k int) uint64 {
	if k >= 64 {
		return ^uint64(0)
	}
	return (uint64(1)<<k - 1) << off
}

// lineSpans calls f for each line [addr, addr+n) touches, with the line
// address, the offset of addr in it, and how many bytes of the range it
// holds; i is the index of the line's first byte in the range.
func lineSpans(addr uint64, n int, f func(la uint64, off, k, i int)) {
	for i := 0; i < n; {
		a := addr + uint64(i)
		la := a &^ (LineSize - 1)
		off := int(a - la)
		k := min(LineSize-off, n-i)
		f(la, off, k, i)
		i += k
	}
}

// view fills val and valid (and dirty, if not nil) with the bytes
// [addr, addr+len(val)) of lv as the op in rc may see them (lineView);
// valid and dirty are bitsets indexed from addr.
func (m *Machine) view(rc *opCtx, lv *level, addr uint64, val []byte, valid, dirty []uint64) {
	clear(valid)
	clear(dirty)
	lineSpans(addr, len(val), func(la uint64, off, k, i int) {
		d, v, dt := m.lineView(rc, lv, la)
		copy(val[i:i+k], d[off:off+k])
		orBits(valid, i, v>>off, k)
		if dirty != nil {
			orBits(dirty, i, dt>>off, k)
		}
	})
}

// current fills val and valid (and dirty, if not nil) with lv's present
// state of [addr, addr+len(val)).
func (m *Machine) current(lv *level, addr uint64, val []byte, valid, dirty []uint64) {
	clear(valid)
	clear(dirty)
	if lv.isMem() {
		lv.mem.Read(addr, val)
		for i := range val {
			valid[i/64] |= 1 << (i % 64)
		}
		return
	}
	lineSpans(addr, len(val), func(la uint64, off, k, i int) {
		d, v, dt := lv.state(la)
		copy(val[i:i+k], d[off:off+k])
		orBits(valid, i, v>>off, k)
		if dirty != nil {
			orBits(dirty, i, dt>>off, k)
		}
	})
}

// orBits ors the low k bits of v into bitset s at bit i.
func orBits(s []uint64, i int, v uint64, k int) {
	if k < 64 {
		v &= uint64(1)<<k - 1
	}
	if v == 0 {
		return
	}
	s[i/64] |= v << (i % 64)
	if i%64 != 0 && i/64+1 < len(s) {
		s[i/64+1] |= v >> (64 - i%64)
	}
}

func bit(s []uint64, i int) bool { return s[i/64]>>(i%64)&1 != 0 }

// store writes src at lv (marking cache bytes valid and dirty), logging the
// prior state as op's effect first. A work's data write (data) also tags
// the lines with the op and is logged for write-after-write checks.
func (m *Machine) store(op *opRec, client cmdbuf.Client, lv *level, addr uint64, src []byte, data bool) {
	if data {
		m.effects.addAccess(access{op: op, lv: lv, addr: addr, n: len(src), kind: accessWrite, client: client})
	}
	for len(src) > 0 {
		k := addr >> blockShift
		n := int(min(addr+uint64(len(src)), (k+1)<<blockShift) - addr)
		if !m.perLine && !lv.isMem() && addr%LineSize == 0 && n%LineSize == 0 && lv.block(k) == nil && lv.fxAt(k) == nil {
			m.storeAbsent(op, client, lv, addr, src[:n], data)
		} else {
			m.storeLines(op, client, lv, addr, src[:n], data)
		}
		addr, src = addr+uint64(n), src[n:]
	}
}

// storeAbsent is store for whole lines of one block that the cache holds
// none of and that have no effect in flight there: one effect for them all
// (logAbsent), and the lines written in place into a new block.
func (m *Machine) storeAbsent(op *opRec, client cmdbuf.Client, lv *level, la uint64, src []byte, data bool) {
	n := len(src) / LineSize
	m.logAbsent(op, client, lv, la, n)
	b := lv.newBlock(la >> blockShift)
	var tag uint32
	if data {
		tag = op.gid
	}
	first := uint(la >> 6 % blockLines)
	d := lv.store.own(&b.data, &b.shared)
	copy(unsafe.Slice(&d[first][0], n*LineSize), src)
	b.tag = tag // a new block: its lines whole, all tagged alike
	mask := spanMask(int(first), n)
	b.held |= mask
	if b.dirty == 0 {
		lv.dirtyBlocks++
	}
	b.dirty |= mask
}

// storeLines is store a line at a time.
func (m *Machine) storeLines(op *opRec, client cmdbuf.Client, lv *level, addr uint64, src []byte, data bool) {
	lineSpans(addr, len(src), func(la uint64, off, k, i int) {
		mask := spanMask(off, k)
		m.logEffect(op, client, lv, la, mask)
		if lv.isMem() {
			lv.mem.Write(la+uint64(off), src[i:i+k])
			return
		}
		b, li, fresh := lv.touch(la)
		copy(b.data[li][off:off+k], src[i:i+k])
		var valid, dirty uint64
		if !fresh {
			valid, dirty = b.mask(li)
		}
		b.setMask(li, valid|mask, dirty|mask)
		lv.markDirty(b, li)
		if data {
			b.setTag(li, op.gid)
		} else if fresh {
			b.setTag(li, 0)
		}
	})
}

// fill puts clean bytes into a cache where it holds none (a read's line
// fill): the bytes of mask not yet valid take src's, logged as op's effect.
func (m *Machine) fill(op *opRec, client cmdbuf.Client, lv *level, la uint64, src *[LineSize]byte, mask uint64) {
	var add uint64 = mask
	if b, i := lv.lineAt(la); b != nil {
		valid, _ := b.mask(i)
		add &^= valid
	}
	if add == 0 {
		return
	}
	m.logEffect(op, client, lv, la, add)
	b, i, fresh := lv.touch(la)
	blend(&b.data[i], src, add)
	var valid, dirty uint64
	if !fresh {
		valid, dirty = b.mask(i)
	} else {
		b.setTag(i, 0)
	}
	b.setMask(i, valid|add, dirty)
}

// pathRead is what readPath served: for each line of the line-aligned
// neighbourhood, which bytes each level of the path served. It lives in
// scratch space until the next readPath.
type pathRead struct {
	base   uint64   // first line address
	levels int      // levels in the path
	takes  []uint64 // takes[line*levels+j]: bytes level j served
}

// served is the index in the path of the level that served byte addr.
func (r *pathRead) served(addr uint64) int8 {
	li := int((addr - r.base) / LineSize)
	bit := (addr - r.base) % LineSize
	for j := 0; j < r.levels; j++ {
		if r.takes[li*r.levels+j]>>bit&1 != 0 {
			return int8(j)
		}
	}
	return -1
}

// readPath reads [addr, addr+len(dst)) as the op in rc sees it through path
// (nearest cache first, memory last) into dst. Whole lines are read, and
// every cache above the level a byte came from is filled with it, as a real
// cache fills lines. It returns which level served what.
func (m *Machine) readPath(rc *opCtx, client cmdbuf.Client, path []*level, addr uint64, dst []byte) pathRead {
	first := addr &^ (LineSize - 1)
	end := (addr + uint64(len(dst)) + LineSize - 1) &^ (LineSize - 1)
	nl := int((end - first) / LineSize)
	r := pathRead{base: first, levels: len(path), takes: m.scratch.takes(nl * len(path))}
	// Lines are assembled in place when dst is exactly whole lines (a
	// scratch buffer of the op's, like the line scratch), and in the line
	// scratch otherwise, then copied.
	aligned := len(dst) > 0 && addr == first && uint64(len(dst)) == end-first
	var lines [][LineSize]byte
	if aligned {
		lines = unsafe.Slice((*[LineSize]byte)(dst), nl)
	} else {
		lines = m.scratch.lines(nl)
	}
	for li := 0; li < nl; li++ {
		la := first + uint64(li)*LineSize
		if i := la >> 6 % blockLines; i == 0 || li == 0 {
			// The first line of a block: try the block's lines at once.
			n := min(nl-li, int(blockLines-i))
			if m.readBlock(rc, client, path, la, lines[li:li+n], r.takes[li*len(path):(li+n)*len(path)]) {
				li += n - 1
				continue
			}
		}
		need := ^uint64(0)
		var below uint64 // bytes served by levels below the current one
		takes := r.takes[li*len(path) : (li+1)*len(path)]
		for j, lv := range path {
			if need == 0 {
				break
			}
			d, v, _ := m.lineView(rc, lv, la)
			takes[j] = v & need
			blend(&lines[li], &d, takes[j])
			need &^= takes[j]
		}
		// Fill each cache with the bytes that came from below it (walking
		// up, below accumulates what the deeper levels served).
		for j := len(path) - 1; j >= 0; j-- {
			if !path[j].isMem() && below != 0 {
				m.fill(rc.op, client, path[j], la, &lines[li], below)
			}
			below |= takes[j]
		}
	}
	if !aligned && len(dst) > 0 { // the lines are consecutive in the scratch: one copy
		copy(dst, unsafe.Slice(&lines[0][0], nl*LineSize)[addr-first:])
	}
	return r
}

// readBlock is readPath for lines of one block (starting at la, as many
// as lines holds) that one level serves whole, as it is: the caches above
// it in the path hold none of the block and have no effect in flight
// there, it holds every byte of the lines (memory always does), and the op
// is ordered after every effect in flight there. Each cache above is
// filled with all of it, deepest first, logging one effect for its lines
// (logAbsent) as a fill of each line would. It reports false, doing
// nothing, when that is not the case.
func (m *Machine) readBlock(rc *opCtx, client cmdbuf.Client, path []*level, la uint64, lines [][LineSize]byte, takes []uint64) bool {
	if m.perLine {
		return false
	}
	k := la >> blockShift
	first := uint(la >> 6 % blockLines)
	mask := spanMask(int(first), len(lines))
	h := 0 // the level that serves
	for ; h < len(path); h++ {
		lv := path[h]
		fx, b := lv.fxAt(k), lv.block(k)
		if lv.isMem() || b != nil {
			// The serving level: as it is, if what is in flight there is
			// all ordered before the op (lineView rolls nothing back).
			if fx != nil && !m.seesAsIs(rc, fx) {
				return false
			}
			break
		}
		if fx != nil {
			return false
		}
	}
	if b := path[h].block(k); b != nil {
		if b.held&mask != mask {
			return false
		}
		for i := range uint(len(lines)) {
			if valid, _ := b.mask(first + i); valid != ^uint64(0) {
				return false
			}
		}
	}
	// A whole block's bytes are shared (copy on write): the serving level
	// lends them to every cache it fills.
	whole := len(lines) == blockLines
	lend := func() *lineData { return path[h].mem.lend(la) }
	if lv := path[h]; lv.isMem() {
		// The lines are consecutive in memory and in the slice: one read.
		lv.mem.Read(la, unsafe.Slice(&lines[0][0], len(lines)*LineSize))
	} else {
		b := lv.block(k)
		copy(lines, b.data[first:])
		lend = func() *lineData { return b.lend(lv.store) }
	}
	for i := range lines {
		takes[i*len(path)+h] = ^uint64(0)
	}
	for j := h - 1; j >= 0; j-- {
		lv := path[j]
		m.logAbsent(rc.op, client, lv, la, len(lines))
		b := lv.newBlock(k)
		if whole {
			b.share(lv.store, lend())
		} else {
			copy(lv.store.own(&b.data, &b.shared)[first:], lines)
		}
		b.held |= mask // a new block: its lines whole and clean, tag 0
	}
	return true
}

// seesAsIs reports whether the op in rc is ordered after every effect in
// flight in b, so that it sees each line of the block as it is. An op's
// records of a block are mostly one after another (a line each when they
// keep their bytes), so a record of the op and client just found ordered
// is not asked again.
func (m *Machine) seesAsIs(rc *opCtx, b *fxBlock) bool {
	var gid uint32 // 0: no op (gids start at 1)
	var client cmdbuf.Client
	for i := range b.effects {
		e := &b.effects[i]
		if e.gid == gid && e.client == client {
			continue
		}
		if !m.orderedBefore(m.ops[e.gid], e.client, rc) {
			return false
		}
		gid, client = e.gid, e.client
	}
	return true
}
