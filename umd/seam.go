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
// list's request: tg a buffer barrier's target, or a 0088 ranged one's
// over a buffer (nil for global and 0094 ranged barriers; a texture
// barrier's are addTextureFact's), r its resource (nil for a global
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
	if tg != nil && tg.g.SyncBefore == ddi.SyncSplit {
		f.EndEvent = end
	}
}

// addTextureFact is addFact for a texture barrier (tg its target): the
// texture's fact copied (Resource.fact), then what the barrier adds.
func (cl *CommandList) addTextureFact(tg *target, end uint32) {
	r, req := tg.r, &cl.req
	n := len(req.Facts)
	if n == cap(req.Facts) {
		req.Facts = slices.Grow(req.Facts, 1)
	}
	req.Facts = req.Facts[:n+1]
	f := &req.Facts[n]
	*f = r.fact
	if tg.layoutBefore != ddi.LayoutUndefined && r.compressed[tg.slotBefore] {
		f.Flags |= translator.CompressedBefore
	}
	if tg.layoutAfter != ddi.LayoutUndefined && r.compressed[tg.slotAfter] {
		f.Flags |= translator.CompressedAfter
	}
	f.CompatBefore, f.CompatAfter = r.compat[tg.slotBefore], r.compat[tg.slotAfter]
	first := uint32(len(req.Regions))
	if tg.whole {
		req.Regions = append(req.Regions, translator.Region{Offset: 0, Size: r.DataSize})
	} else {
		f.Selected.Lo, f.Selected.Hi = tg.selectionRange()
		req.Regions = tg.appendRegions(req.Regions)
	}
	f.FirstRegion, f.NumRegions = first, uint32(len(req.Regions))-first
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
	req.AliasedMeta, req.Residents = req.AliasedMeta[:0], nil
	if cl.commonAfter {
		cl.aliasedMeta(req)
	}
	cl.lastCall = call
	if d.ref == nil {
		cl.residents(req)
	}
	if d.pipelined {
		cl.translateLater(call)
		return
	}
	// The call's record, built in place: one built aside is copied in
	// overlapping pieces, which stalls on the stores just made to it.
	cl.records = append(cl.records, BarrierRecord{})
	rec := &cl.records[len(cl.records)-1]
	rec.Call, rec.Barriers, rec.FirstOp, rec.Start = call, len(req.Facts), len(cl.ops), cl.buf.Len()
	words := cl.appendMarker(cl.room(), "Barrier")
	at := len(words)
	var err error
	if d.ref != nil {
		// In the list's scratch, which finds the residents only if the
		// reference walks them (residents.index): most calls never do.
		words, err = d.ref.translate(req, words, &cl.scratch)
	} else {
		words, err = d.xl.Translate(req, words)
	}
	cl.record(req, call, words, at, rec, err)
}

