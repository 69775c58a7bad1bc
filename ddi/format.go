package ddi

// Format is DXGI_FORMAT (dxgiformat.h). ebref defines the subset its
// resources use: common colour formats, block-compressed formats, the depth
// formats including the two-plane depth-stencil ones, and planar video
// formats. package resource knows their sizes and planes; a value outside the
// subset is rejected there.
type Format uint32

// The formats ebref supports, with their DXGI values.
const (
	FormatUnknown              Format = 0
	FormatR32G32B32A32Typeless Format = 1
	FormatR32G32B32A32Float    Format = 2
	FormatR32G32B32A32Uint     Format = 3
	FormatR16G16B16A16Typeless Format = 9
	FormatR16G16B16A16Float    Format = 10
	FormatR16G16B16A16Unorm    Format = 11
	FormatR32G32Float          Format = 16
	FormatR32G8X24Typeless     Format = 19
	FormatD32FloatS8X24Uint    Format = 20
	FormatR10G10B10A2Unorm     Format = 24
	FormatR11G11B10Float       Format = 26
	FormatR8G8B8A8Typeless     Format = 27
	FormatR8G8B8A8Unorm        Format = 28
	FormatR8G8B8A8UnormSRGB    Format = 29
	FormatR8G8B8A8Uint         Format = 30
	FormatR16G16Float          Format = 34
	FormatR32Typeless          Format = 39
	FormatD32Float             Format = 40
	FormatR32Float             Format = 41
	FormatR32Uint              Format = 42
	FormatR24G8Typeless        Format = 44
	FormatD24UnormS8Uint       Format = 45
	FormatR8G8Unorm            Format = 49
	FormatR16Typeless          Format = 53
	FormatR16Float             Format = 54
	FormatD16Unorm             Format = 55
	FormatR16Unorm             Format = 56
	FormatR16Uint              Format = 57
	FormatR8Unorm              Format = 61
	FormatR8Uint               Format = 62
	FormatBC1Unorm             Format = 71
	FormatBC3Unorm             Format = 77
	FormatBC5Unorm             Format = 83
	FormatB8G8R8A8Unorm        Format = 87
	FormatBC7Unorm             Format = 98
	FormatAYUV                 Format = 100
	FormatNV12                 Format = 103
	FormatP010                 Format = 104
	FormatP016                 Format = 105
	FormatYUY2                 Format = 107
)

// String returns the format's name without the DXGI_FORMAT_ prefix, or its
// number in hex for a format outside ebref's subset.
func (f Format) String() string { return formatNames.enumString(uint32(f)) }

// Known reports whether the format is in ebref's subset.
func (f Format) Known() bool { _, ok := formatNames.primary[uint32(f)]; return ok }

// ParseFormat is the inverse of String, with or without DXGI_FORMAT_.
func ParseFormat(s string) (Format, error) {
	v, err := formatNames.parseEnum(s)
	return Format(v), err
}

// AllFormats lists every format in ebref's subset, ascending.
func AllFormats() []Format {
	vals := formatNames.values()
	out := make([]Format, len(vals))
	for i, v := range vals {
		out[i] = Format(v)
	}
	return out
}
