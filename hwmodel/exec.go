package hwmodel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sort"

	"github.com/ebref/ebref/cmdbuf"
)

// execute runs one decoded packet. CALL and CHAIN move the frame (done by
// the caller); a fence wait that cannot pass returns errBlocked; any other
// error is a fault.
func (e *Engine) execute(p cmdbuf.Packet) error {
	m := e.m
	c := &m.prof.Costs
	switch p.Op() {
	case cmdbuf.OpNop, cmdbuf.OpChain:
		e.cpPacket(0, nil, p.Op().String(), p)
	case cmdbuf.OpMarker:
		e.marker = p.Marker().Text
		e.cpPacket(0, nil, "MARKER", p)
	case cmdbuf.OpWork:
		return e.runWork(p)
	case cmdbuf.OpWait:
		w := p.Wait()
		clk, t := e.drainClock(w.Drain)
		e.cpPacket(c.WaitBase, &e.counters.WaitCycles, "WAIT", p)
		e.hold(w.Hold, &clk, t, w.Drain)
	case cmdbuf.OpEventSignal:
		ev := p.Event()
		clk, t := e.drainClock(ev.Stages)
		e.events[ev.ID] = eventSnap{clk, t}
		e.cpPacket(0, nil, "EVENT_SIGNAL", p)
	case cmdbuf.OpEventWait:
		ev := p.Event()
		snap, ok := e.events[ev.ID]
		if !ok {
			return fmt.Errorf("EVENT_WAIT on event %d, which no EVENT_SIGNAL on %s has set", ev.ID, e.name)
		}
		e.cpPacket(c.WaitBase, &e.counters.WaitCycles, "EVENT_WAIT", p)
		e.hold(ev.Stages, &snap.clk, snap.time, cmdbuf.StageBlit.Mask())
	case cmdbuf.OpFenceSignal:
		f := p.Fence()
		fc, ok := m.fences[f.ID]
		if !ok {
			return fmt.Errorf("FENCE_SIGNAL on fence %d, which does not exist", f.ID)
		}
		// The fence is reached when everything before it has completed; a
		// waiter learns all this engine knows.
		fc.value = f.Value
		fc.clock = e.ext
		fc.clock[e.id] = e.seq
		fc.time = e.finishTime()
		e.cpPacket(0, nil, "FENCE_SIGNAL", p)
	case cmdbuf.OpFenceWait:
		f := p.Fence()
		fc, ok := m.fences[f.ID]
		if !ok {
			return fmt.Errorf("FENCE_WAIT on fence %d, which does not exist", f.ID)
		}
		if fc.value < f.Value {
			e.cur.waiting, e.cur.waitingAt = f, e.offsetOf(p)
			return errBlocked
		}
		for i := range e.ext {
			e.ext[i] = max(e.ext[i], fc.clock[i])
		}
		if fc.time > e.cp {
			e.chargeStall(0, e.cp, fc.time)
			e.cp = fc.time
		}
		e.cpPacket(c.WaitBase, &e.counters.WaitCycles, "FENCE_WAIT", p)
	case cmdbuf.OpCache:
		return e.runCache(p)
	case cmdbuf.OpDecompress, cmdbuf.OpMetadataInit:
		return e.runCompression(p)
	default:
		return fmt.Errorf("%s is not executable here", p.Op())
	}
	return nil
}

// drainClock is what completing all work issued so far in stages d implies.
// A drain is transitive: a stage that an earlier WAIT or EVENT_WAIT holds
// has not drained until that hold is released, so draining it also waits
// for what the hold waits for (frontier, holdUntil), whether or not the
// stage ran work since. This is how a command processor that gates a stage
// behaves, and it is what makes sequential barriers chain (000
// "Sequential Barriers"; hardware.md "Waits").
func (e *Engine) drainClock(d cmdbuf.StageMask) (clock, uint64) {
	var c clock
	var t uint64
	for s := 0; s < numStages; s++ {
		if !d.Has(cmdbuf.Stage(s)) {
			continue
		}
		c.merge(&e.stageLastF[s])
		c.merge(&e.frontier[s])
		c[s] = max(c[s], e.stageLast[s])
		t = max(t, e.stageEnd[s], e.holdUntil[s])
	}
	return c, t
}

// hold applies a drain point to the stages h: their later work is ordered
// after it and cannot start before time t. Holding the CP stalls it: it
// issues nothing until the drain, so everything later is ordered after it,
// and the idle cycles are charged to the drained stages.
func (e *Engine) hold(h cmdbuf.StageMask, c *clock, t uint64, drained cmdbuf.StageMask) {
	if h.Has(cmdbuf.StageCP) {
		h = cmdbuf.AllStages
		e.floor.merge(c)
	}
	for s := 0; s < numStages; s++ {
		if h.Has(cmdbuf.Stage(s)) {
			if h != cmdbuf.AllStages {
				e.frontier[s].merge(c)
			}
			e.holdUntil[s] = max(e.holdUntil[s], t)
		}
	}
	if h.Has(cmdbuf.StageCP) && t > e.cp {
		e.chargeStall(drained, e.cp, t)
		e.cp = t
	}
}

