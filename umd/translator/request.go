package translator

import (
	"fmt"
	"unsafe"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

// A Translator turns one accepted Barrier call into packets. It keeps no
// state between calls: everything it needs is in the request, and the
// profile it was opened on. It appends the call's packets to dst and
// returns the result, or an error (a *Refusal to refuse the call).
type Translator interface {
	Translate(req *Request, dst []uint32) ([]uint32, error)
}

// An Opener opens a Translator for each device, on the device's hardware
// profile.
type Opener interface {
	// Name identifies the translator in reports and errors.
	Name() string
	Open(p *hwmodel.Profile) (Translator, error)
}

// Refusal is a translator's refusal of a call, with its reason.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return "the translator refused the call: " + r.Reason }

// Entry is the Barrier DDI a call came through.
type Entry uint32

// The entry points.
const (
	Entry0094 Entry = 94 // PFND3D12DDI_BARRIER_0094, 72-byte D3D12DDIARG_BARRIER_0094 records
	Entry0088 Entry = 88 // PFND3D12DDI_BARRIER_0088, 80-byte D3D12DDIARG_BARRIER_0088 records
)

// RecordSize is the size of the entry point's records.
func (e Entry) RecordSize() int {
	if e == Entry0088 {
		return ddi.Barrier0088Size
	}
	return ddi.BarrierSize
}

// Kind is what a record's resource is.
type Kind uint32

// The kinds.
const (
	KindNone         Kind = iota // a global barrier, or a ranged one naming NULL
	KindBuffer                   // a buffer
	KindTexture                  // a texture
	KindSimultaneous             // a texture created ALLOW_SIMULTANEOUS_ACCESS
)

var kindNames = [...]string{"NONE", "BUFFER", "TEXTURE", "SIMULTANEOUS"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint32(k))
}

// FactFlags are a record's yes-or-no facts.
type FactFlags uint32

// The flags.
const (
	// CompressedBefore: the texture's layout before keeps its surface
	// compressed on the profile (the bytes are compressed and metadata
	// valid); CompressedAfter: the layout after does. Never set for
	// UNDEFINED, buffers, or textures the profile does not compress.
	CompressedBefore FactFlags = 1 << iota
	CompressedAfter
)

// Range is the bytes [Lo, Hi) of GPU memory (virtual addresses).
type Range struct{ Lo, Hi uint64 }

// Fact is what ebref resolved of one record, beside it in the request
// (96 bytes on the wire, as laid out here).
type Fact struct {
	Kind  Kind
	Flags FactFlags
	// CompatBefore and CompatAfter are the accesses COMMON stands for in
	// the record's AccessBefore and AccessAfter: for a texture those its
	// layout allows the resource, for a buffer every access it may have,
	// for a global barrier every access.
	CompatBefore, CompatAfter ddi.BarrierAccess
	// Surface is the texture's compression surface (0: none), the one a
	// DECOMPRESS or METADATA_INIT names.
	Surface uint32
	// EndEvent is, for the end of a split (SyncBefore SPLIT), the event
	// its begin signalled: 0 when the begin was in another command list
	// or the subresources were begun in different calls (wait for all
	// earlier work then).
	EndEvent uint32
	// Regions[FirstRegion : FirstRegion+NumRegions] are the selected
	// subresources as surface regions (offsets in the surface's data,
	// consecutive subresources joined with the padding between them).
	FirstRegion, NumRegions uint32
	// Data is the resource's data, Meta its compression metadata (empty
	// without a surface); Selected the bytes the selected subresources
	// span (Data for a buffer or the whole texture); Span a ranged
	// barrier's bytes (empty for NULL: all of memory, whole caches).
	Data, Meta, Selected, Span Range
}

// Region is a byte range of a compression surface's data.
type Region struct{ Offset, Size uint64 }

// Resident is a resource that lives in the memory the call's ranges span:
// its data and metadata sizes from Addr. Two cache ranges may be joined
// into one operation only over memory no other resident holds bytes in
// (flushing another resource's lines can write older data over newer).
type Resident struct{ Addr, DataSize, MetaSize uint64 }

// Request is one Barrier call, as ebref accepted it.
type Request struct {
	Profile   uint32 // the profile's number on the wire (Process); 0 in process
	Entry     Entry
	ListType  ddi.CommandListType
	ListFlags ddi.CommandListFlags
	// Call is the call's ordinal among the list's commands, from 1.
	Call uint32
	// SplitEvent is the event the call's split begins (SyncAfter SPLIT)
	// signal once their work is done: one for the whole call; 0 if none.
	SplitEvent uint32
	// Records are the call's records exactly as the DDI passes them:
	// len(Facts) records of Entry.RecordSize() bytes.
	Records []byte
	Facts   []Fact
	Regions []Region
	// AliasedMeta are, when the call has a global barrier whose
	// AccessAfter is COMMON, the metadata ranges of surfaces other
	// resources' memory overlaps (whose metadata a legacy aliasing
	// barrier's clear may initialise past the caches).
	AliasedMeta []Range
	// Residents are every resource holding bytes in the memory between the
	// lowest and highest byte the call's records name, when they name two
	// ranges or more, in address order.
	Residents []Resident

	recs []uint64 // DecodeRequest's storage for Records, kept between requests
	// surfaceAt is where checkRegion's search for a surface's record
	// begins (a hint: any value is safe).
	surfaceAt int
}

// Barrier is record i of a 0094 call.
func (r *Request) Barrier(i int) *ddi.Barrier {
	return (*ddi.Barrier)(unsafe.Pointer(&r.Records[i*ddi.BarrierSize]))
}

// Barrier0088 is record i of a 0088 call.
func (r *Request) Barrier0088(i int) *ddi.Barrier0088 {
	return (*ddi.Barrier0088)(unsafe.Pointer(&r.Records[i*ddi.Barrier0088Size]))
}

// Validate checks that the request is whole: records and facts agree in
// number and size, regions lie in the table.
func (r *Request) Validate() error {
	if r.Entry != Entry0094 && r.Entry != Entry0088 {
		return fmt.Errorf("entry %d is neither 94 nor 88", r.Entry)
	}
	if len(r.Records) != len(r.Facts)*r.Entry.RecordSize() {
		return fmt.Errorf("%d bytes of records for %d facts of %d-byte records", len(r.Records), len(r.Facts), r.Entry.RecordSize())
	}
	if len(r.Records) > 0 && uintptr(unsafe.Pointer(&r.Records[0]))%8 != 0 {
		return fmt.Errorf("the records are not 8-byte aligned")
	}
	for i := range r.Facts {
		f := &r.Facts[i]
		if uint64(f.FirstRegion)+uint64(f.NumRegions) > uint64(len(r.Regions)) {
			return fmt.Errorf("fact %d: regions %d+%d past the %d the request has", i, f.FirstRegion, f.NumRegions, len(r.Regions))
		}
	}
	return nil
}
