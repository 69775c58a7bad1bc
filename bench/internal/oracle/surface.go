package oracle

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hwmodel"
)

// surfaceOp is a DECOMPRESS or a METADATA_INIT (plain, discarding) of
// blocks first..last of a surface.
type surfaceOp struct {
	id          uint16
	first, last uint64
	decompress  bool
}

const blockSize = hwmodel.BlockSize

func (s *surface) blockLo(addr uint64) uint64 { return s.base + (addr-s.base)/blockSize*blockSize }

func (s *surface) blockHi(end uint64) uint64 {
	return min(s.base+(end-s.base+blockSize-1)/blockSize*blockSize, s.base+s.size)
}

// partial reports whether [lo, hi) covers some block only in part.
func (s *surface) partial(lo, hi uint64) bool { return s.blockLo(lo) != lo || s.blockHi(hi) != hi }

// needs returns the surface operations access a needs before it (aware:
// it goes through compression and its client decodes):
//
//   - a read that does not decode, of compressed or cleared blocks: a
//     DECOMPRESS;
//   - a write that does not compress, into compressed or cleared blocks: a
//     DECOMPRESS of those it covers in part or its work also reads, a
//     METADATA_INIT of the rest (it overwrites them whole: nothing to keep);
//   - a decoding read, or a compressing write of part of a block, of blocks
//     whose metadata nothing defined: a METADATA_INIT.
func (s *surface) needs(a cmdbuf.Access, aware bool, reads []cmdbuf.Access) []surfaceOp {
	var out []surfaceOp
	add := func(b uint64, decompress bool) {
		if n := len(out); n > 0 && out[n-1].last+1 == b && out[n-1].decompress == decompress {
			out[n-1].last = b
			return
		}
		out = append(out, surfaceOp{id: 0, first: b, last: b, decompress: decompress})
	}
	write := a.Dir != cmdbuf.DirRead
	first, last := (a.Addr-s.base)/blockSize, (a.End()-1-s.base)/blockSize
	for b := first; b <= last; b++ {
		code := s.codes[b]
		encoded := code == hwmodel.MetaCompressed || code == hwmodel.MetaClear
		lo, hi := s.base+b*blockSize, min(s.base+(b+1)*blockSize, s.base+s.size)
		covers := a.Addr <= lo && a.End() >= hi
		switch {
		case !aware && encoded:
			read := slices.ContainsFunc(reads, func(r cmdbuf.Access) bool {
				return r.Surface == a.Surface && r.Addr < hi && lo < r.End()
			})
			add(b, !write || !covers || read)
		case aware && code == 0 && (!write || !covers):
			add(b, false)
		}
	}
	for i := range out {
		out[i].id = a.Surface
	}
	return out
}

// merged joins the surface operations a work's accesses need into runs of
// blocks, one operation per block: a DECOMPRESS where any access needs one,
// else a METADATA_INIT.
func merged(ops []surfaceOp) []surfaceOp {
	type key struct {
		id    uint16
		block uint64
	}
	need := map[key]bool{} // block → decompress
	for _, o := range ops {
		for b := o.first; b <= o.last; b++ {
			k := key{o.id, b}
			need[k] = need[k] || o.decompress
		}
	}
	keys := make([]key, 0, len(need))
	for k := range need {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.id != b.id {
			return int(a.id) - int(b.id)
		}
		return cmp.Compare(a.block, b.block)
	})
	var out []surfaceOp
	for _, k := range keys {
		if n := len(out); n > 0 && out[n-1].id == k.id && out[n-1].last+1 == k.block && out[n-1].decompress == need[k] {
			out[n-1].last = k.block
			continue
		}
		out = append(out, surfaceOp{id: k.id, first: k.block, last: k.block, decompress: need[k]})
	}
	return out
}