// checkAccess validates one access before any effect: mapped, aligned
// (dword-aligned except copies), inside its surface.
func (m *Machine) checkAccess(i int, a cmdbuf.Access) error {
	if _, ok := m.mapped(a.Addr, uint64(a.Size)); !ok {
		return fmt.Errorf("access %d (%s 0x%x+0x%x) is outside any mapping", i, a.Dir, a.Addr, a.Size)
	}
	if a.Dir == cmdbuf.DirWrite && !writes(a.Client) {
		return fmt.Errorf("access %d writes through %s, which only reads", i, a.Client)
	}
	if a.Client != cmdbuf.ClientCopy && (a.Addr%4 != 0 || a.Size%4 != 0) {
		return fmt.Errorf("access %d (0x%x+0x%x) is not dword-aligned; only copies are byte-granular", i, a.Addr, a.Size)
	}
	if a.Surface != 0 {
		s := m.surfaces[a.Surface]
		if s == nil {
			return fmt.Errorf("access %d names surface %d, which is not defined", i, a.Surface)
		}
		if a.Addr < s.Base || a.End() > s.Base+s.Size {
			return fmt.Errorf("access %d (0x%x+0x%x) leaves surface %d (0x%x+0x%x)", i, a.Addr, a.Size, a.Surface, s.Base, s.Size)
		}
	}
	return nil
}

// runWork executes a WORK packet: it occupies its stage for its duration,
// reads what the accesses say through each client's caches (as this op may
// see them), computes its outputs, and writes them through the writing
// clients' caches. The reference does the same on plain memory.
func (e *Engine) runWork(p cmdbuf.Packet) error {
	m := e.m
	w := p.Work()
	if !e.kind.Stages().Has(w.Stage) {
		return fmt.Errorf("%s runs in stage %s, which a %s engine does not have", w.Kind, w.Stage, e.kind)
	}
	if w.Chained && (!e.lastWork.valid || e.lastWork.id != w.ID) {
		return fmt.Errorf("chained %s (id %d) does not follow a WORK of that id", w.Kind, w.ID)
	}
	var nr, nw int
	for i := 0; i < w.NumAccesses; i++ {
		a := p.Access(i)
		if err := m.checkAccess(i, a); err != nil {
			return err
		}
		if a.Dir == cmdbuf.DirRead {
			nr++
		} else {
			nw++
		}
	}
	if w.Kind.IsCopy() {
		if nr != nw {
			return fmt.Errorf("%s pairs reads with writes: %d reads, %d writes", w.Kind, nr, nw)
		}
		ri, wi := 0, 0
		for i := 0; i < w.NumAccesses; i++ {
			if p.Access(i).Dir == cmdbuf.DirRead {
				ri++
				continue
			}
			wi++
			if r := readN(p, wi); r.Size != p.Access(i).Size {
				return fmt.Errorf("%s write %d is %d bytes, its read %d bytes", w.Kind, wi-1, p.Access(i).Size, r.Size)
			}
		}
	}
	// A PREDICATION work captures a predicate when its parameter says how
	// and it reads one of at most 8 bytes, and ends predication when its
	// parameter is off and it reads nothing; any other form only reads.
	capture := w.Kind == cmdbuf.WorkPredication && !w.Chained && nr == 1 && nw == 0 && p.Access(0).Size <= 8 &&
		(w.Param == cmdbuf.PredicateSkipIfZero || w.Param == cmdbuf.PredicateSkipIfNonZero)
	if w.Kind == cmdbuf.WorkPredication && w.Param == cmdbuf.PredicateOff && w.NumAccesses == 0 {
		e.pred.on = false
	}
	skip, refSkip := false, false
	if w.Predicated && e.pred.on {
		skip, refSkip = e.pred.skip, e.pred.refSkip
	}
	if skip && refSkip {
		// Skipped: the CP issues it and moves on; it occupies no stage
		// and touches nothing. A chained part may follow it.
		e.cpPacket(0, nil, "WORK skipped", p)
		e.lastWork.valid, e.lastWork.id = true, w.ID
		e.lastWork.h, e.lastWork.rh = newDigest(w.Kind, w.ID), newDigest(w.Kind, w.ID)
		e.lastWork.start = e.cp
		return nil
	}
	if err := m.checkHostMemory(w, p); err != nil {
		return err
	}
	ctx := e.issue(w.Stage, w.Kind.String(), p)
	var notBefore uint64
	if w.Chained {
		notBefore = e.lastWork.start
	}
	e.cpPacket(0, nil, "WORK issue", p)
	start := e.startWorkAfter(w.Stage, uint64(w.Duration), w.Kind.String(), p, notBefore)
	e.counters.WorkCycles += uint64(w.Duration)
	for i := 0; i < w.NumAccesses; i++ {
		if a := p.Access(i); a.Dir == cmdbuf.DirWrite {
			ctx.op.writeClients |= 1 << a.Client
		}
	}

	h, rh := newDigest(w.Kind, w.ID), newDigest(w.Kind, w.ID)
	if w.Chained {
		h, rh = e.lastWork.h, e.lastWork.rh
	}
	var reads, refReads [][]byte
	for i := 0; i < w.NumAccesses; i++ {
		a := p.Access(i)
		if a.Dir != cmdbuf.DirRead {
			continue
		}
		mark := m.scratch.mark()
		got, ref, same := m.readAccess(ctx, a)
		m.effects.addAccess(access{op: ctx.op, lv: m.memLevel, addr: a.Addr, n: int(a.Size), kind: accessRead, client: a.Client})
		if capture {
			// Captured now, as the command executes: later writes to the
			// buffer do not change it.
			zero, refZero := allZero(got), allZero(ref)
			e.pred.on = true
			e.pred.skip = zero == (w.Param == cmdbuf.PredicateSkipIfZero)
			e.pred.refSkip = refZero == (w.Param == cmdbuf.PredicateSkipIfZero)
		}
		if w.Kind.IsCopy() {
			reads, refReads = append(reads, got), append(refReads, ref)
		} else {
			wasSame := h == rh
			h.add(got)
			if same && wasSame {
				rh = h // the same state hashing the same bytes
			} else {
				rh.add(ref)
			}
			m.scratch.release(mark)
		}
	}
	e.lastWork.valid, e.lastWork.id, e.lastWork.h, e.lastWork.rh, e.lastWork.start = true, w.ID, h, rh, start
	if h != rh || skip != refSkip {
		// Its inputs (or a chained predecessor's) differed from the
		// reference's, and those reads were judged: its outputs will too.
		ctx.op.tainted = true
	}
	j := 0
	for i := 0; i < w.NumAccesses; i++ {
		a := p.Access(i)
		if a.Dir != cmdbuf.DirWrite {
			continue
		}
		if !w.Kind.IsCopy() {
			// The reference keeps the rule that makes its output (the same
			// as out's if the digest is), not the bytes.
			mark := m.scratch.mark()
			if !skip {
				m.writeAccess(ctx, a, e.m.output(w, j, a, h.sum()), nil)
			}
			if !refSkip {
				m.ref.writeGen(a.Addr, uint64(a.Size), outputGen(w, j, a, rh.sum()), ctx.op.gid)
			}
			m.scratch.release(mark) // stored: the outputs are not needed again
			j++
			continue
		}
		var before []byte
		out, refOut := reads[j], refReads[j]
		if skip {
			// Only the reference runs it (the predicate the model read
			// differed, a hazard reported there).
			m.ref.writeCopy(a.Addr, refOut, readN(p, j+1).Addr, ctx.op.gid)
			j++
			continue
		}
		if refSkip {
			m.writeAccess(ctx, a, out, &before)
			j++
			continue
		}
		m.writeAccess(ctx, a, out, &before)
		if before != nil && len(out) > 0 && &refOut[0] == &out[0] {
			// The same read: the reference's bytes are out as read, before
			// writeAccess changed any (checkWAW).
			refOut = before
		}
		m.ref.writeCopy(a.Addr, refOut, readN(p, j+1).Addr, ctx.op.gid)
		j++
	}
	return nil
}

