package resource

import (
	"fmt"
	"sort"

	"github.com/ebref/ebref/ddi"
)

// HeapKind is D3D12's heap type, derived from the DDI's memory pool and CPU
// page property (the DDI has no heap type: the runtime maps D3D12_HEAP_TYPE
// to these two members).
type HeapKind uint8

// The heap kinds.
const (
	HeapDefault  HeapKind = iota // L1, no CPU access
	HeapUpload                   // L0, write-combined: CPU writes, GPU reads
	HeapReadback                 // L0, write-back: GPU writes, CPU reads
	HeapCustom                   // any other pool and page property
)

var heapKindNames = [...]string{"DEFAULT", "UPLOAD", "READBACK", "CUSTOM"}

func (k HeapKind) String() string {
	if int(k) < len(heapKindNames) {
		return heapKindNames[k]
	}
	return fmt.Sprintf("HeapKind(%d)", uint8(k))
}

// ParseHeapKind is the inverse of String.
func ParseHeapKind(s string) (HeapKind, error) {
	for i, n := range heapKindNames {
		if n == s {
			return HeapKind(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a heap kind (DEFAULT, UPLOAD, READBACK, CUSTOM)", s)
}

// KindOf classifies a pool and page property.
func KindOf(pool ddi.MemoryPool, cpu ddi.CPUPageProperty) HeapKind {
	switch {
	case pool == ddi.MemoryPoolL1 && cpu == ddi.CPUPageNotAvailable:
		return HeapDefault
	case pool == ddi.MemoryPoolL0 && cpu == ddi.CPUPageWriteCombine:
		return HeapUpload
	case pool == ddi.MemoryPoolL0 && cpu == ddi.CPUPageWriteBack:
		return HeapReadback
	}
	return HeapCustom
}

// CreateHeapFor returns the DDI heap arguments of a heap kind (for HeapCustom:
// L0 memory the CPU cannot see).
func CreateHeapFor(kind HeapKind, size uint64, flags ddi.HeapFlags) ddi.CreateHeap0001 {
	a := ddi.CreateHeap0001{ByteSize: size, Flags: flags, CreationNodeMask: 1, VisibleNodeMask: 1}
	switch kind {
	case HeapDefault:
		a.MemoryPool, a.CPUPageProperty = ddi.MemoryPoolL1, ddi.CPUPageNotAvailable
	case HeapUpload:
		a.MemoryPool, a.CPUPageProperty = ddi.MemoryPoolL0, ddi.CPUPageWriteCombine
	case HeapReadback:
		a.MemoryPool, a.CPUPageProperty = ddi.MemoryPoolL0, ddi.CPUPageWriteBack
	default:
		a.MemoryPool, a.CPUPageProperty = ddi.MemoryPoolL0, ddi.CPUPageNotAvailable
	}
	return a
}

// MaxHeapSize bounds heap sizes, like MaxBufferSize.
const MaxHeapSize = 1 << 44

// Heap is a validated heap description.
type Heap struct {
	Size      uint64 // rounded up to Alignment
	Alignment uint64
	Kind      HeapKind
	Flags     ddi.HeapFlags
}

const heapCategoryFlags = ddi.HeapFlagBuffers | ddi.HeapFlagNonRTDSTextures | ddi.HeapFlagRTDSTextures

// NewHeap validates D3D12DDIARG_CREATEHEAP_0001. Alignment 0 means 64 KiB;
// only 64 KiB and 4 MiB are heap alignments (D3D12_HEAP_DESC). The size is
// rounded up to the alignment.
func NewHeap(a ddi.CreateHeap0001) (Heap, error) {
	h := Heap{Alignment: a.Alignment, Kind: KindOf(a.MemoryPool, a.CPUPageProperty), Flags: a.Flags}
	if h.Alignment == 0 {
		h.Alignment = DefaultPlacementAlignment
	}
	switch {
	case h.Alignment != DefaultPlacementAlignment && h.Alignment != MSAAPlacementAlignment:
		return Heap{}, fieldErr(ErrInvalidDesc, "Alignment", fmt.Sprint(a.Alignment), "a heap is aligned to 0 (64 KiB), 65536 or 4194304")
	case a.ByteSize == 0:
		return Heap{}, fieldErr(ErrInvalidDesc, "ByteSize", "0", "a heap has at least one byte")
	case a.ByteSize > MaxHeapSize:
		return Heap{}, fieldErr(ErrInvalidDesc, "ByteSize", fmt.Sprint(a.ByteSize), "larger than the %d-byte heap limit", uint64(MaxHeapSize))
	case a.MemoryPool != ddi.MemoryPoolL0 && a.MemoryPool != ddi.MemoryPoolL1:
		return Heap{}, fieldErr(ErrInvalidDesc, "MemoryPool", fmt.Sprint(a.MemoryPool), "L0 (0) or L1 (1)")
	case a.CPUPageProperty > ddi.CPUPageWriteBack:
		return Heap{}, fieldErr(ErrInvalidDesc, "CPUPageProperty", fmt.Sprint(a.CPUPageProperty), "NOT_AVAILABLE (0), WRITE_COMBINE (1) or WRITE_BACK (2)")
	case a.MemoryPool == ddi.MemoryPoolL1 && a.CPUPageProperty != ddi.CPUPageNotAvailable:
		return Heap{}, fieldErr(ErrInvalidDesc, "CPUPageProperty", fmt.Sprint(a.CPUPageProperty),
			"ebref's GPU is discrete: video memory (L1) is not CPU-visible")
	case a.Flags&^(heapCategoryFlags|ddi.HeapFlagCoherentSystemwide|ddi.HeapFlagPrimary) != 0:
		return Heap{}, fieldErr(ErrInvalidDesc, "Flags", a.Flags.String(), "undefined D3D12DDI_HEAP_FLAGS bits")
	}
	h.Size = alignUp(a.ByteSize, h.Alignment)
	return h, nil
}

// CPUVisible reports whether the CPU can map the heap.
func (h Heap) CPUVisible() bool { return h.Kind == HeapUpload || h.Kind == HeapReadback }

// Category is the heap-tier-1 class of a resource.
func (r *Resource) Category() ddi.HeapFlags {
	switch {
	case r.Desc.IsBuffer():
		return ddi.HeapFlagBuffers
	case r.Desc.Flags&(ddi.ResourceFlagRenderTarget|ddi.ResourceFlagDepthStencil) != 0:
		return ddi.HeapFlagRTDSTextures
	}
	return ddi.HeapFlagNonRTDSTextures
}

// CheckOffset says whether offset is a multiple of the resource's
// alignment, naming the small-resource rule where the resource asked for a
// small alignment it did not get (ErrSmallPlacement), and hinting at the
// request where it could have had it.
func (r *Resource) CheckOffset(offset uint64) error {
	if offset%r.Alignment == 0 {
		return nil
	}
	if why := r.SmallRefused(); why != "" {
		return fieldErr(ErrSmallPlacement, "HeapOffset", fmt.Sprint(offset), "must be a multiple of %d: %s", r.Alignment, why)
	}
	hint := ""
	if small, _ := r.SmallAlignment(); small != 0 && small < r.Alignment && offset%small == 0 {
		hint = fmt.Sprintf(" (a small resource: it may ask for Alignment %d)", small)
	}
	return fieldErr(ErrPlacement, "HeapOffset", fmt.Sprint(offset), "must be a multiple of the resource's %d-byte alignment%s", r.Alignment, hint)
}

// CheckPlacement says whether r may be placed in h at offset: the offset is a
// multiple of the resource's alignment, the heap is aligned at least as
// strictly, the resource ends inside the heap, the heap's category flags (if
// any) admit the resource, and CPU-visible heaps hold only buffers.
func (h Heap) CheckPlacement(offset uint64, r *Resource) error {
	if err := r.CheckOffset(offset); err != nil {
		return err
	}
	switch {
	case h.Alignment < r.Alignment:
		return fieldErr(ErrPlacement, "Alignment", fmt.Sprint(h.Alignment), "the heap is less aligned than the resource needs (%d)", r.Alignment)
	case offset > h.Size || r.Size > h.Size-offset:
		return fieldErr(ErrPlacement, "HeapOffset", fmt.Sprint(offset), "%d bytes from there run past the %d-byte heap", r.Size, h.Size)
	case h.Flags&heapCategoryFlags != 0 && h.Flags&r.Category() == 0:
		return fieldErr(ErrPlacement, "Flags", h.Flags.String(), "the heap does not hold %s resources", r.Category())
	case h.CPUVisible() && !r.Desc.IsBuffer():
		return fieldErr(ErrPlacement, "MemoryPool/CPUPageProperty", h.Kind.String(), "upload and readback heaps hold buffers only (000 \"Upload Heap Resources\")")
	}
	return nil
}

// Span is a byte range [Offset, Offset+Size) of a heap.
type Span struct {
	Offset, Size uint64
}

// End is the first byte after the span.
func (s Span) End() uint64 { return s.Offset + s.Size }

// Overlaps reports whether two spans share a byte.
func (s Span) Overlaps(o Span) bool {
	return s.Size != 0 && o.Size != 0 && s.Offset < o.End() && o.Offset < s.End()
}

// Occupancy records what is placed where in one heap, to answer aliasing
// queries. Identifiers are the caller's.
type Occupancy struct {
	spans []occupied
}

type occupied struct {
	id   uint64
	span Span
}

// Add records that id occupies span.
func (o *Occupancy) Add(id uint64, span Span) {
	i := sort.Search(len(o.spans), func(i int) bool { return o.spans[i].span.Offset > span.Offset })
	o.spans = append(o.spans, occupied{})
	copy(o.spans[i+1:], o.spans[i:])
	o.spans[i] = occupied{id, span}
}

// Remove forgets id.
func (o *Occupancy) Remove(id uint64) {
	for i, s := range o.spans {
		if s.id == id {
			o.spans = append(o.spans[:i], o.spans[i+1:]...)
			return
		}
	}
}

// Aliasing lists, by ascending offset, the identifiers whose spans overlap
// span, excluding except.
func (o *Occupancy) Aliasing(span Span, except uint64) []uint64 {
	var out []uint64
	for _, s := range o.spans {
		if s.span.Offset >= span.End() {
			break
		}
		if s.id != except && s.span.Overlaps(span) {
			out = append(out, s.id)
		}
	}
	return out
}
