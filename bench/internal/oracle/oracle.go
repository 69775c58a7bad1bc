// Package oracle computes the least synchronisation a recording needs on a
// hardware profile: it replaces a submission's waits, cache operations and
// surface operations with the ones its work's accesses need, nothing else.
//
// It works on packets, between the driver and the machine (a
// hwmodel.Rewriter), and knows no D3D12: it keeps every WORK packet as
// recorded (their compression bits are the layouts' effect), every MARKER
// and fence, and drops WAIT, CACHE, DECOMPRESS, METADATA_INIT and the
// split-barrier events. Before each WORK it puts back only
//
//   - a WAIT draining the stages of earlier ops the work conflicts with
//     (read-after-write, write-after-read, write-after-write) that nothing
//     orders before it yet, holding only the work's stage — or the command
//     processor when a cache or surface operation must run after the drain;
//   - a CACHE flush of the caches outside the work's path that hold dirty
//     bytes it reads (or bytes it overwrites through another cache, whose
//     later write-back would land over its own), and an invalidate of the
//     caches on its path that hold stale copies, over exactly those bytes;
//   - a DECOMPRESS of the compressed or cleared blocks a client that does
//     not decode them reads or partly writes, a METADATA_INIT (plain,
//     discarding) of those it overwrites whole or whose metadata nothing
//     defined where a decoding access needs it.
//
// It follows the machine's rules (hardware.md "Ordering", "Caches",
// "Compression") and state: it reads each surface's metadata when the
// submission starts, and every earlier submission of the engine has
// completed and left its caches empty by then. It is checked by running:
// bench requires its runs hazard-free with the reference bytes, and shows
// each kind of packet it emits is needed by dropping it.
//
// Limits: a submission must not CALL other buffers, and it is computed per
// engine (other engines' work reaches it only through fences, which it
// keeps).
//
// This package imports cmdbuf and hwmodel, and nothing else of ebref: the
// oracle works on packets, below D3D12.
package oracle

import (
	"fmt"
	"slices"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hwmodel"
)

// Edit, when not nil, sees every packet the oracle emits, numbered from 0
// through the run, and returns the words to emit instead (nil: none). The
// oracle's state goes on as if the packet ran. It is a test's way to show
// each packet, and each stage and cache a packet names, is needed.
type Edit func(n int, p []uint32) []uint32

// Rewriter returns the oracle as a machine's Rewriter; edit may be nil.
func Rewriter(edit Edit) hwmodel.Rewriter {
	n := 0
	return func(e *hwmodel.Engine, bufs []*cmdbuf.Buffer) ([]*cmdbuf.Buffer, error) {
		b := newBatch(e, edit, &n)
		out := make([]*cmdbuf.Buffer, len(bufs))
		for i, in := range bufs {
			b.out = cmdbuf.NewBuffer(0)
			b.out.SetName(in.Name())
			if err := in.Walk(b.packet); err != nil {
				return nil, fmt.Errorf("buffer %d (%s): %w", i, in.Name(), err)
			}
			out[i] = b.out
		}
		return out, nil
	}
}

// cached is what a cache holds of a byte range: clean or dirty (and whose
// write), or stale — an older copy of bytes an op wrote elsewhere.
type cached struct {
	dirty bool
	by    op // the writer of dirty bytes, or of what made them stale
	stale bool
	// filler is the read that filled clean or stale bytes: an op not
	// ordered after it does not see what it filled
	filler op
}

// readers are the ops that read a byte range since it was last written.
type readers []op

// surface is a compression surface's blocks as the submission has left them.
type surface struct {
	base, size uint64
	meta       uint64 // where its metadata lies: two bytes a block
	codes      []byte
}

// batch is the oracle's state through one submission.
type batch struct {
	m      *hwmodel.Machine
	prof   *hwmodel.Profile
	kind   hwmodel.EngineKind
	edit   Edit
	n      *int // the oracle's packets so far, for edit
	out    *cmdbuf.Buffer
	words  []uint32
	ord    order
	writes extents[op]
	reads  extents[readers]
	caches [cmdbuf.NumCaches]*extents[cached] // nil: the engine does not use it
	surfs  map[uint16]*surface
}

