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

// The seam (docs/translators.md). Every Barrier call goes through it:
// it is validated and tracked (validate.go, track.go), what ebref
// resolved of each record becomes a fact of a translator.Request beside
// the records, the device's translator (Options.Translator, or the
// reference, Reference, when none is set) translates it, and its reply is
// checked packet by packet as its BarrierRecord is rebuilt from it, the
// faults are applied to it, and it goes into the list after the call's
// MARKER. Everything else stays ebref's: validation, tracking, resources,
// work packets and their synchronous-copy waits, queues and fences.

// addFact adds the facts of a barrier just validated and tracked to the
// list's request: tg the texture or buffer barrier's target (nil for
// global and 0094 ranged barriers), r its resource (nil for a global
// barrier or NULL), s a ranged barrier's bytes, end the event a split
// end's begin signalled (recordBarrier).
func (cl *CommandList) addFact(tg *target, r *Resource, s span, end uint32) {
	req := &cl.req
	req.Facts = append(req.Facts, translator.Fact{})
	// Field by field, in place: a literal built aside is copied in
	// overlapping pieces, which stalls the stores.
	f := &req.Facts[len(req.Facts)-1]
	f.Span.Lo, f.Span.Hi = s.lo, s.hi
	if r == nil {
		f.CompatBefore, f.CompatAfter = allAccesses, allAccesses
		return
	}
	f.Kind, f.CompatBefore, f.CompatAfter = translator.KindBuffer, r.allowed, r.allowed
	f.Data.Lo, f.Data.Hi = r.Addr, r.Addr+r.DataSize
	f.Selected = f.Data
	if r.MetaSize > 0 {
		f.Meta.Lo, f.Meta.Hi = r.Addr+r.DataSize, r.Addr+r.DataSize+r.MetaSize
	}
	if tg == nil {
		return
	}
	if tg.texture {
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
		if !tg.whole {
			f.Selected.Lo, f.Selected.Hi = tg.selectionRange()
		}
		f.FirstRegion = uint32(len(req.Regions))
		req.Regions = tg.appendRegions(req.Regions)
		f.NumRegions = uint32(len(req.Regions)) - f.FirstRegion
	}
	if tg.g.SyncBefore == ddi.SyncSplit {
		f.EndEvent = end
	}
}

// allAccesses are every access but NO_ACCESS: what COMMON stands for in a
// global barrier.
var allAccesses = ddi.DefinedAccessBits &^ ddi.AccessNoAccess

// translate has the device's translator translate the call whose records
// are recs, and records its reply.
func (cl *CommandList) translate(call int, entry translator.Entry, recs []byte) {
	req := &cl.req
	d := cl.d
	req.Entry, req.ListType, req.ListFlags = entry, cl.typ, cl.flags
	req.Call, req.Records = uint32(call), recs
	req.AliasedMeta, req.Residents = req.AliasedMeta[:0], req.Residents[:0]
	if cl.commonAfter {
		cl.aliasedMeta(req)
	}
	cl.residents(req)

	cl.lastCall = call
	if d.pipelined {
		cl.translateLater(call)
		return
	}
	rec := BarrierRecord{Call: call, Barriers: len(req.Facts), FirstOp: len(cl.ops), Start: cl.buf.Len()}
	words := cl.appendMarker(cl.room(), "Barrier")
	at := len(words)
	words, err := d.xl.Translate(req, words)
	cl.record(req, call, words, at, &rec, err)
}

// record records the reply to call's request req, words[at:] after its
// MARKER (err: the translator's failure): it checks the reply, applies the
// faults, and adds the packets and the call's record to the list (true),
// or stops the list with the error naming the call (false).
func (cl *CommandList) record(req *translator.Request, call int, words []uint32, at int, rec *BarrierRecord, err error) bool {
	d := cl.d
	if err == nil {
		err = req.CheckSize(words[at:])
	}
	if err == nil && !d.xlFaults && d.opts.Faults.atReply() {
		// The faults break a valid reply: check it whole first.
		if err = translator.Check(req, words[at:]); err == nil {
			words = append(words[:at], applyFaults(words[at:], &d.opts.Faults)...)
		}
	}
	if err == nil {
		err = cl.recordReply(req, words, at, rec)
	}
	if err != nil {
		cl.ops = cl.ops[:rec.FirstOp]
		var re *translator.ReplyError
		if errors.As(err, &re) {
			err = &translator.Error{Kind: translator.ErrReply, Translator: d.xlName, Msg: re.Msg, Dword: re.Dword}
		}
		var te *translator.Error
		if !errors.As(err, &te) {
			te = &translator.Error{Kind: translator.ErrRefused, Translator: d.xlName, Msg: err.Error(), Dword: -1}
		}
		te.Msg = fmt.Sprintf("Barrier #%d (%d records): %s", call, len(req.Facts), te.Msg)
		te.Call = call
		cl.xerr = te
		return false
	}
	cl.put(words)
	rec.End = cl.buf.Len()
	rec.NumOps = len(cl.ops) - rec.FirstOp
	rec.Dwords = len(words)
	cl.records = append(cl.records, *rec)
	return true
}

// aliasedMeta fills the request's AliasedMeta: the call has a global
// barrier (or a 0088 ranged one naming NULL) whose AccessAfter is COMMON.
func (cl *CommandList) aliasedMeta(req *translator.Request) {
	var m spans
	cl.d.aliasedMetadata(&m)
	for _, r := range m.r {
		req.AliasedMeta = append(req.AliasedMeta, translator.Range{Lo: r.lo, Hi: r.hi})
	}
}

