package hwmodel

import (
	"errors"
	"fmt"

	"github.com/ebref/ebref/cmdbuf"
)

const numStages = int(cmdbuf.NumStages)

// clock says, per stage of one engine, the seq up to which that stage's ops
// are known complete.
type clock [numStages]uint64

func (c *clock) merge(o *clock) {
	for i := range c {
		c[i] = max(c[i], o[i])
	}
}

// eventSnap is what an EVENT_SIGNAL recorded: the drain point and when it is
// reached.
type eventSnap struct {
	clk  clock
	time uint64
}

type frame struct {
	buf   *cmdbuf.Buffer
	chunk int
	off   int
	base  int // dword offset of the chunk within the buffer
}

type batchRun struct {
	own       []*cmdbuf.Buffer // the slice Submit made, given back when the next batch starts
	ordinal   int
	bufs      []*cmdbuf.Buffer
	next      int // next buffer of bufs to start
	stack     []frame
	packet    int
	called    int // packets run from CALLed buffers, against cmdbuf.MaxCalledPackets
	faulted   bool
	waiting   cmdbuf.Fence // the FENCE_WAIT it is blocked on
	waitingAt int          // and that packet's dword offset
}

// Engine is one hardware engine executing one queue's submissions in order.
type Engine struct {
	m      *Machine
	id     int
	kind   EngineKind
	name   string
	caches [cmdbuf.NumCaches]*level
	paths  [cmdbuf.NumClients][]*level
	// flushOrder lists the caches it uses, children before parents.
	flushOrder []*level
	queue      [][]*cmdbuf.Buffer
	spareBufs  [][]*cmdbuf.Buffer // batches' slices, emptied, for Submit to reuse
	cur        *batchRun          // &batch while a batch runs, else nil
	batch      batchRun
	nbatch     int

	// ordering
	seq        uint64
	stageLast  clock
	stageLastF [numStages]clock
	// A stage's frontier (what its next op is ordered after) is floor
	// merged with frontier[stage]: what orders every stage (CP ops, CP
	// holds) goes into floor once instead of into every stage.
	floor    clock
	frontier [numStages]clock
	ext      [MaxEngines]uint64
	events   map[uint32]eventSnap
	marker   string
	// lastWork is the last WORK's identity and input digests (model and
	// reference), which a chained WORK continues.
	lastWork struct {
		valid bool
		id    uint32
		h, rh digest
		start uint64 // when it started: a chained stage cannot start earlier
	}
	// pred is the predicate the last PREDICATION work captured: while on,
	// predicated WORK is skipped where skip (the model's read) or refSkip
	// (the reference's) says so. Every submitted buffer starts with it off.
	pred struct{ on, skip, refSkip bool }

	// cost
	cp        uint64 // command-processor time
	stageEnd  [numStages]uint64
	holdUntil [numStages]uint64
	counters  Counters
	// snap and snapCP are the counters and CP time before the packet
	// running, kept only while the machine has an OnPacket hook.
	snap     Counters
	snapCP   uint64
	timeline []Span

	ctx opCtx
}

// opCtx is the op being executed: its record, its engine, and the frontier
// of its stage when it was issued (what it is ordered after).
type opCtx struct {
	op     *opRec
	e      *Engine
	front  clock
	client cmdbuf.Client // the access being checked, for in-order back ends
}

// Name is the engine's name, e.g. DIRECT#0.
func (e *Engine) Name() string { return e.name }

// Machine is the machine the engine belongs to.
func (e *Engine) Machine() *Machine { return e.m }

// Kind is the engine's kind.
func (e *Engine) Kind() EngineKind { return e.kind }

// ID is the engine's index in the machine.
func (e *Engine) ID() int { return e.id }

// Counters returns the engine's cost counters.
func (e *Engine) Counters() Counters { return e.counters }

// Timeline returns the engine's recorded spans (see Span).
func (e *Engine) Timeline() []Span { return e.timeline }

