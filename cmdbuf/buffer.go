package cmdbuf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// DefaultChunkDwords is the chunk size a Buffer grows by.
const DefaultChunkDwords = 4096

// Buffer is a command buffer: packets in chunks of a fixed capacity. When a
// packet does not fit in the current chunk, the chunk is closed with a CHAIN
// packet naming the next one, as a command processor follows an indirect
// buffer chain; packets never straddle chunks. A Buffer is not safe for
// concurrent use.
type Buffer struct {
	chunkDwords int
	chunks      [][]uint32
	sealed      int // dwords in every chunk but the last (Len without a walk)
	scratch     []uint32
	spare       [][]uint32 // chunks a Reset emptied, for reuse
	// last is where the last appended packet starts, or, with lastRun,
	// where the run of packets Commit added last starts (Last walks it
	// when asked: most commits are never asked).
	last    Pos
	lastRun bool
	name    string
}

// Pos is a packet's place in a buffer: its chunk and dword offset there.
type Pos struct{ Chunk, Off int }

// NewBuffer returns an empty buffer growing by chunkDwords (0:
// DefaultChunkDwords; at least 16).
func NewBuffer(chunkDwords int) *Buffer {
	if chunkDwords <= 0 {
		chunkDwords = DefaultChunkDwords
	}
	chunkDwords = max(chunkDwords, 16)
	return &Buffer{chunkDwords: chunkDwords}
}

// chainDwords is the size of the CHAIN packet that closes a chunk.
const chainDwords = 2

// Emit appends the packets an encoder produces, e.g.
//
//	b.Emit(func(d []uint32) []uint32 { return cmdbuf.AppendWait(d, w) })
//
// The encoded packets go to the current chunk, or to a new chunk chained
// from it when they do not fit. Emit allocates only when a chunk is added or
// the scratch space grows.
func (b *Buffer) Emit(encode func([]uint32) []uint32) {
	b.scratch = encode(b.scratch[:0])
	b.Append(b.scratch)
}

// packetLen is the dwords of the packet at words[0], cut to what is there:
// a header whose length runs past the end takes the rest (the decoder then
// reports it).
func packetLen(words []uint32) int { return min(1+Header(words[0]).Len(), len(words)) }

// Append adds already-encoded packets. Malformed input is stored as it is,
// for the decoder to report.
func (b *Buffer) Append(words []uint32) {
	for len(words) > 0 {
		cur := b.current()
		room := cap(cur) - len(cur) - chainDwords
		// Take as many whole packets as fit, noting where the last begins.
		take, lastStart := 0, 0
		for take < len(words) {
			n := packetLen(words[take:])
			if take+n > room {
				break
			}
			lastStart = take
			take += n
		}
		if take == 0 && len(cur) == 0 {
			// A packet larger than a whole chunk gets a chunk of its own size.
			n := packetLen(words)
			big := make([]uint32, 0, n+chainDwords)
			b.chunks[len(b.chunks)-1] = append(big, words[:n]...)
			b.last, b.lastRun = Pos{len(b.chunks) - 1, 0}, false
			words = words[n:]
			if len(words) > 0 {
				b.newChunk()
			}
			continue
		}
		if take > 0 {
			b.last, b.lastRun = Pos{len(b.chunks) - 1, len(cur) + lastStart}, false
		}
		b.chunks[len(b.chunks)-1] = append(cur, words[:take]...)
		words = words[take:]
		if len(words) > 0 {
			b.newChunk()
		}
	}
}

// Tail is the free room of the current chunk (before the CHAIN that may
// close it) as an empty slice, for encoding packets in place: Commit then
// adds them without a copy. Packets that outgrow the room make append move
// the slice, and Commit copies them as Append would, chaining where Append
// chains, so the buffer is the same either way. Nothing may be added to
// the buffer between Tail and Commit.
func (b *Buffer) Tail() []uint32 {
	if len(b.chunks) == 0 {
		return nil // Commit copies: Append makes the first chunk
	}
	cur := b.chunks[len(b.chunks)-1]
	return cur[len(cur):len(cur):max(len(cur), cap(cur)-chainDwords)]
}

// Commit adds the packets encoded into a slice Tail returned (or into any
// other slice, which it copies). It reports whether it copied them: then
// words does not alias the buffer, and the caller may reuse it.
func (b *Buffer) Commit(words []uint32) (copied bool) {
	if len(words) == 0 {
		return false
	}
	if !b.atTail(words) {
		b.Append(words)
		return true
	}
	last := len(b.chunks) - 1
	cur := b.chunks[last]
	b.last, b.lastRun = Pos{last, len(cur)}, true
	b.chunks[last] = cur[:len(cur)+len(words)]
	return false
}

