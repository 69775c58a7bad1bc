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
func (cl *CommandList) Barrier(bs []ddi.Barrier) {
	// Each record is validated and tracked and its facts added to the
	// list's request, and the device's translator translates the call
	// once all are (seam.go). Barrier0088 is the same for its records,
	// written out, not shared through a generic: calling each record's
	// check through a function value cost a call some 16 instructions of
	// about 1,800.
	if !cl.enter() {
		return
	}
	defer cl.leave()
	call, ok := cl.barrierCall(len(bs))
	if !ok {
		return
	}
	for i := range bs {
		if !cl.barrier(call, i, &bs[i]) {
			return
		}
	}
	cl.translate(call, translator.Entry0094, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(bs))), len(bs)*ddi.BarrierSize))
}

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
	if !cl.enter() {
		return
	}
	defer cl.leave()
	call, ok := cl.barrierCall(len(bs))
	if !ok {
		return
	}
	for i := range bs {
		if !cl.barrier0088(call, i, &bs[i]) {
			return
		}
	}
	cl.translate(call, translator.Entry0088, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(bs))), len(bs)*ddi.Barrier0088Size))
}

// barrierCall begins a Barrier call of n barriers: its ordinal, with the
// list's request emptied for the barriers to add their facts to (false:
// the call records nothing).
func (cl *CommandList) barrierCall(n int) (int, bool) {
	if !cl.open("Barrier") {
		return 0, false
	}
	cl.commands++
	call := cl.commands
	if cl.rules == nil {
		cl.fail(Message{Category: CategoryStateSetting, ID: MsgBarrierInBundle, Command: "Barrier", Call: call, Barrier: -1,
			Rule: `a bundle cannot record barriers (000 "Barrier API Call Validation")`})
		return 0, false
	}
	if n == 0 {
		cl.warn(Message{Category: CategoryStateSetting, ID: MsgZeroBarriers, Command: "Barrier", Call: call, Barrier: -1,
			Field: "NumBarriers", Value: "0", Rule: `a Barrier call with no barriers does nothing (000 "Barrier API Call Validation")`})
		return 0, false
	}
	req := &cl.req
	req.Facts, req.Regions, req.SplitEvent = req.Facts[:0], req.Regions[:0], 0
	cl.commonAfter = false
	return call, true
}

// barrier validates one barrier, tracks it, and adds its facts to the
// call's request.
func (cl *CommandList) barrier(call, i int, b *ddi.Barrier) bool {
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
		cl.commonAfter = cl.commonAfter || g.AccessAfter == ddi.AccessCommon
		cl.addFact(nil, nil, span{}, 0)
	case ddi.BarrierTypeTexture:
		var tg target
		if !v.texture(b.Texture(), &tg) {
			return false
		}
		cl.addTextureFact(&tg, cl.recordBarrier(&tg))
	case ddi.BarrierTypeBuffer:
		var tg target
		if !v.buffer(b.Buffer(), &tg) {
			return false
		}
		cl.addFact(&tg, tg.r, span{}, cl.recordBarrier(&tg))
	case ddi.BarrierTypeRanged:
		r, s, ok := v.ranged(b.Ranged())
		if !ok {
			return false
		}
		cl.addFact(nil, r, s, 0)
	default:
		return v.bad(MsgIncompatibleBarrierType, "Type", b.Type.String(),
			`not a D3D12DDI_BARRIER_TYPE (000 "D3D12DDI_BARRIER_TYPE")`)
	}
	return true
}

// barrier0088 validates one 0088 record, tracks it and adds its facts:
// all but a ranged barrier are the 0094 barrier they equal; a ranged one
// is a global barrier for a NULL resource, otherwise a buffer barrier
// limited to its bytes.
func (cl *CommandList) barrier0088(call, i int, b *ddi.Barrier0088) bool {
	if x, ok := b.As0094(); ok {
		return cl.barrier(call, i, &x)
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
	end := uint32(0)
	if tg.r == nil {
		cl.commonAfter = cl.commonAfter || tg.g.AccessAfter == ddi.AccessCommon
	} else {
		end = cl.recordBarrier(&tg)
	}
	cl.addFact(&tg, tg.r, s, end)
	return true
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

// appendRegions appends to regions the byte regions (offsets in the
// surface) covering the subresources a texture target names:
// consecutive subresources merge, with the padding between them; the
// whole resource is one region. They are where a transition's
// compression work goes.
func (tg *target) appendRegions(regions []translator.Region) []translator.Region {
	r := tg.r
	if tg.whole {
		return append(regions, translator.Region{Offset: 0, Size: r.DataSize})
	}
	var lo, hi uint64
	prev := int64(-2)
	tg.sel.Each(func(sub uint32) {
		fp := r.Desc.Footprints[sub]
		end := alignUp(fp.Offset+fp.Size, 256)
		if int64(sub) == prev+1 {
			hi = end
		} else {
			if prev >= 0 {
				regions = append(regions, translator.Region{Offset: lo, Size: hi - lo})
			}
			lo, hi = fp.Offset, end
		}
		prev = int64(sub)
	})
	if prev >= 0 {
		regions = append(regions, translator.Region{Offset: lo, Size: hi - lo})
	}
	return regions
}