func (e *Engine) uses(k cmdbuf.Cache) bool {
	for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
		for _, x := range e.m.prof.Path(e.kind, c) {
			if x == k {
				return true
			}
		}
	}
	return false
}

// Submit queues a batch of command buffers (one ExecuteCommandLists call);
// Run executes it. At its end the engine finishes all work and flushes and
// invalidates its caches.
func (e *Engine) Submit(bufs ...*cmdbuf.Buffer) {
	// A copy in a slice of its own, so the caller's is not kept (and a
	// call with a few buffers allocates nothing once the engine is warm).
	var own []*cmdbuf.Buffer
	if n := len(e.spareBufs); n > 0 {
		own, e.spareBufs = e.spareBufs[n-1][:0], e.spareBufs[:n-1]
	}
	e.queue = append(e.queue, append(own, bufs...))
}

// orderedBefore reports whether op w (whose access went through client wc)
// is complete before the op in r starts. Same engine: by the stage frontiers,
// the engine's own completion mark, or the in-order colour and depth back
// ends (successive draws' render-target and depth writes retire in
// submission order). Across engines: only through fences.
func (m *Machine) orderedBefore(w *opRec, wc cmdbuf.Client, r *opCtx) bool {
	if w == nil || w == r.op {
		return true
	}
	re := r.e
	if w.engine != re.id {
		return w.seq <= re.ext[w.engine]
	}
	if w.seq <= r.front[w.stage] || w.seq <= re.ext[re.id] {
		return true
	}
	return w.stage == r.op.stage && wc == r.client &&
		(wc == cmdbuf.ClientColor && w.stage == cmdbuf.StageColor || wc == cmdbuf.ClientDepth && w.stage == cmdbuf.StageDepth)
}

// issue starts an op in a stage: it gets the stage's frontier as its clock.
// A CP op is synchronous: everything later waits for it and for what it
// waited for.
func (e *Engine) issue(stage cmdbuf.Stage, what string, p cmdbuf.Packet) *opCtx {
	m := e.m
	op := m.newOp()
	*op = opRec{gid: uint32(len(m.ops)), engine: e.id, stage: stage, seq: e.seq + 1, batch: e.cur.ordinal,
		packet: e.cur.packet, offset: e.offsetOf(p), buffer: e.bufferName(), what: what, marker: e.marker}
	m.ops = append(m.ops, op)
	m.scratch.opBuf = m.scratch.opBuf[:0]
	e.ctx = opCtx{op: op, e: e, front: e.order(stage)}
	return &e.ctx
}

// order is the ordering side of issuing an op in stage: the op gets the
// next seq and the stage's frontier (returned); a CP op orders everything
// after it. An op that changes nothing may be ordered without a record.
func (e *Engine) order(stage cmdbuf.Stage) clock {
	e.seq++
	front := e.frontierOf(stage)
	e.stageLast[stage] = e.seq
	e.stageLastF[stage] = front
	if stage == cmdbuf.StageCP {
		e.floor = front
		e.floor[cmdbuf.StageCP] = e.seq
	}
	return front
}

// newOp returns a record for the next op: the last op's, if reuseLastOp
// gave it back, else the next of a slab. Records live as long as the
// machine (m.ops keeps them), so taking them a slab at a time frees
// nothing sooner and keeps executing packets from allocating one by one.
func (m *Machine) newOp() *opRec {
	if op := m.spareOp; op != nil {
		m.spareOp = nil
		return op
	}
	if len(m.opSlab) == 0 {
		m.opSlab = make([]opRec, opSlabSize)
	}
	op := &m.opSlab[0]
	m.opSlab = m.opSlab[1:]
	return op
}

// opSlabSize is how many op records newOp allocates at once.
const opSlabSize = 256

// reuseLastOp takes back the record of op, the last op issued, which left
// nothing that names it: the next op gets its record and its gid.
func (m *Machine) reuseLastOp(op *opRec) {
	if n := len(m.ops); n > 0 && m.ops[n-1] == op {
		m.ops[n-1] = nil
		m.ops = m.ops[:n-1]
		m.spareOp = op
	}
}

