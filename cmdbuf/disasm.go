package cmdbuf

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Line is one disassembled packet (or one problem found while decoding).
type Line struct {
	Offset int    `json:"offset"` // dword offset from the start of the buffer, chunks concatenated
	Depth  int    `json:"depth"`  // CALL nesting: 0 for the top buffer
	Op     string `json:"op"`
	Text   string `json:"text"`            // the packet's named fields, as the text listing prints them
	Error  string `json:"error,omitempty"` // what is wrong, for bad packets
}

// MaxCallDepth bounds CALL nesting in listings and in execution.
const MaxCallDepth = 8

// MaxCalledPackets bounds what CALLs expand to: the packets of called
// buffers one listing lists, or one batch executes. Nesting alone does not
// bound it (eight CALLs of a buffer of eight CALLs, eight deep, are 8^8
// packets from 64 bytes).
const MaxCalledPackets = 1 << 20

// ErrCallExpansion is the error of a listing whose CALLs expand past
// MaxCalledPackets packets.
var ErrCallExpansion = errors.New("CALLs expand to too many packets")

// Resolver finds the buffer a CALL names.
type Resolver func(id uint32) (*Buffer, bool)

// Listing disassembles b, expanding CALLs through resolve (nil: CALLs are
// listed, not expanded). It never fails: problems are lines with Error set,
// a header whose length runs past the buffer ends its buffer's listing, and
// expansion past MaxCalledPackets ends the listing with a line saying so.
// WalkListing streams the same lines without holding them.
func Listing(b *Buffer, resolve Resolver) []Line {
	var out []Line
	err := WalkListing(b, resolve, func(l Line) error { out = append(out, l); return nil })
	if errors.Is(err, ErrCallExpansion) {
		out = append(out, Line{Op: "CALL", Error: err.Error()})
	}
	return out
}

// WalkListing calls f with each line of b's listing, in order, expanding
// CALLs through resolve. It stops at f's first error and returns it, or
// with an error wrapping ErrCallExpansion (naming the limit) once the
// called buffers have given MaxCalledPackets lines.
func WalkListing(b *Buffer, resolve Resolver, f func(Line) error) error {
	called := 0
	return listing(b, resolve, 0, &called, f)
}

func listing(b *Buffer, resolve Resolver, depth int, called *int, f func(Line) error) error {
	base := 0
	chunkBase := make([]int, len(b.chunks))
	for i, c := range b.chunks {
		chunkBase[i] = base
		base += len(c)
	}
	emit := func(l Line) error {
		if depth > 0 {
			if *called >= MaxCalledPackets {
				return fmt.Errorf("%w: more than %d packets of called buffers", ErrCallExpansion, MaxCalledPackets)
			}
			*called++
		}
		return f(l)
	}
	return b.Walk(func(chunk int, p Packet, err error) error {
		off := chunkBase[chunk] + p.Offset
		if err != nil {
			var de *DecodeError
			if errors.As(err, &de) {
				off = chunkBase[chunk] + de.Offset
				p.Header = de.Header // a truncated packet has only its header
			}
			op := p.Op().String()
			if errors.Is(err, ErrTruncated) {
				op = "TRUNCATED"
			} else if errors.Is(err, ErrUnknownOpcode) {
				op = "UNKNOWN"
			}
			return emit(Line{Offset: off, Depth: depth, Op: op, Text: describeBad(p, err), Error: err.Error()})
		}
		if err := emit(Line{Offset: off, Depth: depth, Op: p.Op().String(), Text: Describe(p)}); err != nil {
			return err
		}
		if p.Op() != OpCall || resolve == nil {
			return nil
		}
		id := p.Call().Buffer
		switch callee, ok := resolve(id); {
		case !ok:
			return emit(Line{Offset: off, Depth: depth + 1, Op: "CALL", Text: fmt.Sprintf("buffer=%d", id),
				Error: fmt.Sprintf("no buffer %d", id)})
		case depth+1 >= MaxCallDepth:
			return emit(Line{Offset: off, Depth: depth + 1, Op: "CALL", Text: fmt.Sprintf("buffer=%d", id),
				Error: fmt.Sprintf("calls nested deeper than %d", MaxCallDepth)})
		default:
			return listing(callee, resolve, depth+1, called, f)
		}
	})
}

