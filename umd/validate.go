package umd

import (
	"errors"
	"fmt"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
)

// Barrier validation: every MUST of the spec and every check 000 "Barrier
// API Call Validation" lists, one rule per check, each failure a Message
// naming the barrier, the member, its value and the rule with its
// citation. Checks run in the order the members appear; the first failure
// stops the call.

// checker validates the barriers of one call.
type checker struct {
	cl          *CommandList
	call, index int
}

// bad records a failure and returns false. It is never inlined: it is
// the failure path, and inlined it made every check's frame larger for
// the barriers that pass.
//
//go:noinline
func (v *checker) bad(id MessageID, field, value, rule string) bool {
	v.cl.fail(Message{Category: CategoryStateSetting, ID: id, Command: "Barrier", Call: v.call, Barrier: v.index,
		Field: field, Value: value, Rule: rule})
	return false
}

func (v *checker) badf(id MessageID, field, value, format string, args ...any) bool {
	return v.bad(id, field, value, fmt.Sprintf(format, args...))
}

// common checks what every barrier but a ranged one has: the syncs and
// accesses, alone and together, and against the command list's queue type.
// Each member's rules are a predicate (syncFault, accessFault) naming the
// first rule broken; its message is built only then (sideFailed).
func (v *checker) common(g ddi.GlobalBarrier) bool {
	// The members, each sync alone, the split pair, each access with its
	// sync: most barriers' are plain, and the checks in order
	// (membersFailed) find nothing until the access-sync table.
	if !(plainMembers(g, v.cl.rules) && accessSyncOK(g.AccessBefore, g.SyncBefore) && accessSyncOK(g.AccessAfter, g.SyncAfter)) &&
		!v.membersFailed(g) {
		return false
	}
	if g.AccessBefore == ddi.AccessCommon && !v.cl.translated {
		v.cl.warn(Message{Category: CategoryStateSetting, ID: MsgAccessBeforeCommon, Command: "Barrier", Call: v.call,
			Barrier: v.index, Field: "AccessBefore", Value: "COMMON",
			Rule: `AccessBefore COMMON means every write access and may flush every cache; name the writes instead (000 "Access Transitions")`})
	}
	return true
}

// plainMembers says that no member breaks a rule but, perhaps, the
// access-sync table's: the syncs and accesses are ones the queue type
// supports (its lists hold only defined bits), neither side is split,
// NO_ACCESS stands alone, and SYNC_NONE goes with it. Most barriers are
// so; the others get the checks in order. TestPlainMembersBreakOnlyTheTable
// holds it to the checks.
func plainMembers(g ddi.GlobalBarrier, q *ddi.QueueRules) bool {
	s, a := g.SyncBefore|g.SyncAfter, g.AccessBefore|g.AccessAfter
	return s&^q.Syncs == 0 && s&ddi.SyncSplit == 0 && a&^q.Accesses == 0 &&
		plainAccess(g.AccessBefore, g.SyncBefore) && plainAccess(g.AccessAfter, g.SyncAfter)
}

func plainAccess(a ddi.BarrierAccess, s ddi.BarrierSync) bool {
	return a == ddi.AccessNoAccess || a&ddi.AccessNoAccess == 0 && s != ddi.SyncNone
}

// accessSyncOK is the access-sync table's check of a side that is not
// split.
func accessSyncOK(a ddi.BarrierAccess, s ddi.BarrierSync) bool {
	ok, _ := ddi.AccessSyncOK(a, s)
	return ok
}

