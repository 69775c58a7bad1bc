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

// output is what a non-copy work item writes (in the op's scratch space) through its j-th write access:
// a clear writes its parameter as a repeating little-endian dword, a discard
// an undefined pattern of its identity and address (its reads do not
// matter), everything else bytes generated from the digest of its reads, its
// identity and j.
func (m *Machine) output(w cmdbuf.Work, j int, a cmdbuf.Access, sum uint64) []byte {
	out := m.scratch.bytes(int(a.Size))
	switch w.Kind {
	case cmdbuf.WorkClear:
		var p [4]byte
		binary.LittleEndian.PutUint32(p[:], w.Param)
		for i := range min(4, len(out)) {
			out[i] = p[(a.Addr+uint64(i))%4]
		}
		// The pattern has period 4: double what is written.
		for n := 4; n < len(out); n *= 2 {
			copy(out[n:], out[:n])
			m.pollNow()
		}
		return out
	case cmdbuf.WorkDiscard:
		sum = uint64(w.ID)<<32 ^ a.Addr
	}
	seed := splitmix64(sum ^ uint64(j)<<56 ^ uint64(w.ID))
	i := 0
	for ; i+8 <= len(out); i += 8 {
		if i&(64<<10-1) == 0 {
			m.pollNow()
		}
		binary.LittleEndian.PutUint64(out[i:], splitmix64(seed+uint64(i)))
	}
	if i < len(out) { // a tail shorter than a word
		var word [8]byte
		binary.LittleEndian.PutUint64(word[:], splitmix64(seed+uint64(i)))
		copy(out[i:], word[:])
	}
	return out
}
