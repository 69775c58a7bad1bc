package hwmodel

import "slices"

// Merging effects. A line's records are kept while some op to come could be
// unordered with them, so a list whose work is ordered only within its own
// stage (dispatches with UAV barriers between them: each waits for the one
// before, the CP for none) keeps every dispatch's record of every line it
// wrote until the submission ends — memory in bytes times work items, and
// a reader's walk over them in work items squared. Yet a reader to come
// that sees one of those writes sees the next one too, unless something
// stored in the machine could order it between them. Two records of a line
// no reader can tell apart that way are kept as one.
//
// What a reader is ordered after is, per engine and stage, a seq threshold
// (orderedBefore): a frontier, a floor, ext, a fence's or an event's clock.
// Every such threshold a later op will have is a value stored in one of
// those now, a maximum of such values, or a seq not yet issued — one later
// than every record's op. So two ops of one engine, stage and client with
// no stored value in [older's seq, newer's seq) are ordered before every
// reader to come alike: both or neither, forever (the colour and depth
// back ends' in-order exception depends on the stage and client alone). The
// values stored now are the cut points; an op's epoch is how many lie below
// its seq, and ops of one epoch (and engine, stage, client) are alike.
//
// Two adjacent records of a line (no record between them on its chain) of
// ops alike become one: the newer op's, reaching what either reached, with
// the masks before the older one where it reached and before the newer one
// elsewhere, and the bytes a reader not ordered after them rolls back to.
// Records are merged in retire passes, which run when the records in flight
// have doubled, so a list of n such dispatches keeps a few records a line,
// not n (BenchmarkUAVChain, TestMergedEffectsChangeNothing).

// cutPoints gathers, per engine, every seq value a threshold stored in the
// machine holds for that engine's ops, sorted. Whatever comes to store a
// clock or a seq threshold elsewhere must be added here: a threshold left
// out lets two records merge that a reader ordered by it tells apart
// (TestChainsOfWorkMergeAlike runs programs with fences and events).
func (m *Machine) cutPoints() *[MaxEngines][]uint64 {
	cuts := &m.scratch.cuts
	for i := range cuts {
		cuts[i] = cuts[i][:0]
	}
	add := func(engine int, c *clock) {
		cuts[engine] = append(cuts[engine], c[:]...)
	}
	for _, x := range m.engines {
		cuts[x.id] = append(cuts[x.id], x.seq)
		add(x.id, &x.stageLast)
		add(x.id, &x.floor)
		add(x.id, &x.ctx.front)
		for s := range x.frontier {
			add(x.id, &x.frontier[s])
			add(x.id, &x.stageLastF[s])
		}
		for _, ev := range x.events {
			add(x.id, &ev.clk)
		}
		for o, v := range x.ext {
			cuts[o] = append(cuts[o], v)
		}
	}
	for _, f := range m.fences {
		for o, v := range f.clock {
			cuts[o] = append(cuts[o], v)
		}
	}
	for i := range cuts {
		slices.Sort(cuts[i])
		cuts[i] = slices.Compact(cuts[i])
	}
	return cuts
}

// epoch is how many of its engine's cut points lie below op's seq,
// memoised for the retire pass.
func (m *Machine) epoch(op *opRec, cuts *[MaxEngines][]uint64) int32 {
	if op.epochPass != m.effects.pass {
		n, _ := slices.BinarySearch(cuts[op.engine], op.seq)
		op.epochPass, op.epoch = m.effects.pass, int32(n)
	}
	return op.epoch
}

// alike reports whether the ops of two records are ordered before every
// reader to come alike.
func (m *Machine) alike(x, y *lineEffect, cuts *[MaxEngines][]uint64) bool {
	if x.client != y.client {
		return false
	}
	if x.gid == y.gid {
		return true
	}
	ox, oy := m.opAt(x.gid), m.opAt(y.gid)
	return ox != nil && oy != nil && ox.engine == oy.engine && ox.stage == oy.stage && m.epoch(ox, cuts) == m.epoch(oy, cuts)
}

// mayMerge reports whether block b has two records of different ops alike
// next to each other in its list: a cheap test that a merge pass over it
// may find something (a pair it misses is left as it is, which is safe).
func (m *Machine) mayMerge(b *fxBlock, cuts *[MaxEngines][]uint64) bool {
	for j := 1; j < len(b.effects); j++ {
		if x, y := &b.effects[j-1], &b.effects[j]; x.gid != y.gid && m.alike(x, y, cuts) {
			return true
		}
	}
	return false
}

