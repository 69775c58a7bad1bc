package umd

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/umd/translator"
)

// The seam (docs/translators.md). With Options.Translator, a Barrier call
// is validated and tracked as always, and what ebref resolved of each
// record becomes a fact of a translator.Request beside the records; the
// translator's reply is checked (translator.Check), the faults are
// applied to it, and it goes into the list after the call's MARKER, its
// BarrierRecord rebuilt from its packets. Everything else stays ebref's:
// validation, tracking, resources, work packets and their synchronous-copy
// waits, queues and fences.

// addFact adds the facts of the barrier just planned to the list's
// request: tg the texture or buffer barrier's target (nil for global and
// 0094 ranged barriers), r its resource (nil for a global barrier or
// NULL), s a ranged barrier's bytes.
func (cl *CommandList) addFact(p *plan, tg *target, r *Resource, s span) {
	req := cl.xreq
	all := ddi.DefinedAccessBits &^ ddi.AccessNoAccess
	f := translator.Fact{CompatBefore: all, CompatAfter: all, Span: translator.Range{Lo: s.lo, Hi: s.hi}}
	if r != nil {
		f.Kind, f.CompatBefore, f.CompatAfter = translator.KindBuffer, r.allowed, r.allowed
		f.Data = translator.Range{Lo: r.Addr, Hi: r.Addr + r.DataSize}
		f.Selected = f.Data
		if r.MetaSize > 0 {
			f.Meta = translator.Range{Lo: r.Addr + r.DataSize, Hi: r.Addr + r.DataSize + r.MetaSize}
		}
	}
	if tg != nil && tg.texture {
		f.Kind = translator.KindTexture
		if r.simultaneous {
			f.Kind = translator.KindSimultaneous
		}
		f.CompatBefore, f.CompatAfter = r.compat[tg.slotBefore], r.compat[tg.slotAfter]
		if tg.layoutBefore != ddi.LayoutUndefined && r.compressed[tg.slotBefore] {
			f.Flags |= translator.CompressedBefore
		}
		if tg.layoutAfter != ddi.LayoutUndefined && r.compressed[tg.slotAfter] {
			f.Flags |= translator.CompressedAfter
		}
		f.Surface = uint32(r.Surface)
		lo, hi := tg.byteRange()
		f.Selected = translator.Range{Lo: lo, Hi: hi}
		f.FirstRegion = uint32(len(req.Regions))
		cl.xops = compressionOps(cl.xops[:0], tg, workNone)
		for _, op := range cl.xops {
			req.Regions = append(req.Regions, translator.Region{Offset: op.offset, Size: op.size})
		}
		f.NumRegions = uint32(len(req.Regions)) - f.FirstRegion
	}
	if tg != nil && tg.g.SyncBefore == ddi.SyncSplit && len(p.ends) > 0 {
		f.EndEvent = p.ends[len(p.ends)-1].event
	}
	req.Facts = append(req.Facts, f)
}

// translateVia has the device's translator translate the call whose
// records are recs, and records its reply.
func (cl *CommandList) translateVia(p *plan, call int, entry translator.Entry, recs []byte) {
	req := cl.xreq
	d := cl.d
	req.Entry, req.ListType, req.ListFlags = entry, cl.typ, cl.flags
	req.Call, req.SplitEvent, req.Records = uint32(call), p.sEvent, recs
	req.AliasedMeta, req.Residents = req.AliasedMeta[:0], req.Residents[:0]
	for i := range req.Facts {
		typ, g, _, _ := requestRecord(req, i)
		global := typ == ddi.BarrierTypeGlobal || typ == ddi.BarrierTypeRanged && g != nil && req.Facts[i].Kind == translator.KindNone
		if global && g.AccessAfter == ddi.AccessCommon {
			var m spans
			d.aliasedMetadata(&m)
			for _, r := range m.r {
				req.AliasedMeta = append(req.AliasedMeta, translator.Range{Lo: r.lo, Hi: r.hi})
			}
			break
		}
	}
	cl.residents(req)

	rec := BarrierRecord{Call: call, Barriers: len(req.Facts), FirstOp: len(cl.ops)}
	words := cl.appendMarker(cl.room(), "Barrier")
	at := len(words)
	words, err := d.xl.Translate(req, words)
	if err == nil {
		err = translator.Check(req, words[at:])
	}
	if err != nil {
		var re *translator.ReplyError
		if errors.As(err, &re) {
			err = &translator.Error{Kind: translator.ErrReply, Translator: d.xlName, Msg: re.Msg, Dword: re.Dword}
		}
		var te *translator.Error
		if !errors.As(err, &te) {
			te = &translator.Error{Kind: translator.ErrRefused, Translator: d.xlName, Msg: err.Error(), Dword: -1}
		}
		te.Msg = fmt.Sprintf("Barrier #%d (%d records): %s", call, len(req.Facts), te.Msg)
		cl.xerr = te
		return
	}
	words = append(words[:at], applyFaults(words[at:], &d.opts.Faults)...)
	cl.recordReply(req, words[at:], &rec)
	rec.Start = cl.buf.Len()
	cl.put(words)
	rec.End = cl.buf.Len()
	rec.NumOps = len(cl.ops) - rec.FirstOp
	rec.Dwords = len(words)
	cl.records = append(cl.records, rec)
}

