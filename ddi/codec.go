package ddi

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"unsafe"
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

// field is one C member of a barrier record: its path, where it is in the
// record, how wide, and which values it may hold. Padding is not listed: it
// is ignored on decode and zero on encode. Because Barrier and Barrier0088
// have exactly the C layout (the cgo layout test proves it), a member is
// read and written in the Go record at the same offset as in the bytes.
type field struct {
	name  string
	off   int // from the start of the record
	size  int // 4 or 8
	check func(uint64) error
}

// recordFormat is one DDI version's barrier record: its size and, per
// barrier type, the members of the union in use, in byte order.
type recordFormat struct {
	name   string // the C structure
	size   int
	fields [4][]field
}

func checkLayout(v uint64) error {
	if !BarrierLayout(v).Valid() {
		return fmt.Errorf("%w: not a D3D12DDI_BARRIER_LAYOUT value", ErrMalformed)
	}
	return nil
}

func checkTextureFlags(v uint64) error {
	if undefined := TextureBarrierFlags(v) &^ DefinedTextureBarrierFlags; undefined != 0 {
		return fmt.Errorf("%w: undefined D3D12DDI_TEXTURE_BARRIER_FLAGS_0088 bits 0x%x", ErrMalformed, uint64(undefined))
	}
	return nil
}

func checkRangedFlags(typ string, defined RangedBarrierFlags) func(uint64) error {
	return func(v uint64) error {
		if undefined := RangedBarrierFlags(v) &^ defined; undefined != 0 {
			return fmt.Errorf("%w: undefined %s bits 0x%x", ErrMalformed, typ, uint64(undefined))
		}
		return nil
	}
}

// members lays out named 4-byte members one after another from off.
func members(member string, off int, names ...string) []field {
	out := make([]field, len(names))
	for i, n := range names {
		out[i] = field{name: member + "." + n, off: off + 4*i, size: 4}
	}
	return out
}

// syncAccess is the leading four members every type but the 0094 ranged
// barrier has, at the start of the union (byte 8).
func syncAccess(member string) []field {
	return members(member, 8, "SyncBefore", "SyncAfter", "AccessBefore", "AccessAfter")
}

// subresourceRange is a D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088 at off.
func subresourceRange(member string, off int) []field {
	return members(member, off, "IndexOrFirstMipLevel", "NumMipLevels", "FirstArraySlice", "NumArraySlices",
		"FirstPlane", "NumPlanes")
}

