package hwmodel

import (
	"encoding/binary"
	"fmt"
	"iter"

	"github.com/ebref/ebref/cmdbuf"
)

// Compression. A surface is divided into BlockSize-byte blocks; each block
// has two bytes of metadata at Meta + 2×block: a state code and, for a
// cleared block, the value its bytes read as.
//
//	MetaPlain      the block's memory holds its bytes as they are
//	MetaCompressed the block's memory holds an encoding (bytes XOR a key of
//	               their address) that only a compression-aware client decodes
//	MetaClear      the block reads as the value byte, whatever memory holds
//
// Any other code is invalid: metadata nobody initialised (fresh memory never
// holds these codes, see FillByte) or that something else overwrote.
const (
	BlockSize      = 256
	MetaPlain      = 0xa0
	MetaCompressed = 0xa1
	MetaClear      = 0xa2
)

// key is the byte a compressed block's byte at addr is XORed with: never 0,
// so a compressed byte never equals its plain value. The keys come a word at
// a time: byte addr%8 of the key word of the aligned word holding addr.
func key(addr uint64) byte { return byte(wordKey(addr>>3) >> (8 * (addr & 7))) }

// wordKey is the keys of the eight bytes of aligned word w (an address
// divided by 8): a multiplicative hash of w with every byte's low bit set.
// One multiply makes eight keys: a frame's compressed writes and decoded
// reads all go through the key stream.
func wordKey(w uint64) uint64 {
	x := (w + 0x51ed27) * keyMul
	return x ^ x>>29 | 0x0101010101010101
}

const keyMul = 0x9e3779b97f4a7c15

// encode XORs b, the bytes at addr, with their keys (it also decodes):
// byte by byte up to the first aligned word, then four words at a time
// (their keys independent), then a word at a time.
func encode(b []byte, addr uint64) {
	for len(b) > 0 && addr%8 != 0 {
		b[0] ^= key(addr)
		b, addr = b[1:], addr+1
	}
	w := addr / 8
	for ; len(b) >= 32 && w < 1<<61-4; b, w = b[32:], w+4 { // four independent keys a step
		b := b[:32]
		binary.LittleEndian.PutUint64(b, binary.LittleEndian.Uint64(b)^wordKey(w))
		binary.LittleEndian.PutUint64(b[8:], binary.LittleEndian.Uint64(b[8:])^wordKey(w+1))
		binary.LittleEndian.PutUint64(b[16:], binary.LittleEndian.Uint64(b[16:])^wordKey(w+2))
		binary.LittleEndian.PutUint64(b[24:], binary.LittleEndian.Uint64(b[24:])^wordKey(w+3))
	}
	for ; len(b) >= 8; b, w = b[8:], (w+1)%(1<<61) { // words wrap as addresses do
		binary.LittleEndian.PutUint64(b, binary.LittleEndian.Uint64(b)^wordKey(w))
	}
	for i, k := 0, wordKey(w); i < len(b); i, k = i+1, k>>8 {
		b[i] ^= byte(k)
	}
}

// metaView reads a block's two metadata bytes as ctx may see them; a block
// whose metadata nothing defined reads as garbage (code 0) whatever its
// bytes hold.
func (m *Machine) metaView(ctx *opCtx, s *Surface, block uint64) (code, value byte) {
	if !s.isDefined(block) {
		return 0, 0
	}
	var b [2]byte
	var v [1]uint64
	m.view(ctx, m.memLevel, s.Meta+2*block, b[:], v[:], nil)
	return b[0], b[1]
}

// metaReader is metaView for the blocks of one access, in ascending order:
// one view of memory reads the metadata of up to metaChunk blocks. It
// serves a pass that reads no block's metadata after writing a later one's
// (decodeRead, writeSurface), so what it read ahead is what metaView would
// read when the pass gets there.
type metaReader struct {
	m           *Machine
	ctx         *opCtx
	s           *Surface
	first, last uint64 // the blocks read ahead, and the access's last
	n           uint64
	buf         [2 * metaChunk]byte
	valid       [2 * metaChunk / 64]uint64
}

const metaChunk = 1024

// start readies r, scratch space of the pass's own (writeSurface's
// partial blocks call decodeRead), for the blocks up to last.
func (r *metaReader) start(m *Machine, ctx *opCtx, s *Surface, last uint64) *metaReader {
	r.m, r.ctx, r.s, r.first, r.last, r.n = m, ctx, s, 0, last, 0
	return r
}