// membersFailed runs the members' checks in order, reporting the first
// that fails; it returns whether none did.
func (v *checker) membersFailed(g ddi.GlobalBarrier) bool {
	q := v.cl.rules
	if f := syncFault(g.SyncBefore, q); f != faultNone {
		return v.sideFailed(f, "SyncBefore", g.SyncBefore, 0, "")
	}
	if f := syncFault(g.SyncAfter, q); f != faultNone {
		return v.sideFailed(f, "SyncAfter", g.SyncAfter, 0, "")
	}
	if g.SyncBefore == ddi.SyncSplit && g.SyncAfter == ddi.SyncSplit {
		return v.bad(MsgIncompatibleBarrierValues, "SyncBefore/SyncAfter", "SPLIT/SPLIT",
			`a barrier is the begin (SyncAfter SPLIT) or the end (SyncBefore SPLIT) of a split, not both (000 "Split Barriers")`)
	}
	if f := accessFault(g.AccessBefore, g.SyncBefore, q); f != faultNone {
		return v.sideFailed(f, "SyncBefore", g.SyncBefore, g.AccessBefore, "AccessBefore")
	}
	if f := accessFault(g.AccessAfter, g.SyncAfter, q); f != faultNone {
		return v.sideFailed(f, "SyncAfter", g.SyncAfter, g.AccessAfter, "AccessAfter")
	}
	return true
}

// sideFault is the first rule a sync or access member breaks.
type sideFault uint8

const (
	faultNone sideFault = iota
	// A sync member alone and on the queue.
	faultSyncUndefined // bits D3D12DDI_BARRIER_SYNC does not define
	faultSplitNotAlone // SPLIT with other bits
	faultSyncOnQueue   // a sync the queue type does not support
	// An access member alone, with its sync, and on the queue.
	faultAccessUndefined // bits D3D12DDI_BARRIER_ACCESS does not define
	faultNoAccessMixed   // NO_ACCESS with other bits
	faultSyncNoneAccess  // SYNC_NONE with an access
	faultAccessOnQueue   // an access the queue type does not support
	faultAccessSync      // an access bit none of whose syncs the member names
)

// syncFault checks one sync member alone and against the queue type.
func syncFault(s ddi.BarrierSync, q *ddi.QueueRules) sideFault {
	switch {
	case s&^ddi.DefinedSyncBits != 0:
		return faultSyncUndefined
	case s&ddi.SyncSplit != 0 && s != ddi.SyncSplit:
		return faultSplitNotAlone
	case s&^ddi.SyncSplit&^q.Syncs != 0:
		return faultSyncOnQueue
	}
	return faultNone
}

// accessFault checks one access member alone, with its sync s and against
// the queue type. The split side is exempt from the access-sync table
// (E-SPLIT-ACCESS-SYNC).
func accessFault(a ddi.BarrierAccess, s ddi.BarrierSync, q *ddi.QueueRules) sideFault {
	switch {
	case a&^ddi.DefinedAccessBits != 0:
		return faultAccessUndefined
	case a&ddi.AccessNoAccess != 0 && a != ddi.AccessNoAccess:
		return faultNoAccessMixed
	case s == ddi.SyncNone && a != ddi.AccessNoAccess:
		return faultSyncNoneAccess
	case a&^ddi.AccessNoAccess&^q.Accesses != 0:
		return faultAccessOnQueue
	}
	if ok, _ := ddi.AccessSyncOK(a, s); !ok && s != ddi.SyncSplit {
		return faultAccessSync
	}
	return faultNone
}

