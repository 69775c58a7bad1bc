package umd

import (
	"cmp"
	"slices"
	"sync"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/umd/translator"
)

// Translation. Each barrier field is derived independently and the
// results merged over the call (docs/translation.md "The call is the unit"):
//
//   - SyncBefore → the stages to drain; SyncAfter → the stages to hold
//     (Stages: umbrellas expanded, 000 "Umbrella Synchronization Scopes").
//   - AccessBefore → the clients that wrote (only writes need flushing;
//     COMMON means every write the layout allows, 000 "Access
//     Transitions"); AccessAfter → the clients that will read or write
//     (COMMON: every access the layout allows; NO_ACCESS: nobody yet, so
//     the writes go as far as the caches every client of the engine shares,
//     where a resource aliasing the memory will find them, 000 "Resource
//     Aliasing", errata E-NO-ACCESS-FLUSH). For each writer and
//     later user the profile says which caches to flush and which stale
//     caches to invalidate (cacheTable); a cache both share needs nothing
//     (001 "Access transitions": "the driver might not actually flush").
//   - LayoutBefore/LayoutAfter → compression work (compression.go), which
//     reads what the writers left (their caches flush towards the BLIT
//     client first) and writes through the BLIT client (whose caches flush
//     towards the later users after it).
//   - Split barriers: the begin does the cache and compression work in the
//     background (BLIT stage) and signals an event; the end waits for the
//     event, holding only SyncAfter (000 "Split Barriers").
//   - Ranged barriers: the byte range of an atomic copy, made visible to
//     the copy (ACQUIRE) or from it (RELEASE).

// plan accumulates one Barrier call.
type plan struct {
	now  planPart        // the non-split barriers
	hold ddi.BarrierSync // their SyncAfters (Stages at emission: it distributes over OR)

	split      planPart // the split begins: async work, then an event
	splitBegin bool
	sEvent     uint32

	ends   []splitEnd
	ranged []rangedOp
}

// planPart is the merged work of barriers that run together: the syncs
// whose stages to drain, the caches to flush and invalidate before the
// compression work and to flush after it, over a span, the metadata a
// METADATA_INIT will write (every write-back cache is flushed over it
// first), and the compression work.
type planPart struct {
	drain        ddi.BarrierSync
	flush, inval cmdbuf.CacheMask
	postFlush    cmdbuf.CacheMask
	span         spans
	meta         spans
	comp         []compOp
}

// hasWork reports whether the part needs cache or compression packets
// (a write-back over metadata alone included).
func (w *planPart) hasWork() bool {
	return w.flush|w.inval|w.postFlush != 0 || len(w.comp) > 0 || len(w.meta.r) > 0
}

// metaFlush is the write-back of the metadata a METADATA_INIT will write,
// if the part's own CACHE does not already cover it: every write-back
// cache, over the metadata alone.
func (w *planPart) metaFlush(writeBack cmdbuf.CacheMask) (cmdbuf.CacheMask, bool) {
	if len(w.meta.r) == 0 {
		return 0, false
	}
	if w.flush&writeBack == writeBack && !slices.ContainsFunc(w.meta.r, func(m span) bool { return !w.span.covers(m.lo, m.hi) }) {
		return 0, false
	}
	return writeBack, true
}

// spans are the byte ranges a part's cache operations are limited to: one
// per range its barriers name, in address order, merged where they
// overlap or touch. A cache operation never covers memory the barriers do
// not name: flushing a line of another resource that unordered work is
// writing can write older data over newer (errata E-CACHE-RANGES).
type spans struct {
	r     []span
	whole bool // some barrier needs whole caches (a global barrier)
}