// readN returns the n-th (1-based) read access.
func readN(p cmdbuf.Packet, n int) cmdbuf.Access {
	for i, k := 0, 0; i < p.Work().NumAccesses; i++ {
		if a := p.Access(i); a.Dir == cmdbuf.DirRead {
			k++
			if k == n {
				return a
			}
		}
	}
	return cmdbuf.Access{}
}

// readAccess reads one access as the op may see it, decoding compression
// where the access and client allow, and records a hazard for everything it
// serves that a correct program could not have seen. It returns what the
// access read, what the reference read, and whether the two are the same
// (then ref is got itself: the read is compared with the reference's
// memory in place).
func (m *Machine) readAccess(ctx *opCtx, a cmdbuf.Access) (got, ref []byte, same bool) {
	e := ctx.e
	ctx.client = a.Client
	path := e.paths[a.Client]
	got = m.scratch.bytes(int(a.Size))
	pr := m.readPath(ctx, a.Client, path, a.Addr, got)
	var explained []bool
	if a.Surface != 0 {
		explained = m.decodeRead(ctx, a, got)
	}
	if m.ref.mem.Equal(a.Addr, got) {
		return got, got, true // the reference read the same: the same slice
	}
	ref = m.scratch.bytes(int(a.Size))
	m.ref.mem.Read(a.Addr, ref)
	if same = bytes.Equal(got, ref); !same {
		ctx.op.tainted = true
		explained = m.foreignEncoding(ctx, a, got, ref, explained)
		m.classifyRead(ctx, a, path, got, ref, &pr, explained)
	}
	return got, ref, same
}