// sideFailed reports the fault of a sync member (sfield, s) or of the
// access member (afield, a) paired with it.
func (v *checker) sideFailed(f sideFault, sfield string, s ddi.BarrierSync, a ddi.BarrierAccess, afield string) bool {
	q := v.cl.rules
	switch f {
	case faultSyncUndefined:
		return v.bad(MsgIncompatibleBarrierSync, sfield, s.String(),
			`has bits D3D12DDI_BARRIER_SYNC does not define (000 "D3D12DDI_BARRIER_SYNC")`)
	case faultSplitNotAlone:
		return v.bad(MsgIncompatibleBarrierValues, sfield, s.String(), `SPLIT must be the only bit (000 "Split Barriers")`)
	case faultSyncOnQueue:
		return v.badf(MsgIncompatibleBarrierSync, sfield, s.String(),
			`%s is not a sync a %s command list supports (000 "Command Queue Sync Compatibility")`, s&^ddi.SyncSplit&^q.Syncs, v.cl.typ)
	case faultAccessUndefined:
		return v.bad(MsgIncompatibleBarrierAccess, afield, a.String(),
			`has bits D3D12DDI_BARRIER_ACCESS does not define (000 "D3D12DDI_BARRIER_ACCESS")`)
	case faultNoAccessMixed:
		return v.bad(MsgIncompatibleBarrierValues, afield, a.String(),
			`NO_ACCESS may not be combined with other access bits (000 "D3D12_BARRIER_ACCESS_NO_ACCESS")`)
	case faultSyncNoneAccess:
		return v.badf(MsgIncompatibleBarrierValues, afield, a.String(),
			`%s NONE must be paired with %s NO_ACCESS (000 "Synchronization", errata E-SYNC-NONE-003)`, sfield, afield)
	case faultAccessOnQueue:
		return v.badf(MsgIncompatibleBarrierAccess, afield, a.String(),
			`%s is not an access a %s command list supports (000 "Command Queue Access Compatibility")`, a&^ddi.AccessNoAccess&^q.Accesses, v.cl.typ)
	}
	_, bit := ddi.AccessSyncOK(a, s)
	row, _ := ddi.RequiredSyncs(bit)
	return v.badf(MsgIncompatibleBarrierSync, sfield, s.String(), `%s %s needs one of %s in %s (%s)`, afield, bit, row.Syncs, sfield, row.Cite)
}

// target is a texture or buffer barrier (or a 0088 ranged barrier on a
// buffer) as validation resolved it: its syncs and accesses, a texture
// barrier's layouts and flags (texture false and layouts UNDEFINED for a
// buffer), the resource, the subresources it names (whole: all of them,
// sel unset) and the list's tracks entry for the resource, nil if it has
// none (lookup): planning takes it from here rather than looking the
// handle up again. (The fields are copies: a pointer to the caller's
// barrier record kept here would move every record a 0088 call converts to
// the heap.)
type target struct {
	g                         ddi.GlobalBarrier
	texture                   bool
	layoutBefore, layoutAfter ddi.BarrierLayout
	slotBefore, slotAfter     int // the layouts' slots (layoutSlot)
	flags                     ddi.TextureBarrierFlags
	r                         *Resource
	entry                     *track
	sel                       resource.Selection
	whole                     bool
}

// handle resolves a barrier's resource handle into tg.
func (v *checker) handle(h ddi.HResource, field string, tg *target) bool {
	cl := v.cl
	if t := cl.recent[uint64(h)%uint64(len(cl.recent))]; t != nil && t.res.Handle == h && !t.res.destroyed.Load() {
		tg.r, tg.entry = t.res, t // lookupEntry's first case, without the call
		return true
	}
	tg.r, tg.entry = cl.lookupOther(h) // none for NULL
	return tg.r != nil || v.badHandle(h, field)
}

// badHandle reports a handle that names no resource.
func (v *checker) badHandle(h ddi.HResource, field string) bool {
	if h == 0 {
		return v.bad(MsgInvalidHandle, field, "NULL", `a texture, buffer or ranged barrier must name a resource (000 "Barrier Types")`)
	}
	return v.cl.badHandle(h, field, func(id MessageID, value, rule string) bool { return v.bad(id, field, value, rule) })
}