func (s *spans) add(lo, hi uint64) {
	if n := len(s.r); n == 0 || s.r[n-1].hi < lo { // past them all: calls often name resources in address order
		s.r = append(s.r, span{lo: lo, hi: hi})
		return
	}
	i, _ := slices.BinarySearchFunc(s.r, lo, func(r span, lo uint64) int { return cmp.Compare(r.hi, lo) })
	j := i
	for j < len(s.r) && s.r[j].lo <= hi {
		lo, hi = min(lo, s.r[j].lo), max(hi, s.r[j].hi)
		j++
	}
	if i == j {
		s.r = slices.Insert(s.r, i, span{lo: lo, hi: hi})
		return
	}
	s.r[i] = span{lo: lo, hi: hi}
	s.r = slices.Delete(s.r, i+1, j)
}

func (s *spans) reset() { s.r, s.whole = s.r[:0], false }

// covers reports whether one range (or whole caches) holds [lo, hi).
func (s *spans) covers(lo, hi uint64) bool {
	if s.whole {
		return true
	}
	for _, r := range s.r {
		if r.lo <= lo && hi <= r.hi {
			return true
		}
	}
	return false
}

// each calls f with the range of every cache operation the spans need:
// whole caches (0, 0), or the ranges, neighbours joined where the memory
// between them holds no other resource, so one operation serves both.
func (s *spans) each(d *addrIndex, f func(addr, size uint64)) {
	if s.whole || len(s.r) == 0 {
		f(0, 0)
		return
	}
	// i is the first resource that starts at or after the gap: the gaps
	// rise, so each search goes on from where the last one ended, and a
	// call's resources are often neighbours, so it steps before it
	// searches.
	starts := d.starts
	lo, hi, i := s.r[0].lo, s.r[0].hi, 0
	for k := 1; k < len(s.r); k++ {
		next := &s.r[k]
		for n := 0; i < len(starts) && starts[i] < hi; i++ {
			if n++; n > 4 {
				i = d.firstAtOrAfter(hi, i)
				break
			}
		}
		if i < len(starts) && starts[i] < next.lo || d.reachesInto(lo, hi, i) {
			f(lo, hi-lo)
			lo = next.lo
		}
		hi = next.hi
	}
	f(lo, hi-lo)
}

// memory is what translating a call needs to know of the memory beyond
// the resources its barriers name: the device's resources (under its
// lock), or a translation request's residents (Reference). A concrete
// type: the cache-range callback passed through an interface would move
// the emitter's state to the heap.
type memory struct {
	ix *addrIndex
	mu *sync.RWMutex // nil: nothing else changes ix
	// aliased are a request's AliasedMeta (ebref found them on the
	// device, which the translator does not see whole).
	aliased []translator.Range
	// lazy, if set, are the request's residents ix indexes, indexed when
	// a cache operation first walks them (most calls never do).
	lazy *residents
}