// foreignEncoding explains bytes a read got wrong because they lie in
// another surface's compressed or cleared blocks, which the access does
// not decode (memory a compressed resource used, read through one placed
// over it): a byte that is the right value encoded, or a cleared block's
// value the memory does not hold. That is a compressed-read, not a cache
// that missed a flush. It returns explained, grown as needed.
func (m *Machine) foreignEncoding(ctx *opCtx, a cmdbuf.Access, got, ref []byte, explained []bool) []bool {
	if !m.anySurface(a.Addr, uint64(a.Size)) {
		return explained
	}
	var found blockSpan
	var id uint16
	for i := range got {
		if got[i] == ref[i] || explained != nil && explained[i] {
			continue
		}
		addr := a.Addr + uint64(i)
		s := m.surfaceAt(addr)
		if s == nil || s.ID == a.Surface {
			continue
		}
		code, value := m.metaView(ctx, s, (addr-s.Base)/BlockSize)
		if code == MetaCompressed && got[i]^key(addr) == ref[i] || code == MetaClear && ref[i] == value {
			explained = m.explain(explained, a, addr, addr+1)
			found.add(addr, addr+1)
			id = s.ID
		}
	}
	if found.set() {
		m.addHazard(ctx, HazardCompressedRead, a, found.lo, found.hi-found.lo, nil,
			fmt.Sprintf("the bytes lie in surface %d's compressed blocks, which the access does not decode: a DECOMPRESS of surface %d, or the bytes written whole, before %s would leave them plain", id, id, ctx.op.at()))
	}
	return explained
}

// writeAccess writes one access's output through the client's first cache,
// after the write-after-write and write-after-read checks, compressing it
// when the access and client allow.
func (m *Machine) writeAccess(ctx *opCtx, a cmdbuf.Access, data []byte, before *[]byte) {
	e := ctx.e
	ctx.client = a.Client
	m.spoilMetadata(a.Addr, uint64(a.Size))
	m.checkWAW(ctx, a, data, before)
	m.checkWAR(ctx, a)
	m.checkOlderDirty(ctx, a)
	lv := e.paths[a.Client][0]
	if a.Surface != 0 {
		m.writeSurface(ctx, a, lv, data)
		return
	}
	m.store(ctx.op, a.Client, lv, a.Addr, data, true)
}

// allLevels lists every level: memory, shared caches, every engine's own.
func (m *Machine) allLevels() []*level { return m.levels }

func (m *Machine) listLevels() []*level {
	out := []*level{m.memLevel}
	keys := make([]int, 0, len(m.shared))
	for k := range m.shared {
		keys = append(keys, int(k))
	}
	sort.Ints(keys)
	for _, k := range keys {
		out = append(out, m.shared[cmdbuf.Cache(k)])
	}
	for _, e := range m.engines {
		for _, lv := range e.caches {
			if lv != nil && lv.engine == e.id {
				out = append(out, lv)
			}
		}
	}
	return out
}

// checkWAW: an earlier data write to these bytes by an op this one is not
// ordered after is still in flight — or this op itself wrote them through
// another client, into another cache. The two results race; the model lets
// the earlier one win, which breaks a program that counted on order. The
// first change to data copies it into *before (scratch space) first, if
// before is not nil.
func (m *Machine) checkWAW(ctx *opCtx, a cmdbuf.Access, data []byte, before *[]byte) {
	if m.effects.accesses == 0 {
		return
	}
	for _, lv := range m.allLevels() {
		for _, w := range m.effects.overlapping(lv, a.Addr, int(a.Size)) {
			if w.kind == accessRead {
				continue
			}
			if w.op == ctx.op {
				if w.client == a.Client {
					continue // one client's writes land in order
				}
			} else if m.orderedBefore(w.op, w.client, ctx) {
				continue
			}
			lo, hi := max(a.Addr, w.addr), min(a.End(), w.addr+uint64(w.n))
			if w.kind == accessWrite {
				cur := make([]byte, hi-lo)
				valid := make([]uint64, (len(cur)+63)/64)
				m.current(lv, lo, cur, valid, nil)
				if before != nil && *before == nil {
					*before = m.scratch.bytes(len(data))
					copy(*before, data)
				}
				for i := range cur {
					if bit(valid, i) {
						data[lo-a.Addr+uint64(i)] = cur[i]
					}
				}
			}
			ctx.op.tainted = true
			fix := fmt.Sprintf("a WAIT draining %s before %s would order them", w.op.stage.Mask(), ctx.op.at())
			if w.op == ctx.op {
				fix = fmt.Sprintf("one work writes these bytes through %s and %s, whose caches retire in no fixed order", w.client, a.Client)
			}
			m.addHazard(ctx, HazardWriteAfterWrite, a, lo, hi-lo, w.op, fix)
		}
	}
}

// checkOlderDirty: an earlier write of these bytes, ordered before this
// one, still dirty in a cache this write neither goes through nor writes
// back into, is written back whenever that cache is: caches write back in
// no fixed order with each other (a real one evicts when it likes), so it
// may land over this write. Flushing that cache before this write prevents
// it.
func (m *Machine) checkOlderDirty(ctx *opCtx, a cmdbuf.Access) {
	path := ctx.e.paths[a.Client]
	for _, lv := range ctx.e.flushOrder {
		if slices.Contains(path, lv) {
			continue
		}
		var older blockSpan
		var by *opRec
		for la := range lv.heldLines(a.Addr, uint64(a.Size), true) {
			b, i := lv.lineAt(la)
			lo, hi := max(la, a.Addr), min(la+LineSize, a.End())
			if _, dirty := b.mask(i); dirty&spanMask(int(lo-la), int(hi-lo)) == 0 {
				continue
			}
			w := m.opAt(b.tagOf(i))
			if w == nil || w == ctx.op || !m.orderedBefore(w, cmdbuf.ClientBlit, ctx) {
				continue // an unordered writer is checkWAW's
			}
			older.add(lo, hi)
			by = w
		}
		if older.set() {
			m.addHazard(ctx, HazardWriteAfterWrite, a, older.lo, older.hi-older.lo, by,
				fmt.Sprintf("%s still holds its older bytes dirty: flush %s before %s writes", lv.name, lv.name, ctx.op.at()))
		}
	}
}

