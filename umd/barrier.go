package umd

import (
	"unsafe"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/umd/translator"
)

// Barrier implements PFND3D12DDI_BARRIER_0094 (000 "PFND3D12DDI_BARRIER",
// "D3D12DDIARG_BARRIER_0094"): it validates every barrier of the call
// (validate.go) and translates the call as one unit into the fewest packets
// the ordering rules allow (000 "Barrier Ordering"):
//
//	MARKER "Barrier #n"
//	WAIT      drain SyncBefore's stages; hold SyncAfter's, or the CP when
//	          cache or compression work follows (it runs on the CP, after
//	          the drain, and everything later is ordered after it)
//	CACHE     flush AccessBefore's write caches, invalidate AccessAfter's
//	          stale caches, limited to the resources' byte ranges
//	DECOMPRESS / METADATA_INIT   per surface, for layout transitions
//	CACHE     the flushes the compression work itself needs, if any
//
// then the split barriers' halves and the ranged barriers (translate.go).
// An invalid barrier puts the list in its error state and emits nothing for
// the call. A call with no barriers is a warning.
//
//go:noinline
func (cl *CommandList) Barrier(bs []ddi.Barrier) { recordBarriers(cl, bs, (*CommandList).barrier) }

// TranslatedBarrier is Barrier for a call the runtime made by translating
// a legacy ResourceBarrier call (package ddi/legacy): the same validation
// and translation, but the debug layer judges the legacy call, not the
// runtime's translation of it. So the driver gives no advice the
// application could not act on (no EBREF_ACCESS_BEFORE_COMMON on a
// PRESENT -> RENDER_TARGET the runtime wrote with AccessBefore COMMON), and
// the layouts it sets are the legacy layer's to check against the list's
// work (#942 GPU_BASED_VALIDATION_INCOMPATIBLE_RESOURCE_STATE), so one
// mistake is one message.
func (cl *CommandList) TranslatedBarrier(bs []ddi.Barrier) {
	cl.translated = true
	cl.Barrier(bs)
	cl.translated = false
}

// Barrier0088 implements PFND3D12DDI_BARRIER_0088, the entry point of
// drivers of the 0088 DDI, whose records are D3D12DDIARG_BARRIER_0088
// (80 bytes; errata E-PFN-VERSION). Global, texture and buffer barriers are
// the 0094 ones; a ranged barrier carries syncs and accesses, which are
// honoured like a buffer barrier's over its byte range (rangedWithSync).
// The call is validated and translated as one unit, as Barrier's.
//
//go:noinline
func (cl *CommandList) Barrier0088(bs []ddi.Barrier0088) {
	recordBarriers(cl, bs, (*CommandList).barrier0088)
}

// recordBarriers is one Barrier call of either DDI's records: add
// validates each into the plan in turn, and the plan is emitted once all
// are.
func recordBarriers[B any](cl *CommandList, bs []B, add func(cl *CommandList, p *plan, call, i int, b *B) bool) {
	if !cl.enter() {
		return
	}
	defer cl.leave()
	p, call, ok := cl.barrierCall(len(bs))
	if !ok {
		return
	}
	if cl.xreq != nil {
		cl.xreq.Facts, cl.xreq.Regions = cl.xreq.Facts[:0], cl.xreq.Regions[:0]
	}
	for i := range bs {
		if !add(cl, p, call, i, &bs[i]) {
			return
		}
	}
	if cl.xreq != nil {
		entry, size := translator.Entry0094, unsafe.Sizeof(bs[0])
		if size == uintptr(ddi.Barrier0088Size) {
			entry = translator.Entry0088
		}
		cl.translateVia(p, call, entry, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(bs))), len(bs)*int(size)))
		return
	}
	cl.emitPlan(p, call, len(bs))
}

// barrierCall begins a Barrier call of n barriers: its ordinal, and the
// empty plan each barrier is then validated into (false: the call records
// nothing).
func (cl *CommandList) barrierCall(n int) (*plan, int, bool) {
	if !cl.open("Barrier") {
		return nil, 0, false
	}
	cl.commands++
	call := cl.commands
	if cl.rules == nil {
		cl.fail(Message{Category: CategoryStateSetting, ID: MsgBarrierInBundle, Command: "Barrier", Call: call, Barrier: -1,
			Rule: `a bundle cannot record barriers (000 "Barrier API Call Validation")`})
		return nil, 0, false
	}
	if n == 0 {
		cl.warn(Message{Category: CategoryStateSetting, ID: MsgZeroBarriers, Command: "Barrier", Call: call, Barrier: -1,
			Field: "NumBarriers", Value: "0", Rule: `a Barrier call with no barriers does nothing (000 "Barrier API Call Validation")`})
		return nil, 0, false
	}
	p := &cl.plan
	p.reset()
	return p, call, true
}