// texture validates a texture barrier into tg: its resource and the
// subresources it selects.
func (v *checker) texture(t *ddi.TextureBarrier, tg *target) bool {
	tg.g = ddi.GlobalBarrier{SyncBefore: t.SyncBefore, SyncAfter: t.SyncAfter, AccessBefore: t.AccessBefore, AccessAfter: t.AccessAfter}
	tg.texture, tg.layoutBefore, tg.layoutAfter, tg.flags = true, t.LayoutBefore, t.LayoutAfter, t.Flags
	if !v.common(tg.g) || !v.handle(t.Resource, "pResource", tg) {
		return false
	}
	r := tg.r
	if r.IsBuffer() {
		return v.bad(MsgIncompatibleBarrierType, "Type", "TEXTURE",
			`a texture barrier names a buffer: use a buffer barrier (000 "Texture Barriers")`)
	}
	if t.Flags&^ddi.DefinedTextureBarrierFlags != 0 {
		return v.bad(MsgIncompatibleBarrierValues, "Flags", t.Flags.String(),
			`has bits D3D12DDI_TEXTURE_BARRIER_0088_FLAGS_0088 does not define`)
	}
	allowed := v.cl.layouts & r.layoutOK
	var okBefore, okAfter bool
	tg.slotBefore, okBefore = layoutIn(t.LayoutBefore, allowed)
	tg.slotAfter, okAfter = layoutIn(t.LayoutAfter, allowed)
	if !okBefore || !okAfter {
		return v.layoutsFailed(r, t)
	}
	switch {
	case v.cl.typ == ddi.CommandListTypeCopy && t.LayoutBefore != t.LayoutAfter:
		return v.bad(MsgIncompatibleBarrierLayout, "LayoutAfter", t.LayoutAfter.String(),
			`copy queues do not transition layouts: LayoutAfter must equal LayoutBefore (000 "Copy Queues", errata E-QUEUE-UNDEFINED)`)
	case t.Flags&ddi.TextureBarrierFlagDiscard != 0 && t.LayoutBefore != ddi.LayoutUndefined:
		return v.bad(MsgIncompatibleBarrierValues, "Flags", "DISCARD",
			`DISCARD needs LayoutBefore UNDEFINED (000 "D3D12_TEXTURE_BARRIER_FLAG_DISCARD")`)
	case t.LayoutBefore == ddi.LayoutUndefined && t.LayoutAfter != ddi.LayoutUndefined && t.AccessBefore != ddi.AccessNoAccess:
		return v.bad(MsgIncompatibleBarrierValues, "AccessBefore", t.AccessBefore.String(),
			`with only LayoutBefore UNDEFINED, AccessBefore must be NO_ACCESS (000 "D3D12_BARRIER_LAYOUT_UNDEFINED")`)
	case t.LayoutAfter == ddi.LayoutUndefined && t.LayoutBefore != ddi.LayoutUndefined && t.AccessAfter != ddi.AccessNoAccess:
		return v.bad(MsgIncompatibleBarrierValues, "AccessAfter", t.AccessAfter.String(),
			`with only LayoutAfter UNDEFINED, AccessAfter must be NO_ACCESS (000 "D3D12_BARRIER_LAYOUT_UNDEFINED")`)
	case !layoutAccessOK(r, tg.slotBefore, tg.slotAfter, t.AccessBefore):
		return v.badf(MsgIncompatibleBarrierAccess, "AccessBefore", t.AccessBefore.String(),
			`not compatible with LayoutBefore %s (000 "Layout Access Compatibility")`, t.LayoutBefore)
	case !layoutAccessOK(r, tg.slotAfter, tg.slotBefore, t.AccessAfter):
		return v.badf(MsgIncompatibleBarrierAccess, "AccessAfter", t.AccessAfter.String(),
			`not compatible with LayoutAfter %s (000 "Layout Access Compatibility")`, t.LayoutAfter)
	}
	if !v.resourceAccess(r, t.AccessBefore, t.AccessAfter) {
		return false
	}
	if t.Subresources.NumMipLevels == 0 && t.Subresources.IndexOrFirstMipLevel == ddi.AllSubresources {
		tg.whole = true
		return v.sequence(tg)
	}
	sel, err := r.Desc.Resolve(v.zeroCounts(t.Subresources))
	if err != nil {
		return v.fromResource(MsgOutOfBoundsBarrierSubresource, err)
	}
	tg.sel, tg.whole = sel, sel.Count() == r.Desc.SubresourceCount()
	return v.sequence(tg)
}

// zeroCounts reads NumArraySlices 0 and NumPlanes 0 of a mip range as 1,
// with a warning: the runtime accepts them so, and applications rely on it
// (errata E-SUBRESOURCE-ZERO-COUNTS).
func (v *checker) zeroCounts(r ddi.SubresourceRange) ddi.SubresourceRange {
	if r.NumMipLevels == 0 {
		return r
	}
	if r.NumArraySlices == 0 {
		r.NumArraySlices = 1
		v.zeroCountWarning("Subresources.NumArraySlices")
	}
	if r.NumPlanes == 0 {
		r.NumPlanes = 1
		v.zeroCountWarning("Subresources.NumPlanes")
	}
	return r
}

