package resource

import (
	"fmt"

	"github.com/ebref/ebref/ddi"
)

// FormatClass says what a format is used for, which decides the flags and
// layouts a texture of that format may have.
type FormatClass uint8

// The format classes.
const (
	ClassColor           FormatClass = iota // render-target capable colour
	ClassBlockCompressed                    // BC formats: 4×4 blocks, no render target
	ClassDepth                              // depth and depth-stencil
	ClassTypelessDepth                      // typeless formats a depth view may use
	ClassVideo                              // planar and packed YUV
)

// Plane is one plane of a format: the bytes of one element (a texel, or a
// 4×4 block for BC formats) and how much smaller than the resource the plane
// is horizontally and vertically (NV12's chroma plane is half size both ways).
type Plane struct {
	BytesPerElement uint32
	SubsampleX      uint32
	SubsampleY      uint32
}

// FormatInfo describes a DXGI format for resource math.
type FormatInfo struct {
	Format      ddi.Format
	Class       FormatClass
	BlockWidth  uint32 // texels per element across: 4 for BC, 2 for YUY2, else 1
	BlockHeight uint32 // texels per element down: 4 for BC, else 1
	Planes      []Plane
	EvenWidth   bool // chroma subsampled horizontally (4:2:0, 4:2:2)
	EvenHeight  bool // chroma subsampled vertically (4:2:0)
}

// PlaneCount is the number of planes, which multiplies a texture's
// subresources (D3D12's plane slices): 2 for the two-plane depth-stencil
// formats and NV12/P010/P016, else 1.
func (f FormatInfo) PlaneCount() uint32 { return uint32(len(f.Planes)) }

func single(bytes uint32) []Plane { return []Plane{{bytes, 1, 1}} }