// at is metaView(ctx, s, b).
func (r *metaReader) at(b uint64) (code, value byte) {
	if !r.s.isDefined(b) {
		return 0, 0
	}
	if b < r.first || b >= r.first+r.n {
		r.first, r.n = b, min(metaChunk, r.last-b+1)
		r.m.view(r.ctx, r.m.memLevel, r.s.Meta+2*b, r.buf[:2*r.n], r.valid[:], nil)
	}
	return r.buf[2*(b-r.first)], r.buf[2*(b-r.first)+1]
}

func (s *Surface) isDefined(block uint64) bool { return s.defined[block/64]>>(block%64)&1 != 0 }

// define marks blocks first..last as holding metadata written as such.
func (s *Surface) define(first, last uint64) {
	for w, mask := range s.definedWords(first, last) {
		s.defined[w] |= mask
	}
}

// definedWords yields, for blocks first..last, each word of defined they
// fall in and the mask of their bits in it: a surface's metadata is
// changed a word at a time, so a 1 GiB surface's 4 Mi blocks are 64 Ki
// steps.
func (s *Surface) definedWords(first, last uint64) iter.Seq2[uint64, uint64] {
	return func(yield func(uint64, uint64) bool) {
		for w := first / 64; w <= last/64; w++ {
			mask := ^uint64(0)
			if w == first/64 {
				mask &= ^uint64(0) << (first % 64)
			}
			if w == last/64 {
				mask &= ^uint64(0) >> (63 - last%64)
			}
			if !yield(w, mask) {
				return
			}
		}
	}
}

// spoilMetadata notes a plain write of [addr, addr+n): metadata it lands on
// is garbage from now on (memory aliased between a surface's metadata and
// another resource). It returns a surface whose defined metadata it
// spoiled and the bytes of it, nil if none.
func (m *Machine) spoilMetadata(addr, n uint64) (spoiled *Surface, lo, hi uint64) {
	if len(m.metaIndex) == 0 || n == 0 {
		return nil, 0, 0
	}
	for p := addr / PageSize; p <= (addr+n-1)/PageSize; p++ {
		for _, s := range m.metaIndex[p] {
			end := s.Meta + MetadataSize(s.Size)
			if addr >= end || s.Meta >= addr+n {
				continue
			}
			l, h := max(addr, s.Meta), min(addr+n, end)
			if l/PageSize != p {
				// Done whole at the first page they share: every page of
				// the intersection lists s, and one pass over all of it
				// per page made a surface's creation quadratic in its size.
				continue
			}
			for w, mask := range s.definedWords((l-s.Meta)/2, (h-1-s.Meta)/2) {
				if spoiled == nil && s.defined[w]&mask != 0 {
					spoiled, lo, hi = s, l, h
				}
				s.defined[w] &^= mask
			}
		}
	}
	return spoiled, lo, hi
}

func validMeta(code byte) bool { return code >= MetaPlain && code <= MetaClear }

// blocksOf returns the first and last block of [addr, addr+n) in s.
func blocksOf(s *Surface, addr, n uint64) (uint64, uint64) {
	return (addr - s.Base) / BlockSize, (addr - s.Base + n - 1) / BlockSize
}