func (v *checker) zeroCountWarning(field string) {
	v.cl.warn(Message{Category: CategoryStateSetting, ID: MsgSubresourceZeroCount, Command: "Barrier", Call: v.call,
		Barrier: v.index, Field: field, Value: "0",
		Rule: `read as 1, as the runtime does; name the count (errata E-SUBRESOURCE-ZERO-COUNTS)`})
}

// layoutIn is layout's check as a predicate: the layout's slot, and
// whether it is a layout whose slot is in allowed (those the queue type
// may use and the resource may be in).
func layoutIn(l ddi.BarrierLayout, allowed uint64) (int, bool) {
	slot, ok := layoutSlot(l)
	return slot, ok && allowed&(1<<(slot&63)) != 0 // slot < numLayoutSlots: the mask spares the shift's overflow test
}

// layoutsFailed reports the first of a texture barrier's layouts layout
// finds wrong.
func (v *checker) layoutsFailed(r *Resource, t *ddi.TextureBarrier) bool {
	return v.layout(r, "LayoutBefore", t.LayoutBefore) && v.layout(r, "LayoutAfter", t.LayoutAfter)
}

// layoutAccessOK is ddi.TextureLayoutAccessOK for the resource's layout
// slots: an access member a the layout in slot allows, given the
// barrier's other layout in other (COMMON always; anything in a barrier
// whose layouts are both UNDEFINED).
func layoutAccessOK(r *Resource, slot, other int, a ddi.BarrierAccess) bool {
	return a == ddi.AccessCommon || slot == undefinedSlot && other == undefinedSlot || a&^r.layoutAccess[slot] == 0
}

// layout checks one layout member: a layout, one the queue type may use,
// one the resource may be in.
func (v *checker) layout(r *Resource, field string, l ddi.BarrierLayout) bool {
	slot, ok := layoutSlot(l)
	switch {
	case !ok:
		return v.bad(MsgUnsupportedBarrierLayout, field, l.String(),
			`not a D3D12DDI_BARRIER_LAYOUT (000 "Legacy layouts": invalid layout values remove the command list)`)
	case v.cl.layouts&(1<<slot) == 0:
		return v.badf(MsgIncompatibleBarrierLayout, field, l.String(),
			`not a layout a %s command list may use (000 "Command Queue Layout Compatibility", errata E-QUEUE-LAYOUTS)`, v.cl.typ)
	case r.layoutOK&(1<<slot) == 0:
		return v.fromResource(MsgIncompatibleBarrierLayout, r.Desc.CheckLayout(field, l))
	}
	return true
}

// buffer validates a buffer barrier into tg.
func (v *checker) buffer(x *ddi.BufferBarrier, tg *target) bool {
	tg.g = ddi.GlobalBarrier{SyncBefore: x.SyncBefore, SyncAfter: x.SyncAfter, AccessBefore: x.AccessBefore, AccessAfter: x.AccessAfter}
	tg.whole, tg.layoutBefore, tg.layoutAfter = true, ddi.LayoutUndefined, ddi.LayoutUndefined
	if !v.common(tg.g) || !v.handle(x.Resource, "pResource", tg) {
		return false
	}
	if !tg.r.IsBuffer() {
		return v.bad(MsgIncompatibleBarrierType, "Type", "BUFFER",
			`a buffer barrier names a texture: use a texture barrier (000 "Buffer Barriers")`)
	}
	return v.resourceAccess(tg.r, x.AccessBefore, x.AccessAfter) && v.sequence(tg)
}

