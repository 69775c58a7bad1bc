package bench

import (
	"fmt"
	"sort"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hwmodel"
)

// The bound: a lower bound on the cycles of any clean program that does a
// recording's work on a profile (docs/bench.md "Bound"). It is a
// relaxation of the machine's timing (docs/hardware.md "Cost model"): the
// recording's WORK packets and fences are kept as they are, every other
// packet is taken to cost nothing, and only what no synchronisation can
// remove is charged:
//
//   - the command processor parses every WORK and fence packet in stream
//     order (Costs.Packet each; a FENCE_WAIT its WaitBase too), and a work
//     starts no earlier than its parse;
//   - a stage runs one work at a time (the machine's stageEnd);
//   - a work that reads bytes an earlier work of its submission wrote, or
//     writes bytes an earlier one read or wrote, starts after that one
//     ends: a clean program orders it after, and every ordering the machine
//     has (WAIT, EVENT_WAIT, a synchronous packet, a fence) holds it until
//     what it is ordered after has completed; a chained part of one work
//     only starts no earlier than the part it continues;
//   - a FENCE_WAIT passes no earlier than the earliest FENCE_SIGNAL of a
//     value at least its own, when everything before that signal on its
//     engine has completed;
//   - the end of a submission comes after all its work and costs at least
//     BatchEndBase; and the dirty lines each write leaves in its first
//     cache, where no later write of the submission touches them, must be
//     written back after that write ends, by the end of the submission or a
//     CACHE packet, which run on the command processor or the BLIT stage:
//     at best half the write-back on each, so the end comes no earlier
//     than the write's end plus half its lines' FlushPerLine.
//
// Cache invalidates, decompression, metadata initialisation, waits'
// handshakes and markers are relaxed to nothing: every such operation is
// taken to overlap everything. The bound holds for any clean program with
// the same work, whatever its waits, cache and surface operations, split
// barriers and asynchronous flags; TestBound* hold it against every
// strategy, the best search, random clean edits and exhaustive searches of
// small frames.

// recording is a run's submissions as the bound reads them: per engine,
// the WORK and fence packets of each submission in order.
type recording struct {
	prof    *hwmodel.Profile
	engines []*recEngine // by engine id
	// calls: a submission CALLed a buffer, which the capture does not
	// follow (the bound is then not computed)
	calls bool
}

type recEngine struct {
	kind hwmodel.EngineKind
	subs [][]recOp
}

// recOp is a WORK, FENCE_SIGNAL or FENCE_WAIT.
type recOp struct {
	op      cmdbuf.Opcode
	stage   cmdbuf.Stage
	dur     uint64
	chained bool
	accs    []cmdbuf.Access
	fence   cmdbuf.Fence
}

