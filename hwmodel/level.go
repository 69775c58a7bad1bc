package hwmodel

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/ebref/ebref/cmdbuf"
)

// LineSize is the cache line size in bytes.
const LineSize = 64

// line is one cache line: its bytes, which are valid, which are dirty.
type line struct {
	data  [LineSize]byte
	valid uint64
	dirty uint64
	// tag is the gid of the last op whose data was stored into the line
	// (a heuristic for explaining hazards; views ignore it).
	tag uint32
}

// level is one place bytes can live: a cache instance or memory.
type level struct {
	kind   cmdbuf.Cache // Memory for the memory level
	engine int          // owning engine; -1 for shared caches and memory
	name   string
	parent *level
	lines  map[uint64]*line // caches only, keyed by line address
	mem    *Mem             // memory only
	// lastInval is the gid of the last op that invalidated this cache.
	lastInval uint32
	free      []*line
}

func newCacheLevel(kind cmdbuf.Cache, engine int, name string, parent *level) *level {
	return &level{kind: kind, engine: engine, name: name, parent: parent, lines: make(map[uint64]*line)}
}

func (l *level) isMem() bool { return l.mem != nil }

func (l *level) allocLine() *line {
	if n := len(l.free); n > 0 {
		ln := l.free[n-1]
		l.free = l.free[:n-1]
		*ln = line{}
		return ln
	}
	return new(line)
}

// state reads one byte's current state.
func (l *level) state(addr uint64) (valid, dirty bool, v byte) {
	if l.isMem() {
		var b [1]byte
		l.mem.Read(addr, b[:])
		return true, false, b[0]
	}
	ln := l.lines[addr&^(LineSize-1)]
	if ln == nil {
		return false, false, 0
	}
	i := addr & (LineSize - 1)
	return ln.valid>>i&1 != 0, ln.dirty>>i&1 != 0, ln.data[i]
}

// effect is one state change an op made at one level, kept while the op is
// in flight so readers not ordered after the op can be shown the state
// before it (an undo record). A read record (read set) changes nothing and
// exists so later writers can find in-flight readers of what they overwrite.
type effect struct {
	op    *opRec
	lv    *level
	addr  uint64
	n     int
	prev  []byte
	prevV []uint64 // bitset: byte i was valid before (caches)
	prevD []uint64 // bitset: byte i was dirty before (caches)
	read  bool
	data  bool // a work's data write (as opposed to fills, flushes, invalidates)
	// logical marks a write of what bytes mean rather than of the bytes (a
	// metadata initialisation over a surface's data range): no undo, but
	// later writers race with it.
	logical bool
	client  cmdbuf.Client
	order   uint64
	dead    bool // dropped by retire
}

func bit(s []uint64, i int) bool { return s[i/64]>>(i%64)&1 != 0 }

func setBit(s []uint64, i int, v bool) {
	if v {
		s[i/64] |= 1 << (i % 64)
	} else {
		s[i/64] &^= 1 << (i % 64)
	}
}

// effectLog indexes in-flight effects by level and 4 KiB bucket.
type effectLog struct {
	buckets map[bucketKey][]*effect
	count   int
	order   uint64
}

type bucketKey struct {
	lv *level
	b  uint64
}

const bucketShift = 12

func newEffectLog() *effectLog { return &effectLog{buckets: make(map[bucketKey][]*effect)} }

func (g *effectLog) add(e *effect) {
	g.order++
	e.order = g.order
	for b := e.addr >> bucketShift; b <= (e.addr+uint64(e.n)-1)>>bucketShift; b++ {
		k := bucketKey{e.lv, b}
		g.buckets[k] = append(g.buckets[k], e)
	}
	g.count++
}