func newBatch(e *hwmodel.Engine, edit Edit, n *int) *batch {
	m := e.Machine()
	b := &batch{m: m, prof: m.Profile(), kind: e.Kind(), edit: edit, n: n, surfs: map[uint16]*surface{}}
	for c := range cmdbuf.NumClients {
		for _, k := range b.prof.Path(b.kind, c) {
			if b.caches[k] == nil {
				b.caches[k] = &extents[cached]{}
			}
		}
	}
	return b
}

// access is one byte range an op reads or writes, through a client.
type access struct {
	lo, hi uint64
	write  bool
	client cmdbuf.Client
	// meta: it changes only what the bytes mean (a METADATA_INIT): it is
	// ordered after earlier writes, and after the reads that used the
	// metadata, and moves no data
	meta bool
	// decodes: it goes through compression (and its client decodes), so
	// it uses the metadata
	decodes bool
	// direct: it goes to memory past the caches (a surface's metadata,
	// which the compression unit writes there)
	direct bool
}

// path is the caches an access goes through, nearest first.
func (b *batch) path(a access) []cmdbuf.Cache {
	if a.direct {
		return nil
	}
	return b.prof.Path(b.kind, a.client)
}

// packet handles one packet of the recording.
func (b *batch) packet(_ int, p cmdbuf.Packet, err error) error {
	if err != nil {
		return err
	}
	switch p.Op() {
	case cmdbuf.OpWait, cmdbuf.OpCache, cmdbuf.OpDecompress, cmdbuf.OpMetadataInit,
		cmdbuf.OpEventSignal, cmdbuf.OpEventWait, cmdbuf.OpChain:
		return nil // the recording's synchronisation: replaced
	case cmdbuf.OpCall:
		return fmt.Errorf("dword %d: the oracle does not follow CALLs", p.Offset)
	case cmdbuf.OpWork:
		return b.work(p)
	}
	b.keep(p)
	return nil
}

// keep copies a packet of the recording.
func (b *batch) keep(p cmdbuf.Packet) {
	b.words = append(append(b.words[:0], uint32(p.Header)), p.Payload...)
	b.out.Append(b.words)
}

// emit adds a packet of the oracle's own.
func (b *batch) emit(f func([]uint32) []uint32) {
	b.words = f(b.words[:0])
	if b.edit != nil {
		b.words = b.edit(*b.n, b.words)
	}
	*b.n++
	b.out.Append(b.words)
}

// work puts before a WORK what its accesses need, then the WORK.
func (b *batch) work(p cmdbuf.Packet) error {
	w := p.Work()
	accs := make([]access, 0, w.NumAccesses)
	var surf []surfaceOp
	var reads []cmdbuf.Access
	for i := range w.NumAccesses {
		if a := p.Access(i); a.Dir == cmdbuf.DirRead {
			reads = append(reads, a)
		}
	}
	for i := range w.NumAccesses {
		a := p.Access(i)
		acc := access{lo: a.Addr, hi: a.End(), write: a.Dir != cmdbuf.DirRead, client: a.Client,
			decodes: a.Surface != 0 && b.aware(a)}
		if a.Surface != 0 {
			s, err := b.surface(a.Surface)
			if err != nil {
				return err
			}
			surf = append(surf, s.needs(a, b.aware(a), reads)...)
			if acc.write && b.aware(a) && s.partial(acc.lo, acc.hi) {
				// A compressing write of part of a block decodes the rest
				// first and stores the whole block.
				acc.lo, acc.hi = s.blockLo(acc.lo), s.blockHi(acc.hi)
				accs = append(accs, access{lo: acc.lo, hi: acc.hi, client: a.Client, decodes: true})
			}
		}
		accs = append(accs, acc)
		if a.Surface != 0 && acc.write && b.aware(a) {
			// It compresses its blocks: their metadata is written in
			// memory, where a dirty line written back later would land
			// over it.
			accs = append(accs, b.surfs[a.Surface].metaWrite(a, a.Client)...)
		}
	}
	if len(surf) > 0 {
		if err := b.surfaceOps(merged(surf)); err != nil {
			return fmt.Errorf("dword %d: %w", p.Offset, err)
		}
	}
	var n needs
	for _, a := range accs {
		b.need(&n, w.Stage, a)
	}
	b.sync(&n, w.Stage)
	seq := b.ord.issue(w.Stage)
	b.keep(p)
	for _, a := range accs {
		b.did(op{seq: seq, stage: w.Stage, client: a.client, decodes: a.decodes}, a)
	}
	for i := range w.NumAccesses {
		if a := p.Access(i); a.Dir != cmdbuf.DirRead && a.Surface != 0 {
			b.surfs[a.Surface].wrote(a, b.aware(a))
		}
	}
	return nil
}