// aliasedMetadata adds to s the metadata of every surface whose metadata
// another resource's memory may overlap.
func (m *memory) aliasedMetadata(s *spans) {
	if m.mu == nil {
		for _, r := range m.aliased {
			s.add(r.Lo, r.Hi)
		}
		return
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	m.ix.aliasedMetadata(s)
}

// eachRange is s.each over memory's resources.
func (m *memory) eachRange(s *spans, f func(addr, size uint64)) {
	if m.mu != nil {
		m.mu.RLock()
		defer m.mu.RUnlock()
	}
	if m.lazy != nil {
		m.lazy.index()
	}
	s.each(m.ix, f)
}

// span is a byte range of GPU memory a cache operation is limited to; an
// empty one stands for all of it (whole caches).
type span struct {
	lo, hi uint64
}

func (s *span) add(lo, hi uint64) {
	if s.lo == 0 && s.hi == 0 {
		s.lo, s.hi = lo, hi
		return
	}
	s.lo, s.hi = min(s.lo, lo), max(s.hi, hi)
}

// cacheRange is the CACHE packet's range: none (whole caches) for an
// empty span.
func (s span) cacheRange() (addr, size uint64) {
	if s.hi <= s.lo {
		return 0, 0
	}
	return s.lo, s.hi - s.lo
}

// compOp is one DECOMPRESS or METADATA_INIT.
type compOp struct {
	res          *Resource // its Handle and Surface
	work         compressionWork
	offset, size uint64
}

// splitEnd is the end half of a split: wait for the begin's event (0: the
// begin was in another command list, so wait for all earlier work; errata
// E-SPLIT-ACROSS-LISTS) holding the end's SyncAfter.
type splitEnd struct {
	event uint32
	hold  cmdbuf.StageMask
}

// rangedOp is one half of a 0094 ranged barrier: an acquire or a release
// of its bytes.
type rangedOp struct {
	release bool
	span    span
}

// reset empties the plan for the next call, keeping its slices' storage.
// Field by field: assigning a zero plan and putting the slices back
// copied the struct twice (a buffer barrier 116-122 ns before, 100-104
// after).
func (p *plan) reset() {
	p.hold = 0
	p.now.reset()
	if p.splitBegin { // only a split begin adds to the split part (planAccess)
		p.split.reset()
	}
	p.splitBegin, p.sEvent = false, 0
	p.ends, p.ranged = p.ends[:0], p.ranged[:0]
}

func (w *planPart) reset() {
	w.drain, w.flush, w.inval, w.postFlush = 0, 0, 0, 0
	w.span.reset()
	w.meta.reset()
	w.comp = w.comp[:0]
}

// writersReaders are the clients whose writes a barrier's AccessBefore names
// (none for NO_ACCESS), readers those of its other accesses; compat is
// what COMMON stands for.
func writersReaders(a, compat ddi.BarrierAccess) (writers, readers clientMask) {
	if a == ddi.AccessCommon {
		a = compat
	}
	return clientRoles(a)
}

// users are the clients a barrier's AccessAfter names; toMemory says the
// access is NO_ACCESS.
func users(a, compat ddi.BarrierAccess) (m clientMask, toMemory bool) {
	switch a {
	case ddi.AccessNoAccess:
		return 0, true
	case ddi.AccessCommon:
		a = compat
	}
	return clientsOf(a), false
}

// accessCaches is the cache work of one barrier's accesses on the engine
// (its bytes are the caller's): w are the clients whose writes AccessBefore
// names, r those it names as readers, u the users after it (toMemory:
// NO_ACCESS). Compression work (work) reads through the BLIT client what
// the writers left and rewrites the surface under the caches of c, the
// clients the layout before allowed; post is then what it flushes for the
// users.
//
//   - The writes must reach the caches every user looks in: flush the
//     writers' caches short of them (cacheTable.between). With NO_ACCESS,
//     up to the caches every client of the engine shares; the end of the
//     submission writes back the rest (errata E-NO-ACCESS-FLUSH).
//   - A reader that shares a write-back cache with an earlier writer (depth
//     reads after depth writes, through DEPTH) may hold that writer's data,
//     which the barrier that made it visible to the reader had no reason to
//     write back; the users need it: flush the readers' write-back caches
//     the same way (errata E-READER-FLUSH). Read-only caches hold nothing
//     to write.
//   - The users' caches the writes never passed may hold stale copies:
//     invalidate them. With no writer named, AccessBefore names only the
//     accesses since the subresource's previous barrier, which may have
//     made writes visible to other clients alone: invalidate every user's
//     private cache, those the engine's writers do not all write through
//     (errata E-ACQUIRE-INVALIDATE).
//   - Compression work reads what the writers left and writes through
//     BLIT: the writers' caches flush towards BLIT's path, BLIT's stale
//     caches are invalidated, and after it BLIT's caches flush towards the
//     users, whose stale caches are invalidated. It rewrote the surface
//     under every cache that may still hold its old bytes, those of the
//     clients the layout before allowed (c), not only the users': a later
//     barrier from NO_ACCESS (a sequential one) names no writer and
//     invalidates nothing (errata E-TRANSITION-INVALIDATE).
func (t *cacheTable) accessCaches(w, r, u, c clientMask, toMemory, work bool) (flush, inval, post cmdbuf.CacheMask) {
	wp, up := t.of(w), t.of(u)
	reach := up.every
	if toMemory {
		reach = t.written
	}
	flush = (wp.anyOf | t.of(r).anyOf&t.writeBack) &^ reach
	stale := wp.every
	if w == 0 {
		stale = t.written
	}
	inval = up.anyOf &^ stale
	if work {
		b := t.path[cmdbuf.ClientBlit]
		flush |= wp.anyOf &^ b
		inval |= b&^wp.every | up.anyOf&^b | t.of(c).anyOf&^b
		post = b &^ reach
	}
	return flush, inval, post
}

var blitClient = clients(cmdbuf.ClientBlit)

// planGlobal translates a global barrier: every resource, whole caches.
func planGlobal(t *cacheTable, m *memory, p *plan, g *ddi.GlobalBarrier) {
	w, rd := writersReaders(g.AccessBefore, allAccesses)
	u, toMem := users(g.AccessAfter, allAccesses)
	f, i, _ := t.accessCaches(w, rd, u, 0, toMem, false)
	if g.AccessAfter == ddi.AccessCommon && w != 0 {
		// COMMON after is every access, the compression unit's too: the
		// clear, copy or discard that initialises the metadata of a
		// texture placed over other resources' memory (a legacy aliasing
		// barrier's after-resource, whose layout nothing moves) writes it
		// to memory past the caches (hardware.md "Compression"). A line
		// this barrier leaves dirty over that metadata would be written
		// back over it later, so the caches are written back there as
		// before a METADATA_INIT (errata E-LEGACY-ALIASING).
		m.aliasedMetadata(&p.now.meta)
	}
	p.now.drain |= g.SyncBefore
	p.hold |= g.SyncAfter
	p.now.flush |= f
	p.now.inval |= i
	p.now.span.whole = true
}

// accessFacts are what translating one texture or buffer barrier reads:
// the barrier's syncs and accesses (g) and layouts; whether its resource
// is a texture, a compression surface, compressed in the layout after;
// the surface's metadata bytes; what COMMON stands for before and after;
// the compression work the layouts need; and the bytes [lo, hi) it names.
type accessFacts struct {
	g                         *ddi.GlobalBarrier
	texture                   bool
	layoutBefore, layoutAfter ddi.BarrierLayout
	discard                   bool
	surface, compressedAfter  bool
	meta                      span
	compatBefore, compatAfter ddi.BarrierAccess
	work                      compressionWork
	lo, hi                    uint64
}

// planAccess adds one texture or buffer barrier's sync and cache work to
// the plan: to the split-begin part, as a split end, or to the plain
// part. It returns the part the barrier's compression work goes in (nil
// for a split end, whose work was its begin's).
func planAccess(t *cacheTable, p *plan, a *accessFacts) *planPart {
	g := a.g
	if g.SyncBefore == ddi.SyncSplit {
		return nil // the end waits for its begin; recordBarrier finds which
	}
	w, rd := writersReaders(g.AccessBefore, a.compatBefore)
	if g.AccessBefore == ddi.AccessNoAccess && (!a.texture || a.layoutBefore != ddi.LayoutUndefined) {
		// From NO_ACCESS: nothing accessed the bytes since their previous
		// barrier, whose AccessAfter made the writes before it visible
		// only as far as the caches its users share, so they may still
		// sit there dirty (a UAV write, a UAV-to-UAV barrier, then this
		// one before a copy overwrites them: errata
		// E-NO-ACCESS-AFTER-BARRIER). The layout before (a buffer: every
		// access it may have) says whose caches may hold them, readers'
		// and writers' alike.
		layoutWriters, layoutReaders := clientRoles(a.compatBefore)
		rd |= layoutWriters | layoutReaders
	}
	u, toMem := users(g.AccessAfter, a.compatAfter)
	var layoutClients clientMask
	if a.work != workNone {
		layoutClients = clientsOf(a.compatBefore)
	}
	flush, inval, post := t.accessCaches(w, rd, u, layoutClients, toMem, a.work != workNone)
	part := &p.now
	if g.SyncAfter == ddi.SyncSplit {
		part, p.splitBegin = &p.split, true
	} else {
		p.hold |= g.SyncAfter
	}
	// From UNDEFINED into a compressed layout without DISCARD, the
	// application's first full clear or copy initialises the metadata,
	// with writes that also reach memory past the caches: the same
	// write-back must come first (found by the random programs on
	// aliased memory; E-METADATA-WRITEBACK).
	initByWork := a.texture && a.layoutBefore == ddi.LayoutUndefined && !a.discard &&
		a.surface && a.layoutAfter != ddi.LayoutUndefined && a.compressedAfter
	if w := a.work; w == workInitPlain || w == workInitClear || w == workInitDiscard || initByWork {
		// Metadata is written in memory, past the caches: what a cache
		// still holds of the surface's metadata bytes (the writes of a
		// resource that used the memory before) must reach memory first,
		// or its later write-back replaces the new metadata (errata
		// E-METADATA-WRITEBACK). Only the metadata: stale lines of the
		// data are overwritten in the caches by the resource's own writes
		// and never reach memory after them (E-NO-ACCESS-FLUSH).
		part.meta.add(a.meta.lo, a.meta.hi)
	}
	part.drain |= g.SyncBefore
	part.flush |= flush
	part.inval |= inval
	part.postFlush |= post
	if flush|inval|post != 0 || a.work != workNone {
		part.span.add(a.lo, a.hi)
	}
	return part
}

// recordBarrier updates the list's knowledge of the subresources a texture
// or buffer barrier names, and pairs split halves: a split begin's event
// is the call's (the request's SplitEvent, taken on the first), and a
// split end returns the event of the begin it ends.
func (cl *CommandList) recordBarrier(tg *target) (endEvent uint32) {
	g := &tg.g
	// Field by field: a literal is built aside and copied in overlapping
	// pieces, which stall on the stores just made to it.
	var m barrierMark
	m.g, m.lb, m.la = g, tg.layoutBefore, tg.layoutAfter
	m.syncAfter, m.translated = ddi.ExpandSync(g.SyncAfter)|g.SyncAfter, cl.translated
	if g.SyncAfter == ddi.SyncSplit {
		if cl.req.SplitEvent == 0 {
			cl.nextEvent++
			cl.req.SplitEvent = cl.nextEvent
		}
		m.split = splitKey{event: cl.req.SplitEvent, layoutBefore: m.lb, layoutAfter: m.la, accessBefore: g.AccessBefore, accessAfter: g.AccessAfter}
	}
	t := cl.trackAt(tg.r, tg.entry)
	if t.uniform && tg.whole { // the common case: one state, no call through each
		m.record(&t.all)
	} else {
		t.each(tg.sel, tg.whole, m.record)
	}
	return m.endEvent
}

// barrierMark is what a texture or buffer barrier leaves on each
// subresource it names: its syncs and accesses, its layouts, its SyncAfter
// with umbrellas expanded, the key of the split it begins; and, for the end
// of a split, the event of the begin it ends, found as it goes (endSeen),
// 0 when the subresources were begun in different calls.
type barrierMark struct {
	g         *ddi.GlobalBarrier
	lb, la    ddi.BarrierLayout
	syncAfter ddi.BarrierSync
	split     splitKey
	endEvent  uint32
	endSeen   bool
	// translated: the runtime's translation of a legacy barrier set the
	// layout (CommandList.TranslatedBarrier).
	translated bool
}

// record leaves the mark on one subresource.
func (m *barrierMark) record(s *subState) {
	g := m.g
	foreign := false
	if g.SyncBefore == ddi.SyncSplit {
		foreign = s.split.event == 0
		if !m.endSeen {
			m.endEvent, m.endSeen = s.split.event, true
		} else if s.split.event != m.endEvent {
			m.endEvent = 0 // begun in different calls: wait for all background work
		}
		s.foreignEnd = s.foreignEnd || foreign
		s.foreignCommon = s.foreignCommon || foreign && (m.lb == ddi.LayoutCommon || m.la == ddi.LayoutCommon)
		s.split = splitKey{}
	}
	switch {
	case g.SyncBefore == ddi.SyncSplit && foreign:
		s.note(leadSplitEnd)
	case g.SyncBefore == ddi.SyncNone:
		s.note(leadSyncNoneFrom)
	default:
		s.note(leadBarrier)
	}
	s.barriered = true
	s.trailingAccess = false
	if m.lb != ddi.LayoutUndefined || m.la != ddi.LayoutUndefined {
		if !s.known {
			s.known, s.first, s.firstLegacy = true, m.lb, m.translated
			if foreign {
				// The begin, in an earlier list, already moved the
				// subresource to LayoutAfter: that is what it must be in.
				s.first = m.la
			}
		}
		s.layout, s.legacy = m.la, m.translated
	}
	s.syncAfter = m.syncAfter
	s.ended = g.SyncAfter == ddi.SyncNone
	if g.SyncAfter == ddi.SyncSplit {
		s.split = m.split
	}
}

// planRanged translates a 0094 ranged barrier: exactly its bytes (all of
// memory for a NULL resource), acquired, released, or with neither flag
// both (errata E-RANGED-FLAGS).
func planRanged(p *plan, flags ddi.RangedBarrierFlags, s span) {
	acquire, release := flags&ddi.RangedBarrierFlagAcquire != 0, flags&ddi.RangedBarrierFlagRelease != 0
	if acquire || !release {
		p.ranged = append(p.ranged, rangedOp{span: s})
	}
	if release || !acquire {
		p.ranged = append(p.ranged, rangedOp{release: true, span: s})
	}
}

// allClients are every client that can access memory (for ranged barriers,
// whose accesses the DDI does not name).
var allClients = clientMask(1<<cmdbuf.NumClients - 1)

// emit appends the plan's packets to words, on an engine whose caches are
// t, with the faults f, in memory m.
func (p *plan) emit(words []uint32, t *cacheTable, f *Faults, m *memory) []uint32 {
	wait := func(drain, hold cmdbuf.StageMask) {
		if f.NarrowDrain && drain != 0 {
			drain &= -drain
		}
		if f.DropWait || drain == 0 || hold == 0 {
			return
		}
		words = cmdbuf.AppendWait(words, cmdbuf.Wait{Drain: drain, Hold: hold})
	}
	cacheAt := func(flush, inval cmdbuf.CacheMask, addr, size uint64, async bool) {
		flush |= inval & t.writeBack // invalidating a write-back cache writes it back first
		if f.DropFlush {
			flush = 0
		}
		if f.DropInvalidate {
			inval = 0
		}
		if flush|inval == 0 {
			return
		}
		words = cmdbuf.AppendCache(words, cmdbuf.CacheOp{Flush: flush, Invalidate: inval, Addr: addr, Size: size}, async)
	}
	cache := func(flush, inval cmdbuf.CacheMask, s *spans, async bool) {
		switch {
		case flush|inval == 0:
		case len(s.r) == 1 && !s.whole: // no neighbour to join: no walk of the address index (spans.each)
			cacheAt(flush, inval, s.r[0].lo, s.r[0].hi-s.r[0].lo, async)
		default:
			m.eachRange(s, func(addr, size uint64) { cacheAt(flush, inval, addr, size, async) })
		}
	}
	compress := func(comp []compOp, async bool) {
		for _, op := range comp {
			region := cmdbuf.SurfaceRegion{Surface: op.res.Surface, Offset: op.offset, Size: op.size}
			switch op.work {
			case workDecompress:
				if f.DropDecompress {
					continue
				}
				words = cmdbuf.AppendDecompress(words, region, async)
			case workInitPlain, workInitClear, workInitDiscard:
				if f.DropMetadataInit {
					continue
				}
				region.Plain = op.work != workInitClear
				region.Discard = op.work == workInitDiscard
				words = cmdbuf.AppendMetadataInit(words, region, async)
			}
		}
	}

	// The plain barriers: cache and compression work runs on the CP after
	// the drain; without it, the wait holds only SyncAfter's stages.
	if now := &p.now; now.hasWork() {
		wait(Stages(now.drain), stageMask(cmdbuf.StageCP))
		cache(now.flush, now.inval, &now.span, false)
		if len(now.meta.r) > 0 { // metaFlush's first test, without the call
			if m, ok := now.metaFlush(t.writeBack); ok && !f.DropMetadataWriteback {
				cache(m, 0, &now.meta, false)
			}
		}
		if len(now.comp) > 0 { // most barriers have none: no calls
			compress(now.comp, false)
		}
		if now.postFlush != 0 {
			cache(now.postFlush, 0, &now.span, false)
		}
	} else {
		wait(Stages(now.drain), Stages(p.hold))
	}

	// Split begins: the work runs in the background (BLIT) after their
	// drain; the event marks its end.
	if s := &p.split; p.splitBegin {
		blit := stageMask(cmdbuf.StageBlit)
		if s.hasWork() {
			wait(Stages(s.drain), blit)
			cache(s.flush, s.inval, &s.span, true)
			if m, ok := s.metaFlush(t.writeBack); ok && !f.DropMetadataWriteback {
				cache(m, 0, &s.meta, true)
			}
			if len(s.comp) > 0 {
				wait(blit, blit) // compression reads what the flush wrote
				compress(s.comp, true)
			}
			if s.postFlush != 0 {
				wait(blit, blit)
				cache(s.postFlush, 0, &s.span, true)
			}
			words = cmdbuf.AppendEventSignal(words, cmdbuf.Event{ID: p.sEvent, Stages: blit})
		} else {
			words = cmdbuf.AppendEventSignal(words, cmdbuf.Event{ID: p.sEvent, Stages: Stages(s.drain)})
		}
	}
	// Split ends: wait for the begin's event, holding only SyncAfter; an
	// end whose begin is in another command list waits for everything.
	for _, e := range p.ends {
		if f.DropSplitEndWait || e.hold == 0 {
			continue
		}
		if e.event == 0 {
			wait(cmdbuf.AllStages, e.hold)
			continue
		}
		words = cmdbuf.AppendEventWait(words, cmdbuf.Event{ID: e.event, Stages: e.hold})
	}
	// Ranged barriers: ACQUIRE waits for all earlier work and makes the
	// range visible to the atomic copy; RELEASE waits for the copy and makes
	// its writes visible to everyone. The call's ranged barriers share one
	// wait (for everything if any acquires); each gets a cache operation on
	// exactly its bytes.
	// Without cache work the wait holds only the copy (after acquires) or
	// everything (after a release, whose readers are anyone).
	if len(p.ranged) > 0 {
		copier := clients(cmdbuf.ClientCopy)
		acqFlush, acqInval := t.between(allClients&^blitClient, copier)
		relFlush, relInval := t.between(copier, allClients)
		drain, hold := stageMask(cmdbuf.StageCopy), stageMask(cmdbuf.StageCopy)
		caches := false
		for _, r := range p.ranged {
			if r.release {
				hold = cmdbuf.AllStages
				caches = caches || relFlush|relInval != 0
			} else {
				drain = cmdbuf.AllStages
				caches = caches || acqFlush|acqInval != 0
			}
		}
		if caches && !f.DropRangedFlush {
			hold = stageMask(cmdbuf.StageCP)
		}
		wait(drain, hold)
		for _, r := range p.ranged {
			if f.DropRangedFlush {
				break
			}
			addr, size := r.span.cacheRange()
			if r.release {
				cacheAt(relFlush, relInval, addr, size, false)
			} else {
				cacheAt(acqFlush, acqInval, addr, size, false)
			}
		}
	}
	return words
}

func (w compressionWork) String() string {
	return [...]string{"none", "DECOMPRESS", "METADATA_INIT plain", "METADATA_INIT clear", "METADATA_INIT discard"}[w]
}