// opAt is the op with gid g, nil if it is gone.
func (m *Machine) opAt(g uint32) *opRec {
	if int(g) < len(m.ops) {
		return m.ops[g]
	}
	return nil
}

// checkWAR: an earlier read of these bytes by an op this one is not ordered
// after may happen after this write. The model lets it see the new bytes:
// its outputs change, which it shows by scrambling what it wrote.
func (m *Machine) checkWAR(ctx *opCtx, a cmdbuf.Access) {
	if m.effects.accesses == 0 {
		return
	}
	for _, r := range m.effects.overlapping(m.memLevel, a.Addr, int(a.Size)) {
		if r.kind != accessRead || r.op == ctx.op || m.orderedBefore(r.op, r.client, ctx) {
			continue
		}
		lo, hi := max(a.Addr, r.addr), min(a.End(), r.addr+uint64(r.n))
		if !m.addHazard(ctx, HazardWriteAfterRead, a, lo, hi-lo, r.op,
			fmt.Sprintf("a WAIT draining %s before %s would order them", r.op.stage.Mask(), ctx.op.at())) {
			continue
		}
		m.scramble(r.op)
	}
}

// scramble changes every byte an op wrote that is still its own, as if it
// had computed from different inputs.
func (m *Machine) scramble(op *opRec) {
	op.tainted = true
	for _, w := range m.effects.ofOp(op, accessWrite, accessLogical) {
		lv := w.lv
		cur := make([]byte, w.n)
		valid := make([]uint64, (w.n+63)/64)
		m.current(lv, w.addr, cur, valid, nil)
		for i := range cur {
			cur[i] ^= 0xa5
		}
		if lv.isMem() {
			lv.mem.Write(w.addr, cur)
			continue
		}
		for i := range cur {
			a := w.addr + uint64(i)
			if b, li := lv.lineAt(a &^ (LineSize - 1)); b != nil {
				if valid, _ := b.mask(li); valid>>(a&(LineSize-1))&1 != 0 {
					lv.store.own(&b.data, &b.shared)[li][a&(LineSize-1)] = cur[i]
				}
			}
		}
	}
}

// runCache executes a CACHE packet: flush, then invalidate, on every
// instance of the named kinds the engine uses (its own and shared ones).
// Synchronous: on the CP, ordered like the CP. Async: in the BLIT stage.
func (e *Engine) runCache(p cmdbuf.Packet) error {
	m := e.m
	c := p.Cache()
	stage := cmdbuf.StageCP
	if p.Async() {
		stage = cmdbuf.StageBlit
	}
	if !m.perLine && !e.cacheHolds(c) {
		// Nothing to write back or drop: the packet orders like any op,
		// and its invalidates count as the latest (the gid an issued op
		// would have had, which the next op takes — see reuseLastOp).
		e.order(stage)
		for _, lv := range e.flushOrder {
			if c.Invalidate.Has(lv.kind) {
				lv.lastInval = uint32(len(m.ops))
			}
		}
		e.runSyncOrAsync(p, m.prof.Costs.CacheOpBase, &e.counters.CacheCycles, "CACHE")
		return nil
	}
	ctx := e.issue(stage, "CACHE", p)
	ctx.client = cmdbuf.ClientBlit
	var lines, touched uint64
	for _, lv := range e.flushOrder {
		if c.Flush.Has(lv.kind) {
			n := m.flushLevel(ctx, lv, c.Addr, c.Size)
			e.counters.FlushedLines[lv.kind] += n
			lines += n * m.prof.Costs.FlushPerLine
			touched += n
		}
	}
	for _, lv := range e.flushOrder {
		if c.Invalidate.Has(lv.kind) {
			n := m.invalidateLevel(ctx, lv, c.Addr, c.Size)
			e.counters.InvalidatedLines[lv.kind] += n
			lines += n * m.prof.Costs.InvalPerLine
			touched += n
		}
	}
	if touched == 0 {
		// It wrote back and dropped nothing, so no effect, access, tag or
		// hazard names it: its record is given to the next op. (A cache's
		// lastInval may hold its gid; the next op takes the same gid, which
		// keeps every comparison of lastInval with later ops as it was.)
		m.reuseLastOp(ctx.op)
	}
	e.runSyncOrAsync(p, m.prof.Costs.CacheOpBase+lines, &e.counters.CacheCycles, "CACHE")
	return nil
}

// cacheHolds reports whether the caches a CACHE packet names hold anything
// it could write back (a dirty line) or drop (any line) in its range.
func (e *Engine) cacheHolds(c cmdbuf.CacheOp) bool {
	for _, lv := range e.flushOrder {
		flush, inval := c.Flush.Has(lv.kind), c.Invalidate.Has(lv.kind)
		if !flush && !inval {
			continue
		}
		for range lv.heldBlocks(c.Addr, c.Size, !inval) {
			return true
		}
	}
	return false
}