// aware reports whether an access goes through compression and its client
// decodes it on this engine.
func (b *batch) aware(a cmdbuf.Access) bool { return a.Compressed && b.prof.Aware[b.kind][a.Client] }

// surface returns a surface's state, read from the machine on first use.
func (b *batch) surface(id uint16) (*surface, error) {
	if s := b.surfs[id]; s != nil {
		return s, nil
	}
	sb, ok := b.m.Surface(id)
	if !ok {
		return nil, fmt.Errorf("surface %d is not defined", id)
	}
	s := &surface{base: sb.Base, size: sb.Size, meta: sb.Meta, codes: sb.Codes}
	b.surfs[id] = s
	return s, nil
}

// needs is what must run before an op.
type needs struct {
	after []op // conflicting ops not yet ordered before it
	// writers whose bytes a cache operation must see, not yet ordered
	// before it
	cpAfter []op
	flush   [cmdbuf.NumCaches]span
	inval   [cmdbuf.NumCaches]span
	// stale copies the reader may hit: an invalidate, if the wait orders
	// it after their filler
	stale []staleCopy
}

// span is the smallest line-aligned range covering some bytes.
type span struct{ lo, hi uint64 }

func lineLo(a uint64) uint64 { return a &^ (hwmodel.LineSize - 1) }
func lineHi(a uint64) uint64 { return (a + hwmodel.LineSize - 1) &^ (hwmodel.LineSize - 1) }

func (s *span) add(lo, hi uint64) {
	lo, hi = lineLo(lo), lineHi(hi)
	if s.hi == 0 {
		s.lo, s.hi = lo, hi
		return
	}
	s.lo, s.hi = min(s.lo, lo), max(s.hi, hi)
}

func (n *needs) cacheWork() bool {
	for k := range n.flush {
		if n.flush[k].hi != 0 || n.inval[k].hi != 0 {
			return true
		}
	}
	return false
}

// need adds what an access by an op about to issue in stage s needs.
func (b *batch) need(n *needs, s cmdbuf.Stage, a access) {
	path := b.path(a)
	// Earlier writes of these bytes: a reader and a writer both follow
	// them (a writer unless the back end retires both in order).
	b.writes.each(a.lo, a.hi, func(_, _ uint64, w op) {
		if !b.ord.ordered(w, s, a.client) {
			n.after = append(n.after, w)
		}
	})
	if a.write {
		b.reads.each(a.lo, a.hi, func(_, _ uint64, rs readers) {
			for _, r := range rs {
				if (!a.meta || r.decodes) && !b.ord.ordered(r, s, a.client) {
					n.after = append(n.after, r)
				}
			}
		})
	}
	if a.meta {
		return
	}
	// Dirty bytes in a cache off the path: a reader cannot see them, and
	// a writer's bytes could be overwritten by theirs, written back
	// whenever that cache is (caches write back in no fixed order).
	for k, c := range b.caches {
		if c == nil || slices.Contains(path, cmdbuf.Cache(k)) {
			continue
		}
		c.each(a.lo, a.hi, func(lo, hi uint64, v cached) {
			if v.dirty {
				b.flushUpTo(n, cmdbuf.Cache(k), path, lo, hi, v.by)
			}
		})
	}
	if a.write {
		return
	}
	// Stale copies on the reader's own path, if it will see what filled
	// them (sync decides, once it knows the wait).
	for _, k := range path {
		b.caches[k].each(a.lo, a.hi, func(lo, hi uint64, v cached) {
			if v.stale {
				n.stale = append(n.stale, staleCopy{k, lo, hi, v.filler, a.client})
			}
		})
	}
}