// record records the reply to call's request req, words[at:] after its
// MARKER (err: the translator's failure): it checks the reply, applies the
// faults, and adds the packets to the list and completes rec, the call's
// record, already the list's last (true), or drops rec and stops the list
// with the error naming the call (false).
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
		// The reply's packets, checked against the request
		// (translator.Request.CheckPacket: one decoding serves both), and
		// the call's record and surface operations rebuilt from them.
		reply := words[at:]
		if off := recordSync(reply, rec); off < len(reply) {
			err = cl.recordReplyFrom(req, reply, off, rec)
		}
	}
	if err != nil {
		cl.ops = cl.ops[:rec.FirstOp]
		cl.records = cl.records[:len(cl.records)-1]
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
// highest named byte. A list's calls often name the same bytes as its last
// one (a resource's barriers back and forth): while no resource came or
// went since, the last call's residents are these.
func (cl *CommandList) residents(req *translator.Request) {
	req.Residents = cl.findResidents(req)
	if cl.d.ref == nil {
		// Another translator gets a copy, so that what it does to its
		// request stays there.
		cl.residentsCopy = append(cl.residentsCopy[:0], req.Residents...)
		req.Residents = cl.residentsCopy
	}
}

// findResidents are the residents of request req, in the list's cache of
// its last call's: the device's own reference reads them and writes
// nothing, so it reads them there.
func (cl *CommandList) findResidents(req *translator.Request) []translator.Resident {
	var b bounds
	for i := range req.Facts {
		f := &req.Facts[i]
		b.add(f.Span.Lo, f.Span.Hi)
		b.add(f.Meta.Lo, f.Meta.Hi)
		b.add(f.Selected.Lo, f.Selected.Hi)
	}
	for i := range req.AliasedMeta {
		b.add(req.AliasedMeta[i].Lo, req.AliasedMeta[i].Hi)
	}
	lo, hi, n := b.lo, b.hi, b.n
	if n < 2 {
		return nil
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
	return last.residents
}

// bounds are the lowest and highest byte of n non-empty ranges.
type bounds struct {
	lo, hi uint64
	n      int
}

// add adds the range [lo, hi).
func (b *bounds) add(lo, hi uint64) {
	if hi <= lo {
		return
	}
	if b.n == 0 || lo < b.lo {
		b.lo = lo
	}
	b.hi = max(b.hi, hi)
	b.n++
}

// lastResidents are the residents a list's last call found between lo
// and hi, in the device's address index at generation gen (0: none yet).
type lastResidents struct {
	gen, lo, hi uint64
	residents   []translator.Resident
}

// recordSync checks and sums the WAITs and CACHEs that begin a reply, or
// the rest of one (most replies are nothing else), and returns the offset
// of the first packet that is not one, or is not valid: record and
// recordReplyFrom check it further.
func recordSync(reply []uint32, rec *BarrierRecord) int {
	off := 0
	for off < len(reply) {
		switch h := cmdbuf.Header(reply[off]); {
		case h == waitHeader && len(reply)-off > 2:
			d, hd := cmdbuf.StageMask(reply[off+1]), cmdbuf.StageMask(reply[off+2])
			if (d|hd)&^cmdbuf.AllStages != 0 {
				return off
			}
			rec.Waits++
			rec.Drain |= d
			rec.Hold |= hd
			off += 3
		case h&^asyncFlag == cacheHeader && len(reply)-off > 6:
			fl, in := cmdbuf.CacheMask(reply[off+1]), cmdbuf.CacheMask(reply[off+2])
			if (fl|in)&^cmdbuf.AllCaches != 0 {
				return off
			}
			rec.CacheOps++
			rec.Flush |= fl
			rec.Invalidate |= in
			off += 7
		default:
			return off
		}
	}
	return off
}

// recordReplyFrom checks and records, as record does, the reply from the
// packet at reply[off] on.
func (cl *CommandList) recordReplyFrom(req *translator.Request, reply []uint32, off int, rec *BarrierRecord) error {
	next := 0 // where the search for a surface's record begins
	for off < len(reply) {
		// Most packets are a WAIT or a CACHE whose header is the one
		// encoding of its length and flags: such a run is checked in
		// place (recordSync), as CheckPacket checks it (Valid: its masks
		// name only stages or caches that exist; nothing of the call's to
		// name), without the calls. Anything else, valid or not, that is
		// not a DECOMPRESS or METADATA_INIT below goes through CheckPacket.
		if n := recordSync(reply[off:], rec); n > 0 {
			off += n
			continue
		}
		switch h := cmdbuf.Header(reply[off]); {
		case h&^asyncFlag == decompressHeader && len(reply)-off > 5,
			h&^initFlags == metadataInitHeader && len(reply)-off > 6 && reply[off+2] <= 0xff:
			// A DECOMPRESS or METADATA_INIT (whose value is a byte) of a
			// region inside the surface of one of the call's textures:
			// checkRegion's verdict, from the record whose resource the
			// operation names, found once for both.
			at, work := off+2, workDecompress // the region's offset and size from at
			if h.Op() == cmdbuf.OpMetadataInit {
				at, work = off+3, initWork(h)
			}
			i := surfaceFact(req.Facts, uint16(reply[off+1]), next)
			if i < 0 {
				break
			}
			offset, size := uint64(reply[at])|uint64(reply[at+1])<<32, uint64(reply[at+2])|uint64(reply[at+3])<<32
			if data := req.Facts[i].Data.Hi - req.Facts[i].Data.Lo; size == 0 || offset > data || size > data-offset {
				break
			}
			next = i + 1
			cl.addSurfaceOp(recordResource(req, i), uint16(reply[off+1]), work, offset, size, h&asyncFlag != 0)
			off += 1 + h.Len()
			continue
		}
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
				r, work = p.MetadataInit(), initWork(h)
			}
			// The record naming the surface (CheckPacket found one).
			var hr ddi.HResource
			if i := surfaceFact(req.Facts, r.Surface, next); i >= 0 {
				hr, next = recordResource(req, i), i+1
			}
			cl.addSurfaceOp(hr, r.Surface, work, r.Offset, r.Size, p.Async())
		}
	}
	return nil
}

// The headers record checks without CheckPacket: a WAIT's (no flags
// are defined for it), a CACHE's and a DECOMPRESS's, which may carry
// FlagAsync, and a METADATA_INIT's, which may carry initFlags.
const (
	waitHeader         = cmdbuf.Header(uint32(cmdbuf.OpWait) | 2<<8)
	cacheHeader        = cmdbuf.Header(uint32(cmdbuf.OpCache) | 6<<8)
	decompressHeader   = cmdbuf.Header(uint32(cmdbuf.OpDecompress) | 5<<8)
	metadataInitHeader = cmdbuf.Header(uint32(cmdbuf.OpMetadataInit) | 6<<8)
	asyncFlag          = cmdbuf.Header(uint32(cmdbuf.FlagAsync) << 24)
	initFlags          = cmdbuf.Header(uint32(cmdbuf.FlagAsync|cmdbuf.FlagPlain|cmdbuf.FlagDiscard) << 24)
)

// surfaceFact is the index of a fact whose texture has surface s (not
// 0), searched from fact next on (most replies name the surfaces in the
// records' order), or -1.
func surfaceFact(facts []translator.Fact, s uint16, next int) int {
	if s == 0 {
		return -1
	}
	if next >= len(facts) {
		next = 0
	}
	for i := next; i < len(facts); i++ {
		if facts[i].Surface == uint32(s) {
			return i
		}
	}
	for i := 0; i < next; i++ {
		if facts[i].Surface == uint32(s) {
			return i
		}
	}
	return -1
}

// initWork is the work a METADATA_INIT's flags say.
func initWork(h cmdbuf.Header) compressionWork {
	plain, discard := h.Flags()&cmdbuf.FlagPlain != 0, h.Flags()&cmdbuf.FlagDiscard != 0
	switch {
	case plain && discard:
		return workInitDiscard
	case plain:
		return workInitPlain
	}
	return workInitClear
}

// addSurfaceOp adds the call's surface operation on resource hr.
func (cl *CommandList) addSurfaceOp(hr ddi.HResource, surface uint16, work compressionWork, offset, size uint64, async bool) {
	cl.ops = append(cl.ops, SurfaceOp{})
	// Field by field, as in plan.emit.
	o := &cl.ops[len(cl.ops)-1]
	o.Resource, o.Surface, o.Work = hr, surface, work.String()
	o.Offset, o.Size, o.Async = offset, size, async
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