// atTail reports whether words begin at the end of the current chunk, in
// its room: Tail's slice, not moved by append.
func (b *Buffer) atTail(words []uint32) bool {
	if len(b.chunks) == 0 {
		return false
	}
	cur := b.chunks[len(b.chunks)-1]
	return cap(cur) > len(cur) && &cur[:len(cur)+1][len(cur)] == &words[0]
}

func (b *Buffer) current() []uint32 {
	if len(b.chunks) == 0 {
		b.chunks = append(b.chunks, make([]uint32, 0, b.chunkDwords))
	}
	return b.chunks[len(b.chunks)-1]
}

func (b *Buffer) newChunk() {
	last := len(b.chunks) - 1
	b.chunks[last] = AppendChain(b.chunks[last], Chain{Next: uint32(last + 1)})
	b.sealed += len(b.chunks[last])
	if n := len(b.spare); n > 0 && cap(b.spare[n-1]) >= b.chunkDwords {
		b.chunks = append(b.chunks, b.spare[n-1][:0])
		b.spare = b.spare[:n-1]
		return
	}
	b.chunks = append(b.chunks, make([]uint32, 0, b.chunkDwords))
}

// Reset empties the buffer, keeping its chunks' memory for reuse.
func (b *Buffer) Reset() {
	if len(b.chunks) > 0 {
		for _, c := range b.chunks[1:] {
			if cap(c) == b.chunkDwords {
				b.spare = append(b.spare, c)
			}
		}
		b.chunks = b.chunks[:1]
		b.chunks[0] = b.chunks[0][:0]
	}
	b.sealed = 0
	b.last, b.lastRun = Pos{}, false
}

// Last is where the last packet Append (or Emit) added starts; its dwords
// can be changed in place through Chunks (the buffer patches of a driver
// that learns a value only at submission).
func (b *Buffer) Last() Pos {
	if b.lastRun { // the last packet of the run Commit added
		c := b.chunks[b.last.Chunk]
		for n := packetLen(c[b.last.Off:]); b.last.Off+n < len(c); n = packetLen(c[b.last.Off:]) {
			b.last.Off += n
		}
		b.lastRun = false
	}
	return b.last
}

// SetName names the buffer, for tools that attribute what the machine
// reports about it (hazards, costs) to where it came from.
func (b *Buffer) SetName(name string) { b.name = name }

// Name is the buffer's name, "" if it has none.
func (b *Buffer) Name() string { return b.name }

// Clone returns a copy of the buffer, name and all, that shares no memory
// with it.
func (b *Buffer) Clone() *Buffer {
	c := &Buffer{chunkDwords: b.chunkDwords, chunks: make([][]uint32, len(b.chunks)), last: b.last, lastRun: b.lastRun, name: b.name,
		sealed: b.sealed}
	for i, ch := range b.chunks {
		c.chunks[i] = append(make([]uint32, 0, cap(ch)), ch...)
	}
	return c
}

// Chunks returns the chunks; the last packet of every chunk but the last is
// a CHAIN. The slices alias the buffer.
func (b *Buffer) Chunks() [][]uint32 { return b.chunks }

// Len is the number of dwords in all chunks: the offset, as Line.Offset
// counts it, where the next packet added goes (or the CHAIN before it).
func (b *Buffer) Len() int {
	if len(b.chunks) == 0 {
		return 0
	}
	return b.sealed + len(b.chunks[len(b.chunks)-1])
}

// Words returns all chunks concatenated (CHAIN packets included), for
// disassembly and dumps.
func (b *Buffer) Words() []uint32 {
	out := make([]uint32, 0, b.Len())
	for _, c := range b.chunks {
		out = append(out, c...)
	}
	return out
}

// Walk calls f for every packet in stream order, following CHAIN packets
// (which f also sees) from chunk to chunk. It stops at the first decode error
// f returns non-nil for, or at a truncated header; an unknown opcode is
// passed to f with its error and, if f returns nil, skipped by its length.
func (b *Buffer) Walk(f func(chunk int, p Packet, err error) error) error {
	for ci := 0; ci < len(b.chunks); {
		words := b.chunks[ci]
		next := ci + 1
		for off := 0; off < len(words); {
			p, err := Decode(words, off)
			if err != nil && errors.Is(err, ErrTruncated) {
				return f(ci, p, err)
			}
			if ferr := f(ci, p, err); ferr != nil {
				return ferr
			}
			off += p.Size()
			if err == nil && p.Op() == OpChain {
				next = int(p.Chain().Next)
				if next <= ci || next > len(b.chunks) {
					return f(ci, p, &DecodeError{Offset: p.Offset, Header: p.Header,
						Err: fmt.Errorf("%w: CHAIN to chunk %d from chunk %d of %d", ErrBadField, next, ci, len(b.chunks))})
				}
				break
			}
		}
		ci = next
	}
	return nil
}