// frontierOf is what the next op in stage s is ordered after.
func (e *Engine) frontierOf(s cmdbuf.Stage) clock {
	c := e.floor
	c.merge(&e.frontier[s])
	return c
}

// bufferName is the name of the buffer running, "" if none or unnamed.
func (e *Engine) bufferName() string {
	if n := len(e.cur.stack); n > 0 {
		return e.cur.stack[n-1].buf.Name()
	}
	return ""
}

func (e *Engine) offsetOf(p cmdbuf.Packet) int {
	if n := len(e.cur.stack); n > 0 {
		return e.cur.stack[n-1].base + p.Offset
	}
	return p.Offset
}

// chargeStall counts the CP idle from from to to, and charges each drained
// stage the part of it that stage was still busy.
func (e *Engine) chargeStall(drained cmdbuf.StageMask, from, to uint64) {
	e.counters.StallCycles += to - from
	for s := 0; s < numStages; s++ {
		if drained.Has(cmdbuf.Stage(s)) && e.stageEnd[s] > from {
			e.counters.StallsByStage[s] += min(e.stageEnd[s], to) - from
		}
	}
}

// startWork places work on the timeline: it starts when the CP issues it,
// its stage is free and its holds have passed.
func (e *Engine) startWork(stage cmdbuf.Stage, dur uint64, what string, p cmdbuf.Packet) uint64 {
	return e.startWorkAfter(stage, dur, what, p, 0)
}

// startWorkAfter is startWork for work that cannot start before notBefore:
// a chained stage continues a work, so it starts no earlier than the stage
// before it did, held or not (the stages pipeline, but the later one
// cannot run ahead of the work it continues).
func (e *Engine) startWorkAfter(stage cmdbuf.Stage, dur uint64, what string, p cmdbuf.Packet, notBefore uint64) uint64 {
	ready := max(e.cp, e.stageEnd[stage])
	start := max(ready, e.holdUntil[stage], notBefore)
	if start > ready {
		e.counters.HeldCycles += start - ready
	}
	end := start + dur
	e.stageEnd[stage] = end
	e.span(stage, start, end, what, p)
	return start
}

// cpPacket charges a packet to the CP timeline: parsing it (IssueCycles)
// and then, synchronously, extra cycles counted in part (nil when extra is
// 0). One span covers both.
func (e *Engine) cpPacket(extra uint64, part *uint64, what string, p cmdbuf.Packet) {
	parse := e.m.prof.Costs.Packet
	e.counters.IssueCycles += parse
	if part != nil {
		*part += extra
	}
	e.cpOp(parse+extra, what, p)
}

// cpOp advances the CP timeline by a synchronous operation; the caller
// counts the cycles in one of the CP parts of Counters.
func (e *Engine) cpOp(cycles uint64, what string, p cmdbuf.Packet) {
	start := e.cp
	e.cp += cycles
	e.span(cmdbuf.StageCP, start, e.cp, what, p)
}

// Span is one interval of an engine's timeline: a packet occupying the CP
// or a stage, or the end of a submission (Offset -1).
type Span struct {
	Stage  cmdbuf.Stage
	Start  uint64
	End    uint64
	What   string
	Batch  int    // the submission's ordinal on the engine
	Offset int    // the packet's dword offset in its buffer, as listings print it
	Buffer string // the buffer's name, if any
	// Fence is a FENCE_SIGNAL's or FENCE_WAIT's fence and value (ID 0
	// for any other span), for tools that draw which signal released
	// which wait.
	Fence cmdbuf.Fence
}

// TimelineLimit bounds the spans an engine records.
const TimelineLimit = 1 << 16

func (e *Engine) span(stage cmdbuf.Stage, start, end uint64, what string, p cmdbuf.Packet) {
	if len(e.timeline) < TimelineLimit {
		off, buf := -1, ""
		if p.Offset >= 0 {
			off, buf = e.offsetOf(p), e.bufferName()
		}
		var f cmdbuf.Fence
		if op := p.Op(); p.Offset >= 0 && (op == cmdbuf.OpFenceSignal || op == cmdbuf.OpFenceWait) {
			f = p.Fence()
		}
		e.timeline = append(e.timeline, Span{stage, start, end, what, e.cur.ordinal, off, buf, f})
	}
}