// barrier validates one barrier and adds it to the plan.
func (cl *CommandList) barrier(p *plan, call, i int, b *ddi.Barrier) bool {
	v := checker{cl: cl, call: call, index: i}
	switch b.Type {
	case ddi.BarrierTypeGlobal:
		g := b.Global()
		if !v.common(*g) {
			return false
		}
		if g.SyncBefore == ddi.SyncSplit || g.SyncAfter == ddi.SyncSplit {
			return v.bad(MsgIncompatibleBarrierValues, "SyncBefore/SyncAfter", "SPLIT",
				`a global barrier cannot be split (000 "D3D12_BARRIER_TYPE")`)
		}
		cl.planGlobal(p, g)
	case ddi.BarrierTypeTexture:
		var tg target
		if !v.texture(b.Texture(), &tg) {
			return false
		}
		cl.planTexture(p, &tg)
	case ddi.BarrierTypeBuffer:
		var tg target
		if !v.buffer(b.Buffer(), &tg) {
			return false
		}
		cl.planBuffer(p, &tg)
	case ddi.BarrierTypeRanged:
		rg := b.Ranged()
		r, s, ok := v.ranged(rg)
		if !ok {
			return false
		}
		cl.planRanged(p, rg.Flags, r, s)
	default:
		return v.bad(MsgIncompatibleBarrierType, "Type", b.Type.String(),
			`not a D3D12DDI_BARRIER_TYPE (000 "D3D12DDI_BARRIER_TYPE")`)
	}
	return true
}

// barrier0088 validates one 0088 record and adds it to the plan: all but a
// ranged barrier are the 0094 barrier they equal.
func (cl *CommandList) barrier0088(p *plan, call, i int, b *ddi.Barrier0088) bool {
	if x, ok := b.As0094(); ok {
		return cl.barrier(p, call, i, &x)
	}
	if b.Type != ddi.BarrierTypeRanged {
		v := checker{cl: cl, call: call, index: i}
		return v.bad(MsgIncompatibleBarrierType, "Type", b.Type.String(),
			`not a D3D12DDI_BARRIER_TYPE (000 "D3D12DDI_BARRIER_TYPE")`)
	}
	rg := b.Ranged()
	v := checker{cl: cl, call: call, index: i}
	var tg target
	s, ok := v.rangedWithSync(rg, &tg)
	if !ok {
		return false
	}
	cl.planRangedWithSync(p, &tg, s)
	return true
}

// byteRange is the bytes the subresources a target names span: the whole
// resource's data, or selectionRange's.
func (tg *target) byteRange() (lo, hi uint64) {
	if !tg.whole {
		return tg.selectionRange()
	}
	r := tg.r
	return r.Addr, r.Addr + r.DataSize
}

// selectionRange is the bytes the texture subresources a target selects
// span.
func (tg *target) selectionRange() (lo, hi uint64) {
	r := tg.r
	lo, hi = ^uint64(0), 0
	tg.sel.Each(func(sub uint32) {
		fp := r.Desc.Footprints[sub]
		lo, hi = min(lo, r.Addr+fp.Offset), max(hi, r.Addr+fp.Offset+fp.Size)
	})
	return lo, hi
}

// compressionOps appends to ops the compression work over the byte regions
// (offsets in the surface) covering the subresources a target names:
// consecutive subresources merge, with the padding between them; the whole
// resource is one region.
func compressionOps(ops []compOp, tg *target, work compressionWork) []compOp {
	if tg.whole {
		return append(ops, compOp{res: tg.r, work: work, offset: 0, size: tg.r.DataSize})
	}
	return tg.selectionOps(ops, work)
}

// selectionOps is compressionOps for some of a texture's subresources.
func (tg *target) selectionOps(ops []compOp, work compressionWork) []compOp {
	r, sel := tg.r, &tg.sel
	f := func(off, size uint64) {
		ops = append(ops, compOp{res: r, work: work, offset: off, size: size})
	}
	var lo, hi uint64
	prev := int64(-2)
	sel.Each(func(sub uint32) {
		fp := r.Desc.Footprints[sub]
		end := alignUp(fp.Offset+fp.Size, 256)
		if int64(sub) == prev+1 {
			hi = end
		} else {
			if prev >= 0 {
				f(lo, hi-lo)
			}
			lo, hi = fp.Offset, end
		}
		prev = int64(sub)
	})
	if prev >= 0 {
		f(lo, hi-lo)
	}
	return ops
}
