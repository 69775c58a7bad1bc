package cmdbuf

import (
	"errors"
	"fmt"
)

// Header is a packet's first dword:
//
//	 31          24 23                              8 7             0
//	+--------------+----------------------------------+---------------+
//	|    flags     |     payload length in dwords     |    opcode     |
//	+--------------+----------------------------------+---------------+
//
// The payload follows the header; a packet is 1 + length dwords.
type Header uint32

// MaxPayload is the longest payload a header can describe.
const MaxPayload = 0xffff

// MakeHeader builds a header.
func MakeHeader(op Opcode, flags uint8, payload int) Header {
	return Header(uint32(op) | uint32(payload)<<8 | uint32(flags)<<24)
}

// Op is the opcode field.
func (h Header) Op() Opcode { return Opcode(h) }

// Len is the payload-length field.
func (h Header) Len() int { return int(h>>8) & MaxPayload }

// Flags is the flags field.
func (h Header) Flags() uint8 { return uint8(h >> 24) }

// Header flags.
const (
	// FlagAsync on a CACHE, DECOMPRESS or METADATA_INIT packet runs it in
	// the BLIT stage, ordered like work, instead of synchronously on the CP.
	FlagAsync uint8 = 1
	// FlagChained on a WORK packet continues the WORK before it (same
	// identity, one stage of a multi-stage operation such as a draw): its
	// outputs depend on what that one read, too.
	FlagChained uint8 = 2
	// FlagPlain on a METADATA_INIT packet marks the blocks plain (their
	// bytes are what they hold) instead of cleared to the value.
	FlagPlain uint8 = 4
	// FlagPredicated on a WORK packet makes it conditional: the engine
	// skips it (it reads and writes nothing) while the predicate the last
	// PREDICATION work captured says to skip.
	FlagPredicated uint8 = 16
	// FlagDiscard on a plain METADATA_INIT says the blocks' contents are
	// discarded: nothing is lost by marking them plain; they are undefined
	// until written.
	FlagDiscard uint8 = 8
)

// Errors the decoder wraps; test with errors.Is.
var (
	ErrTruncated     = errors.New("header length runs past the end of the buffer")
	ErrUnknownOpcode = errors.New("unknown opcode")
	ErrPayloadLength = errors.New("wrong payload length for the opcode")
	ErrBadField      = errors.New("field out of range")
)