// decodeRead turns the raw bytes a read served into what the access sees:
// through compression (the access asks for it and the client decodes on
// this engine) a compressed block is decoded and a cleared one reads as its
// value; anything else sees the raw bytes, and a compressed or cleared block
// then reads wrong — a hazard, as is decoding invalid metadata. It returns
// which bytes those hazards already explain (nil: none).
func (m *Machine) decodeRead(ctx *opCtx, a cmdbuf.Access, got []byte) []bool {
	s := m.surfaces[a.Surface]
	aware := a.Compressed && m.prof.Aware[ctx.e.kind][a.Client]
	var explained []bool // allocated when a hazard explains some byte
	var uninit, unreadable blockSpan
	first, last := blocksOf(s, a.Addr, uint64(a.Size))
	meta := m.scratch.readMeta.start(m, ctx, s, last)
	for b := first; b <= last; b++ {
		lo := max(a.Addr, s.Base+b*BlockSize)
		hi := min(a.End(), s.Base+(b+1)*BlockSize)
		code, value := meta.at(b)
		seg := got[lo-a.Addr : hi-a.Addr]
		switch {
		case aware && code == MetaCompressed:
			encode(seg, lo)
		case aware && code == MetaClear:
			for i := range seg {
				seg[i] = value
			}
		case aware && !validMeta(code):
			// Garbage in, garbage out: the bytes decode to nothing they were.
			for i := range seg {
				seg[i] ^= key(lo+uint64(i)) ^ 0x5a
			}
			explained = m.explain(explained, a, lo, hi)
			uninit.add(lo, hi)
		case !aware && (code == MetaCompressed || code == MetaClear):
			explained = m.explain(explained, a, lo, hi)
			unreadable.add(lo, hi)
		}
	}
	if uninit.set() {
		m.addHazard(ctx, HazardUninitializedMetadata, a, uninit.lo, uninit.hi-uninit.lo, nil,
			fmt.Sprintf("a METADATA_INIT of surface %d (a barrier with DISCARD) before %s would define it", s.ID, ctx.op.at()))
	}
	if unreadable.set() {
		why := fmt.Sprintf("%s on %s does not decode compression", a.Client, ctx.e.kind)
		if !a.Compressed {
			why = "the access does not go through compression"
		}
		m.addHazard(ctx, HazardCompressedRead, a, unreadable.lo, unreadable.hi-unreadable.lo, nil,
			fmt.Sprintf("%s: a DECOMPRESS of surface %d before %s would make it plain", why, s.ID, ctx.op.at()))
	}
	return explained
}

// blockSpan accumulates the smallest range covering some blocks.
type blockSpan struct{ lo, hi uint64 }

func (b *blockSpan) set() bool { return b.hi != 0 }

func (b *blockSpan) add(lo, hi uint64) {
	if !b.set() {
		b.lo = lo
	}
	b.hi = hi
}

// explain marks [lo, hi) of the access explained, allocating explained on
// first use.
func (m *Machine) explain(explained []bool, a cmdbuf.Access, lo, hi uint64) []bool {
	if explained == nil {
		explained = make([]bool, a.Size)
	}
	for i := lo; i < hi; i++ {
		explained[i-a.Addr] = true
	}
	return explained
}

// writeSurface writes an access's output into a surface through lv. A
// compressing write (the access asks and the client can) stores blocks
// encoded and marks them compressed, decoding what a partly written block
// already holds; a plain write stores bytes as they are, which corrupts a
// block that is compressed or cleared — a hazard.
func (m *Machine) writeSurface(ctx *opCtx, a cmdbuf.Access, lv *level, data []byte) {
	s := m.surfaces[a.Surface]
	aware := a.Compressed && m.prof.Aware[ctx.e.kind][a.Client]
	var corrupt blockSpan
	defer func() {
		if corrupt.set() {
			ctx.op.tainted = true // what it wrote reads back wrong
			m.addHazard(ctx, HazardCompressedWrite, a, corrupt.lo, corrupt.hi-corrupt.lo, nil,
				fmt.Sprintf("%s writes surface %d without compression: a DECOMPRESS before %s would make it plain", a.Client, s.ID, ctx.op.at()))
		}
	}()
	first, last := blocksOf(s, a.Addr, uint64(a.Size))
	// Blocks that become compressed get their metadata in runs, one store
	// a run: each block's two bytes are its own, so no block's metadata is
	// read after a later block's is written either way.
	var run []byte
	runFirst := first
	writeRun := func() {
		if len(run) > 0 {
			m.store(ctx.op, a.Client, m.memLevel, s.Meta+2*runFirst, run, false)
			run = run[:0]
		}
	}
	defer writeRun()
	// Whole blocks are encoded into pend and stored together, up to
	// pendMax bytes at a time (a block path takes whole lines of a 4 KiB
	// block at once); the data goes before any metadata written after it,
	// as block by block. Nothing between reads what they store.
	var pend []byte
	var pendLo uint64
	storePending := func() {
		if len(pend) > 0 {
			m.store(ctx.op, a.Client, lv, pendLo, pend, true)
			pend = pend[:0]
		}
	}
	defer storePending() // before writeRun: defers run last first
	meta := m.scratch.writeMeta.start(m, ctx, s, last)
	for b := first; b <= last; b++ {
		blo, bhi := s.Base+b*BlockSize, min(s.Base+(b+1)*BlockSize, s.Base+s.Size)
		lo, hi := max(a.Addr, blo), min(a.End(), bhi)
		seg := data[lo-a.Addr : hi-a.Addr]
		code, _ := meta.at(b)
		if !aware {
			if code == MetaCompressed || code == MetaClear {
				corrupt.add(lo, hi)
			}
			m.store(ctx.op, a.Client, lv, lo, seg, true)
			continue
		}
		if lo == blo && hi == bhi {
			if pend == nil {
				if cap(m.scratch.pend) < pendMax {
					m.scratch.pend = make([]byte, 0, pendMax)
				}
				pend = m.scratch.pend[:0]
			}
			if len(pend) == 0 {
				pendLo = blo
			}
			pend = append(pend, seg...)
			encode(pend[len(pend)-len(seg):], blo)
			if len(pend)+BlockSize > cap(pend) {
				storePending()
			}
		} else {
			storePending()
			m.writePartialBlock(ctx, a, lv, s, blo, bhi, lo, seg)
			// Its write-after-read check may scramble what another op
			// wrote, aliased metadata included: read ahead again.
			meta.n = 0
		}
		if code != MetaCompressed {
			if len(run) == 0 {
				runFirst = b
			}
			run = append(run, MetaCompressed, 0)
		} else {
			storePending()
			writeRun()
		}
		s.define(b, b)
	}
}

