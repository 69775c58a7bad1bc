package translator

import (
	"encoding/binary"
	"fmt"
	"io"
	"reflect"
	"slices"
	"unsafe"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

// The protocol, version 2 (docs/translators.md has it byte by byte). All
// integers are little-endian; every structure is a multiple of 4 bytes.
//
//	host → translator   Hello{Magic, Version, 0, 0}
//	translator → host   Hello{Magic, Version, NameLen, 0} name, padded to 4
//	then frames, each {Op, Size} and Size bytes of body:
//	host → translator   OpProfile   a profile under a number: its facts,
//	                                its costs and its profile file
//
// Version 2 added the costs and the file to the profile frame, so a
// translator sees all the model enforces; a version 1 translator is
// refused at the hello.
//
//	host → translator   OpRequest   one Barrier call
//	translator → host   OpReply     packets, or a refusal, for the request
//
// The host sends a profile before the first request that names it, and
// may send several requests before it reads their replies (Pipeline): a
// translator answers each once, in order, and writes each reply out
// before it blocks reading another frame. Closing the translator's
// standard input ends the session.
const (
	Magic   = 0x52544245 // "EBTR"
	Version = 2

	OpProfile uint32 = 1
	OpRequest uint32 = 2
	OpReply   uint32 = 3

	ReplyPackets uint32 = 0
	ReplyRefusal uint32 = 1

	// Sizes of the fixed parts.
	HelloSize         = 16
	FrameHeaderSize   = 8
	ProfileHeaderSize = 64
	CacheEntrySize    = 16
	CostsSize         = 64 // eight uint64, hwmodel.Costs's fields in order
	RequestHeaderSize = 64
	FactSize          = 96
	RegionSize        = 16
	RangeSize         = 16
	ResidentSize      = 24
	ReplyHeaderSize   = 8

	// Limits a reader enforces before it allocates.
	MaxNameLen      = 256
	MaxReplyDwords  = 1 << 20 // 4 MiB of packets for one call
	MaxReasonLen    = 4096
	MaxRequestBytes = 256 << 20
	MaxProfileBytes = hwmodel.MaxProfileFileBytes + 4096
	// MaxDumpBytes bounds a file of requests a failed call left
	// (`ebref translator replay`): a request, those written with it, and
	// their profiles' frames.
	MaxDumpBytes = MaxRequestBytes + PipelineBytes + 64*MaxProfileBytes

	// CacheShared and CacheReadOnly are a cache entry's flags.
	CacheShared   = 1
	CacheReadOnly = 2
	// CompressRenderTarget, CompressDepthStencil and CompressUnorderedAccess
	// are a profile's Compresses bits.
	CompressRenderTarget    = 1
	CompressDepthStencil    = 2
	CompressUnorderedAccess = 4
	// MemoryCache is the cache number that stands for memory (no cache).
	MemoryCache = uint32(hwmodel.Memory)
)

// The Go structures are the wire's: checked here by the compiler.
var (
	_ [FactSize - unsafe.Sizeof(Fact{})]byte
	_ [unsafe.Sizeof(Fact{}) - FactSize]byte
	_ [RegionSize - unsafe.Sizeof(Region{})]byte
	_ [ResidentSize - unsafe.Sizeof(Resident{})]byte
	_ [RangeSize - unsafe.Sizeof(Range{})]byte
)

var le = binary.LittleEndian

// WireError is a protocol violation: what was wrong, and where (the byte
// offset in the frame's body, -1 for none).
type WireError struct {
	Frame  string
	Offset int
	Msg    string
}

func (e *WireError) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %s", e.Frame, e.Msg)
	}
	return fmt.Sprintf("%s at byte %d: %s", e.Frame, e.Offset, e.Msg)
}