// merged is the one record for the line at la of lv standing for x and,
// on top of it, y (adjacent on the line's chain, their ops alike), and
// whether there is one. Walking the chain, a reader not ordered after them
// sets each byte x reaches to x's image and masks, and each other byte y
// reaches to y's; a record without an image leaves a byte as the walk
// found it, which one record can do only for all its bytes or for bytes
// that then read as invalid (a cache's invalid bytes mean nothing). A
// record's slot is given back when it is not the merged record's.
func (m *Machine) merged(lv *level, la uint64, x, y *lineEffect) (lineEffect, bool) {
	r1, r2 := x.reach, y.reach
	e := lineEffect{gid: y.gid, client: y.client, reach: r1 | r2,
		prevV: x.prevV&r1 | y.prevV&(r2&^r1), prevD: x.prevD&r1 | y.prevD&(r2&^r1)}
	if x.image == noImage && y.image == noImage {
		return e, true
	}
	var hasX, hasY uint64
	if x.image != noImage {
		hasX = r1
	}
	if y.image != noImage {
		hasY = r2
	}
	// The bytes the walk would leave as it found them.
	asFound := r1&^hasX&^hasY | (r2&^r1)&^hasY
	validAfter := e.prevV
	if lv.isMem() {
		validAfter = ^uint64(0)
	}
	if asFound&validAfter != 0 {
		return lineEffect{}, false
	}
	if validAfter&e.reach == 0 {
		// Every byte rolls back to invalid: no image is needed.
		lv.undo.release(x)
		lv.undo.release(y)
		return e, true
	}
	if hasX == e.reach {
		// x reaches every byte: rolling back both is rolling back x.
		e.image, e.prev = x.image, x.prev
		lv.undo.release(y)
		return e, true
	}
	var img, bx, by [LineSize]byte
	if hasY != 0 {
		blend(&img, lv.imageOf(y, &by, la), r2)
	}
	if hasX != 0 {
		blend(&img, lv.imageOf(x, &bx, la), r1)
	}
	lv.undo.release(x)
	lv.undo.release(y)
	lv.keepImage(&e, &img, la)
	return e, true
}

// mergeEffects merges, on every level, adjacent records of a line whose ops
// are alike. It runs in a retire pass, after retireEffects.
func (m *Machine) mergeEffects() {
	if m.noMerge || m.effects.lines == 0 {
		return
	}
	cuts := m.cutPoints()
	for _, lv := range m.allLevels() {
		for k, b := range lv.fx {
			if m.mayMerge(b, cuts) {
				m.mergeBlock(lv, k<<blockShift, b, cuts)
			}
		}
	}
}

// mergeBlock rebuilds block b's chains with adjacent records of ops alike
// merged. The nodes are read oldest first; each line holds back its newest
// record (pend) until the next one shows whether it merges, then emits it:
// a line's records are emitted oldest first, and records are appended as
// their nodes are, so the nodes' records never go down (retireEffects
// relies on it). Emitted lines share a node, and a record, as push makes
// them share.
func (m *Machine) mergeBlock(lv *level, base uint64, b *fxBlock, cuts *[MaxEngines][]uint64) {
	var pend [blockLines]lineEffect
	var held uint64 // lines with a record in pend
	s := &m.scratch
	effects, nodes := s.mergeFx[:0], s.nodes[:0]
	var newest [blockLines]int32
	for i := range newest {
		newest[i] = -1
	}
	emit := func(i uint64) {
		e := pend[i]
		n := len(effects)
		if n == 0 || e.image == slotImage || effects[n-1] != e {
			effects = append(effects, e)
			n++
		}
		ne := uint32(n - 1)
		if k := len(nodes) - 1; k >= 0 && !m.perLine && nodes[k].effect == ne && uint64(nodes[k].line)+uint64(nodes[k].n) == i && nodes[k].older == newest[i] {
			nodes[k].n++
		} else {
			nodes = append(nodes, fxNode{effect: ne, older: newest[i], line: uint8(i), n: 1})
		}
		newest[i] = int32(len(nodes) - 1)
	}
	merges := 0
	for _, nd := range b.nodes {
		y := &b.effects[nd.effect]
		for i := uint64(nd.line); i < uint64(nd.line)+uint64(nd.n); i++ {
			if held>>i&1 != 0 && m.alike(&pend[i], y, cuts) {
				if e, ok := m.merged(lv, base+i*LineSize, &pend[i], y); ok {
					pend[i] = e
					merges++
					continue
				}
			}
			if held>>i&1 != 0 {
				emit(i)
			}
			pend[i] = *y
			held |= 1 << i
		}
	}
	for i := range uint64(blockLines) {
		if held>>i&1 != 0 {
			emit(i)
		}
	}
	m.effects.lines -= merges
	m.effects.merged += merges
	b.effects = append(b.effects[:0], effects...)
	b.nodes = append(b.nodes[:0], nodes...)
	b.newest = newest
	s.mergeFx, s.nodes = effects[:0], nodes[:0]
}