// staleCopy is bytes a reader's cache holds stale, and the read that
// filled them.
type staleCopy struct {
	k      cmdbuf.Cache
	lo, hi uint64
	filler op
	client cmdbuf.Client // the reader's
}

// flushUpTo flushes cache k, and its parents until the path's, over
// [lo, hi), after the op that wrote the dirty bytes.
func (b *batch) flushUpTo(n *needs, k cmdbuf.Cache, path []cmdbuf.Cache, lo, hi uint64, by op) {
	for k != hwmodel.Memory && !slices.Contains(path, k) && b.caches[k] != nil {
		n.flush[k].add(lo, hi)
		spec, _ := b.prof.Spec(k)
		k = spec.Parent
	}
	b.follow(n, by)
}

// follow makes a cache operation wait for op w.
func (b *batch) follow(n *needs, w op) {
	if !b.sees(w) {
		n.cpAfter = append(n.cpAfter, w)
	}
}

// settle decides the wait an op issued in stage s needs, and which stale
// copies it will hit: those filled by a read the wait orders it after
// (a read it does not follow filled them for nothing it can see). Dropping
// one means a CACHE, which the command processor must wait for; that may
// order the op after more fillers, so it settles in a few rounds.
func (b *batch) settle(n *needs, s cmdbuf.Stage) (drain, hold cmdbuf.StageMask) {
	taken := make([]bool, len(n.stale))
	for {
		hold = s.Mask()
		if n.cacheWork() {
			hold = cmdbuf.StageCP.Mask()
		}
		drain = b.ord.least(append(n.after, n.cpAfter...))
		after := b.ord
		after.wait(drain, hold)
		changed := false
		for i, c := range n.stale {
			if taken[i] || !after.ordered(c.filler, s, c.client) {
				continue
			}
			taken[i], changed = true, true
			n.inval[c.k].add(c.lo, c.hi)
		}
		if !changed {
			break
		}
		// An invalidate drops whole lines: their dirty bytes go first.
		for k, sp := range n.inval {
			if sp.hi == 0 {
				continue
			}
			b.caches[k].each(sp.lo, sp.hi, func(_, _ uint64, v cached) {
				if v.dirty {
					n.flush[k].add(sp.lo, sp.hi)
					b.follow(n, v.by)
				}
			})
		}
	}
	return drain, hold
}

// sync emits the WAIT and CACHE packets n asks for before an op in stage
// s.
func (b *batch) sync(n *needs, s cmdbuf.Stage) {
	if drain, hold := b.settle(n, s); drain != 0 {
		b.emit(func(d []uint32) []uint32 { return cmdbuf.AppendWait(d, cmdbuf.Wait{Drain: drain, Hold: hold}) })
		b.ord.wait(drain, hold)
	}
	// One CACHE packet per range; caches needing the same range share it.
	type group struct {
		span
		flush, inval cmdbuf.CacheMask
	}
	var groups []group
	at := func(s span) *group {
		for i := range groups {
			if groups[i].span == s {
				return &groups[i]
			}
		}
		groups = append(groups, group{span: s})
		return &groups[len(groups)-1]
	}
	for k := range cmdbuf.NumCaches {
		if s := n.flush[k]; s.hi != 0 {
			at(s).flush |= k.Mask()
		}
		if s := n.inval[k]; s.hi != 0 {
			at(s).inval |= k.Mask()
		}
	}
	for _, g := range groups {
		c := cmdbuf.CacheOp{Flush: g.flush, Invalidate: g.inval, Addr: g.lo, Size: g.hi - g.lo}
		b.emit(func(d []uint32) []uint32 { return cmdbuf.AppendCache(d, c, false) })
		for k := range cmdbuf.NumCaches {
			if g.flush.Has(k) {
				b.flushed(k, g.lo, g.hi)
			}
		}
		for k := range cmdbuf.NumCaches {
			if g.inval.Has(k) {
				b.invalidated(k, g.lo, g.hi)
			}
		}
		b.ord.issue(cmdbuf.StageCP)
	}
}