// pendMax bounds the encoded whole blocks writeSurface stores at once.
const pendMax = 64 << 10

// writePartialBlock is writeSurface through compression for the part
// [lo, lo+len(seg)) of the block [blo, bhi) of s: the rest of the block is
// decoded as the op sees it, and the whole block stored again, re-encoded.
func (m *Machine) writePartialBlock(ctx *opCtx, a cmdbuf.Access, lv *level, s *Surface, blo, bhi, lo uint64, seg []byte) {
	hi := lo + uint64(len(seg))
	block := m.scratch.block[:bhi-blo]
	// A reader of the rest not ordered before this op may see it half
	// rewritten.
	m.checkWAR(ctx, cmdbuf.Access{Addr: blo, Size: bhi - blo, Dir: cmdbuf.DirWrite, Client: a.Client, Surface: a.Surface})
	rest := cmdbuf.Access{Addr: blo, Size: bhi - blo, Dir: cmdbuf.DirRead, Client: a.Client,
		Surface: a.Surface, Compressed: true}
	m.readPath(ctx, a.Client, ctx.e.paths[a.Client], blo, block)
	m.decodeRead(ctx, rest, block)
	// It re-stores the rest: if that already differs from the
	// reference, so does what it writes.
	ref := m.ref.read(blo, bhi-blo)
	for i := range block {
		if (blo+uint64(i) < lo || blo+uint64(i) >= hi) && block[i] != ref[i] {
			ctx.op.tainted = true
			break
		}
	}
	// The op rewrites the whole block: the reference names it as the
	// writer of the rest too (the bytes there do not change).
	m.ref.tag(blo, bhi-blo, ctx.op.gid)
	copy(block[lo-blo:], seg)
	encode(block, blo)
	m.store(ctx.op, a.Client, lv, blo, block, true)
}

// decompress rewrites the compressed and cleared blocks of [off, off+n) of s
// as plain bytes through the BLIT client and marks them plain. Invalid
// metadata decompresses to garbage (a hazard). It returns the bytes it
// rewrote.
func (m *Machine) decompress(ctx *opCtx, s *Surface, off, n uint64) uint64 {
	var done uint64
	path := ctx.e.paths[cmdbuf.ClientBlit]
	first, last := blocksOf(s, s.Base+off, n)
	for b := first; b <= last; b++ {
		code, _ := m.metaView(ctx, s, b)
		if code == MetaPlain {
			continue
		}
		blo, bhi := s.Base+b*BlockSize, min(s.Base+(b+1)*BlockSize, s.Base+s.Size)
		a := cmdbuf.Access{Addr: blo, Size: bhi - blo, Dir: cmdbuf.DirRead, Client: cmdbuf.ClientBlit,
			Surface: s.ID, Compressed: true}
		// It rewrites the block: a reader not ordered before it may see
		// the block half rewritten (its data and metadata from either
		// side), and a writer not ordered before it may land under it.
		m.checkWAR(ctx, cmdbuf.Access{Addr: blo, Size: bhi - blo, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientBlit, Surface: s.ID})
		m.checkRedefine(ctx, blo, bhi)
		plain, _, _ := m.readAccess(ctx, a)
		m.store(ctx.op, cmdbuf.ClientBlit, path[0], blo, plain, true)
		// The reference's bytes do not change, but they are now the
		// decompress's output: a reader that misses it missed this op.
		m.ref.tag(blo, bhi-blo, ctx.op.gid)
		m.store(ctx.op, cmdbuf.ClientBlit, m.memLevel, s.Meta+2*b, []byte{MetaPlain, 0}, false)
		s.define(b, b)
		done += bhi - blo
	}
	return done
}