// runSyncOrAsync charges a CACHE or compression packet: parsing it on the
// CP, then cost either on the CP (counted in syncPart) or, async, in the
// BLIT stage (AsyncCycles).
func (e *Engine) runSyncOrAsync(p cmdbuf.Packet, cost uint64, syncPart *uint64, what string) {
	if !p.Async() {
		e.cpPacket(cost, syncPart, what, p)
		return
	}
	e.cpPacket(0, nil, what, p)
	e.startWork(cmdbuf.StageBlit, cost, what, p)
	e.counters.AsyncCycles += cost
}

// flushLevel writes back the dirty bytes of lv (in the range) that the op
// may see, into lv's parent, and cleans them; bytes an op it is not ordered
// after wrote stay dirty (their write lands after this flush). It returns
// the number of lines written back.
func (m *Machine) flushLevel(ctx *opCtx, lv *level, addr, size uint64) uint64 {
	var flushed uint64
	for k, set := range lv.heldBlocks(addr, size, true) {
		b, blockAddr := lv.block(k), k<<blockShift
		// Into memory, by an op every later one is ordered after, over a
		// block with no effect in flight at either level, the write-back
		// logs nothing (logChange and logClean would return at once): the
		// bytes go straight to memory. Nothing below logs, so this holds
		// for the whole block.
		direct := !m.perLine && lv.parent.isMem() && m.settledOp(ctx.op) && lv.fxAt(k) == nil && lv.parent.fxAt(k) == nil
		// No byte of the lines from the first to the last one written back
		// has a writer newer than this: a line whose data is at least as
		// new needs no order check.
		first, end := uint64(bits.TrailingZeros64(set)), uint64(64-bits.LeadingZeros64(set))
		newest := m.ref.lastWriter(blockAddr+first*LineSize, (end-first)*LineSize)
		if m.flushBlock(ctx, lv, b, k, set, direct, newest) {
			flushed += blockLines
			continue
		}
		for ; set != 0; set &= set - 1 {
			i := uint(bits.TrailingZeros64(set))
			if m.flushLine(ctx, lv, b, i, blockAddr+uint64(i)*LineSize, direct, newest) {
				flushed++
			}
		}
	}
	return flushed
}

// flushBlock is flushLevel for block b (key k) of lv when every line of it
// is to be written back whole, by an op that sees each line as it is (it
// is ordered after every effect in flight on the block at lv), into a
// level that logs nothing for it: memory, written directly (direct), or a
// cache that holds none of the block, with no effect in flight there. The
// parent's block takes b's bytes (copy on write) instead of a copy; a
// cache's logs one effect for its lines (logAbsent), as storing each line
// would. It reports false, doing nothing, when that is not the case.
//
// Into a cache no order check is needed: a parent holding none of the
// block holds no newer byte to lose, and the lines' tags move with them to
// the parent's own write-back, which checks.
func (m *Machine) flushBlock(ctx *opCtx, lv *level, b *lineBlock, k, set uint64, direct bool, newest uint32) bool {
	parent := lv.parent
	switch {
	case m.perLine || set != ^uint64(0):
		return false
	case parent.isMem():
		if !direct {
			return false
		}
	case parent.block(k) != nil || parent.fxAt(k) != nil:
		return false
	}
	if fx := lv.fxAt(k); fx != nil && !m.seesAsIs(ctx, fx) {
		return false // the op sees some line as it was: flushLine's view
	}
	if !b.wholeDirty() {
		return false
	}
	m.poll()
	la := k << blockShift
	if parent.isMem() {
		// The checks flushLine makes of each line: none reads what the
		// others' write-backs change.
		for i := range uint(blockLines) {
			a := la + uint64(i)*LineSize
			tag := b.tagOf(i)
			if newest > tag {
				m.checkFlushOrder(ctx, lv, a, b.bytes(i)[:], tag)
			}
			m.checkMetadataClobber(ctx, lv, a, LineSize, tag)
		}
		parent.mem.share(la, b.lend(lv.store))
	} else {
		m.logAbsent(ctx.op, ctx.client, parent, la, blockLines)
		p := parent.newBlock(k)
		p.share(parent.store, b.lend(lv.store))
		p.held, p.dirty = ^uint64(0), ^uint64(0) // whole lines: no masks
		p.tag = b.tag
		if b.tagged {
			for i := range uint(blockLines) {
				p.setTag(i, b.tags[i])
			}
		}
		parent.dirtyBlocks++
		for i := range uint(blockLines) {
			m.logClean(ctx.op, ctx.client, lv, la+uint64(i)*LineSize, ^uint64(0))
		}
	}
	for i := range uint(blockLines) {
		b.setMask(i, ^uint64(0), 0)
	}
	b.dirty = 0
	lv.dirtyBlocks--
	return true
}

