package ddi

import (
	"fmt"
	"unsafe"
)

// BarrierType is D3D12DDI_BARRIER_TYPE: which member of the
// D3D12DDIARG_BARRIER_0094 union is in use (000 "DDI", D3D12DDI_BARRIER_TYPE).
type BarrierType uint32

// The barrier types.
const (
	BarrierTypeGlobal  BarrierType = 0
	BarrierTypeTexture BarrierType = 1
	BarrierTypeBuffer  BarrierType = 2
	BarrierTypeRanged  BarrierType = 3
)

// String returns GLOBAL, TEXTURE, BUFFER or RANGED, or hex for an undefined
// value.
func (t BarrierType) String() string { return barrierTypeNames.enumString(uint32(t)) }

// Valid reports whether the DDI defines the value.
func (t BarrierType) Valid() bool { return t <= BarrierTypeRanged }

// ParseBarrierType is the inverse of String, with or without the
// D3D12DDI_BARRIER_TYPE_ prefix.
func ParseBarrierType(s string) (BarrierType, error) {
	v, err := barrierTypeNames.parseEnum(s)
	return BarrierType(v), err
}

// TextureBarrierFlags is D3D12DDI_TEXTURE_BARRIER_FLAGS_0088 (d3d12umddi.h;
// the spec spells it D3D12DDI_TEXTURE_BARRIER_0088_FLAGS_0088, errata
// E-DDI-HEADER-NAMES).
type TextureBarrierFlags uint32

// The texture barrier flags.
const (
	TextureBarrierFlagNone    TextureBarrierFlags = 0
	TextureBarrierFlagDiscard TextureBarrierFlags = 0x1
)

// DefinedTextureBarrierFlags is every bit the DDI gives a name.
const DefinedTextureBarrierFlags = TextureBarrierFlagDiscard

// String prints NONE, DISCARD, or hex for undefined bits.
func (f TextureBarrierFlags) String() string { return textureFlagNames.flagsString(uint32(f)) }

// ParseTextureBarrierFlags is the inverse of String. It accepts the header's
// spelling (D3D12DDI_TEXTURE_BARRIER_FLAG_DISCARD), the spec's
// (D3D12DDI_TEXTURE_BARRIER_0088_FLAG_DISCARD) and the API's.
func ParseTextureBarrierFlags(s string) (TextureBarrierFlags, error) {
	v, err := textureFlagNames.parseFlags(s)
	return TextureBarrierFlags(v), err
}

// RangedBarrierFlags is D3D12DDI_RANGED_BARRIER_FLAGS_0094 (d3d12umddi.h; the
// spec's D3D12DDI_RANGE_BARRIER_FLAGS_0094), a superset of the 0088
// D3D12DDI_RANGED_BARRIER_FLAGS, which has only ATOMIC_COPY.
type RangedBarrierFlags uint32

// The ranged barrier flags.
const (
	RangedBarrierFlagNone       RangedBarrierFlags = 0
	RangedBarrierFlagAtomicCopy RangedBarrierFlags = 0x1
	RangedBarrierFlagAcquire    RangedBarrierFlags = 0x2 // 0094
	RangedBarrierFlagRelease    RangedBarrierFlags = 0x4 // 0094
)

// DefinedRangedBarrierFlags0088 and DefinedRangedBarrierFlags0094 are the bits
// each DDI version defines.
const (
	DefinedRangedBarrierFlags0088 = RangedBarrierFlagAtomicCopy
	DefinedRangedBarrierFlags0094 = RangedBarrierFlagAtomicCopy | RangedBarrierFlagAcquire | RangedBarrierFlagRelease
)

// String prints NAME|NAME, NONE for 0, hex for undefined bits.
func (f RangedBarrierFlags) String() string { return rangedFlagNames.flagsString(uint32(f)) }

// ParseRangedBarrierFlags is the inverse of String.
func ParseRangedBarrierFlags(s string) (RangedBarrierFlags, error) {
	v, err := rangedFlagNames.parseFlags(s)
	return RangedBarrierFlags(v), err
}

