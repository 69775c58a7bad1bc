package ddi_test

import (
	"fmt"

	"github.com/ebref/ebref/ddi"
)

// Raw D3D12DDIARG_BARRIER_0094 records, as a driver receives them, decoded
// and printed the way 'ebref decode --text' prints them.
func ExampleDecodeBarriers() {
	raw := ddi.AppendEncodedBarriers(nil, []ddi.Barrier{
		ddi.NewBufferBarrier(ddi.BufferBarrier{SyncBefore: ddi.SyncComputeShading, SyncAfter: ddi.SyncCopy,
			AccessBefore: ddi.AccessUnorderedAccess, AccessAfter: ddi.AccessCopySource, Resource: 0x2000}),
		ddi.NewRangedBarrier(ddi.RangedBarrier{Flags: ddi.RangedBarrierFlagAtomicCopy | ddi.RangedBarrierFlagRelease,
			Resource: 0x3000, Range: ddi.Range{Begin: 64, End: 72}}),
	})
	fmt.Println(len(raw), "bytes")
	bs, err := ddi.DecodeBarriers(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range bs {
		fmt.Println(b.Text())
	}
	_, err = ddi.DecodeBarriers(raw[:100])
	fmt.Println(err)
	// Output:
	// 144 bytes
	// BUFFER sync COMPUTE_SHADING -> COPY access UNORDERED_ACCESS -> COPY_SOURCE resource 0x2000
	// RANGED flags ATOMIC_COPY|RELEASE resource 0x3000 subresource 0 range 0x40..0x48
	// record 1, byte offset 104 (RangedBarrier.Range.Begin): truncated record: 28 of 72 bytes of a D3D12DDIARG_BARRIER_0094 present
}
