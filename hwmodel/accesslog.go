package hwmodel

import (
	"slices"

	"github.com/ebref/ebref/cmdbuf"
)

// Accesses. Reads, data writes and metadata initialisations are also logged
// by address range while their op is in flight, for the write-after-read
// and write-after-write checks.

type accessKind uint8

const (
	accessRead accessKind = iota
	accessWrite
	// accessLogical: a write of what bytes mean rather than of the bytes (a
	// metadata initialisation over a surface's data range).
	accessLogical
)

type access struct {
	op     *opRec
	lv     *level // where a write landed (memory for reads)
	addr   uint64
	n      int
	kind   accessKind
	client cmdbuf.Client
	// wide: it is listed in its level's wide list, not in buckets.
	wide  bool
	order uint64
}

// effectLog indexes the in-flight accesses by level and 4 KiB bucket, and
// counts the in-flight line effects (kept on the levels) and recycles them.
type effectLog struct {
	buckets map[bucketKey][]*access
	// wide lists, per level id, oldest first, the accesses that covered
	// more than wideAt buckets when logged: indexed in every bucket, a
	// chain of dispatches over 4 MiB kept 8 bytes a 4 KiB bucket for each
	// dispatch, and each write's checks walked them all, bucket by bucket.
	// A query looks through its level's list whole.
	wide     [256][]*access
	wideAt   uint64
	accesses int
	order    uint64
	lines    int    // line effects in flight
	merged   int    // line effects merged into the one below them, in all (merge.go)
	pass     uint32 // retire passes, for memoising per op
	// Recycling, so a warm machine logs accesses without allocating:
	// emptied bucket slices, access records in chunks (used: handed out
	// since the last reset) and records a retire gave back. The chunks
	// hold the records for good, so slices past their length need not be
	// cleared for the collector.
	spare [][]*access
	slab  [][]access
	used  int
	free  []*access
	// last is the record logged last, which a contiguous access of the
	// same op, level, kind and client extends; nil once records are
	// retired or reset. apart turns that off (Machine.perLine).
	last  *access
	apart bool
}

const accessChunk = 256

// newAccess returns a record for an access: a retired one, or the next of
// the chunks.
func (g *effectLog) newAccess() *access {
	if n := len(g.free); n > 0 {
		a := g.free[n-1]
		g.free = g.free[:n-1]
		return a
	}
	if g.used == len(g.slab)*accessChunk {
		g.slab = append(g.slab, make([]access, accessChunk))
	}
	a := &g.slab[g.used/accessChunk][g.used%accessChunk]
	g.used++
	return a
}

// dropBucket removes bucket k, whose slice as is empty, keeping the slice.
func (g *effectLog) dropBucket(k bucketKey, as []*access) {
	delete(g.buckets, k)
	g.spare = append(g.spare, as[:0])
}

// bucketKey names the 4 KiB bucket b of a level's log: b above the level's
// id, one word, so the map hashes it as an integer (a struct of a pointer
// and a block hashed as 16 bytes cost a tenth of a copy's time). Block
// numbers of 64-bit addresses fit in the 56 bits above the id.
type bucketKey uint64

func bucketOf(lv *level, b uint64) bucketKey { return bucketKey(b<<8 | uint64(lv.id)) }

// block is the bucket's block number.
func (k bucketKey) block() uint64 { return uint64(k) >> 8 }

// wideAt is how many 4 KiB buckets an access may cover and still be
// indexed by bucket (effectLog.wide): 64 KiB.
const wideAt = 16

func newEffectLog() *effectLog {
	return &effectLog{buckets: make(map[bucketKey][]*access), wideAt: wideAt}
}

// count is everything in flight.
func (g *effectLog) count() int { return g.accesses + g.lines }

func (g *effectLog) addAccess(v access) {
	if a := g.last; a != nil && !g.apart && a.op == v.op && a.lv == v.lv && a.kind == v.kind && a.client == v.client &&
		a.addr+uint64(a.n) == v.addr {
		// It continues the access logged last, of the same op: one record
		// (a compressed write stores block after block). The checks ask
		// for overlaps and merge what they find by op, so one record
		// answers as the pieces did.
		from := (a.addr+uint64(a.n)-1)>>blockShift + 1
		a.n += v.n
		if !a.wide {
			g.index(a, from)
		}
		return
	}
	a := g.newAccess()
	*a = v
	g.order++
	a.order = g.order
	if first, last := a.addr>>blockShift, (a.addr+uint64(a.n)-1)>>blockShift; last-first >= g.wideAt {
		a.wide = true
		g.wide[a.lv.id] = append(g.wide[a.lv.id], a)
	} else {
		g.index(a, first)
	}
	g.accesses++
	g.last = a
}

// index adds a to the buckets it covers from bucket from on.
func (g *effectLog) index(a *access, from uint64) {
	for b := from; b <= (a.addr+uint64(a.n)-1)>>blockShift; b++ {
		k := bucketOf(a.lv, b)
		as, ok := g.buckets[k]
		if n := len(g.spare); !ok && n > 0 {
			as = g.spare[n-1]
			g.spare = g.spare[:n-1]
		}
		g.buckets[k] = append(as, a)
	}
}

// overlapping returns the accesses logged at lv overlapping [addr, addr+n),
// oldest first.
func (g *effectLog) overlapping(lv *level, addr uint64, n int) []*access {
	if g.accesses == 0 || n == 0 {
		return nil
	}
	var out []*access
	end := addr + uint64(n)
	for _, a := range g.wide[lv.id] {
		if a.addr < end && addr < a.addr+uint64(a.n) {
			out = append(out, a)
		}
	}
	wide := len(out) > 0
	first := addr >> blockShift
	for b := first; b <= (end-1)>>blockShift; b++ {
		for _, a := range g.buckets[bucketOf(lv, b)] {
			// One starting in an earlier bucket than b was met there,
			// unless b is the first bucket looked at.
			if b > first && a.addr>>blockShift < b {
				continue
			}
			if a.addr < end && addr < a.addr+uint64(a.n) {
				out = append(out, a)
			}
		}
	}
	if wide || first != (end-1)>>blockShift {
		slices.SortFunc(out, func(x, y *access) int { return int(x.order) - int(y.order) })
	}
	return out
}

