package umd

import (
	"slices"
	"sync"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd/translator"
)

// Reference is ebref's own translation behind the seam: the planning and
// emitting the driver runs in process (translate.go), fed from a
// translator.Request's facts instead of the device's resources, so that
// what the seam carries is proven enough: the reference through it gives
// the packets the driver gives by itself (TestReferenceThroughTheSeam).
// `ebref translator serve` serves it over the protocol.
type Reference struct {
	caches [hwmodel.NumEngineKinds]cacheTable
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
	r := &Reference{}
	for e := range r.caches {
		r.caches[e] = newCacheTable(p, hwmodel.EngineKind(e))
	}
	return r
}

// Translate appends the packets for req to dst.
func (ref *Reference) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	if err := req.Validate(); err != nil {
		return dst, err
	}
	e, ok := queueEngines[req.ListType]
	if !ok {
		return dst, &translator.Refusal{Reason: "a " + req.ListType.String() + " list records no barriers"}
	}
	t := &ref.caches[e]
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	ix := &sc.ix
	ix.byAddr, ix.starts, ix.maxEnd = ix.byAddr[:0], ix.starts[:0], ix.maxEnd[:0]
	sc.res = slices.Grow(sc.res[:0], len(req.Residents))[:len(req.Residents)]
	for i, r := range req.Residents { // in address order: each goes last
		sc.res[i].Addr, sc.res[i].DataSize, sc.res[i].MetaSize = r.Addr, r.DataSize, r.MetaSize
		ix.indexAdd(&sc.res[i])
	}
	// A surface operation names its resource's handle and surface.
	sc.surf = slices.Grow(sc.surf[:0], len(req.Facts))[:len(req.Facts)]
	m := memory{ix: ix, aliased: req.AliasedMeta}
	p := &sc.p
	p.reset()
	p.sEvent = req.SplitEvent
	for i := range req.Facts {
		f := &req.Facts[i]
		typ, g, tb, rg := requestRecord(req, i)
		switch {
		case typ == ddi.BarrierTypeGlobal, typ == ddi.BarrierTypeRanged && rg == nil && f.Kind == translator.KindNone:
			planGlobal(t, m, p, g)
		case typ == ddi.BarrierTypeRanged && rg != nil: // 0094
			planRanged(p, rg.Flags, span{f.Span.Lo, f.Span.Hi})
		case typ == ddi.BarrierTypeRanged: // 0088, over a buffer's bytes
			a := accessFacts{g: g, compatBefore: f.CompatBefore, compatAfter: f.CompatAfter, lo: f.Span.Lo, hi: f.Span.Hi}
			planAccess(t, p, &a)
		case typ == ddi.BarrierTypeBuffer:
			a := accessFacts{g: g, compatBefore: f.CompatBefore, compatAfter: f.CompatAfter, lo: f.Selected.Lo, hi: f.Selected.Hi}
			planAccess(t, p, &a)
		case typ == ddi.BarrierTypeTexture:
			a := accessFacts{g: g, texture: true, layoutBefore: tb.LayoutBefore, layoutAfter: tb.LayoutAfter,
				discard: tb.Flags&ddi.TextureBarrierFlagDiscard != 0, surface: f.Surface != 0,
				compressedAfter: f.Flags&translator.CompressedAfter != 0, meta: span{f.Meta.Lo, f.Meta.Hi},
				compatBefore: f.CompatBefore, compatAfter: f.CompatAfter, lo: f.Selected.Lo, hi: f.Selected.Hi}
			if g.SyncBefore != ddi.SyncSplit {
				a.work = transitionWork(a.surface, a.layoutBefore, a.layoutAfter, f.Flags&translator.CompressedBefore != 0, a.compressedAfter, a.discard)
			}
			if part := planAccess(t, p, &a); part != nil && a.work != workNone {
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
	var rec BarrierRecord
	sc.ops = sc.ops[:0]
	return p.emit(dst, t, &Faults{}, m, &rec, &sc.ops), nil
}

// scratch is what one Translate works in, kept between calls: a call
// allocates nothing once its slices have grown.
type scratch struct {
	p    plan
	ix   addrIndex
	res  []Resource // the residents
	surf []Resource // per record, the handle and surface its operations name
	ops  []SurfaceOp
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}