// flushLine is flushLevel for line li of block b, at la; it reports
// whether it wrote anything back.
func (m *Machine) flushLine(ctx *opCtx, lv *level, b *lineBlock, li uint, la uint64, direct bool, newest uint32) bool {
	data, tag := b.bytes(li), b.tagOf(li)
	valid, dirty := b.mask(li)
	send := dirty & valid // as the op sees it, when nothing is in flight on the line
	if lv.hasEffects(la) {
		d, v, _ := m.lineView(ctx, lv, la)
		visible := ^uint64(0)
		if v != ^uint64(0) || d != *data {
			for i := 0; i < LineSize; i++ {
				if dirty>>i&1 != 0 && (v>>i&1 == 0 || d[i] != data[i]) {
					visible &^= 1 << i
				}
			}
		}
		send = dirty & visible
	}
	if send == 0 {
		return false
	}
	// Write runs of dirty bytes to the parent.
	for rest := send; rest != 0; {
		i := bits.TrailingZeros64(rest)
		j := i + bits.TrailingZeros64(^(rest >> i)) // the run's end (64 if it reaches it)
		rest &^= spanMask(i, j-i)
		a := la + uint64(i)
		if newest > tag {
			m.checkFlushOrder(ctx, lv, a, data[i:j], tag)
		}
		if direct {
			m.poll()
			lv.parent.mem.Write(a, data[i:j])
		} else {
			m.store(ctx.op, ctx.client, lv.parent, a, data[i:j], false)
		}
		if lv.parent.isMem() {
			m.checkMetadataClobber(ctx, lv, a, uint64(j-i), tag)
		} else {
			// The data moved; so did its writer.
			pb, pi := lv.parent.lineAt(la)
			pb.setTag(pi, tag)
		}
	}
	if !direct {
		m.logClean(ctx.op, ctx.client, lv, la, send)
	}
	b.setMask(li, valid, dirty&^send)
	if dirty&^send == 0 {
		lv.markClean(b, li)
	}
	return true
}

// checkFlushOrder: writing back data older than what the parent already
// holds destroys the newer write — two writers' data retired out of order.
// tag is the op whose data the line holds; the parent's bytes count as
// newer when the reference's last writer of them came after it and they
// hold the reference's value.
func (m *Machine) checkFlushOrder(ctx *opCtx, lv *level, addr uint64, data []byte, tag uint32) {
	if m.ref.lastWriter(addr, uint64(len(data))) <= tag {
		return // no byte has a writer newer than the flushed data's
	}
	var rb [LineSize]byte
	ref := rb[:len(data)]
	m.ref.mem.Read(addr, ref)
	if bytes.Equal(data, ref) && !m.anySurface(addr, uint64(len(data))) {
		return // the flushed bytes are the reference's: nothing newer is lost
	}
	parent := make([]byte, len(data))
	pv := make([]uint64, (len(data)+63)/64)
	m.current(lv.parent, addr, parent, pv, nil)
	lo, hi := -1, -1
	var newer uint32
	for i := range data {
		a := addr + uint64(i)
		w := m.ref.writer(a)
		pi, di := m.plainAt(nil, a, parent[i]), m.plainAt(nil, a, data[i])
		if w > tag && (lv.parent.isMem() || bit(pv, i)) && pi == ref[i] && di != ref[i] && !m.pendingBelow(w, a, lv.parent) {
			if lo < 0 {
				lo, newer = i, w
			}
			hi = i
		}
	}
	if lo < 0 {
		return
	}
	older, nw := m.ops[tag], m.ops[newer]
	if nw != nil {
		nw.tainted = true // its data was overwritten
	}
	a := cmdbuf.Access{Addr: addr, Size: uint64(len(data)), Dir: cmdbuf.DirWrite, Client: ctx.client}
	m.addHazard(ctx, HazardWriteAfterWrite, a, addr+uint64(lo), uint64(hi-lo+1), nw,
		fmt.Sprintf("flushing %s wrote %s's older data over it: flush %s before %s writes", lv.name, older.describe(m), lv.name, nw.describe(m)))
}

// pendingBelow reports whether the write of the byte at a by op gid w is
// still dirty in the first cache it went into, one that is not parent:
// then parent does not hold it yet, and a parent byte equal to it holds an
// older write's value that happens to be the same (three writers of a
// byte leave that by chance one byte in 256).
func (m *Machine) pendingBelow(w uint32, a uint64, parent *level) bool {
	if int(w) >= len(m.ops) || m.ops[w] == nil {
		return false
	}
	op := m.ops[w]
	e := m.engines[op.engine]
	for c := range cmdbuf.NumClients {
		if op.writeClients&(1<<c) == 0 {
			continue
		}
		if lv := e.paths[c][0]; lv != parent && !lv.isMem() {
			if b, i := lv.lineAt(a &^ (LineSize - 1)); b != nil {
				if _, dirty := b.mask(i); dirty>>(a&(LineSize-1))&1 != 0 {
					return true
				}
			}
		}
	}
	return false
}