// initMetadata marks the blocks of a region of s cleared to its value (the
// reference fills the bytes with the value, which is what they now read as)
// or, for a plain initialisation, plain: their bytes are what memory holds,
// which is right only if they hold plain data — marking compressed or
// cleared blocks plain loses what they meant, a hazard. It returns the
// metadata bytes written.
func (m *Machine) initMetadata(ctx *opCtx, s *Surface, r cmdbuf.SurfaceRegion) uint64 {
	off, n := r.Offset, r.Size
	first, last := blocksOf(s, s.Base+off, n)
	m.checkRedefine(ctx, s.Base+first*BlockSize, min(s.Base+(last+1)*BlockSize, s.Base+s.Size))
	if r.Plain && !r.Discard {
		var lost blockSpan
		for b := first; b <= last; b++ {
			code, value := m.metaView(ctx, s, b)
			lo, hi := s.Base+b*BlockSize, min(s.Base+(b+1)*BlockSize, s.Base+s.Size)
			if code == MetaCompressed || code == MetaClear && !m.holds(ctx, lo, hi, value) {
				lost.add(lo, hi)
				for a := lo; a < hi; a += 4 {
					if w := m.ops[m.ref.writer(a)]; w != nil {
						w.tainted = true // what it wrote now reads wrong
					}
				}
				m.spoiled = append(m.spoiled, [2]uint64{lo, hi}) // and so does what the CPU put there
			}
		}
		if lost.set() {
			a := cmdbuf.Access{Addr: lost.lo, Size: lost.hi - lost.lo, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientBlit}
			m.addHazard(ctx, HazardCompressedWrite, a, lost.lo, lost.hi-lost.lo, nil,
				fmt.Sprintf("METADATA_INIT marked compressed blocks of surface %d plain: a DECOMPRESS before %s would keep their data", s.ID, ctx.op.at()))
		}
	}
	meta := make([]byte, 2*(last-first+1))
	for i := 0; i < len(meta); i += 2 {
		meta[i], meta[i+1] = MetaClear, r.Value
		if r.Plain {
			meta[i], meta[i+1] = MetaPlain, 0
		}
	}
	m.store(ctx.op, cmdbuf.ClientBlit, m.memLevel, s.Meta+2*first, meta, false)
	s.define(first, last)
	m.effects.addAccess(access{op: ctx.op, lv: m.memLevel, addr: s.Base + off, n: int(n), kind: accessLogical,
		client: cmdbuf.ClientBlit})
	switch {
	case !r.Plain:
		m.ref.fill(s.Base+off, n, r.Value, ctx.op.gid)
	case r.Discard:
		// The contents are undefined until written: the reference keeps
		// its bytes, so a region discarded and never written again
		// differs from it, as it may.
	}
	return uint64(len(meta))
}

// checkRedefine: a DECOMPRESS or METADATA_INIT redefines what the bytes
// of [lo, hi) mean; a write of them by an op it is not ordered after may
// land on either side of it (a compressing write's metadata over the new,
// a discarded block's data after the discard). It taints the earlier
// write.
func (m *Machine) checkRedefine(ctx *opCtx, lo, hi uint64) {
	if m.effects.accesses == 0 {
		return
	}
	for _, lv := range m.allLevels() {
		for _, w := range m.effects.overlapping(lv, lo, int(hi-lo)) {
			if w.kind == accessRead || w.op == ctx.op || m.orderedBefore(w.op, w.client, ctx) {
				continue
			}
			l, h := max(lo, w.addr), min(hi, w.addr+uint64(w.n))
			a := cmdbuf.Access{Addr: l, Size: h - l, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientBlit}
			if m.addHazard(ctx, HazardWriteAfterWrite, a, l, h-l, w.op,
				fmt.Sprintf("a WAIT draining %s before %s would order them", w.op.stage.Mask(), ctx.op.at())) {
				w.op.tainted = true
			}
		}
	}
}