// ofOp returns op's logged accesses of the given kinds, oldest first.
func (g *effectLog) ofOp(op *opRec, kinds ...accessKind) []*access {
	var out []*access
	for k, as := range g.buckets {
		for _, a := range as {
			if a.op == op && a.addr>>blockShift == k.block() && slices.Contains(kinds, a.kind) {
				out = append(out, a)
			}
		}
	}
	for _, as := range g.wide {
		for _, a := range as {
			if a.op == op && slices.Contains(kinds, a.kind) {
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, func(x, y *access) int { return int(x.order) - int(y.order) })
	return out
}

// retire drops what no op still to come can be unordered with (gone says
// so of an op): every such access, and every such line effect except one
// with an older kept effect under it — for a reader not ordered after the
// older one, the newer one is what stops the roll-back (lineView), so it
// stays until the older one goes.
func (m *Machine) retireEffects(gone func(*opRec) bool) {
	pass := m.effects.pass
	g := m.effects
	g.last = nil // it may be given back below
	for k, as := range g.buckets {
		w := as[:0]
		for _, a := range as {
			if !gone(a.op) {
				w = append(w, a)
			} else if a.addr>>blockShift == k.block() {
				// Once, from the bucket it starts in; every bucket drops
				// it in this pass, and nothing is logged before the pass ends.
				g.free = append(g.free, a)
			}
		}
		if len(w) == 0 {
			g.dropBucket(k, as)
		} else {
			g.buckets[k] = w
		}
	}
	n := 0
	for k, as := range g.buckets {
		for _, a := range as {
			if a.addr>>blockShift == k.block() { // once: in the bucket it starts in
				n++
			}
		}
	}
	for id, as := range g.wide {
		w := as[:0]
		for _, a := range as {
			if !gone(a.op) {
				w = append(w, a)
			} else {
				g.free = append(g.free, a)
			}
		}
		g.wide[id] = w
		n += len(w)
	}
	g.accesses = n
	for _, lv := range m.allLevels() {
		for k, b := range lv.fx {
			// A block whose effects are all of ops still to be reckoned
			// with keeps every node: nothing to compact.
			anyDone := false
			for j := range b.effects {
				op := m.ops[b.effects[j].gid]
				done := op.gone
				if op.gonePass != pass {
					done = gone(op)
				}
				if done {
					anyDone = true
					break
				}
			}
			if !anyDone {
				continue
			}
			// Oldest first, per line: kept is what the line's kept
			// records cover; the surviving records are rechained into
			// nodes (in scratch space: a node whose lines part ways
			// becomes several), and the effects they name compacted with
			// them (remap: an effect's new index, -1 until a node keeps it).
			var kept [blockLines]uint64
			for i := range b.newest {
				b.newest[i] = -1
			}
			remap := slices.Grow(b.remap[:0], len(b.effects))[:len(b.effects)]
			for i := range remap {
				remap[i] = -1
			}
			out, we, dropped := m.scratch.nodes[:0], 0, 0
			for _, nd := range b.nodes {
				e := &b.effects[nd.effect]
				op := m.ops[e.gid]
				done := op.gone
				if op.gonePass != pass {
					done = gone(op)
				}
				for i := uint64(nd.line); i < uint64(nd.line)+uint64(nd.n); i++ {
					if done && e.reach&kept[i] == 0 {
						lv.undo.release(e) // an effect with a slot has one line
						dropped++
						continue
					}
					kept[i] |= e.reach
					if remap[nd.effect] < 0 {
						remap[nd.effect] = int32(we)
						b.effects[we] = *e // we <= nd.effect: nothing later is overwritten
						we++
					}
					ne, older := uint32(remap[nd.effect]), b.newest[i]
					if k := len(out) - 1; k >= 0 && !m.perLine && out[k].effect == ne && uint64(out[k].line)+uint64(out[k].n) == i && out[k].older == older {
						out[k].n++
					} else {
						out = append(out, fxNode{effect: ne, older: older, line: uint8(i), n: 1})
					}
					b.newest[i] = int32(len(out) - 1)
				}
			}
			g.lines -= dropped
			b.nodes = append(b.nodes[:0], out...)
			m.scratch.nodes = out[:0]
			b.effects = b.effects[:we]
			b.remap = remap
			if len(b.nodes) == 0 {
				lv.dropFx(k, b)
			}
		}
	}
}

// resetEffects drops everything in flight: the CPU saw the GPU idle.
func (m *Machine) resetEffects() {
	for _, lv := range m.allLevels() {
		for k, b := range lv.fx {
			b.effects, b.nodes = b.effects[:0], b.nodes[:0]
			for i := range b.newest {
				b.newest[i] = -1
			}
			lv.dropFx(k, b)
		}
		lv.undo.reset()
	}
	// The log is emptied in place; its pass count goes on, so no op's
	// memo from an earlier pass is taken for a later one.
	g := m.effects
	for k, as := range g.buckets {
		g.dropBucket(k, as)
	}
	for id, as := range g.wide {
		g.wide[id] = as[:0]
	}
	// The records are reused as they are: each is overwritten whole when
	// handed out, and what they point to (ops, levels) lives on anyway.
	g.accesses, g.lines, g.order, g.used, g.free, g.last = 0, 0, 0, 0, g.free[:0], nil
}