// invalidateLevel drops lv's lines in the range, as far as the op may see
// them: bytes written by ops it is not ordered after are still arriving and
// stay (dirty, as they are). A byte it sees dirty has not been written back;
// dropping it loses the write, a hazard. It returns the number of lines
// dropped (wholly or in part).
func (m *Machine) invalidateLevel(ctx *opCtx, lv *level, addr, size uint64) uint64 {
	var dropped uint64
	var lost []uint64
	for k, set := range lv.heldBlocks(addr, size, false) {
		// Whole blocks of clean lines with nothing in flight, for an op
		// every op to come is ordered after, go at once: each line would
		// be dropped whole with no record.
		if b := lv.block(k); !m.perLine && b.dirty&set == 0 && lv.fxAt(k) == nil && m.settledOp(ctx.op) {
			m.poll()
			dropped += lv.dropClean(k, b, set)
			continue
		}
		for ; set != 0; set &= set - 1 {
			dropped += m.invalidateLine(ctx, lv, k<<blockShift+uint64(bits.TrailingZeros64(set))*LineSize, &lost)
		}
	}
	m.reportLost(ctx, lv, lost)
	lv.lastInval = ctx.op.gid
	return dropped
}

// invalidateLine is invalidateLevel for the held line at la: it returns 1
// if it dropped bytes, and adds unflushed bytes it lost to lost.
func (m *Machine) invalidateLine(ctx *opCtx, lv *level, la uint64, lost *[]uint64) uint64 {
	b, i := lv.lineAt(la)
	valid, dirty := b.mask(i)
	keep := dirty
	if keep != 0 {
		d, v, vd := m.lineView(ctx, lv, la)
		seen := dirty & v & vd &^ diffMask(&d, b.bytes(i))
		keep &^= seen
		if seen != 0 {
			parent, pv, _ := lv.parent.state(la)
			lostMask := seen &^ (pv &^ diffMask(&parent, b.bytes(i)))
			for ; lostMask != 0; lostMask &= lostMask - 1 {
				*lost = append(*lost, la+uint64(bits.TrailingZeros64(lostMask)))
			}
		}
	}
	if valid == keep {
		return 0
	}
	m.logEffect(ctx.op, ctx.client, lv, la, valid&^keep)
	if keep == 0 {
		lv.drop(la)
		return 1
	}
	b.setMask(i, keep, keep) // its dirty bit stays
	return 1
}

// reportLost records the hazard of an invalidate that dropped unflushed
// bytes (lost, in ascending order), if any.
func (m *Machine) reportLost(ctx *opCtx, lv *level, lost []uint64) {
	if len(lost) > 0 {
		lo, hi := lost[0], lost[len(lost)-1]
		for _, a := range lost {
			if w := m.ops[m.ref.writer(a)]; w != nil {
				w.tainted = true // its data is gone
			}
		}
		a := cmdbuf.Access{Addr: lo, Size: hi - lo + 1, Dir: cmdbuf.DirWrite, Client: ctx.client}
		m.addHazard(ctx, HazardInvalidateBeforeFlush, a, lo, hi-lo+1, m.ops[m.ref.writer(lo)],
			fmt.Sprintf("%d unflushed bytes were dropped: flush %s before invalidating it", len(lost), lv.name))
	}
}

// diffMask has bit i set where a and b differ in byte i.
func diffMask(a, b *[LineSize]byte) uint64 {
	var m uint64
	for w := 0; w < LineSize; w += 8 {
		x := binary.LittleEndian.Uint64(a[w:]) ^ binary.LittleEndian.Uint64(b[w:])
		for x != 0 {
			i := bits.TrailingZeros64(x) / 8
			m |= 1 << (w + i)
			x &^= 0xff << (8 * i)
		}
	}
	return m
}

// runCompression executes DECOMPRESS and METADATA_INIT.
func (e *Engine) runCompression(p cmdbuf.Packet) error {
	m := e.m
	var r cmdbuf.SurfaceRegion
	what := p.Op().String()
	if p.Op() == cmdbuf.OpDecompress {
		r = p.Decompress()
	} else {
		r = p.MetadataInit()
	}
	s := m.surfaces[r.Surface]
	switch {
	case s == nil:
		return fmt.Errorf("%s names surface %d, which is not defined", what, r.Surface)
	case r.Offset%BlockSize != 0 || r.Size%BlockSize != 0 && r.Offset+r.Size != s.Size:
		return fmt.Errorf("%s range 0x%x+0x%x is not made of whole %d-byte blocks", what, r.Offset, r.Size, BlockSize)
	case r.Size == 0 || r.Offset+r.Size > s.Size || r.Offset+r.Size < r.Offset:
		return fmt.Errorf("%s range 0x%x+0x%x is outside surface %d's %d bytes", what, r.Offset, r.Size, r.Surface, s.Size)
	}
	stage := cmdbuf.StageCP
	if p.Async() {
		stage = cmdbuf.StageBlit
	}
	ctx := e.issue(stage, what, p)
	ctx.client = cmdbuf.ClientBlit
	var cost uint64
	if p.Op() == cmdbuf.OpDecompress {
		n := m.decompress(ctx, s, r.Offset, r.Size)
		e.counters.DecompressedBytes += n
		cost = (r.Size + 1023) / 1024 * m.prof.Costs.DecompressPerKB
	} else {
		n := m.initMetadata(ctx, s, r)
		e.counters.MetadataBytes += n
		cost = n * m.prof.Costs.MetadataPerByte
	}
	e.runSyncOrAsync(p, cost, &e.counters.CompressionCycles, what)
	return nil
}

// allZero reports whether every byte of b is zero.
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