// HResource is D3D12DDI_HRESOURCE, the driver's handle of a resource: a struct
// holding one pointer in C, so 8 bytes with 8-byte alignment. ebref's driver
// hands out small integers; 0 is the NULL handle.
type HResource uint64

// HHeap is D3D12DDI_HHEAP, the driver's handle of a heap (d3d12umddi.h):
// one pointer, 8 bytes. 0 is the NULL handle.
type HHeap uint64

// AllSubresources is the IndexOrFirstMipLevel value that, with NumMipLevels 0,
// selects every subresource (000 "D3D12_BARRIER_SUBRESOURCE_RANGE").
const AllSubresources = 0xffffffff

// SubresourceRange is D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088. With
// NumMipLevels 0, IndexOrFirstMipLevel is one subresource index (or
// AllSubresources) and the other members are ignored; otherwise it is the box
// of mips × array slices × planes. package resource interprets it.
type SubresourceRange struct {
	IndexOrFirstMipLevel uint32
	NumMipLevels         uint32
	FirstArraySlice      uint32
	NumArraySlices       uint32
	FirstPlane           uint32
	NumPlanes            uint32
}

// Range is D3D12DDI_RANGE: a byte range [Begin, End) of a buffer. SIZE_T in C,
// 8 bytes on 64-bit Windows.
type Range struct {
	Begin uint64
	End   uint64
}

// GlobalBarrier is D3D12DDI_GLOBAL_BARRIER_0088.
type GlobalBarrier struct {
	SyncBefore   BarrierSync
	SyncAfter    BarrierSync
	AccessBefore BarrierAccess
	AccessAfter  BarrierAccess
}

// TextureBarrier is D3D12DDI_TEXTURE_BARRIER_0088.
type TextureBarrier struct {
	SyncBefore   BarrierSync
	SyncAfter    BarrierSync
	AccessBefore BarrierAccess
	AccessAfter  BarrierAccess
	LayoutBefore BarrierLayout
	LayoutAfter  BarrierLayout
	Resource     HResource
	Subresources SubresourceRange
	Flags        TextureBarrierFlags
}

// BufferBarrier is D3D12DDI_BUFFER_BARRIER_0088. Unlike the API's
// D3D12_BUFFER_BARRIER it has no Offset or Size (000 "Buffer Barriers").
type BufferBarrier struct {
	SyncBefore   BarrierSync
	SyncAfter    BarrierSync
	AccessBefore BarrierAccess
	AccessAfter  BarrierAccess
	Resource     HResource
}

// AllSubresourcesIndex is the Subresource value of a ranged barrier that
// names every subresource of its resource (-1, as the DDI's
// _ALL_SUBRESOURCES).
const AllSubresourcesIndex = 0xffffffff

// RangedBarrier is D3D12DDI_RANGED_BARRIER_0094: the barrier the runtime puts
// around AtomicCopy commands. ACQUIRE before and RELEASE after the copy make
// the bytes of Range visible to and from the copy (000
// "D3D12DDI_RANGED_BARRIER_0094", errata E-RANGED-FLAGS). The header gives it
// one subresource index, not the spec's subresource range (errata
// E-RANGED-0094-LAYOUT): 40 bytes, Subresource at 16, Range at 24. A NULL
// Resource stands for all of GPU memory: the whole caches are flushed or
// invalidated and Subresource and Range are ignored (errata
// E-RANGED-NULL-RESOURCE).
type RangedBarrier struct {
	Flags       RangedBarrierFlags
	Resource    HResource
	Subresource uint32
	Range       Range
}

