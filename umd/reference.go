package umd

import (
	"slices"
	"sync/atomic"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
)

// Reference is ebref's own translation behind the seam: what every
// Barrier call of a device without Options.Translator goes through, and
// what `ebref translator serve` serves over the protocol. It plans and
// emits (translate.go) from a translator.Request's facts alone, not the
// device's resources, so that what the seam carries is proven enough:
// any translator sees what the reference sees.
type Reference struct {
	caches *[hwmodel.NumEngineKinds]cacheTable
	// faults are the device's, for its own reference (Open): applied as
	// the packets are emitted, so that those that name packets by purpose
	// (drop-ranged-flush, drop-metadata-writeback) apply too. nil for an
	// opened one, whose reply the device breaks like any translator's.
	faults *Faults
	// spare is a scratch between calls (most calls on one goroutine find
	// it; one made concurrently with it makes its own).
	spare atomic.Pointer[scratch]
}

// ReferenceOpener opens Reference on each profile.
type ReferenceOpener struct{}

// Name is the translator's name in reports.
func (ReferenceOpener) Name() string { return "ebref-reference" }

// Open returns the reference translation for profile p.
func (ReferenceOpener) Open(p *hwmodel.Profile) (translator.Translator, error) {
	return NewReference(p), nil
}

// NewReference returns the reference translation for profile p.
func NewReference(p *hwmodel.Profile) *Reference {
	r := &Reference{caches: new([hwmodel.NumEngineKinds]cacheTable)}
	for e := range r.caches {
		r.caches[e] = newCacheTable(p, hwmodel.EngineKind(e))
	}
	return r
}

var noFaults Faults

// Translate appends the packets for req to dst.
func (ref *Reference) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	if err := req.Validate(); err != nil {
		return dst, err
	}
	sc := ref.spare.Swap(nil)
	if sc == nil {
		sc = new(scratch)
	}
	dst, err := ref.translate(req, dst, sc)
	ref.spare.Store(sc) // not deferred: a panic loses the scratch, no more
	return dst, err
}

// translate is Translate for a valid request, in scratch sc: a device
// calls it so for its own reference, with each list's scratch (seam.go),
// its requests being valid as built.
func (ref *Reference) translate(req *translator.Request, dst []uint32, sc *scratch) ([]uint32, error) {
	e, ok := listEngine(req.ListType)
	if !ok {
		return dst, &translator.Refusal{Reason: "a " + req.ListType.String() + " list records no barriers"}
	}
	t := &ref.caches[e]
	// The residents are indexed if the emitter walks them (memory.eachRange).
	sc.lazy.residents, sc.lazy.built = req.Residents, false
	// A surface operation names its resource's handle and surface, in
	// sc.surf, sized for every record once the first is needed (its
	// operations point into it).
	surf := false
	m := &memory{ix: &sc.lazy.ix, aliased: req.AliasedMeta, lazy: &sc.lazy}
	p := &sc.p
	p.reset()
	p.sEvent = req.SplitEvent
	for i := range req.Facts {
		f := &req.Facts[i]
		var typ ddi.BarrierType
		var g *ddi.GlobalBarrier
		var tb *ddi.TextureBarrier
		var rg *ddi.RangedBarrier
		if req.Entry == translator.Entry0094 { // requestRecord's, inline for the usual entry
			b := req.Barrier(i)
			if typ = b.Type; typ == ddi.BarrierTypeRanged {
				rg = b.Ranged()
			} else {
				g, tb = b.Global(), b.Texture()
			}
		} else {
			typ, g, tb, rg = requestRecord(req, i)
		}
		switch {
		case typ == ddi.BarrierTypeGlobal, typ == ddi.BarrierTypeRanged && rg == nil && f.Kind == translator.KindNone:
			planGlobal(t, m, p, g)
		case typ == ddi.BarrierTypeRanged && rg != nil: // 0094
			planRanged(p, rg.Flags, span{f.Span.Lo, f.Span.Hi})
		case typ == ddi.BarrierTypeRanged: // 0088, over a buffer's bytes
			a := accessFacts{g: g, compatBefore: f.CompatBefore, compatAfter: f.CompatAfter, lo: f.Span.Lo, hi: f.Span.Hi}
			planAccess(t, p, &a)
		case typ == ddi.BarrierTypeBuffer:
			var a accessFacts // field by field, as a texture's
			a.g, a.compatBefore, a.compatAfter, a.lo, a.hi = g, f.CompatBefore, f.CompatAfter, f.Selected.Lo, f.Selected.Hi
			planAccess(t, p, &a)
		case typ == ddi.BarrierTypeTexture:
			// Field by field: a literal is built aside and copied in
			// overlapping pieces, which stalls the loads planAccess makes
			// at once.
			var a accessFacts
			a.g, a.texture, a.layoutBefore, a.layoutAfter = g, true, tb.LayoutBefore, tb.LayoutAfter
			a.discard, a.surface = tb.Flags&ddi.TextureBarrierFlagDiscard != 0, f.Surface != 0
			a.compressedAfter, a.meta = f.Flags&translator.CompressedAfter != 0, span{f.Meta.Lo, f.Meta.Hi}
			a.compatBefore, a.compatAfter, a.lo, a.hi = f.CompatBefore, f.CompatAfter, f.Selected.Lo, f.Selected.Hi
			if g.SyncBefore != ddi.SyncSplit { // an end's work was its begin's
				a.work = transitionWork(a.surface, a.layoutBefore, a.layoutAfter, f.Flags&translator.CompressedBefore != 0, a.compressedAfter, a.discard)
			}
			if part := planAccess(t, p, &a); part != nil && a.work != workNone {
				if !surf {
					sc.surf, surf = slices.Grow(sc.surf[:0], len(req.Facts))[:len(req.Facts)], true
				}
				sc.surf[i].Handle, sc.surf[i].Surface = tb.Resource, uint16(f.Surface)
				for _, r := range req.Regions[f.FirstRegion : f.FirstRegion+f.NumRegions] {
					part.comp = append(part.comp, compOp{res: &sc.surf[i], work: a.work, offset: r.Offset, size: r.Size})
				}
			}
		default:
			return dst, &translator.Refusal{Reason: "a record of type " + typ.String()}
		}
		if (typ == ddi.BarrierTypeTexture || typ == ddi.BarrierTypeBuffer) && g.SyncBefore == ddi.SyncSplit {
			p.ends = append(p.ends, splitEnd{event: f.EndEvent, hold: Stages(g.SyncAfter)})
		}
	}
	f := ref.faults
	if f == nil {
		f = &noFaults
	}
	return p.emit(dst, t, f, m), nil
}