func describeBad(p Packet, err error) string {
	switch {
	case errors.Is(err, ErrTruncated):
		return fmt.Sprintf("header=0x%08x len=%d", uint32(p.Header), p.Header.Len())
	case errors.Is(err, ErrUnknownOpcode):
		return fmt.Sprintf("opcode=0x%02x len=%d (skipped)", uint8(p.Op()), len(p.Payload))
	}
	return fmt.Sprintf("len=%d", len(p.Payload))
}

func rangeText(addr, size uint64) string { return fmt.Sprintf("0x%x+0x%x", addr, size) }

// Describe prints a well-formed packet's fields, e.g.
// "drain=PIXEL|COMPUTE hold=ALL" for a WAIT.
func Describe(p Packet) string {
	async := ""
	if p.Async() {
		async = "async "
	}
	switch p.Op() {
	case OpNop:
		return fmt.Sprintf("n=%d", len(p.Payload))
	case OpMarker:
		m := p.Marker()
		return fmt.Sprintf("tag=0x%08x %q", m.Tag, m.Text)
	case OpChain:
		return fmt.Sprintf("next=%d", p.Chain().Next)
	case OpWork:
		w := p.Work()
		var s strings.Builder
		fmt.Fprintf(&s, "%s stage=%s dur=%d id=%d", w.Kind, w.Stage, w.Duration, w.ID)
		if w.Chained {
			s.WriteString(" chained")
		}
		if w.Predicated {
			s.WriteString(" predicated")
		}
		if w.Param != 0 {
			fmt.Fprintf(&s, " param=0x%x", w.Param)
		}
		for i := 0; i < w.NumAccesses; i++ {
			a := p.Access(i)
			fmt.Fprintf(&s, " [%s %s %s", a.Dir, rangeText(a.Addr, uint64(a.Size)), a.Client)
			if a.Surface != 0 {
				fmt.Fprintf(&s, " surf=%d", a.Surface)
			}
			if a.Compressed {
				s.WriteString(" compressed")
			}
			s.WriteByte(']')
		}
		return s.String()
	case OpWait:
		w := p.Wait()
		return fmt.Sprintf("drain=%s hold=%s", w.Drain, w.Hold)
	case OpCache:
		c := p.Cache()
		s := async + fmt.Sprintf("flush=%s inval=%s", c.Flush, c.Invalidate)
		if c.Size != 0 {
			s += " range=" + rangeText(c.Addr, c.Size)
		}
		return s
	case OpDecompress:
		r := p.Decompress()
		return async + fmt.Sprintf("surf=%d range=%s", r.Surface, rangeText(r.Offset, r.Size))
	case OpMetadataInit:
		r := p.MetadataInit()
		switch {
		case r.Plain && r.Discard:
			return async + fmt.Sprintf("surf=%d plain discard range=%s", r.Surface, rangeText(r.Offset, r.Size))
		case r.Plain:
			return async + fmt.Sprintf("surf=%d plain range=%s", r.Surface, rangeText(r.Offset, r.Size))
		}
		return async + fmt.Sprintf("surf=%d value=0x%02x range=%s", r.Surface, r.Value, rangeText(r.Offset, r.Size))
	case OpEventSignal:
		e := p.Event()
		return fmt.Sprintf("event=%d drain=%s", e.ID, e.Stages)
	case OpEventWait:
		e := p.Event()
		return fmt.Sprintf("event=%d hold=%s", e.ID, e.Stages)
	case OpFenceSignal, OpFenceWait:
		f := p.Fence()
		return fmt.Sprintf("fence=%d value=%d", f.ID, f.Value)
	case OpCall:
		return fmt.Sprintf("buffer=%d", p.Call().Buffer)
	}
	return fmt.Sprintf("len=%d", len(p.Payload))
}

// WriteListing prints a listing, one line per packet: the dword offset (in
// decimal, as decode errors give it), the
// opcode and its fields, indented two spaces per CALL level, problems after
// "!".
func WriteListing(w io.Writer, lines []Line) error {
	for _, l := range lines {
		if err := WriteLine(w, l); err != nil {
			return err
		}
	}
	return nil
}

// WriteLine writes one line of a listing as WriteListing does.
func WriteLine(w io.Writer, l Line) error {
	indent := strings.Repeat("  ", l.Depth)
	s := fmt.Sprintf("%6d  %s%s %s", l.Offset, indent, l.Op, l.Text)
	if l.Error != "" {
		s += " ! " + l.Error
	}
	_, err := fmt.Fprintln(w, strings.TrimRight(s, " "))
	return err
}