// ranged validates a 0094 ranged barrier: an ATOMIC_COPY barrier, the
// ACQUIRE before an atomic copy or the RELEASE after it (neither: both;
// errata E-RANGED-FLAGS), over the bytes rangedSpan finds. It returns those
// bytes.
func (v *checker) ranged(rg *ddi.RangedBarrier) (*Resource, span, bool) {
	if !v.rangedFlags(rg.Flags, ddi.DefinedRangedBarrierFlags0094, "D3D12DDI_RANGED_BARRIER_FLAGS_0094") {
		return nil, span{}, false
	}
	if rg.Flags&ddi.RangedBarrierFlagAcquire != 0 && rg.Flags&ddi.RangedBarrierFlagRelease != 0 {
		return nil, span{}, v.bad(MsgIncompatibleBarrierValues, "Flags", rg.Flags.String(),
			`ACQUIRE (before the copy) and RELEASE (after it) are two barriers (000 "D3D12DDI_RANGE_BARRIER_FLAGS_0094", errata E-RANGED-FLAGS)`)
	}
	return v.rangedSpan(rg.Resource, rg.Subresource == ddi.AllSubresourcesIndex, func(*Resource) bool {
		if rg.Subresource != 0 {
			return v.badf(MsgOutOfBoundsBarrierSubresource, "Subresource", fmt.Sprint(rg.Subresource),
				`a buffer's only subresource is 0; 0x%x names all of it (d3d12umddi.h, errata E-RANGED-SUBRESOURCE)`, uint32(ddi.AllSubresourcesIndex))
		}
		return true
	}, rg.Range)
}

// rangedWithSync validates a 0088 ranged barrier: the syncs and accesses as
// every other barrier's (it cannot be split), the 0088 flags, and the bytes
// rangedSpan finds, which it returns; tg holds the barrier and its resource
// (nil for NULL).
func (v *checker) rangedWithSync(rg *ddi.RangedBarrier0088, tg *target) (span, bool) {
	g := rg.GlobalBarrier
	tg.g, tg.whole, tg.layoutBefore, tg.layoutAfter = g, true, ddi.LayoutUndefined, ddi.LayoutUndefined
	if !v.common(g) {
		return span{}, false
	}
	if g.SyncBefore == ddi.SyncSplit || g.SyncAfter == ddi.SyncSplit {
		return span{}, v.bad(MsgIncompatibleBarrierValues, "SyncBefore/SyncAfter", "SPLIT",
			`a ranged barrier cannot be split (000 "Split Barriers" names texture and buffer barriers only)`)
	}
	if !v.rangedFlags(rg.Flags, ddi.DefinedRangedBarrierFlags0088, "D3D12DDI_RANGED_BARRIER_FLAGS") {
		return span{}, false
	}
	sub := rg.Subresources
	all := sub.NumMipLevels == 0 && sub.IndexOrFirstMipLevel == ddi.AllSubresources
	r, s, ok := v.rangedSpan(rg.Resource, all, func(r *Resource) bool {
		if _, err := r.Desc.Resolve(v.zeroCounts(sub)); err != nil {
			return v.fromResource(MsgOutOfBoundsBarrierSubresource, err)
		}
		return true
	}, rg.Range)
	tg.r = r
	if !ok || r == nil {
		return s, ok
	}
	tg.entry = v.cl.entry(r.Handle)
	return s, v.resourceAccess(r, g.AccessBefore, g.AccessAfter) && v.sequence(tg)
}

// rangedFlags checks a ranged barrier's flags: only defined bits, and
// ATOMIC_COPY, since the runtime records ranged barriers only around atomic
// copies (000 "D3D12DDI_RANGED_BARRIER_0088", errata E-RANGED-FLAGS).
func (v *checker) rangedFlags(f, defined ddi.RangedBarrierFlags, typ string) bool {
	switch {
	case f&^defined != 0:
		return v.badf(MsgIncompatibleBarrierValues, "Flags", f.String(), `has bits %s does not define`, typ)
	case f&ddi.RangedBarrierFlagAtomicCopy == 0:
		return v.bad(MsgIncompatibleBarrierValues, "Flags", f.String(),
			`a ranged barrier is an atomic copy's: ATOMIC_COPY must be set (000 "D3D12DDI_RANGED_BARRIER_0088", errata E-RANGED-FLAGS)`)
	}
	return true
}