// finishTime is when everything issued so far has completed.
func (e *Engine) finishTime() uint64 {
	t := e.cp
	for _, x := range e.stageEnd {
		t = max(t, x)
	}
	return t
}

// step runs the engine until its current batch ends or it blocks on a fence.
// It reports whether it made progress.
func (e *Engine) step() bool {
	progress := false
	for {
		if e.cur == nil {
			if len(e.queue) == 0 {
				return progress
			}
			// The batch's state lives in the engine, reused batch to batch.
			if e.batch.own != nil {
				clear(e.batch.own)
				e.spareBufs = append(e.spareBufs, e.batch.own[:0])
			}
			e.batch = batchRun{ordinal: e.nbatch, bufs: e.queue[0], own: e.queue[0], stack: e.batch.stack[:0]}
			e.cur = &e.batch
			e.lastWork.valid = false
			n := copy(e.queue, e.queue[1:])
			e.queue[n] = nil
			e.queue = e.queue[:n]
			e.nbatch++
			e.marker = ""
			progress = true
			e.rewriteBatch()
		}
		blocked := e.runBatch()
		if blocked {
			return progress
		}
		e.endBatch()
		e.cur = nil
		progress = true
	}
}

var errBlocked = errors.New("blocked on a fence")

// runBatch executes packets until the batch is done (false) or a fence wait
// blocks (true).
func (e *Engine) runBatch() bool {
	b := e.cur
	for !b.faulted {
		if len(b.stack) == 0 {
			if b.next == len(b.bufs) {
				return false
			}
			b.stack = append(b.stack, frame{buf: b.bufs[b.next]})
			b.next++
			// Each submitted buffer starts unpredicated; a CALLed one
			// inherits the caller's predicate.
			e.pred.on = false
		}
		f := &b.stack[len(b.stack)-1]
		chunks := f.buf.Chunks()
		if f.chunk >= len(chunks) || f.off >= len(chunks[f.chunk]) {
			b.stack = b.stack[:len(b.stack)-1]
			continue
		}
		words := chunks[f.chunk]
		p, err := cmdbuf.Decode(words, f.off)
		if err != nil {
			e.fault(f.base+f.off, err.Error())
			return false
		}
		e.m.poll()
		if len(b.stack) > 1 {
			if b.called >= cmdbuf.MaxCalledPackets {
				e.fault(f.base+p.Offset, fmt.Sprintf("CALLs expand to more than %d packets in one batch", cmdbuf.MaxCalledPackets))
				return false
			}
			b.called++
		}
		if e.m.onPacket != nil {
			e.snap, e.snapCP = e.counters, e.cp
		}
		if p.Op() == cmdbuf.OpCall {
			id := p.Call().Buffer
			callee, ok := e.m.buffers[id]
			switch {
			case !ok:
				e.fault(f.base+p.Offset, fmt.Sprintf("CALL of buffer %d, which is not registered", id))
				return false
			case len(b.stack) >= cmdbuf.MaxCallDepth:
				e.fault(f.base+p.Offset, fmt.Sprintf("CALLs nested deeper than %d", cmdbuf.MaxCallDepth))
				return false
			}
			e.counters.countPacket(p.Op())
			e.cpPacket(0, nil, "CALL", p)
			e.reportPacket(f, p)
			f.off += p.Size()
			b.stack = append(b.stack, frame{buf: callee})
			b.packet++
			continue
		}
		switch err := e.execute(p); {
		case errors.Is(err, errBlocked):
			return true
		case err != nil:
			e.counters.countPacket(p.Op())
			e.fault(f.base+p.Offset, err.Error())
			return false
		}
		e.counters.countPacket(p.Op())
		// Checked here, not in calls: calling reportPacket to find no
		// hook, and a call a packet to move on, took 11 % of the sync
		// packet rate.
		if e.m.onPacket != nil {
			e.reportPacket(f, p)
		}
		if p.Op() != cmdbuf.OpChain {
			f.off += p.Size()
		} else if err := e.followChain(f, p); err != nil {
			e.fault(f.base+p.Offset, err.Error())
			return false
		}
		b.packet++
		if n := e.m.effects.count(); n >= e.m.retireAt || holdsCP(p) && n >= max(e.m.retireMin, minRetireAt) {
			// A WAIT that holds the CP orders everything later after what
			// it drained: what that work left in flight may go now, before
			// the next work logs its own (a frame's barrier between passes
			// frees the first pass's records for the second), if there is
			// enough of it to be worth a pass.
			e.m.retire()
		}
	}
	return false
}