// DecodeError names the dword offset of the packet and what is wrong.
type DecodeError struct {
	Offset int // dword offset of the header
	Header Header
	Err    error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("dword %d (header 0x%08x): %v", e.Offset, uint32(e.Header), e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Packet is a decoded packet. Payload aliases the decoded words; the typed
// views (Work, Wait, ...) read it without copying.
type Packet struct {
	Offset  int // dword offset of the header
	Header  Header
	Payload []uint32
}

// Op is the packet's opcode.
func (p Packet) Op() Opcode { return p.Header.Op() }

// Size is the packet's length in dwords, header included.
func (p Packet) Size() int { return 1 + len(p.Payload) }

// Async reports the FlagAsync flag.
func (p Packet) Async() bool { return p.Header.Flags()&FlagAsync != 0 }

// payloadLen is, indexed by opcode, its exact payload length plus two (0:
// unknown opcode; 1: variable, checked by Packet.check).
var payloadLen = func() (t [256]int8) {
	for op, n := range map[Opcode]int8{
		OpNop: -1, OpMarker: -1, OpChain: 1, OpWork: -1, OpWait: 2, OpCache: 6, OpDecompress: 5,
		OpMetadataInit: 6, OpEventSignal: 2, OpEventWait: 2, OpFenceSignal: 3, OpFenceWait: 3, OpCall: 1,
	} {
		t[op] = n + 2
	}
	return t
}()

// Decode reads the packet whose header is at words[off]. An unknown opcode
// returns the packet (so the caller can skip it by Size) with an error
// wrapping ErrUnknownOpcode; a header whose length runs past the end returns
// ErrTruncated and no packet. It allocates nothing on success.
func Decode(words []uint32, off int) (Packet, error) {
	if off < 0 || off >= len(words) {
		return Packet{}, &DecodeError{Offset: off, Err: fmt.Errorf("%w: no header at dword %d of %d", ErrTruncated, off, len(words))}
	}
	h := Header(words[off])
	n := h.Len()
	if n > len(words)-off-1 {
		return Packet{}, &DecodeError{off, h, fmt.Errorf("%w: %d payload dwords, %d left", ErrTruncated, n, len(words)-off-1)}
	}
	p := Packet{Offset: off, Header: h, Payload: words[off+1 : off+1+n : off+1+n]}
	want := int(payloadLen[h.Op()]) - 2
	if want < -1 {
		return p, &DecodeError{off, h, fmt.Errorf("%w 0x%02x (%d payload dwords skipped)", ErrUnknownOpcode, uint8(h.Op()), n)}
	}
	if want >= 0 && n != want {
		return p, &DecodeError{off, h, fmt.Errorf("%w: %s has %d payload dwords, got %d", ErrPayloadLength, h.Op(), want, n)}
	}
	if err := p.check(); err != nil {
		return p, &DecodeError{off, h, err}
	}
	return p, nil
}

// Valid reports whether Decode(words, off) would succeed, and the
// packet's size in dwords if so (0 if not): the check without the
// decoded Packet or an error to build, for a caller that reads many
// short packets (ebref checks every translator reply, the reference's
// included, with it). Decode says what is wrong with an invalid one.
func Valid(words []uint32, off int) int {
	if off < 0 || off >= len(words) {
		return 0
	}
	h := Header(words[off])
	n, op := h.Len(), h.Op()
	want := int(payloadLen[op]) - 2
	if n > len(words)-off-1 || want < -1 || want >= 0 && n != want || h.Flags()&^flagsAllowed[op] != 0 {
		return 0
	}
	q := words[off+1 : off+1+n]
	switch op {
	case OpWait:
		if (StageMask(q[0])|StageMask(q[1]))&^AllStages != 0 {
			return 0
		}
	case OpCache:
		if (CacheMask(q[0])|CacheMask(q[1]))&^AllCaches != 0 {
			return 0
		}
	case OpMetadataInit:
		if q[1] > 0xff {
			return 0
		}
	case OpEventSignal, OpEventWait:
		if StageMask(q[1])&^AllStages != 0 {
			return 0
		}
	case OpMarker, OpWork:
		if (Packet{Offset: off, Header: h, Payload: q}).check() != nil {
			return 0
		}
	}
	return 1 + n
}

// flagsAllowed lists, per opcode, the header flags it defines.
var flagsAllowed = [256]uint8{OpWork: FlagChained | FlagPredicated, OpCache: FlagAsync, OpDecompress: FlagAsync,
	OpMetadataInit: FlagAsync | FlagPlain | FlagDiscard}

func (p Packet) check() error {
	if f := p.Header.Flags() &^ flagsAllowed[p.Op()]; f != 0 {
		return fmt.Errorf("%w: flags 0x%02x are not defined for %s", ErrBadField, f, p.Op())
	}
	switch p.Op() {
	case OpMarker:
		if len(p.Payload) < 2 {
			return fmt.Errorf("%w: MARKER needs a tag and a text length", ErrPayloadLength)
		}
		if n := int(p.Payload[1]); (n+3)/4 != len(p.Payload)-2 {
			return fmt.Errorf("%w: MARKER text of %d bytes needs %d dwords, got %d", ErrPayloadLength, n, (n+3)/4, len(p.Payload)-2)
		}
	case OpWork:
		if len(p.Payload) < workHeaderDwords {
			return fmt.Errorf("%w: WORK needs %d header dwords", ErrPayloadLength, workHeaderDwords)
		}
		w := p.Work()
		if want := workHeaderDwords + accessDwords*w.NumAccesses; len(p.Payload) != want {
			return fmt.Errorf("%w: WORK with %d accesses has %d payload dwords, got %d", ErrPayloadLength, w.NumAccesses, want, len(p.Payload))
		}
		if w.Kind >= NumWorkKinds {
			return fmt.Errorf("%w: work kind %d", ErrBadField, w.Kind)
		}
		if w.Stage >= NumStages {
			return fmt.Errorf("%w: stage %d", ErrBadField, w.Stage)
		}
		for i := 0; i < w.NumAccesses; i++ {
			a := p.Access(i)
			if a.Dir != DirRead && a.Dir != DirWrite {
				return fmt.Errorf("%w: access %d direction %d", ErrBadField, i, a.Dir)
			}
			if a.Client >= NumClients {
				return fmt.Errorf("%w: access %d client %d", ErrBadField, i, a.Client)
			}
			if a.Size == 0 {
				return fmt.Errorf("%w: access %d is empty", ErrBadField, i)
			}
			if a.End() < a.Addr {
				return fmt.Errorf("%w: access %d (0x%x+0x%x) runs past the end of the address space", ErrBadField, i, a.Addr, a.Size)
			}
		}
	case OpWait:
		w := p.Wait()
		if w.Drain&^AllStages != 0 || w.Hold&^AllStages != 0 {
			return fmt.Errorf("%w: stage mask drain=0x%x hold=0x%x", ErrBadField, uint32(w.Drain), uint32(w.Hold))
		}
	case OpCache:
		c := p.Cache()
		if c.Flush&^AllCaches != 0 || c.Invalidate&^AllCaches != 0 {
			return fmt.Errorf("%w: cache mask flush=0x%x inval=0x%x", ErrBadField, uint32(c.Flush), uint32(c.Invalidate))
		}
	case OpMetadataInit:
		if p.Payload[1] > 0xff {
			return fmt.Errorf("%w: metadata value 0x%x is not a byte", ErrBadField, p.Payload[1])
		}
	case OpEventSignal, OpEventWait:
		if p.Event().Stages&^AllStages != 0 {
			return fmt.Errorf("%w: stage mask 0x%x", ErrBadField, uint32(p.Event().Stages))
		}
	}
	return nil
}

func u64(lo, hi uint32) uint64 { return uint64(lo) | uint64(hi)<<32 }

// Marker is a MARKER packet: a tag for tools (ebref's driver puts the barrier
// call and index there) and a text label.
type Marker struct {
	Tag  uint32
	Text string
}

// MarkerTag returns a MARKER packet's tag without touching its text.
func (p Packet) MarkerTag() uint32 { return p.Payload[0] }

// AppendMarkerText appends a MARKER packet's text to dst (no allocation when
// dst has room).
func (p Packet) AppendMarkerText(dst []byte) []byte {
	n := int(p.Payload[1])
	for i := 0; i < n; i++ {
		dst = append(dst, byte(p.Payload[2+i/4]>>(8*(i%4))))
	}
	return dst
}

// Marker decodes a MARKER packet (allocating its text).
func (p Packet) Marker() Marker {
	return Marker{Tag: p.Payload[0], Text: string(p.AppendMarkerText(nil))}
}

// Chain is a CHAIN packet: the rest of the buffer is in chunk Next.
type Chain struct{ Next uint32 }

// Chain decodes a CHAIN packet.
func (p Packet) Chain() Chain { return Chain{p.Payload[0]} }

// A WORK packet's payload is its fixed part, then its accesses:
//
//	dword 0      kind (7:0), stage (15:8), access count (23:16)
//	dword 1      duration in cycles
//	dword 2      identity
//	dword 3      parameter
//	per access   address low, address high, size low, size high, attributes:
//	             direction (1:0), compressed (2), client (15:8), surface (31:16)
//
// Sizes are 64-bit, as addresses are: one access covers any range of the
// address space, so no size is ever cut (a 32-bit size field cut work of
// 4 GiB or more; see docs/hardware.md "Packets").
const (
	workHeaderDwords = 4
	accessDwords     = 5
	// MaxAccesses is the most accesses one WORK packet carries.
	MaxAccesses = 255
)

// AccessAttrDword is the dword offset, from a WORK packet's header, of its
// i-th access's attribute dword (a driver patches the compressed bit there
// when it learns a layout at submission).
func AccessAttrDword(i int) int { return 1 + workHeaderDwords + accessDwords*i + accessDwords - 1 }

// AttrCompressed is the compressed bit of an access's attribute dword.
const AttrCompressed = 4

// Work is a WORK packet's fixed part.
type Work struct {
	Kind        WorkKind
	Stage       Stage
	NumAccesses int
	Duration    uint32 // cycles the work occupies its stage
	ID          uint32 // the work's identity, which its output depends on
	Param       uint32 // kind-specific: a clear's fill pattern
	Chained     bool   // continues the previous WORK (FlagChained)
	Predicated  bool   // skipped while the predicate says so (FlagPredicated)
}

// Work decodes a WORK packet's fixed part; Access(i) reads its accesses.
func (p Packet) Work() Work {
	w0 := p.Payload[0]
	return Work{Kind: WorkKind(w0), Stage: Stage(w0 >> 8), NumAccesses: int(uint8(w0 >> 16)),
		Duration: p.Payload[1], ID: p.Payload[2], Param: p.Payload[3], Chained: p.Header.Flags()&FlagChained != 0,
		Predicated: p.Header.Flags()&FlagPredicated != 0}
}

// Access is one memory access of a WORK packet: a byte range, its direction,
// the client it goes through, and the compression surface it touches
// (0: plain memory). Compressed says the access uses the surface's
// compression: a read decodes, a write compresses — if the client can.
type Access struct {
	Addr       uint64
	Size       uint64
	Dir        Dir
	Compressed bool
	Client     Client
	Surface    uint16
}

// End is the first byte after the access.
func (a Access) End() uint64 { return a.Addr + a.Size }

// Access decodes the i-th access of a WORK packet.
func (p Packet) Access(i int) Access {
	q := p.Payload[workHeaderDwords+accessDwords*i:]
	attr := q[4]
	return Access{Addr: u64(q[0], q[1]), Size: u64(q[2], q[3]), Dir: Dir(attr & 3), Compressed: attr&AttrCompressed != 0,
		Client: Client(attr >> 8), Surface: uint16(attr >> 16)}
}

// Wait is a WAIT packet: work issued later in Hold stages does not start
// until all work issued earlier in Drain stages has completed.
type Wait struct {
	Drain StageMask
	Hold  StageMask
}

// Wait decodes a WAIT packet.
func (p Packet) Wait() Wait { return Wait{StageMask(p.Payload[0]), StageMask(p.Payload[1])} }

// CacheOp is a CACHE packet: write back the dirty lines of the Flush caches,
// then drop the lines of the Invalidate caches, limited to [Addr, Addr+Size)
// unless Size is 0.
type CacheOp struct {
	Flush      CacheMask
	Invalidate CacheMask
	Addr       uint64
	Size       uint64
}

// Cache decodes a CACHE packet.
func (p Packet) Cache() CacheOp {
	q := p.Payload
	return CacheOp{CacheMask(q[0]), CacheMask(q[1]), u64(q[2], q[3]), u64(q[4], q[5])}
}

// SurfaceRegion is a byte range of a compression surface, as DECOMPRESS and
// METADATA_INIT name it.
type SurfaceRegion struct {
	Surface uint16
	Offset  uint64
	Size    uint64
	Value   uint8 // METADATA_INIT: what reads return afterwards
	Plain   bool  // METADATA_INIT: mark the blocks plain instead (FlagPlain)
	Discard bool  // METADATA_INIT, plain: their contents are discarded (FlagDiscard)
}

// Decompress decodes a DECOMPRESS packet.
func (p Packet) Decompress() SurfaceRegion {
	q := p.Payload
	return SurfaceRegion{Surface: uint16(q[0]), Offset: u64(q[1], q[2]), Size: u64(q[3], q[4])}
}

// MetadataInit decodes a METADATA_INIT packet.
func (p Packet) MetadataInit() SurfaceRegion {
	q := p.Payload
	return SurfaceRegion{Surface: uint16(q[0]), Value: uint8(q[1]), Offset: u64(q[2], q[3]), Size: u64(q[4], q[5]),
		Plain: p.Header.Flags()&FlagPlain != 0, Discard: p.Header.Flags()&FlagDiscard != 0}
}

// Event is an EVENT_SIGNAL (Stages: the stages whose work so far the event
// covers) or EVENT_WAIT (Stages: the later stages it holds).
type Event struct {
	ID     uint32
	Stages StageMask
}

// Event decodes an EVENT_SIGNAL or EVENT_WAIT packet.
func (p Packet) Event() Event { return Event{p.Payload[0], StageMask(p.Payload[1])} }

// Fence is a FENCE_SIGNAL or FENCE_WAIT packet.
type Fence struct {
	ID    uint32
	Value uint64
}

// Fence decodes a FENCE_SIGNAL or FENCE_WAIT packet.
func (p Packet) Fence() Fence { return Fence{p.Payload[0], u64(p.Payload[1], p.Payload[2])} }

// Call is a CALL packet: run buffer Buffer, then continue.
type Call struct{ Buffer uint32 }

// Call decodes a CALL packet.
func (p Packet) Call() Call { return Call{p.Payload[0]} }

// The encoders append a packet to dst and return the extended slice; they
// allocate only when dst must grow.

// AppendNop appends a NOP with n payload dwords of zero.
func AppendNop(dst []uint32, n int) []uint32 {
	dst = append(dst, uint32(MakeHeader(OpNop, 0, n)))
	for i := 0; i < n; i++ {
		dst = append(dst, 0)
	}
	return dst
}

// AppendMarker appends a MARKER.
func AppendMarker(dst []uint32, tag uint32, text string) []uint32 {
	nw := (len(text) + 3) / 4
	dst = append(dst, uint32(MakeHeader(OpMarker, 0, 2+nw)), tag, uint32(len(text)))
	for ; len(text) >= 4; text = text[4:] {
		dst = append(dst, uint32(text[0])|uint32(text[1])<<8|uint32(text[2])<<16|uint32(text[3])<<24)
	}
	if len(text) > 0 {
		var w uint32
		for j := range len(text) {
			w |= uint32(text[j]) << (8 * j)
		}
		dst = append(dst, w)
	}
	return dst
}

// AppendChain appends a CHAIN.
func AppendChain(dst []uint32, c Chain) []uint32 {
	return append(dst, uint32(MakeHeader(OpChain, 0, 1)), c.Next)
}

// AppendWork appends a WORK packet. A list longer than MaxAccesses becomes
// consecutive WORK packets of the same kind, stage, identity and parameter,
// each with at most MaxAccesses-1 accesses (an even number, so the
// read/write pairs of a copy stay together) and its share of the duration;
// the later ones are chained to the first.
func AppendWork(dst []uint32, w Work, accesses ...Access) []uint32 {
	const chunk = MaxAccesses - 1
	parts := max(1, (len(accesses)+chunk-1)/chunk)
	for i := 0; i < parts; i++ {
		part := accesses[i*chunk : min(len(accesses), (i+1)*chunk)]
		if parts == 1 {
			part = accesses
		}
		dur := w.Duration / uint32(parts)
		if i == 0 {
			dur += w.Duration % uint32(parts)
		}
		var flags uint8
		if w.Chained || i > 0 {
			flags = FlagChained
		}
		if w.Predicated {
			flags |= FlagPredicated
		}
		dst = append(dst, uint32(MakeHeader(OpWork, flags, workHeaderDwords+accessDwords*len(part))),
			uint32(w.Kind)|uint32(w.Stage)<<8|uint32(len(part))<<16, dur, w.ID, w.Param)
		for _, a := range part {
			attr := uint32(a.Dir&3) | uint32(a.Client)<<8 | uint32(a.Surface)<<16
			if a.Compressed {
				attr |= AttrCompressed
			}
			dst = append(dst, uint32(a.Addr), uint32(a.Addr>>32), uint32(a.Size), uint32(a.Size>>32), attr)
		}
	}
	return dst
}

// AppendWait appends a WAIT.
func AppendWait(dst []uint32, w Wait) []uint32 {
	return append(dst, uint32(MakeHeader(OpWait, 0, 2)), uint32(w.Drain), uint32(w.Hold))
}

func flagsOf(async bool) uint8 {
	if async {
		return FlagAsync
	}
	return 0
}

// AppendCache appends a CACHE packet.
func AppendCache(dst []uint32, c CacheOp, async bool) []uint32 {
	return append(dst, uint32(MakeHeader(OpCache, flagsOf(async), 6)), uint32(c.Flush), uint32(c.Invalidate),
		uint32(c.Addr), uint32(c.Addr>>32), uint32(c.Size), uint32(c.Size>>32))
}

// AppendDecompress appends a DECOMPRESS packet.
func AppendDecompress(dst []uint32, r SurfaceRegion, async bool) []uint32 {
	return append(dst, uint32(MakeHeader(OpDecompress, flagsOf(async), 5)), uint32(r.Surface),
		uint32(r.Offset), uint32(r.Offset>>32), uint32(r.Size), uint32(r.Size>>32))
}

// AppendMetadataInit appends a METADATA_INIT packet.
func AppendMetadataInit(dst []uint32, r SurfaceRegion, async bool) []uint32 {
	flags := flagsOf(async)
	if r.Plain {
		flags |= FlagPlain
	}
	if r.Discard {
		flags |= FlagDiscard
	}
	return append(dst, uint32(MakeHeader(OpMetadataInit, flags, 6)), uint32(r.Surface), uint32(r.Value),
		uint32(r.Offset), uint32(r.Offset>>32), uint32(r.Size), uint32(r.Size>>32))
}

// AppendEventSignal appends an EVENT_SIGNAL.
func AppendEventSignal(dst []uint32, e Event) []uint32 {
	return append(dst, uint32(MakeHeader(OpEventSignal, 0, 2)), e.ID, uint32(e.Stages))
}

// AppendEventWait appends an EVENT_WAIT.
func AppendEventWait(dst []uint32, e Event) []uint32 {
	return append(dst, uint32(MakeHeader(OpEventWait, 0, 2)), e.ID, uint32(e.Stages))
}

// AppendFenceSignal appends a FENCE_SIGNAL.
func AppendFenceSignal(dst []uint32, f Fence) []uint32 {
	return append(dst, uint32(MakeHeader(OpFenceSignal, 0, 3)), f.ID, uint32(f.Value), uint32(f.Value>>32))
}

// AppendFenceWait appends a FENCE_WAIT.
func AppendFenceWait(dst []uint32, f Fence) []uint32 {
	return append(dst, uint32(MakeHeader(OpFenceWait, 0, 3)), f.ID, uint32(f.Value), uint32(f.Value>>32))
}

// AppendCall appends a CALL.
func AppendCall(dst []uint32, c Call) []uint32 {
	return append(dst, uint32(MakeHeader(OpCall, 0, 1)), c.Buffer)
}