// RangedBarrier0088 is D3D12DDI_RANGED_BARRIER_0088, the ranged member of
// D3D12DDIARG_BARRIER_0088: unlike the 0094 one it carries the four sync and
// access members, which the driver honours like a buffer barrier's, and a
// subresource range (72 bytes; errata E-RANGED-0088-LAYOUT). Its flags are
// the 0088 set: ATOMIC_COPY only.
type RangedBarrier0088 struct {
	GlobalBarrier // SyncBefore, SyncAfter, AccessBefore, AccessAfter
	Flags         RangedBarrierFlags
	Resource      HResource
	Subresources  SubresourceRange
	Range         Range
}

// barrierUnionWords is the size of the union in D3D12DDIARG_BARRIER_0094 in
// 8-byte words: its largest member, the texture barrier, is 64 bytes.
const barrierUnionWords = 8

// Barrier is D3D12DDIARG_BARRIER_0094: a Type and a union of the four barrier
// kinds. It has exactly the C layout (72 bytes: Type, 4 bytes of padding, a
// 64-byte union aligned to 8), so a []Barrier can be handed across a C
// boundary as is. Use the constructors and the accessor for the Type in use.
type Barrier struct {
	Type BarrierType
	_    uint32
	u    [barrierUnionWords]uint64
}

// BarrierSize is sizeof(D3D12DDIARG_BARRIER_0094).
const BarrierSize = int(unsafe.Sizeof(Barrier{}))

// barrier0088UnionWords is the size of the union in D3D12DDIARG_BARRIER_0088:
// its largest member is the 72-byte RangedBarrier0088.
const barrier0088UnionWords = 9

// Barrier0088 is D3D12DDIARG_BARRIER_0088, the record PFND3D12DDI_BARRIER_0088
// takes: the same Type and the same global, texture and buffer members at the
// same offsets as Barrier, but a 72-byte ranged member, so 80 bytes a record
// (errata E-PFN-VERSION). A []Barrier0088 has the C layout.
type Barrier0088 struct {
	Type BarrierType
	_    uint32
	u    [barrier0088UnionWords]uint64
}

// Barrier0088Size is sizeof(D3D12DDIARG_BARRIER_0088).
const Barrier0088Size = int(unsafe.Sizeof(Barrier0088{}))

// The union members must fit; the compiler checks it here.
var (
	_ [unsafe.Sizeof(Barrier{}.u) - unsafe.Sizeof(TextureBarrier{})]byte
	_ [unsafe.Sizeof(Barrier{}.u) - unsafe.Sizeof(RangedBarrier{})]byte
	_ [unsafe.Sizeof(Barrier{}.u) - unsafe.Sizeof(BufferBarrier{})]byte
	_ [unsafe.Sizeof(Barrier{}.u) - unsafe.Sizeof(GlobalBarrier{})]byte
	_ [unsafe.Sizeof(Barrier0088{}.u) - unsafe.Sizeof(RangedBarrier0088{})]byte
)

// NewGlobalBarrier returns a Barrier of type GLOBAL.
func NewGlobalBarrier(g GlobalBarrier) Barrier {
	b := Barrier{Type: BarrierTypeGlobal}
	*(*GlobalBarrier)(unsafe.Pointer(&b.u)) = g
	return b
}

// NewTextureBarrier returns a Barrier of type TEXTURE.
func NewTextureBarrier(t TextureBarrier) Barrier {
	b := Barrier{Type: BarrierTypeTexture}
	*(*TextureBarrier)(unsafe.Pointer(&b.u)) = t
	return b
}

// NewBufferBarrier returns a Barrier of type BUFFER.
func NewBufferBarrier(x BufferBarrier) Barrier {
	b := Barrier{Type: BarrierTypeBuffer}
	*(*BufferBarrier)(unsafe.Pointer(&b.u)) = x
	return b
}

// NewRangedBarrier returns a Barrier of type RANGED.
func NewRangedBarrier(r RangedBarrier) Barrier {
	b := Barrier{Type: BarrierTypeRanged}
	*(*RangedBarrier)(unsafe.Pointer(&b.u)) = r
	return b
}