// rangedSpan finds the bytes a ranged barrier covers (d3d12umddi.h
// D3D12DDI_RANGED_BARRIER_0094; errata E-RANGED-NULL-RESOURCE,
// E-RANGED-SUBRESOURCE):
//
//   - a NULL resource: all of GPU memory, the whole caches; the
//     subresources and Range mean nothing;
//   - a buffer with all its subresources named: the whole buffer, Range
//     ignored;
//   - a buffer with its subresource named (sub checks it): Range, which
//     must be a non-empty byte range inside the buffer.
//
// Atomic copies copy buffers, so a texture is an error.
func (v *checker) rangedSpan(h ddi.HResource, all bool, sub func(*Resource) bool, rg ddi.Range) (*Resource, span, bool) {
	if h == 0 {
		return nil, span{}, true // all of memory
	}
	r := v.cl.lookup(h)
	if r == nil {
		return nil, span{}, v.cl.badHandle(h, "hResource", func(id MessageID, value, rule string) bool { return v.bad(id, "hResource", value, rule) })
	}
	if !r.IsBuffer() {
		return nil, span{}, v.bad(MsgIncompatibleBarrierDimension, "hResource", r.Desc.Desc.Dimension.String(),
			`atomic copies copy buffers: a ranged barrier names a buffer or NULL (000 "D3D12DDI_RANGED_BARRIER_0094")`)
	}
	if all {
		return r, span{lo: r.Addr, hi: r.Addr + r.DataSize}, true
	}
	if !sub(r) {
		return nil, span{}, false
	}
	if rg.Begin >= rg.End || rg.End > r.Desc.DataSize {
		return nil, span{}, v.badf(MsgBufferBarrierSubregionOutOfBounds, "Range", fmt.Sprintf("[%d,%d)", rg.Begin, rg.End),
			"must be a non-empty byte range inside the %d-byte buffer", r.Desc.DataSize)
	}
	return r, span{lo: r.Addr + rg.Begin, hi: r.Addr + rg.End}, true
}

// resourceAccess checks the accesses against what the resource's flags and
// heap allow (000 "Upload Heap Resources", "Readback Heap Resources", and
// the flags a view needs).
func (v *checker) resourceAccess(r *Resource, before, after ddi.BarrierAccess) bool {
	return (before|after)&^ddi.AccessNoAccess&^r.allowed == 0 || v.resourceAccessFailed(r, before, after)
}

// resourceAccessFailed reports the access member the resource does not
// allow.
func (v *checker) resourceAccessFailed(r *Resource, before, after ddi.BarrierAccess) bool {
	kind := r.Heap.Desc.Kind
	if err := r.Desc.CheckAccess("AccessBefore", before, kind); err != nil {
		return v.fromResource(MsgIncompatibleBarrierAccess, err)
	}
	if err := r.Desc.CheckAccess("AccessAfter", after, kind); err != nil {
		return v.fromResource(MsgIncompatibleBarrierAccess, err)
	}
	return true
}

// sequence checks a barrier against what the list recorded on the same
// subresources: LayoutBefore against the layout the list left (000 "Layout
// Transitions"), SyncBefore against the previous SyncAfter (000 "Sequential
// Barriers"), the SYNC_NONE promises (000 "D3D12_BARRIER_SYNC_NONE") and
// split pairs (000 "Split Barriers").
// The first subresource whose state the barrier does not follow fails it.
func (v *checker) sequence(tg *target) bool {
	tr := v.cl.known(tg.r, tg.entry)
	if tr == nil {
		return true // nothing recorded, nothing to check
	}
	before := ddi.ExpandSync(tg.g.SyncBefore) | tg.g.SyncBefore
	switch {
	case tr.uniform:
		return v.follows(tg, &tr.all, before)
	case tg.whole:
		for i := range tr.subs {
			if !v.follows(tg, &tr.subs[i], before) {
				return false
			}
		}
		return true
	}
	ok := true
	tg.sel.Each(func(i uint32) { ok = ok && v.follows(tg, &tr.subs[i], before) })
	return ok
}

