package resource_test

import (
	"fmt"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
)

// A 2D texture's subresources in D3D12's numbering (mip fastest, then
// array slice), each with its footprint: rows 256-byte aligned, each
// subresource at a 512-byte boundary, the size rounded up to the placement
// alignment.
func ExampleNew_footprints() {
	r, err := resource.New(resource.Desc{
		Dimension: ddi.ResourceTypeTexture2D, Width: 100, Height: 60, DepthOrArraySize: 2, MipLevels: 3,
		Format: ddi.FormatR8G8B8A8Unorm, SampleDesc: ddi.SampleDesc{Count: 1},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range r.Footprints {
		fmt.Printf("subresource %d (mip %d, slice %d): %dx%d at offset %6d, row pitch %3d, %2d rows, %5d bytes\n",
			f.Subresource, f.Mip, f.Slice, f.Width, f.Height, f.Offset, f.RowPitch, f.Rows, f.Size)
	}
	fmt.Printf("data %d bytes, placed in %d (alignment %d)\n", r.DataSize, r.Size, r.Alignment)
	sub, _ := r.Index(1, 1, 0)
	fmt.Println("mip 1 of slice 1 is subresource", sub)
	// Output:
	// subresource 0 (mip 0, slice 0): 100x60 at offset      0, row pitch 512, 60 rows, 30720 bytes
	// subresource 1 (mip 1, slice 0): 50x30 at offset  30720, row pitch 256, 30 rows,  7680 bytes
	// subresource 2 (mip 2, slice 0): 25x15 at offset  38400, row pitch 256, 15 rows,  3840 bytes
	// subresource 3 (mip 0, slice 1): 100x60 at offset  42496, row pitch 512, 60 rows, 30720 bytes
	// subresource 4 (mip 1, slice 1): 50x30 at offset  73216, row pitch 256, 30 rows,  7680 bytes
	// subresource 5 (mip 2, slice 1): 25x15 at offset  80896, row pitch 256, 15 rows,  3840 bytes
	// data 84736 bytes, placed in 131072 (alignment 65536)
	// mip 1 of slice 1 is subresource 4
}

// A description that breaks a rule gets an error naming the field.
func ExampleNew_invalid() {
	_, err := resource.New(resource.Desc{
		Dimension: ddi.ResourceTypeTexture2D, Width: 100, Height: 60, DepthOrArraySize: 1, MipLevels: 9,
		Format: ddi.FormatR8G8B8A8Unorm, SampleDesc: ddi.SampleDesc{Count: 1},
	})
	fmt.Println(err)
	// Output:
	// MipLevels = 9: a 100x60x1 texture has at most 7 mips
}