// Global returns the union read as a global barrier. It is meaningful when
// Type is GLOBAL; the pointer aliases b.
func (b *Barrier) Global() *GlobalBarrier { return (*GlobalBarrier)(unsafe.Pointer(&b.u)) }

// Texture returns the union read as a texture barrier (Type TEXTURE).
func (b *Barrier) Texture() *TextureBarrier { return (*TextureBarrier)(unsafe.Pointer(&b.u)) }

// Buffer returns the union read as a buffer barrier (Type BUFFER).
func (b *Barrier) Buffer() *BufferBarrier { return (*BufferBarrier)(unsafe.Pointer(&b.u)) }

// Ranged returns the union read as a ranged barrier (Type RANGED).
func (b *Barrier) Ranged() *RangedBarrier { return (*RangedBarrier)(unsafe.Pointer(&b.u)) }

// NewGlobalBarrier0088 returns a Barrier0088 of type GLOBAL.
func NewGlobalBarrier0088(g GlobalBarrier) Barrier0088 {
	b := Barrier0088{Type: BarrierTypeGlobal}
	*b.Global() = g
	return b
}

// NewTextureBarrier0088 returns a Barrier0088 of type TEXTURE.
func NewTextureBarrier0088(t TextureBarrier) Barrier0088 {
	b := Barrier0088{Type: BarrierTypeTexture}
	*b.Texture() = t
	return b
}

// NewBufferBarrier0088 returns a Barrier0088 of type BUFFER.
func NewBufferBarrier0088(x BufferBarrier) Barrier0088 {
	b := Barrier0088{Type: BarrierTypeBuffer}
	*b.Buffer() = x
	return b
}

// NewRangedBarrier0088 returns a Barrier0088 of type RANGED.
func NewRangedBarrier0088(r RangedBarrier0088) Barrier0088 {
	b := Barrier0088{Type: BarrierTypeRanged}
	*b.Ranged() = r
	return b
}

// Global returns the union read as a global barrier (Type GLOBAL).
func (b *Barrier0088) Global() *GlobalBarrier { return (*GlobalBarrier)(unsafe.Pointer(&b.u)) }

// Texture returns the union read as a texture barrier (Type TEXTURE).
func (b *Barrier0088) Texture() *TextureBarrier { return (*TextureBarrier)(unsafe.Pointer(&b.u)) }

// Buffer returns the union read as a buffer barrier (Type BUFFER).
func (b *Barrier0088) Buffer() *BufferBarrier { return (*BufferBarrier)(unsafe.Pointer(&b.u)) }

// Ranged returns the union read as a 0088 ranged barrier (Type RANGED).
func (b *Barrier0088) Ranged() *RangedBarrier0088 {
	return (*RangedBarrier0088)(unsafe.Pointer(&b.u))
}

// As0088 returns a global, texture or buffer barrier as the 0088 record it
// equals; false for a ranged barrier or an undefined type.
func (b *Barrier) As0088() (Barrier0088, bool) {
	if b.Type == BarrierTypeRanged || !b.Type.Valid() {
		return Barrier0088{Type: b.Type}, false
	}
	out := Barrier0088{Type: b.Type}
	copy(out.u[:], b.u[:])
	return out, true
}

// As0094 returns a global, texture or buffer barrier as the 0094 record it
// equals member for member (both unions start at byte 8 and share those
// three members); false for a ranged barrier or an undefined type, whose
// members differ.
func (b *Barrier0088) As0094() (Barrier, bool) {
	if b.Type == BarrierTypeRanged || !b.Type.Valid() {
		return Barrier{Type: b.Type}, false
	}
	out := Barrier{Type: b.Type}
	copy(out.u[:], b.u[:barrierUnionWords])
	return out, true
}

// Common returns the members every non-ranged barrier type shares, which are
// the first four members of each union member: SyncBefore, SyncAfter,
// AccessBefore, AccessAfter. For a RANGED barrier it returns false.
func (b *Barrier) Common() (GlobalBarrier, bool) {
	if b.Type == BarrierTypeRanged || !b.Type.Valid() {
		return GlobalBarrier{}, false
	}
	return *b.Global(), true
}

