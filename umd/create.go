package umd

import (
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
)

// Helpers that build the DDI creation arguments the way the D3D12 runtime
// does for CreateCommittedResource3, CreateHeap and CreatePlacedResource2
// (000 "ID3D12Device10 CreateCommittedResource3", "CreatePlacedResource2").

// CreateCommitted creates a resource in a heap of its own, of the given
// kind, sized as CheckResourceAllocationInfo says.
func (d *Device) CreateCommitted(desc ddi.CreateResource0088, kind resource.HeapKind) (ddi.HResource, error) {
	info, err := d.CheckResourceAllocationInfo(&desc, 0, 0, 1)
	if err != nil {
		return 0, err
	}
	heap := CommittedHeap(info, kind)
	_, h, err := d.CreateHeapAndResource(&heap, 0, &desc)
	return h, err
}

// CommittedHeap is the heap the runtime creates with a committed resource
// whose CheckResourceAllocationInfo said info: its size and alignment.
func CommittedHeap(info ddi.ResourceAllocationInfo0022, kind resource.HeapKind) ddi.CreateHeap0001 {
	size := alignUp(info.ResourceDataSize+info.AdditionalDataSize, uint64(info.ResourceDataAlignment))
	heap := resource.CreateHeapFor(kind, size, 0)
	if info.ResourceDataAlignment > resource.DefaultPlacementAlignment {
		heap.Alignment = uint64(info.ResourceDataAlignment)
	}
	return heap
}

// CreateHeap creates a heap of a kind.
func (d *Device) CreateHeap(kind resource.HeapKind, size uint64) (ddi.HHeap, error) {
	heap := resource.CreateHeapFor(kind, size, 0)
	h, _, err := d.CreateHeapAndResource(&heap, 0, nil)
	return h, err
}

// CreatePlaced creates a resource at offset in an existing heap, as
// CreatePlacedResource2 with a description whose Alignment is 0.
func (d *Device) CreatePlaced(heap ddi.HHeap, offset uint64, desc ddi.CreateResource0088) (ddi.HResource, error) {
	return d.CreatePlacedAligned(heap, offset, desc, 0)
}

// CreatePlacedAligned is CreatePlacedResource2 with the Alignment the
// application's D3D12_RESOURCE_DESC1 asks for (0, or 4096 for a small
// texture): the runtime checks HeapOffset against it (CheckPlacedOffset),
// then passes the offset to the driver, whose DDI description has no
// Alignment (errata E-SMALL-PLACEMENT).
func (d *Device) CreatePlacedAligned(heap ddi.HHeap, offset uint64, desc ddi.CreateResource0088, alignment uint64) (ddi.HResource, error) {
	if err := CheckPlacedOffset(desc, offset, alignment); err != nil {
		return 0, err
	}
	desc.ReuseBufferGPUVA.BaseAddressUMD.Offset = offset
	_, h, err := d.CreateHeapAndResource(nil, heap, &desc)
	return h, err
}

// CheckPlacedOffset is the runtime's check of a placed resource's
// HeapOffset: a multiple of the alignment GetResourceAllocationInfo gives
// the description with the Alignment it asks for. A small alignment asked
// for and not granted is CREATERESOURCE_INVALIDALIGNMENT_SMALLRESOURCE
// (#1380), naming the rule the texture breaks; any other bad offset or
// Alignment is CREATERESOURCEANDHEAP_INVALID_PARAMETERS (#1342).
func CheckPlacedOffset(desc ddi.CreateResource0088, offset, alignment uint64) error {
	const cmd = "CreatePlacedResource"
	rd := resource.DescFromCreateResource(&desc)
	rd.Alignment = alignment
	r, err := resource.New(rd)
	if err != nil {
		return fromResource(cmd, err)
	}
	if err := r.CheckOffset(offset); err != nil {
		return fromResource(cmd, err)
	}
	return nil
}

// AllocationSize is the bytes a placed resource occupies, as
// CheckResourceAllocationInfo reports it.
func (d *Device) AllocationSize(desc ddi.CreateResource0088) (size, alignment uint64, err error) {
	info, err := d.CheckResourceAllocationInfo(&desc, 0, 0, 1)
	if err != nil {
		return 0, 0, err
	}
	a := uint64(info.ResourceDataAlignment)
	return alignUp(info.ResourceDataSize+info.AdditionalDataSize, a), a, nil
}