// listEngine is the engine a command list type's queues run on
// (queueEngines, without a map lookup on every call).
func listEngine(t ddi.CommandListType) (hwmodel.EngineKind, bool) {
	switch t {
	case ddi.CommandListTypeDirect:
		return hwmodel.EngineDirect, true
	case ddi.CommandListTypeCompute:
		return hwmodel.EngineCompute, true
	case ddi.CommandListTypeCopy:
		return hwmodel.EngineCopy, true
	}
	e, ok := queueEngines[t]
	return e, ok
}

// scratch is what one Translate works in, kept between calls: a call
// allocates nothing once its slices have grown.
type scratch struct {
	p    plan
	lazy residents
	surf []Resource // per record, the handle and surface its operations name
}

// residents are a request's residents, indexed on first use.
type residents struct {
	residents []translator.Resident
	// list, in a command list's scratch (the device's own reference),
	// finds the residents of its request, req, when they are first
	// needed (most calls never need them); nil when the request carries
	// them.
	list  *CommandList
	req   *translator.Request
	built bool // this call's are indexed
	res   []Resource
	ix    addrIndex
	// last are the residents ix indexes, if indexed.
	last    []translator.Resident
	indexed bool
}

// index indexes the residents, once a call needs them: the index of
// the last call that needed one, if its residents were these (a list's
// calls often name the same resources).
func (r *residents) index() {
	if r.built {
		return
	}
	r.built = true
	if r.list != nil {
		r.residents = r.list.findResidents(r.req)
	}
	if r.indexed && slices.Equal(r.last, r.residents) {
		return
	}
	r.last, r.indexed = append(r.last[:0], r.residents...), true
	ix := &r.ix
	ix.byAddr, ix.starts, ix.maxEnd = ix.byAddr[:0], ix.starts[:0], ix.maxEnd[:0]
	r.res = slices.Grow(r.res[:0], len(r.residents))[:len(r.residents)]
	for i, x := range r.residents {
		res := &r.res[i]
		res.Addr, res.DataSize, res.MetaSize = x.Addr, x.DataSize, x.MetaSize
		if n := len(ix.byAddr); n > 0 && res.Addr < ix.starts[n-1] {
			ix.indexAdd(res) // not in address order (ebref sends them so)
			continue
		}
		end := res.Addr + res.DataSize + res.MetaSize
		if n := len(ix.maxEnd); n > 0 {
			end = max(end, ix.maxEnd[n-1])
		}
		ix.byAddr, ix.starts, ix.maxEnd = append(ix.byAddr, res), append(ix.starts, res.Addr), append(ix.maxEnd, end)
	}
}