// String prints the barrier on one line, members as the enums print them:
//
//	TEXTURE 0x5 RENDER_TARGET->COPY RENDER_TARGET->COPY_SOURCE layout RENDER_TARGET->COMMON all
//
// (type, resource, SyncBefore->SyncAfter, AccessBefore->AccessAfter, then
// what the type adds).
func (b *Barrier) String() string { return b.Named(nil) }

// Named prints the barrier as String does, its resource as name returns
// it (a scenario's name for the handle, say); a nil name, or one that
// returns "", prints the handle in hex.
func (b *Barrier) Named(name func(HResource) string) string {
	side := func(g *GlobalBarrier) string {
		return fmt.Sprintf("%s->%s %s->%s", g.SyncBefore, g.SyncAfter, g.AccessBefore, g.AccessAfter)
	}
	switch b.Type {
	case BarrierTypeGlobal:
		return "GLOBAL " + side(b.Global())
	case BarrierTypeTexture:
		t := b.Texture()
		s := fmt.Sprintf("TEXTURE %s %s layout %s->%s %s", resourceName(t.Resource, name), side(b.Global()),
			t.LayoutBefore, t.LayoutAfter, t.Subresources)
		if t.Flags != 0 {
			s += " " + t.Flags.String()
		}
		return s
	case BarrierTypeBuffer:
		return fmt.Sprintf("BUFFER %s %s", resourceName(b.Buffer().Resource, name), side(b.Global()))
	case BarrierTypeRanged:
		r := b.Ranged()
		return fmt.Sprintf("RANGED %s %s %s [%d,%d)", resourceName(r.Resource, name), r.Flags, subresourceIndexString(r.Subresource),
			r.Range.Begin, r.Range.End)
	}
	return b.Type.String()
}

// String prints the record as Barrier.String does; a ranged barrier shows
// its syncs, accesses and subresource range too:
//
//	RANGED 0x3 COPY->ALL COPY_DEST->COMMON ATOMIC_COPY all [8,16)
func (b *Barrier0088) String() string { return b.Named(nil) }

// Named prints the record as String does, its resource as name returns it
// (see Barrier.Named).
func (b *Barrier0088) Named(name func(HResource) string) string {
	if x, ok := b.As0094(); ok {
		return x.Named(name)
	}
	if b.Type != BarrierTypeRanged {
		return b.Type.String()
	}
	r := b.Ranged()
	return fmt.Sprintf("RANGED %s %s->%s %s->%s %s %s [%d,%d)", resourceName(r.Resource, name), r.SyncBefore, r.SyncAfter,
		r.AccessBefore, r.AccessAfter, r.Flags, r.Subresources, r.Range.Begin, r.Range.End)
}

// resourceName is name(h), or h in hex where name is nil or knows no name.
func resourceName(h HResource, name func(HResource) string) string {
	if name != nil {
		if s := name(h); s != "" {
			return s
		}
	}
	return fmt.Sprintf("0x%x", uint64(h))
}

func subresourceIndexString(i uint32) string {
	if i == AllSubresourcesIndex {
		return "all"
	}
	return fmt.Sprintf("subresource %d", i)
}

// String prints a range: "all" for every subresource, "subresource N" for
// an index, otherwise "mips F+N slices F+N planes F+N".
func (r SubresourceRange) String() string {
	switch {
	case r.NumMipLevels == 0 && r.IndexOrFirstMipLevel == AllSubresources:
		return "all"
	case r.NumMipLevels == 0:
		return fmt.Sprintf("subresource %d", r.IndexOrFirstMipLevel)
	}
	return fmt.Sprintf("mips %d+%d slices %d+%d planes %d+%d", r.IndexOrFirstMipLevel, r.NumMipLevels,
		r.FirstArraySlice, r.NumArraySlices, r.FirstPlane, r.NumPlanes)
}