// holdsCP reports whether p is a WAIT that holds the CP.
func holdsCP(p cmdbuf.Packet) bool {
	return p.Op() == cmdbuf.OpWait && p.Wait().Hold.Has(cmdbuf.StageCP)
}

// reportPacket tells the machine's OnPacket hook, if any, what packet p in
// frame f cost: the counters' growth since the snapshot taken before it
// ran, and the CP's time since then.
func (e *Engine) reportPacket(f *frame, p cmdbuf.Packet) {
	if e.m.onPacket == nil {
		return
	}
	c := e.counters.since(e.snap)
	c.Cycles = e.cp - e.snapCP
	e.m.onPacket(PacketCost{Engine: e, Batch: e.cur.ordinal, Buffer: f.buf, Offset: f.base + p.Offset, Op: p.Op(), Cost: c, End: e.cp})
}

// followChain moves a frame to the chunk a CHAIN packet p names (every
// other packet moves it on by its size, in runBatch).
func (e *Engine) followChain(f *frame, p cmdbuf.Packet) error {
	next := int(p.Chain().Next)
	if next <= f.chunk || next >= len(f.buf.Chunks()) {
		return fmt.Errorf("CHAIN to chunk %d from chunk %d of %d", next, f.chunk, len(f.buf.Chunks()))
	}
	f.base += len(f.buf.Chunks()[f.chunk])
	f.chunk, f.off = next, 0
	return nil
}

func (e *Engine) fault(offset int, reason string) {
	e.m.faults = append(e.m.faults, Fault{Engine: e.name, Batch: e.cur.ordinal, Packet: e.cur.packet, Offset: offset, Reason: reason})
	e.counters.Faults++
	e.cur.faulted = true
}

// endBatch is the end of an ExecuteCommandLists: the engine finishes all its
// work, flushes every cache it uses and invalidates its own (and the clean
// lines of shared ones), and that is costed.
func (e *Engine) endBatch() {
	m := e.m
	// Everything issued so far completes.
	t := e.finishTime()
	if t > e.cp {
		e.chargeStall(cmdbuf.AllStages, e.cp, t)
	}
	e.cp = t
	e.ext[e.id] = e.seq
	e.floor = e.stageLast
	op := m.newOp()
	*op = opRec{gid: uint32(len(m.ops)), engine: e.id, stage: cmdbuf.StageCP, seq: e.seq + 1, batch: e.cur.ordinal,
		packet: e.cur.packet, offset: -1, what: "end of submission"}
	e.seq++
	m.ops = append(m.ops, op)
	e.ctx = opCtx{op: op, e: e, front: e.stageLast}
	e.ext[e.id] = e.seq
	// Everything this engine did is now complete for it: drop what only it
	// could have been unordered with before writing back.
	m.retire()
	c := &m.prof.Costs
	cost := c.BatchEndBase
	var touched uint64
	for _, lv := range e.flushOrder {
		n := m.flushLevel(&e.ctx, lv, 0, 0)
		cost += n * c.FlushPerLine
		touched += n
	}
	for _, lv := range e.flushOrder {
		n := m.invalidateLevel(&e.ctx, lv, 0, 0)
		cost += n * c.InvalPerLine
		touched += n
	}
	if touched == 0 {
		m.reuseLastOp(op) // as for a CACHE packet that found nothing
	}
	e.counters.Submissions++
	e.cpOp(cost, "end of submission", endOfSubmission)
	e.counters.BatchEndCycles += cost
	e.counters.Cycles = e.finishTime()
	m.retire()
}