func wireErr(frame string, off int, format string, args ...any) error {
	return &WireError{Frame: frame, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// AppendHello appends the host's hello.
func AppendHello(dst []byte) []byte {
	dst = le.AppendUint32(dst, Magic)
	dst = le.AppendUint32(dst, Version)
	return append(dst, make([]byte, 8)...)
}

// readHello reads a hello's fixed part: the version and the name length.
func readHello(r io.Reader, who string) (version, nameLen, flags uint32, err error) {
	var b [HelloSize]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return 0, 0, 0, fmt.Errorf("%s's hello: %w", who, err)
	}
	if m := le.Uint32(b[0:]); m != Magic {
		return 0, 0, 0, wireErr(who+"'s hello", 0, "magic %#08x, not %#08x (%q)", m, Magic, b[:])
	}
	return le.Uint32(b[4:]), le.Uint32(b[8:]), le.Uint32(b[12:]), nil
}

// AppendPolicy appends an OpPolicy frame: profile id's policy, or (not
// declared) the reference's table.
func AppendPolicy(dst []byte, id uint32, p Policy, declared bool) []byte {
	dst = appendFrameHeader(dst, OpPolicy, PolicySize)
	d := uint32(0)
	if declared {
		d = 1
	}
	dst = le.AppendUint32(le.AppendUint32(dst, id), d)
	for _, m := range []uint64{p.RenderTarget, p.DepthStencil, p.UnorderedAccess} {
		dst = le.AppendUint64(dst, m)
	}
	return dst
}

// DecodePolicy reads an OpPolicy body.
func DecodePolicy(b []byte) (id uint32, p Policy, declared bool, err error) {
	if len(b) != PolicySize {
		return 0, p, false, wireErr("policy frame", len(b), "%d bytes; a policy is %d", len(b), PolicySize)
	}
	if d := le.Uint32(b[4:]); d > 1 {
		return 0, p, false, wireErr("policy frame", 4, "declared is %d, not 0 or 1", d)
	}
	p = Policy{RenderTarget: le.Uint64(b[8:]), DepthStencil: le.Uint64(b[16:]), UnorderedAccess: le.Uint64(b[24:])}
	return le.Uint32(b), p, le.Uint32(b[4:]) == 1, nil
}

// appendFrameHeader appends a frame's opcode and body size.
func appendFrameHeader(dst []byte, op uint32, size int) []byte {
	dst = le.AppendUint32(dst, op)
	return le.AppendUint32(dst, uint32(size))
}

// AppendProfile appends an OpProfile frame: profile p under number id —
// its facts as fixed structures, its costs, and its profile file
// (hwmodel.Profile.MarshalFile), which says the same and more (the
// description and sources) in the form a profile author writes.
func AppendProfile(dst []byte, id uint32, p *hwmodel.Profile) []byte {
	file := p.MarshalFile()
	fixed := ProfileHeaderSize + len(p.Caches)*CacheEntrySize + int(hwmodel.NumEngineKinds)*int(cmdbuf.NumClients)*4 + int(hwmodel.NumEngineKinds)*4
	size := fixed + CostsSize + (len(file)+3)&^3
	dst = appendFrameHeader(dst, OpProfile, size)
	var c uint32
	if p.Compresses.RenderTarget {
		c |= CompressRenderTarget
	}
	if p.Compresses.DepthStencil {
		c |= CompressDepthStencil
	}
	if p.Compresses.UnorderedAccess {
		c |= CompressUnorderedAccess
	}
	for _, v := range []uint32{id, uint32(len(p.Caches)), uint32(hwmodel.NumEngineKinds), uint32(cmdbuf.NumClients), c, uint32(len(file)), 0, 0} {
		dst = le.AppendUint32(dst, v)
	}
	var name [32]byte
	copy(name[:31], p.Name)
	dst = append(dst, name[:]...)
	for _, s := range p.Caches {
		var f uint32
		if s.Shared {
			f |= CacheShared
		}
		if s.ReadOnly {
			f |= CacheReadOnly
		}
		dst = le.AppendUint32(dst, uint32(s.Kind))
		dst = le.AppendUint32(dst, uint32(s.Parent))
		dst = le.AppendUint32(dst, f)
		dst = le.AppendUint32(dst, 0)
	}
	for e := range p.Route {
		for _, k := range p.Route[e] {
			dst = le.AppendUint32(dst, uint32(k))
		}
	}
	for e := range p.Aware {
		var m uint32
		for c, a := range p.Aware[e] {
			if a {
				m |= 1 << c
			}
		}
		dst = le.AppendUint32(dst, m)
	}
	costs := p.Costs
	for _, v := range []uint64{costs.Packet, costs.WaitBase, costs.CacheOpBase, costs.FlushPerLine, costs.InvalPerLine,
		costs.DecompressPerKB, costs.MetadataPerByte, costs.BatchEndBase} {
		dst = le.AppendUint64(dst, v)
	}
	dst = append(dst, file...)
	return append(dst, make([]byte, (4-len(file)%4)%4)...)
}

// DecodeProfile reads an OpProfile body: the profile's number, and the
// profile its file gives (hwmodel.ParseProfile, which validates it), which
// must say exactly what the fixed structures and costs say.
func DecodeProfile(b []byte) (uint32, *hwmodel.Profile, error) {
	const frame = "profile frame"
	if len(b) < ProfileHeaderSize {
		return 0, nil, wireErr(frame, len(b), "%d bytes, shorter than its %d-byte header", len(b), ProfileHeaderSize)
	}
	id, nc, ne, ncl, comp, fl := le.Uint32(b), le.Uint32(b[4:]), le.Uint32(b[8:]), le.Uint32(b[12:]), le.Uint32(b[16:]), le.Uint32(b[20:])
	if ne != uint32(hwmodel.NumEngineKinds) || ncl != uint32(cmdbuf.NumClients) {
		return 0, nil, wireErr(frame, 8, "%d engines and %d clients; version %d has %d and %d", ne, ncl, Version, hwmodel.NumEngineKinds, cmdbuf.NumClients)
	}
	if nc > uint32(cmdbuf.NumCaches) {
		return 0, nil, wireErr(frame, 4, "%d caches; there are %d kinds", nc, cmdbuf.NumCaches)
	}
	if fl > hwmodel.MaxProfileFileBytes {
		return 0, nil, wireErr(frame, 20, "a profile file of %d bytes; at most %d", fl, hwmodel.MaxProfileFileBytes)
	}
	fixed := ProfileHeaderSize + int(nc)*CacheEntrySize + int(ne)*int(ncl)*4 + int(ne)*4
	want := fixed + CostsSize + (int(fl)+3)&^3
	if len(b) != want {
		return 0, nil, wireErr(frame, len(b), "%d bytes; %d caches and a %d-byte file make it %d", len(b), nc, fl, want)
	}
	name := b[32:64]
	n := 0
	for n < len(name) && name[n] != 0 {
		n++
	}
	p := &hwmodel.Profile{Name: string(name[:n])}
	p.Compresses.RenderTarget = comp&CompressRenderTarget != 0
	p.Compresses.DepthStencil = comp&CompressDepthStencil != 0
	p.Compresses.UnorderedAccess = comp&CompressUnorderedAccess != 0
	off := ProfileHeaderSize
	for i := uint32(0); i < nc; i++ {
		k, parent, f := le.Uint32(b[off:]), le.Uint32(b[off+4:]), le.Uint32(b[off+8:])
		if k >= uint32(cmdbuf.NumCaches) || parent >= uint32(cmdbuf.NumCaches) && parent != MemoryCache {
			return 0, nil, wireErr(frame, off, "cache %d: kind %d, parent %d", i, k, parent)
		}
		p.Caches = append(p.Caches, hwmodel.CacheSpec{Kind: cmdbuf.Cache(k), Parent: cmdbuf.Cache(parent),
			Shared: f&CacheShared != 0, ReadOnly: f&CacheReadOnly != 0})
		off += CacheEntrySize
	}
	for e := range p.Route {
		for c := range p.Route[e] {
			k := le.Uint32(b[off:])
			if k >= uint32(cmdbuf.NumCaches) && k != MemoryCache {
				return 0, nil, wireErr(frame, off, "%s %s routes to cache %d", hwmodel.EngineKind(e), cmdbuf.Client(c), k)
			}
			p.Route[e][c] = cmdbuf.Cache(k)
			off += 4
		}
	}
	for e := range p.Aware {
		m := le.Uint32(b[off:])
		for c := range p.Aware[e] {
			p.Aware[e][c] = m&(1<<c) != 0
		}
		off += 4
	}
	costs := &p.Costs
	for _, f := range []*uint64{&costs.Packet, &costs.WaitBase, &costs.CacheOpBase, &costs.FlushPerLine, &costs.InvalPerLine,
		&costs.DecompressPerKB, &costs.MetadataPerByte, &costs.BatchEndBase} {
		*f = le.Uint64(b[off:])
		off += 8
	}
	if err := p.Validate(); err != nil {
		return 0, nil, wireErr(frame, -1, "%v", err)
	}
	fileOff := off
	fromFile, err := hwmodel.ParseProfile("the frame's profile file", b[off:off+int(fl)])
	if err != nil {
		return 0, nil, wireErr(frame, fileOff, "%v", err)
	}
	p.Description, p.Sources = fromFile.Description, fromFile.Sources
	if !reflect.DeepEqual(p, fromFile) {
		return 0, nil, wireErr(frame, fileOff, "the profile file says other than the frame's facts and costs")
	}
	return id, fromFile, nil
}

// AppendRequest appends an OpRequest frame.
func AppendRequest(dst []byte, r *Request) []byte {
	size := RequestHeaderSize + len(r.Records) + len(r.Facts)*FactSize + len(r.Regions)*RegionSize +
		len(r.AliasedMeta)*RangeSize + len(r.Residents)*ResidentSize
	dst = appendFrameHeader(dst, OpRequest, size)
	for _, v := range []uint32{r.Profile, uint32(r.Entry), uint32(r.ListType), uint32(r.ListFlags), r.Call, r.SplitEvent,
		uint32(len(r.Facts)), uint32(r.Entry.RecordSize()), uint32(len(r.Regions)), uint32(len(r.AliasedMeta)), uint32(len(r.Residents)),
		0, 0, 0, 0, 0} {
		dst = le.AppendUint32(dst, v)
	}
	dst = append(dst, r.Records...)
	dst = append(dst, bytesOf(r.Facts)...)
	dst = append(dst, bytesOf(r.Regions)...)
	dst = append(dst, bytesOf(r.AliasedMeta)...)
	return append(dst, bytesOf(r.Residents)...)
}

// bytesOf is a slice of fixed-layout structures as the bytes it holds
// (the machine is little-endian: amd64 and arm64 are).
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// DecodeRequest reads an OpRequest body into r, reusing its slices.
func DecodeRequest(b []byte, r *Request) error {
	const frame = "request frame"
	if len(b) < RequestHeaderSize {
		return wireErr(frame, len(b), "%d bytes, shorter than its %d-byte header", len(b), RequestHeaderSize)
	}
	h := func(i int) uint32 { return le.Uint32(b[4*i:]) }
	r.Profile, r.Entry, r.ListType, r.ListFlags, r.Call, r.SplitEvent = h(0), Entry(h(1)), ddi.CommandListType(h(2)), ddi.CommandListFlags(h(3)), h(4), h(5)
	n, recSize, nreg, nal, nres := uint64(h(6)), uint64(h(7)), uint64(h(8)), uint64(h(9)), uint64(h(10))
	if r.Entry != Entry0094 && r.Entry != Entry0088 {
		return wireErr(frame, 4, "entry %d is neither 94 nor 88", r.Entry)
	}
	if recSize != uint64(r.Entry.RecordSize()) {
		return wireErr(frame, 28, "records of %d bytes; entry %d's are %d", recSize, r.Entry, r.Entry.RecordSize())
	}
	want := RequestHeaderSize + n*(recSize+FactSize) + nreg*RegionSize + nal*RangeSize + nres*ResidentSize
	if uint64(len(b)) != want {
		return wireErr(frame, len(b), "%d bytes; its counts (%d records, %d regions, %d aliased ranges, %d residents) make %d", len(b), n, nreg, nal, nres, want)
	}
	off := uint64(RequestHeaderSize)
	take := func(size uint64) []byte { s := b[off : off+size]; off += size; return s }
	words := (n*recSize + 7) / 8 // 8-byte aligned, for Barrier(i)
	if uint64(cap(r.recs)) < words {
		r.recs = make([]uint64, words)
	}
	r.Records = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(r.recs))), n*recSize)
	copy(r.Records, take(n*recSize))
	r.Facts = decodeSlice(r.Facts[:0], take(n*FactSize))
	r.Regions = decodeSlice(r.Regions[:0], take(nreg*RegionSize))
	r.AliasedMeta = decodeSlice(r.AliasedMeta[:0], take(nal*RangeSize))
	r.Residents = decodeSlice(r.Residents[:0], take(nres*ResidentSize))
	if err := r.Validate(); err != nil {
		return wireErr(frame, -1, "%v", err)
	}
	return nil
}

func decodeSlice[T any](dst []T, b []byte) []T {
	var z T
	n := len(b) / int(unsafe.Sizeof(z))
	dst = slices.Grow(dst[:0], n)[:n]
	copy(bytesOf(dst), b)
	return dst
}

// AppendReply appends an OpReply frame with packets.
func AppendReply(dst []byte, words []uint32) []byte {
	dst = appendFrameHeader(dst, OpReply, ReplyHeaderSize+4*len(words))
	dst = le.AppendUint32(dst, ReplyPackets)
	dst = le.AppendUint32(dst, uint32(len(words)))
	for _, w := range words {
		dst = le.AppendUint32(dst, w)
	}
	return dst
}

// AppendRefusal appends an OpReply frame refusing the request.
func AppendRefusal(dst []byte, reason string) []byte {
	reason = reason[:min(len(reason), MaxReasonLen)]
	n := (len(reason) + 3) &^ 3
	dst = appendFrameHeader(dst, OpReply, ReplyHeaderSize+n)
	dst = le.AppendUint32(dst, ReplyRefusal)
	dst = le.AppendUint32(dst, uint32(len(reason)))
	dst = append(dst, reason...)
	return append(dst, make([]byte, n-len(reason))...)
}