// residents fills the request's residents: when the call names two byte
// ranges or more, every resource holding bytes between its lowest and
// highest named byte.
func (cl *CommandList) residents(req *translator.Request) {
	lo, hi, n := ^uint64(0), uint64(0), 0
	add := func(r translator.Range) {
		if r.Hi > r.Lo {
			lo, hi, n = min(lo, r.Lo), max(hi, r.Hi), n+1
		}
	}
	for i := range req.Facts {
		f := &req.Facts[i]
		add(f.Selected)
		add(f.Meta)
		add(f.Span)
	}
	for _, m := range req.AliasedMeta {
		add(m)
	}
	if n < 2 {
		return
	}
	d := cl.d
	d.rmu.RLock()
	defer d.rmu.RUnlock()
	// The prefix ends rise: every resource before the first whose prefix
	// reaches past lo ends at or before it.
	first, _ := slices.BinarySearchFunc(d.maxEnd, lo+1, cmp.Compare[uint64])
	for i := first; i < len(d.byAddr); i++ {
		r := d.byAddr[i]
		if r.Addr >= hi {
			break
		}
		if r.Addr+r.DataSize+r.MetaSize > lo {
			req.Residents = append(req.Residents, translator.Resident{Addr: r.Addr, DataSize: r.DataSize, MetaSize: r.MetaSize})
		}
	}
}

// recordReply rebuilds the call's BarrierRecord and surface operations
// from the reply's packets (checked already).
func (cl *CommandList) recordReply(req *translator.Request, words []uint32, rec *BarrierRecord) {
	for off := 0; off < len(words); {
		p, _ := cmdbuf.Decode(words, off)
		off += p.Size()
		switch p.Op() {
		case cmdbuf.OpWait:
			w := p.Wait()
			rec.Waits++
			rec.Drain |= w.Drain
			rec.Hold |= w.Hold
		case cmdbuf.OpEventWait:
			rec.Waits++
			rec.Hold |= p.Event().Stages
		case cmdbuf.OpCache:
			c := p.Cache()
			rec.CacheOps++
			rec.Flush |= c.Flush
			rec.Invalidate |= c.Invalidate
		case cmdbuf.OpDecompress, cmdbuf.OpMetadataInit:
			r, work := p.Decompress(), workDecompress
			if p.Op() == cmdbuf.OpMetadataInit {
				r, work = p.MetadataInit(), workInitClear
				switch {
				case r.Plain && r.Discard:
					work = workInitDiscard
				case r.Plain:
					work = workInitPlain
				}
			}
			var h ddi.HResource
			for i := range req.Facts {
				if req.Facts[i].Surface == uint32(r.Surface) {
					h = recordResource(req, i)
					break
				}
			}
			cl.ops = append(cl.ops, SurfaceOp{Resource: h, Surface: r.Surface, Work: work.String(), Offset: r.Offset, Size: r.Size, Async: p.Async()})
		}
	}
}

// record is record i of a request: its type, its syncs and accesses (a
// texture or buffer barrier's first four members are a global one's; a
// 0088 ranged one carries them), its texture barrier, and a 0094 ranged
// barrier.
func requestRecord(req *translator.Request, i int) (ddi.BarrierType, *ddi.GlobalBarrier, *ddi.TextureBarrier, *ddi.RangedBarrier) {
	if req.Entry == translator.Entry0088 {
		b := req.Barrier0088(i)
		if b.Type == ddi.BarrierTypeRanged {
			return b.Type, &b.Ranged().GlobalBarrier, nil, nil
		}
		return b.Type, b.Global(), b.Texture(), nil
	}
	b := req.Barrier(i)
	if b.Type == ddi.BarrierTypeRanged {
		return b.Type, nil, nil, b.Ranged()
	}
	return b.Type, b.Global(), b.Texture(), nil
}

// recordResource is the resource handle record i names.
func recordResource(req *translator.Request, i int) ddi.HResource {
	if req.Entry == translator.Entry0088 {
		return req.Barrier0088(i).Texture().Resource
	}
	return req.Barrier(i).Texture().Resource
}

// applyFaults breaks a translator's reply as the faults say, at the
// packet level (docs/translators.md "Mutation"): WAITs and split ends'
// EVENT_WAITs dropped, drains narrowed, CACHE packets' flushes or
// invalidates cleared (the packet dropped if nothing is left), DECOMPRESS
// and METADATA_INIT dropped. drop-ranged-flush and
// drop-metadata-writeback name packets by purpose, which a reply does not
// say: they leave it as it is.
func applyFaults(words []uint32, f *Faults) []uint32 {
	if !f.DropWait && !f.NarrowDrain && !f.DropFlush && !f.DropInvalidate && !f.DropDecompress &&
		!f.DropMetadataInit && !f.DropSplitEndWait {
		return words
	}
	out := make([]uint32, 0, len(words))
	for off := 0; off < len(words); {
		p, _ := cmdbuf.Decode(words, off)
		pkt := words[off : off+p.Size()]
		off += p.Size()
		switch p.Op() {
		case cmdbuf.OpWait:
			w := p.Wait()
			if f.NarrowDrain && w.Drain != 0 {
				w.Drain &= -w.Drain
			}
			if f.DropWait {
				continue
			}
			out = cmdbuf.AppendWait(out, w)
			continue
		case cmdbuf.OpEventWait:
			if f.DropSplitEndWait {
				continue
			}
		case cmdbuf.OpCache:
			c := p.Cache()
			if f.DropFlush {
				c.Flush = 0
			}
			if f.DropInvalidate {
				c.Invalidate = 0
			}
			if c.Flush|c.Invalidate != 0 {
				out = cmdbuf.AppendCache(out, c, p.Async())
			}
			continue
		case cmdbuf.OpDecompress:
			if f.DropDecompress {
				continue
			}
		case cmdbuf.OpMetadataInit:
			if f.DropMetadataInit {
				continue
			}
		}
		out = append(out, pkt...)
	}
	return slices.Clip(out)
}