// residents fills the request's residents: when the call names two byte
// ranges or more, every resource holding bytes between its lowest and
// highest named byte. A list's calls often name the same bytes as its
// last one (a resource's barriers back and forth): while no resource
// came or went since, the last call's residents are these.
func (cl *CommandList) residents(req *translator.Request) {
	var b bounds
	for i := range req.Facts {
		f := &req.Facts[i]
		b.add(&f.Selected)
		b.add(&f.Meta)
		b.add(&f.Span)
	}
	for i := range req.AliasedMeta {
		b.add(&req.AliasedMeta[i])
	}
	lo, hi, n := b.lo, b.hi, b.n
	if n < 2 {
		return
	}
	d := cl.d
	last := &cl.lastResidents
	if gen := d.gen.Load(); last.gen != gen || last.lo != lo || last.hi != hi || last.gen == 0 {
		last.residents = last.residents[:0]
		d.rmu.RLock()
		// The prefix ends rise: every resource before the first whose
		// prefix reaches past lo ends at or before it.
		first, _ := slices.BinarySearchFunc(d.maxEnd, lo+1, cmp.Compare[uint64])
		for i := first; i < len(d.byAddr); i++ {
			r := d.byAddr[i]
			if r.Addr >= hi {
				break
			}
			if r.Addr+r.DataSize+r.MetaSize > lo {
				last.residents = append(last.residents, translator.Resident{Addr: r.Addr, DataSize: r.DataSize, MetaSize: r.MetaSize})
			}
		}
		last.gen, last.lo, last.hi = d.gen.Load(), lo, hi
		d.rmu.RUnlock()
	}
	req.Residents = append(req.Residents, last.residents...)
}

// bounds are the lowest and highest byte of n non-empty ranges.
type bounds struct {
	lo, hi uint64
	n      int
}

func (b *bounds) add(r *translator.Range) {
	if r.Hi <= r.Lo {
		return
	}
	if b.n == 0 || r.Lo < b.lo {
		b.lo = r.Lo
	}
	b.hi = max(b.hi, r.Hi)
	b.n++
}

// lastResidents are the residents a list's last call found between lo
// and hi, in the device's address index at generation gen (0: none yet).
type lastResidents struct {
	gen, lo, hi uint64
	residents   []translator.Resident
}

// recordReply checks the reply's packets, words[at:], against the
// request (translator.Request.CheckPacket: one decoding serves both) and
// rebuilds the call's BarrierRecord and surface operations from them.
func (cl *CommandList) recordReply(req *translator.Request, words []uint32, at int, rec *BarrierRecord) error {
	reply := words[at:]
	next := 0 // where the search for a surface's record begins
	for off := 0; off < len(reply); {
		n, err := req.CheckPacket(reply, off)
		if err != nil {
			return err
		}
		// Ifs, most frequent first, not a switch: a jump table's
		// mispredictions cost more than the packets' decoding.
		h := cmdbuf.Header(reply[off])
		q := reply[off+1 : off+n]
		off += n
		switch op := h.Op(); {
		case op == cmdbuf.OpWait:
			rec.Waits++
			rec.Drain |= cmdbuf.StageMask(q[0])
			rec.Hold |= cmdbuf.StageMask(q[1])
		case op == cmdbuf.OpCache:
			rec.CacheOps++
			rec.Flush |= cmdbuf.CacheMask(q[0])
			rec.Invalidate |= cmdbuf.CacheMask(q[1])
		case op == cmdbuf.OpEventWait:
			rec.Waits++
			rec.Hold |= cmdbuf.Packet{Header: h, Payload: q}.Event().Stages
		case op == cmdbuf.OpDecompress || op == cmdbuf.OpMetadataInit:
			p := cmdbuf.Packet{Header: h, Payload: q}
			r, work := p.Decompress(), workDecompress
			if op == cmdbuf.OpMetadataInit {
				r, work = p.MetadataInit(), workInitClear
				switch {
				case r.Plain && r.Discard:
					work = workInitDiscard
				case r.Plain:
					work = workInitPlain
				}
			}
			// The record naming the surface: most replies name the
			// surfaces in the records' order, so the search goes on
			// from the last one found.
			var hr ddi.HResource
			for k := range req.Facts {
				if i := (next + k) % len(req.Facts); req.Facts[i].Surface == uint32(r.Surface) {
					hr, next = recordResource(req, i), i+1
					break
				}
			}
			cl.ops = append(cl.ops, SurfaceOp{})
			// Field by field, as in plan.emit.
			o := &cl.ops[len(cl.ops)-1]
			o.Resource, o.Surface, o.Work = hr, r.Surface, work.String()
			o.Offset, o.Size, o.Async = r.Offset, r.Size, p.Async()
		}
	}
	return nil
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

// atReply reports whether some fault applyFaults applies is set.
func (f *Faults) atReply() bool {
	return f.DropWait || f.NarrowDrain || f.DropFlush || f.DropInvalidate || f.DropDecompress ||
		f.DropMetadataInit || f.DropSplitEndWait
}

// applyFaults breaks a translator's reply as the faults say, at the
// packet level (docs/translators.md "Mutation"): WAITs and split ends'
// EVENT_WAITs dropped, drains narrowed, CACHE packets' flushes or
// invalidates cleared (the packet dropped if nothing is left), DECOMPRESS
// and METADATA_INIT dropped. drop-ranged-flush and
// drop-metadata-writeback name packets by purpose, which a reply does not
// say: they leave it as it is.
func applyFaults(words []uint32, f *Faults) []uint32 {
	if !f.atReply() {
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