func concat(parts ...[]field) []field {
	var out []field
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// The global, texture and buffer members, the same in both versions.
var (
	globalFields  = syncAccess("GlobalBarrier")
	textureFields = concat(syncAccess("TextureBarrier"), []field{
		{"TextureBarrier.LayoutBefore", 24, 4, checkLayout},
		{"TextureBarrier.LayoutAfter", 28, 4, checkLayout},
		{"TextureBarrier.hResource", 32, 8, nil},
	}, subresourceRange("TextureBarrier.Subresources", 40),
		[]field{{"TextureBarrier.Flags", 64, 4, checkTextureFlags}})
	bufferFields = concat(syncAccess("BufferBarrier"), []field{{"BufferBarrier.hResource", 24, 8, nil}})
)

// format0094 is D3D12DDIARG_BARRIER_0094 (72 bytes): the ranged member is
// D3D12DDI_RANGED_BARRIER_0094 (Flags 0, hResource 8, Subresource 16,
// Range 24 within the union; d3d12umddi.h).
var format0094 = recordFormat{"D3D12DDIARG_BARRIER_0094", BarrierSize, [4][]field{
	BarrierTypeGlobal:  globalFields,
	BarrierTypeTexture: textureFields,
	BarrierTypeBuffer:  bufferFields,
	BarrierTypeRanged: {
		{"RangedBarrier.Flags", 8, 4, checkRangedFlags("D3D12DDI_RANGED_BARRIER_FLAGS_0094", DefinedRangedBarrierFlags0094)},
		{"RangedBarrier.hResource", 16, 8, nil},
		{"RangedBarrier.Subresource", 24, 4, nil},
		{"RangedBarrier.Range.Begin", 32, 8, nil},
		{"RangedBarrier.Range.End", 40, 8, nil},
	},
}}

// format0088 is D3D12DDIARG_BARRIER_0088 (80 bytes): the ranged member is
// D3D12DDI_RANGED_BARRIER_0088 (syncs and accesses 0, Flags 16, hResource
// 24, Subresources 32, Range 56 within the union; d3d12umddi.h).
var format0088 = recordFormat{"D3D12DDIARG_BARRIER_0088", Barrier0088Size, [4][]field{
	BarrierTypeGlobal:  globalFields,
	BarrierTypeTexture: textureFields,
	BarrierTypeBuffer:  bufferFields,
	BarrierTypeRanged: concat(syncAccess("RangedBarrier"), []field{
		{"RangedBarrier.Flags", 24, 4, checkRangedFlags("D3D12DDI_RANGED_BARRIER_FLAGS", DefinedRangedBarrierFlags0088)},
		{"RangedBarrier.hResource", 32, 8, nil},
	}, subresourceRange("RangedBarrier.Subresources", 40), []field{
		{"RangedBarrier.Range.Begin", 64, 8, nil},
		{"RangedBarrier.Range.End", 72, 8, nil},
	}),
}}

func checkType(v uint64) error {
	if !BarrierType(v).Valid() {
		return fmt.Errorf("%w: not a D3D12DDI_BARRIER_TYPE value", ErrMalformed)
	}
	return nil
}

// get and set move one member of a Go record, which has the C layout.
func (f *field) get(rec unsafe.Pointer) uint64 {
	p := unsafe.Add(rec, f.off)
	if f.size == 8 {
		return *(*uint64)(p)
	}
	return uint64(*(*uint32)(p))
}

func (f *field) set(rec unsafe.Pointer, v uint64) {
	p := unsafe.Add(rec, f.off)
	if f.size == 8 {
		*(*uint64)(p) = v
		return
	}
	*(*uint32)(p) = uint32(v)
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
		// Decode in place: a local record would escape and cost an
		// allocation per record.
		dst = append(dst, Barrier{})
		n, err := format0094.decode(unsafe.Pointer(&dst[len(dst)-1]), data, i)
		if err != nil {
			return dst[:len(dst)-1], err
		}
		data = data[n:]
	}
	return dst, nil
}

// DecodeBarriers0088 reads a raw array of D3D12DDIARG_BARRIER_0088 records
// (Barrier0088Size bytes each), as PFND3D12DDI_BARRIER_0088 receives it,
// with DecodeBarriers' rules; a ranged record's flags are the 0088 set.
func DecodeBarriers0088(data []byte) ([]Barrier0088, error) {
	return AppendDecodedBarriers0088(make([]Barrier0088, 0, len(data)/Barrier0088Size), data)
}

// AppendDecodedBarriers0088 is DecodeBarriers0088 appending to dst.
func AppendDecodedBarriers0088(dst []Barrier0088, data []byte) ([]Barrier0088, error) {
	for i := 0; len(data) > 0; i++ {
		dst = append(dst, Barrier0088{})
		n, err := format0088.decode(unsafe.Pointer(&dst[len(dst)-1]), data, i)
		if err != nil {
			return dst[:len(dst)-1], err
		}
		data = data[n:]
	}
	return dst, nil
}

