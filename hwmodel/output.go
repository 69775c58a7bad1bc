package hwmodel

import (
	"encoding/binary"

	"github.com/ebref/ebref/cmdbuf"
)

// digest hashes what a work item read (FNV-1a over 64-bit words, seeded by
// the work's kind and identity), so its outputs depend on its inputs.
type digest struct{ h uint64 }

func newDigest(kind cmdbuf.WorkKind, id uint32) digest {
	return digest{(14695981039346656037 ^ uint64(kind)<<32 ^ uint64(id)) * 1099511628211}
}

func (d *digest) add(b []byte) {
	h := d.h
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 1099511628211
		b = b[8:]
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	d.h = (h ^ uint64(len(b))) * 1099511628211
}

func (d *digest) sum() uint64 { return d.h }

// splitmix64 is the output generator.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// output is what a non-copy work item writes through its j-th write
// access, made in the op's scratch space: the bytes of outputGen's
// generator.
func (m *Machine) output(w cmdbuf.Work, j int, a cmdbuf.Access, sum uint64) []byte {
	out := m.scratch.bytes(int(a.Size))
	g := outputGen(w, j, a, sum)
	const step = 64 << 10 // a cancellation check between steps
	for i := 0; i < len(out); i += step {
		g.fill(out[i:min(len(out), i+step)], a.Addr+uint64(i))
		m.pollNow()
	}
	return out
}

// outputGen is the generator of what a non-copy work item writes through
// its j-th write access: a clear writes its parameter as a repeating
// little-endian dword, a discard an undefined pattern of its identity and
// address (its reads do not matter), everything else bytes generated from
// the digest of its reads, its identity and j.
func outputGen(w cmdbuf.Work, j int, a cmdbuf.Access, sum uint64) generator {
	switch w.Kind {
	case cmdbuf.WorkClear:
		return generator{kind: genDword, seed: uint64(w.Param)}
	case cmdbuf.WorkDiscard:
		sum = uint64(w.ID)<<32 ^ a.Addr
	}
	return generator{kind: genStream, seed: splitmix64(sum ^ uint64(j)<<56 ^ uint64(w.ID)), origin: a.Addr}
}

// generator describes bytes by the rule that made them (an op's output, a
// uniform page, fresh memory), so memory can keep the rule instead of the
// bytes (Mem.WriteGen) and make them again when read.
type generator struct {
	kind genKind
	// seed is the stream's seed (genStream) or the dword (genDword).
	seed uint64
	// origin is the address of the stream's first byte: its words are
	// aligned to it, not to memory.
	origin uint64
}

type genKind uint8

const (
	genNone   genKind = iota
	genStream         // splitmix64(seed+k) is the little-endian word at origin+k, k a multiple of 8
	genDword          // the low dword of seed, little-endian, repeated from address 0
	genFresh          // never-written memory's pattern: FillByte(x-origin) at x
)

// word is the stream's word at offset k (a multiple of 8) from its origin.
func (g *generator) word(k uint64) uint64 { return splitmix64(g.seed + k) }

// moved is the generator of g's bytes copied d bytes higher (modulo 2^64):
// its byte at x is g's at x-d.
func (g generator) moved(d uint64) generator {
	if g.kind == genDword {
		var seed uint64
		for i := range uint64(4) {
			seed |= (g.seed >> (8 * ((i - d) % 4)) & 0xff) << (8 * i)
		}
		g.seed = seed
		return g
	}
	g.origin += d
	return g
}

// fill writes the generator's bytes at addr into dst.
func (g *generator) fill(dst []byte, addr uint64) {
	switch g.kind {
	case genFresh:
		for i := range dst {
			dst[i] = FillByte(addr + uint64(i) - g.origin)
		}
		return
	case genDword:
		for i := range min(4, len(dst)) {
			dst[i] = byte(g.seed >> (8 * ((addr + uint64(i)) % 4)))
		}
		for n := 4; n < len(dst); n *= 2 { // period 4: double what is written
			copy(dst[n:], dst[:n])
		}
		return
	}
	k := addr - g.origin
	if r := k % 8; r != 0 { // a head inside a word
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], g.word(k-r))
		n := copy(dst, w[r:])
		dst, k = dst[n:], k+uint64(n)
	}
	for len(dst) >= 8 {
		binary.LittleEndian.PutUint64(dst, g.word(k))
		dst, k = dst[8:], k+8
	}
	if len(dst) > 0 { // a tail shorter than a word
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], g.word(k))
		copy(dst, w[:])
	}
}

// equal reports whether b is the generator's bytes at addr, without making
// them in memory.
func (g *generator) equal(b []byte, addr uint64) bool {
	switch k := addr - g.origin; {
	case g.kind == genStream && k%8 == 0: // word by word
		for ; len(b) >= 8; b, k, addr = b[8:], k+8, addr+8 {
			if binary.LittleEndian.Uint64(b) != g.word(k) {
				return false
			}
		}
	case g.kind == genDword && len(b) >= 8: // every 8 bytes are the first 8
		var w [8]byte
		g.fill(w[:], addr)
		pat := binary.LittleEndian.Uint64(w[:])
		for ; len(b) >= 8; b, addr = b[8:], addr+8 {
			if binary.LittleEndian.Uint64(b) != pat {
				return false
			}
		}
	}
	var w [64]byte
	for len(b) > 0 {
		n := min(len(b), len(w))
		g.fill(w[:n], addr)
		if string(w[:n]) != string(b[:n]) {
			return false
		}
		b, addr = b[n:], addr+uint64(n)
	}
	return true
}