// flushed moves cache k's dirty bytes in [lo, hi) to its parent: those of
// writes the flush is ordered after (the others land after it).
func (b *batch) flushed(k cmdbuf.Cache, lo, hi uint64) {
	spec, _ := b.prof.Spec(k)
	parent := b.cacheOrNil(spec.Parent)
	var moved []extent[cached]
	b.caches[k].update(lo, hi, func(lo, hi uint64, v cached, ok bool) (cached, bool) {
		if ok && v.dirty && b.sees(v.by) {
			moved = append(moved, extent[cached]{lo, hi, v})
			v.dirty = false
		}
		return v, ok
	})
	if parent != nil {
		for _, x := range moved {
			parent.set(x.lo, x.hi, x.v)
		}
	}
}

// invalidated drops cache k's lines in [lo, hi). (Dirty bytes there were
// flushed by the same packet, after their writers: need follows them.)
func (b *batch) invalidated(k cmdbuf.Cache, lo, hi uint64) { b.caches[k].clear(lo, hi) }

// sees reports whether a cache operation issued now is ordered after w.
func (b *batch) sees(w op) bool { return b.ord.ordered(w, cmdbuf.StageCP, cmdbuf.ClientBlit) }

func (b *batch) cacheOrNil(k cmdbuf.Cache) *extents[cached] {
	if k == hwmodel.Memory {
		return nil
	}
	return b.caches[k]
}

// did records an access of an op just issued.
func (b *batch) did(o op, a access) {
	path := b.path(a)
	if !a.write {
		b.reads.update(a.lo, a.hi, func(_, _ uint64, rs readers, _ bool) (readers, bool) {
			return addReader(rs, o), true
		})
		// A miss fills whole lines: bytes beside the access may come in
		// stale.
		for _, k := range path {
			c := b.caches[k]
			c.update(a.lo, a.hi, func(_, _ uint64, v cached, ok bool) (cached, bool) {
				if !ok {
					v.filler = o
				}
				return v, true
			})
			for _, r := range [][2]uint64{{lineLo(a.lo), a.lo}, {a.hi, lineHi(a.hi)}} {
				c.update(r[0], r[1], func(plo, phi uint64, v cached, ok bool) (cached, bool) {
					if ok {
						return v, true
					}
					return b.fill(o, k, path, plo, phi), true
				})
			}
		}
		return
	}
	b.writes.set(a.lo, a.hi, o)
	b.reads.clear(a.lo, a.hi)
	for k, c := range b.caches {
		switch {
		case c == nil:
		case len(path) > 0 && path[0] == cmdbuf.Cache(k):
			c.set(a.lo, a.hi, cached{dirty: true, by: o})
		case slices.Contains(path, cmdbuf.Cache(k)):
			// Below the writer's first cache: its write-back replaces
			// what this holds.
		default:
			c.update(a.lo, a.hi, func(_, _ uint64, v cached, ok bool) (cached, bool) {
				return cached{stale: true, by: o, dirty: v.dirty, filler: v.filler}, ok
			})
		}
	}
}

// fill is what a read by o through cache k fills into it of [lo, hi), which
// no entry holds: fresh, unless a write of those bytes, outside what o
// reads (o is ordered after, and sees, what it reads), has not reached it —
// o is not ordered after that write, or its bytes are dirty in a cache off
// o's path, and the write does not go through k.
func (b *batch) fill(o op, k cmdbuf.Cache, path []cmdbuf.Cache, lo, hi uint64) cached {
	stale := cached{filler: o}
	b.writes.each(lo, hi, func(wlo, whi uint64, w op) {
		if stale.stale || slices.Contains(b.prof.Path(b.kind, w.client), k) {
			return
		}
		hidden := !b.ord.ordered(w, o.stage, o.client)
		for x, c := range b.caches {
			if hidden {
				break
			}
			if c != nil && !slices.Contains(path, cmdbuf.Cache(x)) {
				hidden = c.any(wlo, whi, func(v cached) bool { return v.dirty })
			}
		}
		if hidden {
			stale = cached{stale: true, by: w, filler: o}
		}
	})
	return stale
}

// addReader adds o to rs, one entry per stage and client.
func addReader(rs readers, o op) readers {
	out := make(readers, 0, len(rs)+1)
	for _, r := range rs {
		if r.stage != o.stage || r.client != o.client {
			out = append(out, r)
		}
	}
	return append(out, o)
}