// endOfSubmission stands for the packet of the end of a submission, which
// has none.
var endOfSubmission = cmdbuf.Packet{Offset: -1}

// levelsInFlushOrder lists the caches the engine uses, children before
// parents, so a flush carries data all the way to memory.
func (e *Engine) levelsInFlushOrder() []*level {
	var out []*level
	seen := map[*level]bool{}
	visit := func(lv *level) {
		if lv == nil || lv.isMem() || seen[lv] {
			return
		}
		seen[lv] = true
		out = append(out, lv)
	}
	// Depth of a level: distance to memory; flush deepest-first.
	depth := func(lv *level) int {
		d := 0
		for x := lv; x != nil && !x.isMem(); x = x.parent {
			d++
		}
		return d
	}
	for d := int(cmdbuf.NumCaches); d >= 1; d-- {
		for _, lv := range e.caches {
			if lv != nil && depth(lv) == d {
				visit(lv)
			}
		}
	}
	return out
}

// sync marks every op of every engine complete for every engine: the CPU
// waited for all of them.
func (e *Engine) sync() {
	for _, o := range e.m.engines {
		e.ext[o.id] = o.seq
	}
	e.floor = e.stageLast
}

// retire drops the effects no op still to come can be unordered with: an
// effect matters only while some engine with work left could issue an op
// that is not ordered after it (a reader that must be shown the state
// before it, or a writer racing with it). Ordering only grows — frontiers
// merge, fences raise ext — so a dropped effect is never needed again.
func (m *Machine) retire() {
	var live []*Engine
	for _, x := range m.engines {
		if x.cur != nil || len(x.queue) > 0 {
			live = append(live, x)
		}
	}
	// Every live engine ordered after everything every engine did: all
	// goes at once.
	all := true
	for _, x := range live {
		for _, o := range m.engines {
			if x.ext[o.id] < o.seq {
				all = false
			}
		}
	}
	if all {
		m.resetEffects()
		m.retireAt = m.retireMin
		return
	}
	m.effects.pass++
	pass := m.effects.pass
	m.retireEffects(func(o *opRec) bool {
		if o.gonePass != pass {
			o.gonePass, o.gone = pass, true
			for _, x := range live {
				if !x.orderedAfter(o) {
					o.gone = false
					break
				}
			}
		}
		return o.gone
	})
	m.mergeEffects()
	m.retireAt = max(m.retireMin, 2*m.effects.count())
}

// settledOp reports whether every op still to come, on every engine with
// work left, is ordered after op — decided once, while op executes (the
// ordering it depends on only grows).
func (m *Machine) settledOp(op *opRec) bool {
	if !op.settledKnown {
		op.settledKnown, op.settled = true, true
		for _, x := range m.engines {
			if (x.cur != nil || len(x.queue) > 0) && !x.orderedAfter(op) {
				op.settled = false
				break
			}
		}
	}
	return op.settled
}

// minRetireAt is the effect count below which retire is not worth its scan.
const minRetireAt = 4096

// orderedAfter reports whether every op the engine issues from now on is
// ordered after op o, whatever its stage.
func (e *Engine) orderedAfter(o *opRec) bool {
	if o.engine != e.id {
		return o.seq <= e.ext[o.engine]
	}
	if o.seq <= e.ext[e.id] {
		return true
	}
	if o.seq <= e.floor[o.stage] {
		return true
	}
	stages := e.kind.Stages() | cmdbuf.StageCP.Mask()
	for s := range e.frontier {
		if stages.Has(cmdbuf.Stage(s)) && e.frontier[s][o.stage] < o.seq {
			return false
		}
	}
	return true
}