// overlapping returns the effects at lv overlapping [addr, addr+n), oldest
// first, in scratch.
func (g *effectLog) overlapping(lv *level, addr uint64, n int, scratch []*effect) []*effect {
	out := scratch[:0]
	if g.count == 0 || n == 0 {
		return out
	}
	end := addr + uint64(n)
	first := addr >> bucketShift
	for b := first; b <= (end-1)>>bucketShift; b++ {
		for _, e := range g.buckets[bucketKey{lv, b}] {
			// An effect starting in an earlier bucket than b was already
			// met there, unless b is the first bucket looked at.
			if b > first && e.addr>>bucketShift < b {
				continue
			}
			if e.addr < end && addr < e.addr+uint64(e.n) {
				out = append(out, e)
			}
		}
	}
	if first != (end-1)>>bucketShift {
		slices.SortFunc(out, func(a, b *effect) int { return cmp.Compare(a.order, b.order) })
	}
	return out
}

// all returns every effect once, in order.
func (g *effectLog) all() []*effect {
	out := make([]*effect, 0, g.count)
	for k, es := range g.buckets {
		for _, e := range es {
			if e.addr>>bucketShift == k.b { // once: in the bucket it starts in
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b *effect) int { return cmp.Compare(a.order, b.order) })
	return out
}

// retire drops the effects gone says no later op can be unordered with —
// except a state change with an older kept state change under it: for a
// reader not ordered after the older one, the newer one is what stops the
// roll-back (view), so it stays until the older one goes.
func (g *effectLog) retire(gone func(*effect) bool) {
	covered := map[bucketKey]*[1 << bucketShift / 64]uint64{}
	cover := func(e *effect, mark bool) (hit bool) {
		for a := e.addr; a < e.addr+uint64(e.n); {
			k := bucketKey{e.lv, a >> bucketShift}
			end := min(e.addr+uint64(e.n), (k.b+1)<<bucketShift)
			bs := covered[k]
			if bs == nil && mark {
				bs = new([1 << bucketShift / 64]uint64)
				covered[k] = bs
			}
			for ; a < end; a++ {
				i := int(a & (1<<bucketShift - 1))
				switch {
				case mark:
					bs[i/64] |= 1 << (i % 64)
				case bs != nil && bs[i/64]>>(i%64)&1 != 0:
					return true
				}
			}
		}
		return false
	}
	n := 0
	for _, e := range g.all() {
		stateChange := !e.read && !e.logical
		e.dead = gone(e) && !(stateChange && cover(e, false))
		if !e.dead {
			n++
			if stateChange {
				cover(e, true)
			}
		}
	}
	for k, es := range g.buckets {
		w := es[:0]
		for _, e := range es {
			if !e.dead {
				w = append(w, e)
			}
		}
		if len(w) == 0 {
			delete(g.buckets, k)
		} else {
			clear(es[len(w):])
			g.buckets[k] = w
		}
	}
	g.count = n
}

// view fills val and valid (and dirty, if not nil) with the bytes
// [addr, addr+n) of lv as the op with clock rc may see them: the current
// state, except that the effects of ops not ordered before rc are undone.
// For each byte the newest effect of an op ordered before rc decides (the
// state right after it); with none, the state before the oldest effect.
func (m *Machine) view(rc *opCtx, lv *level, addr uint64, val []byte, valid, dirty []uint64) {
	n := len(val)
	m.current(lv, addr, val, valid, dirty)
	es := m.effects.overlapping(lv, addr, n, m.scratchEffects[:0])
	m.scratchEffects = es
	if len(es) == 0 {
		return
	}
	// Walk newest to oldest: an effect of an op ordered before rc settles
	// the bytes it covers (their state is at least as new as right after
	// it); each unordered one rolls the bytes it covers that are not yet
	// settled back to before it.
	settled := m.scratchSettled(n)
	left := n
	for k := len(es) - 1; k >= 0 && left > 0; k-- {
		e := es[k]
		if e.read || e.logical {
			continue
		}
		lo, hi := max(addr, e.addr), min(addr+uint64(n), e.addr+uint64(e.n))
		ordered := m.orderedBefore(e.op, e.client, rc)
		for a := lo; a < hi; a++ {
			i := int(a - addr)
			if bit(settled, i) {
				continue
			}
			if ordered {
				setBit(settled, i, true)
				left--
				continue
			}
			j := int(a - e.addr)
			val[i] = e.prev[j]
			if !lv.isMem() {
				setBit(valid, i, bit(e.prevV, j))
				if dirty != nil {
					setBit(dirty, i, bit(e.prevD, j))
				}
			}
		}
	}
}

// current fills val/valid (and dirty, if not nil) with lv's present state.
func (m *Machine) current(lv *level, addr uint64, val []byte, valid, dirty []uint64) {
	n := len(val)
	for i := range dirty {
		dirty[i] = 0
	}
	if lv.isMem() {
		lv.mem.Read(addr, val)
		for i := range valid {
			valid[i] = ^uint64(0)
		}
		return
	}
	for i := range valid {
		valid[i] = 0
	}
	for i := 0; i < n; {
		a := addr + uint64(i)
		la := a &^ (LineSize - 1)
		off := int(a - la)
		k := min(LineSize-off, n-i)
		if ln := lv.lines[la]; ln != nil {
			copy(val[i:i+k], ln.data[off:off+k])
			for j := 0; j < k; j++ {
				if ln.valid>>(off+j)&1 != 0 {
					valid[(i+j)/64] |= 1 << ((i + j) % 64)
				}
				if dirty != nil && ln.dirty>>(off+j)&1 != 0 {
					dirty[(i+j)/64] |= 1 << ((i + j) % 64)
				}
			}
		} else {
			for j := i; j < i+k; j++ {
				val[j] = 0
			}
		}
		i += k
	}
}

// record saves the state of [addr, addr+n) at lv as an effect of op, before
// op changes it.
func (m *Machine) record(op *opRec, client cmdbuf.Client, lv *level, addr uint64, n int, data bool) {
	e := &effect{op: op, lv: lv, addr: addr, n: n, prev: make([]byte, n), data: data, client: client}
	words := (n + 63) / 64
	if lv.isMem() {
		lv.mem.Read(addr, e.prev)
	} else {
		e.prevV, e.prevD = make([]uint64, words), make([]uint64, words)
		for i := 0; i < n; {
			a := addr + uint64(i)
			la := a &^ (LineSize - 1)
			off := int(a - la)
			k := min(LineSize-off, n-i)
			if ln := lv.lines[la]; ln != nil {
				copy(e.prev[i:i+k], ln.data[off:off+k])
				for j := 0; j < k; j++ {
					setBit(e.prevV, i+j, ln.valid>>(off+j)&1 != 0)
					setBit(e.prevD, i+j, ln.dirty>>(off+j)&1 != 0)
				}
			}
			i += k
		}
	}
	m.effects.add(e)
}

// recordRead logs that op read [addr, addr+n) (at any level), for
// write-after-read checks.
func (m *Machine) recordRead(op *opRec, client cmdbuf.Client, addr uint64, n int) {
	m.effects.add(&effect{op: op, lv: m.memLevel, addr: addr, n: n, read: true, client: client})
}

// store writes src at lv (marking cache bytes valid and dirty), recording
// the prior state as op's effect first.
func (m *Machine) store(op *opRec, client cmdbuf.Client, lv *level, addr uint64, src []byte, data bool) {
	m.record(op, client, lv, addr, len(src), data)
	if lv.isMem() {
		lv.mem.Write(addr, src)
		return
	}
	for i := 0; i < len(src); {
		a := addr + uint64(i)
		la := a &^ (LineSize - 1)
		off := int(a - la)
		k := min(LineSize-off, len(src)-i)
		ln := lv.lines[la]
		if ln == nil {
			ln = lv.allocLine()
			lv.lines[la] = ln
		}
		copy(ln.data[off:off+k], src[i:i+k])
		mask := spanMask(off, k)
		ln.valid |= mask
		ln.dirty |= mask
		if data {
			ln.tag = op.gid
		}
		i += k
	}
}

// fill puts clean bytes into a cache where it has none (a read's line fill),
// recording op's effect.
func (m *Machine) fill(op *opRec, client cmdbuf.Client, lv *level, addr uint64, src []byte) {
	m.record(op, client, lv, addr, len(src), false)
	for i := 0; i < len(src); {
		a := addr + uint64(i)
		la := a &^ (LineSize - 1)
		off := int(a - la)
		k := min(LineSize-off, len(src)-i)
		ln := lv.lines[la]
		if ln == nil {
			ln = lv.allocLine()
			lv.lines[la] = ln
		}
		for j := 0; j < k; j++ {
			if ln.valid>>(off+j)&1 == 0 {
				ln.data[off+j] = src[i+j]
				ln.valid |= 1 << (off + j)
			}
		}
		i += k
	}
}

func spanMask(off, k int) uint64 {
	if k >= 64 {
		return ^uint64(0)
	}
	return (uint64(1)<<k - 1) << off
}

// readPath reads [addr, addr+len(dst)) as op sees it through path (nearest
// cache first, memory last) into dst; served[i] is the index in path of the
// level byte i came from. The line-aligned neighbourhood is read too and
// filled into every cache above the serving level, as a real cache fills
// whole lines.
func (m *Machine) readPath(rc *opCtx, client cmdbuf.Client, path []*level, addr uint64, dst []byte, served []int8) {
	la := addr &^ (LineSize - 1)
	end := (addr + uint64(len(dst)) + LineSize - 1) &^ (LineSize - 1)
	n := int(end - la)
	buf := m.scratch(0, n)
	from := m.scratchServed(n)
	for i := range from {
		from[i] = -1
	}
	val := m.scratch(1, n)
	valid := m.scratchBits(n)
	left := n
	for j, lv := range path {
		if left == 0 {
			break
		}
		m.view(rc, lv, la, val, valid, nil)
		for i := 0; i < n; i++ {
			if from[i] < 0 && bit(valid, i) {
				buf[i] = val[i]
				from[i] = int8(j)
				left--
			}
		}
	}
	// Fill the caches above where each byte came from.
	for j, lv := range path {
		if lv.isMem() {
			break
		}
		lo, hi := -1, -1
		for i := 0; i < n; i++ {
			if int(from[i]) > j {
				if lo < 0 {
					lo = i
				}
				hi = i
			}
		}
		if lo >= 0 {
			m.fill(rc.op, client, lv, la+uint64(lo), buf[lo:hi+1])
		}
	}
	off := int(addr - la)
	copy(dst, buf[off:off+len(dst)])
	copy(served, from[off:off+len(dst)])
}

// scratch buffers, reused across reads: the model runs on one goroutine.
func (m *Machine) scratch(i, n int) []byte {
	if cap(m.scratchBytes[i]) < n {
		m.scratchBytes[i] = make([]byte, n)
	}
	return m.scratchBytes[i][:n]
}

func (m *Machine) scratchServed(n int) []int8 {
	if cap(m.scratchFrom) < n {
		m.scratchFrom = make([]int8, n)
	}
	return m.scratchFrom[:n]
}

// scratchSettled is a zeroed bitset of n bits, for view.
func (m *Machine) scratchSettled(n int) []uint64 {
	w := (n + 63) / 64
	if cap(m.scratchSettle) < w {
		m.scratchSettle = make([]uint64, w)
	}
	s := m.scratchSettle[:w]
	clear(s)
	return s
}

func (m *Machine) scratchBits(n int) []uint64 {
	w := (n + 63) / 64
	if cap(m.scratchValid) < w {
		m.scratchValid = make([]uint64, w)
	}
	return m.scratchValid[:w]
}

// dirtyBytes counts a cache's dirty bytes (for tests and reports).
func (l *level) dirtyBytes() int {
	n := 0
	for _, ln := range l.lines {
		n += bits.OnesCount64(ln.dirty)
	}
	return n
}

func (l *level) String() string { return fmt.Sprintf("%s", l.name) }