// plainAt is what raw byte v stored at addr means to a client that decodes:
// v itself outside surfaces and in plain blocks, decoded in compressed ones,
// the clear value in cleared ones (metadata as ctx may see it; nil ctx:
// the current metadata).
func (m *Machine) plainAt(ctx *opCtx, addr uint64, v byte) byte {
	s := m.surfaceAt(addr)
	if s == nil {
		return v
	}
	b := (addr - s.Base) / BlockSize
	var code, value byte
	switch {
	case ctx != nil:
		code, value = m.metaView(ctx, s, b)
	case s.isDefined(b):
		var meta [2]byte
		m.mem.Read(s.Meta+2*b, meta[:])
		code, value = meta[0], meta[1]
	}
	switch code {
	case MetaCompressed:
		return v ^ key(addr)
	case MetaClear:
		return value
	}
	return v
}

// Logical reads what a surface (or plain memory, surface 0) holds, decoded
// as an aware client would see it, from memory. After Run every cache has
// been flushed, so this is the final content.
func (m *Machine) Logical(addr, size uint64, surface uint16) ([]byte, error) {
	if err := m.checkLogical(addr, size, surface); err != nil {
		return nil, err
	}
	out := make([]byte, size)
	m.logicalInto(addr, out, surface)
	return out, nil
}

// checkLogical says why Logical cannot read [addr, addr+size) of surface.
func (m *Machine) checkLogical(addr, size uint64, surface uint16) error {
	if _, ok := m.mapped(addr, size); !ok {
		return fmt.Errorf("hwmodel: 0x%x+0x%x is not mapped", addr, size)
	}
	if surface == 0 {
		return nil
	}
	if s := m.surfaces[surface]; s == nil || addr < s.Base || addr+size > s.Base+s.Size {
		return fmt.Errorf("hwmodel: 0x%x+0x%x is not inside surface %d", addr, size, surface)
	}
	return nil
}

// logicalInto is Logical into out, for a range checkLogical accepts.
func (m *Machine) logicalInto(addr uint64, out []byte, surface uint16) {
	m.mem.Read(addr, out)
	if surface == 0 {
		return
	}
	s := m.surfaces[surface]
	size := uint64(len(out))
	first, last := blocksOf(s, addr, size)
	for b := first; b <= last; b++ {
		var meta [2]byte
		if s.isDefined(b) {
			m.mem.Read(s.Meta+2*b, meta[:])
		}
		lo, hi := max(addr, s.Base+b*BlockSize), min(addr+size, s.Base+(b+1)*BlockSize)
		seg := out[lo-addr : hi-addr]
		switch meta[0] {
		case MetaCompressed:
			encode(seg, lo)
		case MetaClear:
			for i := range seg {
				seg[i] = meta[1]
			}
		}
	}
}

// holds reports whether every byte of [lo, hi) is v in memory as ctx sees
// it (a cleared block whose memory already holds its value loses nothing
// when marked plain).
func (m *Machine) holds(ctx *opCtx, lo, hi uint64, v byte) bool {
	b := make([]byte, hi-lo)
	valid := make([]uint64, (len(b)+63)/64)
	m.view(ctx, m.memLevel, lo, b, valid, nil)
	for _, x := range b {
		if x != v {
			return false
		}
	}
	return true
}

// checkMetadataClobber: metadata lives in memory and the compression unit
// reads and writes it there, past the caches; a write-back that lands on a
// surface's initialised metadata replaces it with whatever the line held
// (memory re-used by a surface while a cache still held the previous
// resource's writes). tag is the op whose data was written back.
func (m *Machine) checkMetadataClobber(ctx *opCtx, lv *level, addr, n uint64, tag uint32) {
	s, lo, hi := m.spoilMetadata(addr, n)
	if s == nil {
		return
	}
	a := cmdbuf.Access{Addr: addr, Size: n, Dir: cmdbuf.DirWrite, Client: ctx.client}
	m.addHazard(ctx, HazardWriteAfterWrite, a, lo, hi-lo, m.ops[tag],
		fmt.Sprintf("writing back %s put older data over surface %d's metadata: write %s back over the surface's metadata before initialising it", lv.name, s.ID, lv.name))
}