// formats is ebref's format table: every format of ddi's subset except
// UNKNOWN, which only buffers use. Sizes and plane structure are DXGI's
// (dxgiformat.h, and D3D12's planar layout: depth in plane 0 and stencil in
// plane 1 for the two-plane depth formats; luma in plane 0 and interleaved
// chroma at half resolution in plane 1 for NV12, P010 and P016).
var formats = map[ddi.Format]FormatInfo{
	ddi.FormatR32G32B32A32Typeless: {ddi.FormatR32G32B32A32Typeless, ClassColor, 1, 1, single(16), false, false},
	ddi.FormatR32G32B32A32Float:    {ddi.FormatR32G32B32A32Float, ClassColor, 1, 1, single(16), false, false},
	ddi.FormatR32G32B32A32Uint:     {ddi.FormatR32G32B32A32Uint, ClassColor, 1, 1, single(16), false, false},
	ddi.FormatR16G16B16A16Typeless: {ddi.FormatR16G16B16A16Typeless, ClassColor, 1, 1, single(8), false, false},
	ddi.FormatR16G16B16A16Float:    {ddi.FormatR16G16B16A16Float, ClassColor, 1, 1, single(8), false, false},
	ddi.FormatR16G16B16A16Unorm:    {ddi.FormatR16G16B16A16Unorm, ClassColor, 1, 1, single(8), false, false},
	ddi.FormatR32G32Float:          {ddi.FormatR32G32Float, ClassColor, 1, 1, single(8), false, false},
	ddi.FormatR32G8X24Typeless:     {ddi.FormatR32G8X24Typeless, ClassTypelessDepth, 1, 1, []Plane{{4, 1, 1}, {1, 1, 1}}, false, false},
	ddi.FormatD32FloatS8X24Uint:    {ddi.FormatD32FloatS8X24Uint, ClassDepth, 1, 1, []Plane{{4, 1, 1}, {1, 1, 1}}, false, false},
	ddi.FormatR10G10B10A2Unorm:     {ddi.FormatR10G10B10A2Unorm, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR11G11B10Float:       {ddi.FormatR11G11B10Float, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR8G8B8A8Typeless:     {ddi.FormatR8G8B8A8Typeless, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR8G8B8A8Unorm:        {ddi.FormatR8G8B8A8Unorm, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR8G8B8A8UnormSRGB:    {ddi.FormatR8G8B8A8UnormSRGB, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR8G8B8A8Uint:         {ddi.FormatR8G8B8A8Uint, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR16G16Float:          {ddi.FormatR16G16Float, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR32Typeless:          {ddi.FormatR32Typeless, ClassTypelessDepth, 1, 1, single(4), false, false},
	ddi.FormatD32Float:             {ddi.FormatD32Float, ClassDepth, 1, 1, single(4), false, false},
	ddi.FormatR32Float:             {ddi.FormatR32Float, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR32Uint:              {ddi.FormatR32Uint, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatR24G8Typeless:        {ddi.FormatR24G8Typeless, ClassTypelessDepth, 1, 1, []Plane{{4, 1, 1}, {1, 1, 1}}, false, false},
	ddi.FormatD24UnormS8Uint:       {ddi.FormatD24UnormS8Uint, ClassDepth, 1, 1, []Plane{{4, 1, 1}, {1, 1, 1}}, false, false},
	ddi.FormatR8G8Unorm:            {ddi.FormatR8G8Unorm, ClassColor, 1, 1, single(2), false, false},
	ddi.FormatR16Typeless:          {ddi.FormatR16Typeless, ClassTypelessDepth, 1, 1, single(2), false, false},
	ddi.FormatR16Float:             {ddi.FormatR16Float, ClassColor, 1, 1, single(2), false, false},
	ddi.FormatD16Unorm:             {ddi.FormatD16Unorm, ClassDepth, 1, 1, single(2), false, false},
	ddi.FormatR16Unorm:             {ddi.FormatR16Unorm, ClassColor, 1, 1, single(2), false, false},
	ddi.FormatR16Uint:              {ddi.FormatR16Uint, ClassColor, 1, 1, single(2), false, false},
	ddi.FormatR8Unorm:              {ddi.FormatR8Unorm, ClassColor, 1, 1, single(1), false, false},
	ddi.FormatR8Uint:               {ddi.FormatR8Uint, ClassColor, 1, 1, single(1), false, false},
	ddi.FormatBC1Unorm:             {ddi.FormatBC1Unorm, ClassBlockCompressed, 4, 4, single(8), false, false},
	ddi.FormatBC3Unorm:             {ddi.FormatBC3Unorm, ClassBlockCompressed, 4, 4, single(16), false, false},
	ddi.FormatBC5Unorm:             {ddi.FormatBC5Unorm, ClassBlockCompressed, 4, 4, single(16), false, false},
	ddi.FormatB8G8R8A8Unorm:        {ddi.FormatB8G8R8A8Unorm, ClassColor, 1, 1, single(4), false, false},
	ddi.FormatBC7Unorm:             {ddi.FormatBC7Unorm, ClassBlockCompressed, 4, 4, single(16), false, false},
	ddi.FormatAYUV:                 {ddi.FormatAYUV, ClassVideo, 1, 1, single(4), false, false},
	ddi.FormatNV12:                 {ddi.FormatNV12, ClassVideo, 1, 1, []Plane{{1, 1, 1}, {2, 2, 2}}, true, true},
	ddi.FormatP010:                 {ddi.FormatP010, ClassVideo, 1, 1, []Plane{{2, 1, 1}, {4, 2, 2}}, true, true},
	ddi.FormatP016:                 {ddi.FormatP016, ClassVideo, 1, 1, []Plane{{2, 1, 1}, {4, 2, 2}}, true, true},
	ddi.FormatYUY2:                 {ddi.FormatYUY2, ClassVideo, 2, 1, single(4), true, false},
}

// LookupFormat returns the description of a texture format; an error for
// UNKNOWN and for formats outside ebref's subset.
func LookupFormat(f ddi.Format) (FormatInfo, error) {
	info, ok := formats[f]
	if !ok {
		return FormatInfo{}, fieldErr(ErrInvalidDesc, "Format", f.String(), "not a texture format ebref supports (see resource.LookupFormat)")
	}
	return info, nil
}

// IsDepth reports whether views of the format can be depth-stencil views.
func (f FormatInfo) IsDepth() bool { return f.Class == ClassDepth || f.Class == ClassTypelessDepth }

func (f FormatInfo) String() string {
	return fmt.Sprintf("%s (%d plane(s), %dx%d blocks)", f.Format, len(f.Planes), f.BlockWidth, f.BlockHeight)
}