// decode reads record index from the front of data into the zeroed Go
// record at out and returns how many bytes it used.
func (rf *recordFormat) decode(out unsafe.Pointer, data []byte, index int) (int, error) {
	base := index * rf.size
	rec := data[:min(len(data), rf.size)]
	if len(rec) < 4 {
		return 0, rf.truncated(index, base, rec, "Type", 0)
	}
	t := uint64(binary.LittleEndian.Uint32(rec))
	if err := checkType(t); err != nil {
		return 0, &DecodeError{Index: index, Offset: base, Field: "Type", Value: t, Err: err}
	}
	fields := rf.fields[t]
	if len(rec) < rf.size {
		// Name the first member the record cuts into, or the trailing padding.
		missing, off := "padding", 4
		for _, f := range fields {
			if f.off+f.size > len(rec) {
				missing, off = f.name, f.off
				break
			}
			off = f.off + f.size
		}
		return 0, rf.truncated(index, base, rec, missing, off)
	}
	*(*BarrierType)(out) = BarrierType(t)
	for i := range fields {
		f := &fields[i]
		v := readField(rec[f.off:], f.size)
		if f.check != nil {
			if err := f.check(v); err != nil {
				return 0, &DecodeError{Index: index, Offset: base + f.off, Field: f.name, Value: v, Err: err}
			}
		}
		f.set(out, v)
	}
	return len(rec), nil
}

// encode appends the record at in: padding and unused union bytes zero; an
// undefined Type is encoded with an all-zero union.
func (rf *recordFormat) encode(dst []byte, in unsafe.Pointer) []byte {
	start := len(dst)
	dst = slices.Grow(dst, rf.size)[:start+rf.size]
	rec := dst[start:]
	clear(rec)
	t := *(*BarrierType)(in)
	binary.LittleEndian.PutUint32(rec, uint32(t))
	if !t.Valid() {
		return dst
	}
	for i := range rf.fields[t] {
		f := &rf.fields[t][i]
		if f.size == 8 {
			binary.LittleEndian.PutUint64(rec[f.off:], f.get(in))
		} else {
			binary.LittleEndian.PutUint32(rec[f.off:], uint32(f.get(in)))
		}
	}
	return dst
}

// AppendEncodedBarriers appends the little-endian C representation of each
// barrier to dst: BarrierSize bytes per record, padding and unused union bytes
// zero. A barrier whose Type is undefined is encoded with its Type and an
// all-zero union.
func AppendEncodedBarriers(dst []byte, bs []Barrier) []byte {
	for i := range bs {
		dst = format0094.encode(dst, unsafe.Pointer(&bs[i]))
	}
	return dst
}

// AppendEncodedBarriers0088 is AppendEncodedBarriers for
// D3D12DDIARG_BARRIER_0088 records (Barrier0088Size bytes each).
func AppendEncodedBarriers0088(dst []byte, bs []Barrier0088) []byte {
	for i := range bs {
		dst = format0088.encode(dst, unsafe.Pointer(&bs[i]))
	}
	return dst
}

// BarrierField is one member of a decoded record, for tools that print them.
type BarrierField struct {
	Name   string // C member path
	Offset int    // within the record
	Value  uint64
}

func (rf *recordFormat) list(in unsafe.Pointer) []BarrierField {
	t := *(*BarrierType)(in)
	out := []BarrierField{{"Type", 0, uint64(t)}}
	if !t.Valid() {
		return out
	}
	for i := range rf.fields[t] {
		f := &rf.fields[t][i]
		out = append(out, BarrierField{f.name, f.off, f.get(in)})
	}
	return out
}

// Fields lists the members the barrier's type uses, in byte order, Type first.
func (b *Barrier) Fields() []BarrierField { return format0094.list(unsafe.Pointer(b)) }

// Fields lists the members the record's type uses, in byte order, Type first.
func (b *Barrier0088) Fields() []BarrierField { return format0088.list(unsafe.Pointer(b)) }

func (rf *recordFormat) truncated(index, base int, rec []byte, field string, off int) error {
	return &DecodeError{Index: index, Offset: base + off, Field: field, Value: uint64(len(rec)),
		Err: fmt.Errorf("%w: %d of %d bytes of a %s present", ErrTruncated, len(rec), rf.size, rf.name)}
}