// metaWrite is the metadata a compressing write stores: that of the blocks
// it makes compressed (a block compressed already keeps its metadata),
// each run a write to memory past the caches.
func (s *surface) metaWrite(a cmdbuf.Access, client cmdbuf.Client) []access {
	var out []access
	first, last := (a.Addr-s.base)/blockSize, (a.End()-1-s.base)/blockSize
	for b := first; b <= last; b++ {
		if s.codes[b] == hwmodel.MetaCompressed {
			continue
		}
		lo, hi := s.meta+2*b, s.meta+2*b+2
		if n := len(out); n > 0 && out[n-1].hi == lo {
			out[n-1].hi = hi
			continue
		}
		out = append(out, access{lo: lo, hi: hi, write: true, client: client, direct: true})
	}
	return out
}

// metaRegion is the metadata a surface operation stores, a write to memory
// past the caches.
func (s *surface) metaRegion(o surfaceOp) access {
	return access{lo: s.meta + 2*o.first, hi: s.meta + 2*(o.last+1), write: true, client: cmdbuf.ClientBlit, direct: true}
}

// wrote records a write's effect on the blocks' metadata: a compressing
// write leaves them compressed, a plain one leaves them as they were (the
// oracle made them plain first where that mattered).
func (s *surface) wrote(a cmdbuf.Access, aware bool) {
	if !aware {
		return
	}
	for b := (a.Addr - s.base) / blockSize; b <= (a.End()-1-s.base)/blockSize; b++ {
		s.codes[b] = hwmodel.MetaCompressed
	}
}

// region is a surface operation's bytes, as the packet names them and as
// the memory it touches.
func (s *surface) region(o surfaceOp) (cmdbuf.SurfaceRegion, access) {
	lo, hi := o.first*blockSize, min((o.last+1)*blockSize, s.size)
	r := cmdbuf.SurfaceRegion{Surface: o.id, Offset: lo, Size: hi - lo, Plain: true, Discard: true}
	return r, access{lo: s.base + lo, hi: s.base + hi, client: cmdbuf.ClientBlit, decodes: true}
}

// surfaceOps emits the surface operations a work needs, after what they
// need themselves: a DECOMPRESS reads its blocks and writes them back
// plain, a METADATA_INIT changes what the bytes mean; both run on the
// command processor. An engine whose BLIT client does not decode cannot
// decompress: the program cannot be made right there.
func (b *batch) surfaceOps(ops []surfaceOp) error {
	var n needs
	for _, o := range ops {
		if o.decompress && !b.prof.Aware[b.kind][cmdbuf.ClientBlit] {
			return fmt.Errorf("surface %d blocks %d-%d must be decompressed, which a %s engine cannot do", o.id, o.first, o.last, b.kind)
		}
		_, a := b.surfs[o.id].region(o)
		if o.decompress {
			b.need(&n, cmdbuf.StageCP, a)
		}
		a.write, a.meta = true, !o.decompress
		b.need(&n, cmdbuf.StageCP, a)
		b.need(&n, cmdbuf.StageCP, b.surfs[o.id].metaRegion(o))
	}
	b.sync(&n, cmdbuf.StageCP)
	for _, o := range ops {
		s := b.surfs[o.id]
		r, a := s.region(o)
		seq := b.ord.issue(cmdbuf.StageCP)
		by := op{seq: seq, stage: cmdbuf.StageCP, client: cmdbuf.ClientBlit, decodes: true}
		b.did(by, s.metaRegion(o))
		if o.decompress {
			r.Plain, r.Discard = false, false
			b.emit(func(d []uint32) []uint32 { return cmdbuf.AppendDecompress(d, r, false) })
			b.did(by, a)
			a.write = true
			b.did(by, a)
		} else {
			// It writes metadata, not the bytes: being a CP op, it is
			// ordered before everything after it.
			b.emit(func(d []uint32) []uint32 { return cmdbuf.AppendMetadataInit(d, r, false) })
		}
		for blk := o.first; blk <= o.last; blk++ {
			s.codes[blk] = hwmodel.MetaPlain
		}
	}
	return nil
}