// follows checks the barrier against one subresource's state; before is
// its SyncBefore with umbrellas expanded.
func (v *checker) follows(tg *target, s *subState, before ddi.BarrierSync) bool {
	g := &tg.g
	switch {
	case s.ended:
		return v.bad(MsgSyncNoneAccessed, "SyncBefore", g.SyncBefore.String(),
			`an earlier barrier in this command list had SyncAfter NONE: nothing may follow it on the subresource in this ExecuteCommandLists scope (000 "D3D12_BARRIER_SYNC_NONE")`)
	case g.SyncBefore == ddi.SyncNone && (s.barriered || s.accessed):
		return v.bad(MsgSyncNoneAccessed, "SyncBefore", "NONE",
			`SyncBefore NONE promises no earlier barrier or access in this ExecuteCommandLists scope, but this command list has one (000 "D3D12_BARRIER_SYNC_NONE")`)
	case s.split.event != 0 && g.SyncBefore != ddi.SyncSplit:
		return v.bad(MsgSplitMismatch, "SyncBefore", g.SyncBefore.String(),
			`a split barrier is open on the subresource: its end must come before any other barrier (000 "Split Barriers")`)
	case g.SyncBefore == ddi.SyncSplit && s.split.event == 0 && s.barriered:
		return v.bad(MsgSplitMismatch, "SyncBefore", "SPLIT",
			`this end of a split follows another barrier on the subresource, not its begin (000 "Split Barriers")`)
	case g.SyncBefore == ddi.SyncSplit && s.split.event != 0 && !s.split.matches(tg):
		return v.bad(MsgSplitMismatch, "SyncBefore", "SPLIT",
			`the end of a split must repeat its begin's LayoutBefore, LayoutAfter, AccessBefore and AccessAfter (000 "Split Barriers")`)
	case s.barriered && g.SyncBefore != ddi.SyncSplit && s.syncAfter&^before != 0 && !v.cl.translated:
		// (The runtime's translation of a legacy barrier takes its
		// SyncBefore from its StateBefore, which promotion since the
		// previous barrier may have reached by work alone: the legacy
		// layer judges the states, errata E-LEGACY-SEQUENTIAL.)
		return v.badf(MsgSequentialBarrierSync, "SyncBefore", g.SyncBefore.String(),
			`must contain the previous barrier's SyncAfter (%s is missing) (000 "Sequential Barriers")`, s.syncAfter&^before)
	case tg.texture && s.known && g.SyncBefore != ddi.SyncSplit && tg.layoutBefore != ddi.LayoutUndefined &&
		tg.layoutBefore != s.layout && !(tg.layoutBefore.IsLegacy() && s.layout == ddi.LayoutCommon):
		// (A LEGACY_* LayoutBefore stands for its state's layout or, after
		// a promotion, COMMON: 000 "Legacy layouts", as at
		// ExecuteCommandLists, layoutBeforeError.)
		// (An end of a split was compared with its begin above.)
		return v.badf(MsgIncompatibleBarrierLayout, "LayoutBefore", tg.layoutBefore.String(),
			`the previous barrier in this command list left the subresource in %s (000 "Layout Transitions")`, s.layout)
	}
	return true
}

// matches says whether an end-split barrier repeats its begin.
func (k splitKey) matches(tg *target) bool {
	g := &tg.g
	if k.accessBefore != g.AccessBefore || k.accessAfter != g.AccessAfter {
		return false
	}
	return !tg.texture || k.layoutBefore == tg.layoutBefore && k.layoutAfter == tg.layoutAfter
}

// fromResource reports a resource/ field error as a barrier failure.
func (v *checker) fromResource(id MessageID, err error) bool {
	var fe *resource.FieldError
	if errors.As(err, &fe) {
		return v.bad(id, fe.Field, fe.Value, fe.Rule)
	}
	return v.bad(id, "", "", err.Error())
}