// The dump format: the magic "EBCB", a version (1), the chunk count, then per
// chunk its dword count and its dwords, all little-endian uint32.
const (
	dumpMagic   = 0x42434245 // "EBCB" little-endian
	dumpVersion = 1
	// MaxDumpDwords bounds what Load accepts, against hostile sizes.
	MaxDumpDwords = 1 << 28
)

// ErrBadDump: the file is not a command-buffer dump.
var ErrBadDump = errors.New("not a command-buffer dump")

// Dump writes the buffer to w.
func (b *Buffer) Dump(w io.Writer) error {
	hdr := []uint32{dumpMagic, dumpVersion, uint32(len(b.chunks))}
	if err := binary.Write(w, binary.LittleEndian, hdr); err != nil {
		return err
	}
	for _, c := range b.chunks {
		if err := binary.Write(w, binary.LittleEndian, uint32(len(c))); err != nil {
			return err
		}
		if err := binary.Write(w, binary.LittleEndian, c); err != nil {
			return err
		}
	}
	return nil
}

// Load reads a dump written by Dump. Bad input gets an error naming what is
// wrong and where, never a partial buffer.
func Load(data []byte) (*Buffer, error) {
	switch {
	case len(data) >= 4 && binary.LittleEndian.Uint32(data) == dumpMagic && len(data) < 12:
		return nil, fmt.Errorf("%w: the header is cut short: %d bytes, it has 12 (magic, version, chunk count)", ErrBadDump, len(data))
	case len(data) < 4 || binary.LittleEndian.Uint32(data) != dumpMagic:
		return nil, fmt.Errorf("%w: no EBCB magic at byte 0", ErrBadDump)
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != dumpVersion {
		return nil, fmt.Errorf("%w: version %d at byte 4, want %d", ErrBadDump, v, dumpVersion)
	}
	n := int(binary.LittleEndian.Uint32(data[8:]))
	// First the lengths, then one array for every chunk's dwords: memory
	// is the dump's size and a slice header per chunk, however the dwords
	// are split (a chunk of its own per dword cost a default-size chunk
	// each).
	lens := make([]int, 0, min(n, len(data)/4))
	off, total := 12, 0
	for i := 0; i < n; i++ {
		if len(data)-off < 4 {
			return nil, fmt.Errorf("%w: chunk %d's length missing at byte %d", ErrBadDump, i, off)
		}
		m := int(binary.LittleEndian.Uint32(data[off:]))
		off += 4
		total += m
		if m < 0 || total > MaxDumpDwords || m > (len(data)-off)/4 {
			return nil, fmt.Errorf("%w: chunk %d claims %d dwords at byte %d, %d bytes left", ErrBadDump, i, m, off-4, len(data)-off)
		}
		// A buffer's chunks fill before the next is made, so only its
		// last can be empty; and empty chunks would cost memory for
		// nothing (a slice each, 8 times the 4 bytes that claim one).
		if m == 0 && i != n-1 {
			return nil, fmt.Errorf("%w: chunk %d at byte %d is empty: only a buffer's last chunk can be", ErrBadDump, i, off-4)
		}
		lens = append(lens, m)
		off += 4 * m
	}
	if off != len(data) {
		return nil, fmt.Errorf("%w: %d trailing bytes at byte %d", ErrBadDump, len(data)-off, off)
	}
	words := make([]uint32, total)
	b := &Buffer{chunkDwords: DefaultChunkDwords, chunks: make([][]uint32, len(lens))}
	off, at := 12, 0
	for i, m := range lens {
		off += 4
		c := words[at : at+m : at+m] // appending to a chunk must not run into the next
		for j := range c {
			c[j] = binary.LittleEndian.Uint32(data[off+4*j:])
		}
		b.chunks[i] = c
		off += 4 * m
		at += m
	}
	if len(lens) > 0 {
		b.sealed = total - lens[len(lens)-1]
	}
	return b, nil
}

// FromWords wraps raw little-endian packet dwords (one chunk) as a buffer.
func FromWords(words []uint32) *Buffer {
	return &Buffer{chunkDwords: max(len(words), DefaultChunkDwords), chunks: [][]uint32{words}}
}

// WordsFromBytes reads little-endian dwords; the length must be a multiple
// of 4.
func WordsFromBytes(data []byte) ([]uint32, error) {
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("%d bytes is not a whole number of dwords (%d left over at byte %d)", len(data), len(data)%4, len(data)/4*4)
	}
	w := make([]uint32, len(data)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(data[4*i:])
	}
	return w, nil
}