// capture wraps a Rewriter (nil: none) so that each submission's buffers
// are recorded, as submitted, before it rewrites them.
func (r *recording) capture(inner hwmodel.Rewriter) hwmodel.Rewriter {
	return func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
		r.prof = e.Machine().Profile()
		for len(r.engines) <= e.ID() {
			r.engines = append(r.engines, nil)
		}
		re := r.engines[e.ID()]
		if re == nil {
			re = &recEngine{kind: e.Kind()}
			r.engines[e.ID()] = re
		}
		var ops []recOp
		for _, b := range bufs {
			err := b.Walk(func(_ int, p cmdbuf.Packet, err error) error {
				if err != nil {
					return err
				}
				switch p.Op() {
				case cmdbuf.OpCall:
					r.calls = true
				case cmdbuf.OpWork:
					w := p.Work()
					o := recOp{op: cmdbuf.OpWork, stage: w.Stage, dur: uint64(w.Duration), chained: w.Chained,
						accs: make([]cmdbuf.Access, w.NumAccesses)}
					for i := range o.accs {
						o.accs[i] = p.Access(i)
					}
					ops = append(ops, o)
				case cmdbuf.OpFenceSignal, cmdbuf.OpFenceWait:
					ops = append(ops, recOp{op: p.Op(), fence: p.Fence()})
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		re.subs = append(re.subs, ops)
		if inner == nil {
			return bufs, nil
		}
		return inner(e, bufs)
	}
}

// dep is a byte range's latest ends: of the work that last wrote it (a
// read waits for it) and of any work that used it (a write waits for it).
type dep struct {
	lo, hi uint64
	w, any uint64
	wc     cmdbuf.Client // the client of the last write
}

// deps are a submission's byte ranges, sorted and disjoint.
type deps []dep

// after is the earliest a work may start that reads (write false) or
// writes [lo, hi) through client rc of an engine of kind k: after the last
// writes (and, to write, the uses) of those bytes; a read, after the
// writes' dirty lines were also written back from the caches between the
// writer and the reader (at best half on the command processor, half in
// the BLIT stage).
func (r *recording) after(d deps, k hwmodel.EngineKind, rc cmdbuf.Client, lo, hi uint64, write bool) uint64 {
	var t uint64
	type writer struct {
		end uint64
		wc  cmdbuf.Client
	}
	var lines map[writer]uint64
	var last map[writer]uint64
	for i := sort.Search(len(d), func(k int) bool { return d[k].hi > lo }); i < len(d) && d[i].lo < hi; i++ {
		t = max(t, d[i].w)
		if write {
			t = max(t, d[i].any)
			continue
		}
		if d[i].w == 0 {
			continue
		}
		n := len(r.prof.CachesBetween(k, d[i].wc, k, rc))
		if n == 0 {
			continue
		}
		if lines == nil {
			lines, last = map[writer]uint64{}, map[writer]uint64{}
		}
		key := writer{end: d[i].w, wc: d[i].wc}
		a, b := max(d[i].lo, lo)&^(hwmodel.LineSize-1), (min(d[i].hi, hi)+hwmodel.LineSize-1)&^(hwmodel.LineSize-1)
		if l, ok := last[key]; ok && a < l {
			a = l // a line the piece before counted
		}
		if b > a {
			lines[key] += (b - a) / hwmodel.LineSize * uint64(n)
			last[key] = b
		}
	}
	for w, n := range lines {
		t = max(t, w.end+n*r.prof.Costs.FlushPerLine/2)
	}
	return t
}

// used records a work ending at end that read or wrote [lo, hi).
func (d *deps) used(lo, hi, end uint64, write bool, wc cmdbuf.Client) {
	s := *d
	i := sort.Search(len(s), func(k int) bool { return s[k].hi > lo })
	var out []dep
	at := lo
	j := i
	for ; j < len(s) && s[j].lo < hi; j++ {
		x := s[j]
		if x.lo < lo {
			out = append(out, dep{x.lo, lo, x.w, x.any, x.wc})
		}
		if at < x.lo { // a gap nothing used yet
			out = append(out, bump(dep{lo: at, hi: x.lo}, end, write, wc))
		}
		out = append(out, bump(dep{max(x.lo, lo), min(x.hi, hi), x.w, x.any, x.wc}, end, write, wc))
		if x.hi > hi {
			out = append(out, dep{hi, x.hi, x.w, x.any, x.wc})
		}
		at = min(x.hi, hi)
	}
	if at < hi {
		out = append(out, bump(dep{lo: at, hi: hi}, end, write, wc))
	}
	*d = append(s[:i], append(out, s[j:]...)...)
}

func bump(x dep, end uint64, write bool, wc cmdbuf.Client) dep {
	x.any = max(x.any, end)
	if write {
		x.w, x.wc = max(x.w, end), wc
	}
	return x
}

// written is a write a submission's end must write back: its range in its
// first cache, and when it ended.
type written struct {
	lo, hi, end uint64
	levels      uint64 // the caches on its path, each written back
}

// bound computes the lower bound of the recording on its profile, in
// cycles (the longest engine's), or an error where it cannot.
func (r *recording) bound() (uint64, error) {
	if r.calls {
		return 0, fmt.Errorf("a submission CALLs a buffer, which the bound does not follow")
	}
	if r.prof == nil {
		return 0, nil // nothing was submitted
	}
	c := r.prof.Costs
	type state struct {
		cp       uint64
		stageEnd [cmdbuf.NumStages]uint64
		sub, op  int
		d        deps
		writes   []written
		pending  []func() // a chained group's updates, applied when it ends
		last     uint64   // the start of the last work, for a chained part
		start    uint64   // when the submission started
	}
	st := make([]state, len(r.engines))
	type signal struct{ value, time uint64 }
	signals := map[uint32][]signal{}
	var cycles uint64
	flushGroup := func(s *state) {
		for _, f := range s.pending {
			f()
		}
		s.pending = s.pending[:0]
	}
	for {
		progress, left := false, false
		stuck := -1
		for id, re := range r.engines {
			if re == nil {
				continue
			}
			s := &st[id]
		engine:
			for s.sub < len(re.subs) {
				ops := re.subs[s.sub]
				if s.op == 0 {
					s.start = s.cp
				}
				subStart := s.start
				for s.op < len(ops) {
					o := ops[s.op]
					if o.op != cmdbuf.OpWork || !o.chained {
						flushGroup(s)
					}
					switch o.op {
					case cmdbuf.OpWork:
						s.cp += c.Packet
						start := max(s.cp, s.stageEnd[o.stage])
						if o.chained {
							start = max(start, s.last)
						}
						for _, a := range o.accs {
							start = max(start, r.after(s.d, re.kind, a.Client, a.Addr, a.End(), a.Dir != cmdbuf.DirRead))
						}
						end := start + o.dur
						s.stageEnd[o.stage], s.last = end, start
						for _, a := range o.accs {
							a := a
							write := a.Dir != cmdbuf.DirRead
							s.pending = append(s.pending, func() { s.d.used(a.Addr, a.End(), end, write, a.Client) })
							if n := len(r.prof.Path(re.kind, a.Client)); write && n > 0 {
								s.writes = append(s.writes, written{a.Addr, a.End(), end, uint64(n)})
							}
						}
					case cmdbuf.OpFenceSignal:
						s.cp += c.Packet
						t := s.cp
						for _, e := range s.stageEnd {
							t = max(t, e)
						}
						signals[o.fence.ID] = append(signals[o.fence.ID], signal{o.fence.Value, t})
					case cmdbuf.OpFenceWait:
						found := false
						for _, sg := range signals[o.fence.ID] {
							if sg.value >= o.fence.Value {
								s.cp, found = max(s.cp, sg.time), true
								break
							}
						}
						if !found && stuck != id {
							left = true
							break engine // wait for another engine's signal
						}
						s.cp += c.Packet + c.WaitBase
					}
					s.op++
					progress = true
				}
				flushGroup(s)
				t := s.cp
				for _, e := range s.stageEnd {
					t = max(t, e)
				}
				t = max(t, r.writeBack(s.writes, subStart))
				s.cp = t + c.BatchEndBase
				cycles = max(cycles, s.cp)
				s.sub, s.op, s.d, s.writes = s.sub+1, 0, s.d[:0], s.writes[:0]
				progress = true
			}
		}
		if !left {
			return cycles, nil
		}
		if !progress {
			// Every engine waits for a signal no engine has given yet: a
			// fence's initial value satisfies it (or the machine hangs,
			// and the run is not clean). Let the first waiter pass.
			for id, re := range r.engines {
				if re != nil && st[id].sub < len(re.subs) {
					stuck = id
					break
				}
			}
			if stuck < 0 {
				return cycles, nil
			}
		}
	}
}

// writeBack is the earliest the dirty lines of a submission that started
// at start can all be written back: each write's lines that no later
// write of the submission touches are written back from every cache on
// its path, after the write ends, on the command processor or in the BLIT
// stage (at best half on each): so no earlier than the write's end plus
// half its own write-back, nor than the submission's start plus half of
// all of them.
func (r *recording) writeBack(ws []written, start uint64) uint64 {
	var t, total uint64
	var later deps // the lines later writes touched (only lo, hi used)
	for i := len(ws) - 1; i >= 0; i-- {
		w := ws[i]
		lo, hi := w.lo&^(hwmodel.LineSize-1), (w.hi+hwmodel.LineSize-1)&^(hwmodel.LineSize-1)
		n := (hi - lo) / hwmodel.LineSize
		for _, x := range later.overlap(lo, hi) {
			n -= (x.hi - x.lo) / hwmodel.LineSize
		}
		cost := n * w.levels * r.prof.Costs.FlushPerLine
		total += cost
		t = max(t, w.end+cost/2)
		later.used(lo, hi, 0, false, 0)
	}
	return max(t, start+total/2)
}

// overlap is the parts of d's ranges within [lo, hi).
func (d deps) overlap(lo, hi uint64) []dep {
	var out []dep
	for i := sort.Search(len(d), func(k int) bool { return d[k].hi > lo }); i < len(d) && d[i].lo < hi; i++ {
		out = append(out, dep{lo: max(d[i].lo, lo), hi: min(d[i].hi, hi)})
	}
	return out
}

// captureDriver is the reference driver on a machine whose submissions
// are recorded for the bound, unchanged.
type captureDriver struct {
	hlk.Driver
	rec *recording
}

func (d captureDriver) Open(p *hwmodel.Profile, o hlk.DeviceOptions) (hlk.Device, error) {
	dev, err := d.Driver.Open(p, o)
	if err != nil {
		return nil, err
	}
	dev.Machine().SetRewriter(d.rec.capture(nil))
	return dev, nil
}
