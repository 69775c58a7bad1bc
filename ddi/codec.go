package ddi

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Errors the record decoder wraps; test with errors.Is.
var (
	// ErrTruncated: the input ends inside a record.
	ErrTruncated = errors.New("truncated record")
	// ErrMalformed: a field holds a value its type does not define.
	ErrMalformed = errors.New("malformed record")
)

// DecodeError says where in a raw barrier array decoding stopped and why.
type DecodeError struct {
	Index  int    // record index
	Offset int    // byte offset of the field from the start of the input
	Field  string // C member path, e.g. "TextureBarrier.LayoutAfter"
	Value  uint64 // the value found (for truncation: the bytes present)
	Err    error  // ErrTruncated or ErrMalformed, wrapped with detail
}

func (e *DecodeError) Error() string {
	if errors.Is(e.Err, ErrTruncated) {
		return fmt.Sprintf("record %d, byte offset %d (%s): %v", e.Index, e.Offset, e.Field, e.Err)
	}
	return fmt.Sprintf("record %d, byte offset %d: %s = 0x%x: %v", e.Index, e.Offset, e.Field, e.Value, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// field is one C member of a D3D12DDIARG_BARRIER_0094 record: where it is, how
// wide, how to move it between bytes and a Barrier, and which values it may
// hold. Padding is not listed: it is ignored on decode and zero on encode.
type field struct {
	name  string
	off   int // from the start of the record
	size  int // 4 or 8
	get   func(*Barrier) uint64
	set   func(*Barrier, uint64)
	check func(uint64) error // nil: every value is well-formed
}

func checkLayout(v uint64) error {
	if !BarrierLayout(v).Valid() {
		return fmt.Errorf("%w: not a D3D12DDI_BARRIER_LAYOUT value", ErrMalformed)
	}
	return nil
}

func checkTextureFlags(v uint64) error {
	if TextureBarrierFlags(v)&^DefinedTextureBarrierFlags != 0 {
		return fmt.Errorf("%w: undefined D3D12DDI_TEXTURE_BARRIER_0088_FLAGS_0088 bits 0x%x", ErrMalformed,
			uint64(TextureBarrierFlags(v)&^DefinedTextureBarrierFlags))
	}
	return nil
}

func checkRangedFlags(v uint64) error {
	if RangedBarrierFlags(v)&^DefinedRangedBarrierFlags0094 != 0 {
		return fmt.Errorf("%w: undefined D3D12DDI_RANGE_BARRIER_FLAGS_0094 bits 0x%x", ErrMalformed,
			uint64(RangedBarrierFlags(v)&^DefinedRangedBarrierFlags0094))
	}
	return nil
}

// The leading four members shared by the global, texture and buffer barriers.
func commonFields(member string) []field {
	return []field{
		{member + ".SyncBefore", 8, 4, func(b *Barrier) uint64 { return uint64(b.Global().SyncBefore) },
			func(b *Barrier, v uint64) { b.Global().SyncBefore = BarrierSync(v) }, nil},
		{member + ".SyncAfter", 12, 4, func(b *Barrier) uint64 { return uint64(b.Global().SyncAfter) },
			func(b *Barrier, v uint64) { b.Global().SyncAfter = BarrierSync(v) }, nil},
		{member + ".AccessBefore", 16, 4, func(b *Barrier) uint64 { return uint64(b.Global().AccessBefore) },
			func(b *Barrier, v uint64) { b.Global().AccessBefore = BarrierAccess(v) }, nil},
		{member + ".AccessAfter", 20, 4, func(b *Barrier) uint64 { return uint64(b.Global().AccessAfter) },
			func(b *Barrier, v uint64) { b.Global().AccessAfter = BarrierAccess(v) }, nil},
	}
}

// rangeFields are the six members of a subresource range at byte offset off.
func rangeFields(member string, off int, r func(*Barrier) *SubresourceRange) []field {
	return []field{
		{member + ".IndexOrFirstMipLevel", off, 4, func(b *Barrier) uint64 { return uint64(r(b).IndexOrFirstMipLevel) },
			func(b *Barrier, v uint64) { r(b).IndexOrFirstMipLevel = uint32(v) }, nil},
		{member + ".NumMipLevels", off + 4, 4, func(b *Barrier) uint64 { return uint64(r(b).NumMipLevels) },
			func(b *Barrier, v uint64) { r(b).NumMipLevels = uint32(v) }, nil},
		{member + ".FirstArraySlice", off + 8, 4, func(b *Barrier) uint64 { return uint64(r(b).FirstArraySlice) },
			func(b *Barrier, v uint64) { r(b).FirstArraySlice = uint32(v) }, nil},
		{member + ".NumArraySlices", off + 12, 4, func(b *Barrier) uint64 { return uint64(r(b).NumArraySlices) },
			func(b *Barrier, v uint64) { r(b).NumArraySlices = uint32(v) }, nil},
		{member + ".FirstPlane", off + 16, 4, func(b *Barrier) uint64 { return uint64(r(b).FirstPlane) },
			func(b *Barrier, v uint64) { r(b).FirstPlane = uint32(v) }, nil},
		{member + ".NumPlanes", off + 20, 4, func(b *Barrier) uint64 { return uint64(r(b).NumPlanes) },
			func(b *Barrier, v uint64) { r(b).NumPlanes = uint32(v) }, nil},
	}
}

func concat(parts ...[]field) []field {
	var out []field
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var typeField = field{"Type", 0, 4, func(b *Barrier) uint64 { return uint64(b.Type) },
	func(b *Barrier, v uint64) { b.Type = BarrierType(v) },
	func(v uint64) error {
		if !BarrierType(v).Valid() {
			return fmt.Errorf("%w: not a D3D12DDI_BARRIER_TYPE value", ErrMalformed)
		}
		return nil
	}}

// recordFields lists, per barrier type, the members of the union in use, in
// byte order. The offsets are the C layout's (checked against C by the cgo
// layout test).
var recordFields = [...][]field{
	BarrierTypeGlobal: commonFields("GlobalBarrier"),
	BarrierTypeTexture: concat(commonFields("TextureBarrier"), []field{
		{"TextureBarrier.LayoutBefore", 24, 4, func(b *Barrier) uint64 { return uint64(b.Texture().LayoutBefore) },
			func(b *Barrier, v uint64) { b.Texture().LayoutBefore = BarrierLayout(v) }, checkLayout},
		{"TextureBarrier.LayoutAfter", 28, 4, func(b *Barrier) uint64 { return uint64(b.Texture().LayoutAfter) },
			func(b *Barrier, v uint64) { b.Texture().LayoutAfter = BarrierLayout(v) }, checkLayout},
		{"TextureBarrier.hResource", 32, 8, func(b *Barrier) uint64 { return uint64(b.Texture().Resource) },
			func(b *Barrier, v uint64) { b.Texture().Resource = HResource(v) }, nil},
	}, rangeFields("TextureBarrier.Subresources", 40, func(b *Barrier) *SubresourceRange { return &b.Texture().Subresources }),
		[]field{{"TextureBarrier.Flags", 64, 4, func(b *Barrier) uint64 { return uint64(b.Texture().Flags) },
			func(b *Barrier, v uint64) { b.Texture().Flags = TextureBarrierFlags(v) }, checkTextureFlags}}),
	BarrierTypeBuffer: concat(commonFields("BufferBarrier"), []field{
		{"BufferBarrier.hResource", 24, 8, func(b *Barrier) uint64 { return uint64(b.Buffer().Resource) },
			func(b *Barrier, v uint64) { b.Buffer().Resource = HResource(v) }, nil},
	}),
	BarrierTypeRanged: concat([]field{
		{"RangedBarrier.Flags", 8, 4, func(b *Barrier) uint64 { return uint64(b.Ranged().Flags) },
			func(b *Barrier, v uint64) { b.Ranged().Flags = RangedBarrierFlags(v) }, checkRangedFlags},
		{"RangedBarrier.hResource", 16, 8, func(b *Barrier) uint64 { return uint64(b.Ranged().Resource) },
			func(b *Barrier, v uint64) { b.Ranged().Resource = HResource(v) }, nil},
	}, rangeFields("RangedBarrier.Subresources", 24, func(b *Barrier) *SubresourceRange { return &b.Ranged().Subresources }),
		[]field{
			{"RangedBarrier.Range.Begin", 48, 8, func(b *Barrier) uint64 { return b.Ranged().Range.Begin },
				func(b *Barrier, v uint64) { b.Ranged().Range.Begin = v }, nil},
			{"RangedBarrier.Range.End", 56, 8, func(b *Barrier) uint64 { return b.Ranged().Range.End },
				func(b *Barrier, v uint64) { b.Ranged().Range.End = v }, nil},
		}),
}

func readField(p []byte, size int) uint64 {
	if size == 8 {
		return binary.LittleEndian.Uint64(p)
	}
	return uint64(binary.LittleEndian.Uint32(p))
}

// DecodeBarriers reads a raw little-endian array of D3D12DDIARG_BARRIER_0094
// records (BarrierSize bytes each), as a driver receives it from the runtime.
// Enum members (Type, layouts) must hold defined values and flag members only
// defined bits, except the sync and access sets: their undefined bits are
// kept, for the driver's validation to name. Padding is ignored. On error the
// records before the bad one are returned with a *DecodeError.
func DecodeBarriers(data []byte) ([]Barrier, error) {
	return AppendDecodedBarriers(make([]Barrier, 0, len(data)/BarrierSize), data)
}

// AppendDecodedBarriers is DecodeBarriers appending to dst; it allocates
// nothing when dst has room.
func AppendDecodedBarriers(dst []Barrier, data []byte) ([]Barrier, error) {
	for i := 0; len(data) > 0; i++ {
		base := i * BarrierSize
		rec := data
		if len(rec) > BarrierSize {
			rec = rec[:BarrierSize]
		}
		// Decode in place: a local Barrier would escape through the field
		// setters and cost an allocation per record.
		dst = append(dst, Barrier{})
		if err := decodeRecord(&dst[len(dst)-1], rec, i, base); err != nil {
			return dst[:len(dst)-1], err
		}
		data = data[len(rec):]
	}
	return dst, nil
}

func decodeRecord(b *Barrier, rec []byte, index, base int) error {
	if len(rec) < 4 {
		return truncated(index, base, rec, typeField.name, 0)
	}
	t := binary.LittleEndian.Uint32(rec)
	if err := typeField.check(uint64(t)); err != nil {
		return &DecodeError{Index: index, Offset: base, Field: typeField.name, Value: uint64(t), Err: err}
	}
	fields := recordFields[t]
	if len(rec) < BarrierSize {
		// Name the first member the record cuts into, or the trailing padding.
		missing, off := "padding", 4
		for _, f := range fields {
			if f.off+f.size > len(rec) {
				missing, off = f.name, f.off
				break
			}
			off = f.off + f.size
		}
		return truncated(index, base, rec, missing, off)
	}
	b.Type = BarrierType(binary.LittleEndian.Uint32(rec))
	for _, f := range fields {
		v := readField(rec[f.off:], f.size)
		if f.check != nil {
			if err := f.check(v); err != nil {
				return &DecodeError{Index: index, Offset: base + f.off, Field: f.name, Value: v, Err: err}
			}
		}
		f.set(b, v)
	}
	return nil
}

// AppendEncodedBarriers appends the little-endian C representation of each
// barrier to dst: BarrierSize bytes per record, padding and unused union bytes
// zero. A barrier whose Type is undefined is encoded with its Type and an
// all-zero union.
func AppendEncodedBarriers(dst []byte, bs []Barrier) []byte {
	for i := range bs {
		b := &bs[i]
		var rec [BarrierSize]byte
		binary.LittleEndian.PutUint32(rec[:], uint32(b.Type))
		if b.Type.Valid() {
			for _, f := range recordFields[b.Type] {
				if f.size == 8 {
					binary.LittleEndian.PutUint64(rec[f.off:], f.get(b))
				} else {
					binary.LittleEndian.PutUint32(rec[f.off:], uint32(f.get(b)))
				}
			}
		}
		dst = append(dst, rec[:]...)
	}
	return dst
}

// BarrierField is one member of a decoded record, for tools that print them.
type BarrierField struct {
	Name   string // C member path
	Offset int    // within the record
	Value  uint64
}

// Fields lists the members the barrier's type uses, in byte order, Type first.
func (b *Barrier) Fields() []BarrierField {
	out := []BarrierField{{"Type", 0, uint64(b.Type)}}
	if !b.Type.Valid() {
		return out
	}
	for _, f := range recordFields[b.Type] {
		out = append(out, BarrierField{f.name, f.off, f.get(b)})
	}
	return out
}

func truncated(index, base int, rec []byte, field string, off int) error {
	return &DecodeError{Index: index, Offset: base + off, Field: field, Value: uint64(len(rec)),
		Err: fmt.Errorf("%w: %d of %d bytes present", ErrTruncated, len(rec), BarrierSize)}
}
