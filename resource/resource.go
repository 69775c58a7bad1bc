package resource

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/ebref/ebref/ddi"
)

// Alignments and limits. The placement alignments are D3D12's
// (D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT and friends, d3d12.h); the pitch
// and subresource alignments are ebref's simulated GPU's, chosen equal to
// D3D12's copyable-footprint rules (D3D12_TEXTURE_DATA_PITCH_ALIGNMENT,
// D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT) so footprints read familiarly.
const (
	SmallPlacementAlignment     = 4 << 10  // small textures, on request
	DefaultPlacementAlignment   = 64 << 10 // buffers and textures
	SmallMSAAPlacementAlignment = 64 << 10 // small multisampled textures, on request
	MSAAPlacementAlignment      = 4 << 20  // multisampled textures

	RowPitchAlignment    = 256
	SubresourceAlignment = 512

	MaxTexture1DWidth = 16384
	MaxTexture2DSize  = 16384
	MaxTexture3DSize  = 2048
	MaxArraySize      = 2048
	// MaxBufferSize bounds buffer widths so every size computation stays far
	// from overflow; 1 TiB is beyond any real adapter's single allocation.
	MaxBufferSize = 1 << 40
)

// Desc describes a resource as D3D12DDIARG_CREATERESOURCE_0088 does, plus the
// placement alignment the runtime asks for (0 for the default).
type Desc struct {
	Dimension        ddi.ResourceType
	Width            uint64
	Height           uint32
	DepthOrArraySize uint16
	MipLevels        uint16 // 0: the full chain
	Format           ddi.Format
	SampleDesc       ddi.SampleDesc
	Layout           ddi.TextureLayout
	Flags            ddi.ResourceFlags
	Alignment        uint64
}

// DescFromCreateResource takes the description out of the DDI arguments.
func DescFromCreateResource(c *ddi.CreateResource0088) Desc {
	return Desc{
		Dimension: c.ResourceType, Width: c.Width, Height: c.Height, DepthOrArraySize: c.DepthOrArraySize,
		MipLevels: c.MipLevels, Format: c.Format, SampleDesc: c.SampleDesc, Layout: c.Layout, Flags: c.Flags,
	}
}

// IsBuffer reports whether the resource is a buffer.
func (d *Desc) IsBuffer() bool { return d.Dimension == ddi.ResourceTypeBuffer }

// IsSimultaneousAccess reports whether the resource has the
// simultaneous-access flag (buffers behave as though they had it,
// 002 "Single-Queue Simultaneous Access").
func (d *Desc) IsSimultaneousAccess() bool { return d.Flags&ddi.ResourceFlagSimultaneousAccess != 0 }

// Footprint is where one subresource (one plane of one mip of one array
// slice) lies in the resource's memory, and its shape.
type Footprint struct {
	Subresource uint32
	Mip         uint32
	Slice       uint32
	Plane       uint32
	Offset      uint64 // from the start of the resource
	Width       uint32 // texels of this plane at this mip
	Height      uint32
	Depth       uint32
	RowPitch    uint64 // bytes from one row of elements to the next
	Rows        uint32 // rows of elements (blocks for BC formats)
	SlicePitch  uint64 // bytes from one depth slice to the next
	Size        uint64 // RowPitch × Rows × Depth
}

// Resource is a validated description with its memory layout: per-subresource
// footprints, the data size, and the placement size and alignment.
type Resource struct {
	Desc       Desc
	Format     FormatInfo // zero for buffers
	MipLevels  uint32     // resolved: never 0
	ArraySize  uint32     // 1 for buffers and 3D textures
	Depth      uint32     // 1 but for 3D textures
	Footprints []Footprint
	DataSize   uint64 // bytes the subresources span
	Size       uint64 // DataSize rounded up to Alignment
	Alignment  uint64
}

// New validates d and computes its layout. Every rule a description can
// break gives a *FieldError naming the field; nothing is returned then.
func New(d Desc) (*Resource, error) {
	if !d.Dimension.Valid() {
		return nil, fieldErr(ErrInvalidDesc, "ResourceType", d.Dimension.String(), "not a D3D12DDI_RESOURCE_TYPE")
	}
	if d.Flags&^ddi.DefinedResourceFlags != 0 {
		return nil, fieldErr(ErrInvalidDesc, "Flags", d.Flags.String(), "undefined D3D12DDI_RESOURCE_FLAGS_0003 bits")
	}
	if d.IsBuffer() {
		return newBuffer(d)
	}
	return newTexture(d)
}

func newBuffer(d Desc) (*Resource, error) {
	switch {
	case d.Width == 0:
		return nil, fieldErr(ErrInvalidDesc, "Width", "0", "a buffer has at least one byte")
	case d.Width > MaxBufferSize:
		return nil, fieldErr(ErrInvalidDesc, "Width", fmt.Sprint(d.Width), "larger than the %d-byte buffer limit", uint64(MaxBufferSize))
	case d.Height != 1:
		return nil, fieldErr(ErrInvalidDesc, "Height", fmt.Sprint(d.Height), "must be 1 for a buffer")
	case d.DepthOrArraySize != 1:
		return nil, fieldErr(ErrInvalidDesc, "DepthOrArraySize", fmt.Sprint(d.DepthOrArraySize), "must be 1 for a buffer")
	case d.MipLevels != 1:
		return nil, fieldErr(ErrInvalidDesc, "MipLevels", fmt.Sprint(d.MipLevels), "must be 1 for a buffer")
	case d.Format != ddi.FormatUnknown:
		return nil, fieldErr(ErrInvalidDesc, "Format", d.Format.String(), "must be UNKNOWN for a buffer")
	case d.SampleDesc != ddi.SampleDesc{Count: 1}:
		return nil, fieldErr(ErrInvalidDesc, "SampleDesc", fmt.Sprintf("{%d,%d}", d.SampleDesc.Count, d.SampleDesc.Quality), "must be {1,0} for a buffer")
	case d.Layout != ddi.TextureLayoutRowMajor:
		return nil, fieldErr(ErrInvalidDesc, "Layout", d.Layout.String(), "must be ROW_MAJOR for a buffer")
	case d.Alignment != 0 && d.Alignment != DefaultPlacementAlignment:
		return nil, fieldErr(ErrInvalidDesc, "Alignment", fmt.Sprint(d.Alignment), "a buffer is 64 KiB aligned (0 or 65536)")
	}
	const textureOnly = ddi.ResourceFlagRenderTarget | ddi.ResourceFlagDepthStencil | ddi.ResourceFlagVideoDecodeReferenceOnly |
		ddi.ResourceFlagVideoEncodeReferenceOnly | ddi.ResourceFlagSamplerFeedback
	if d.Flags&textureOnly != 0 {
		return nil, fieldErr(ErrInvalidDesc, "Flags", d.Flags.String(), "%s apply to textures only", d.Flags&textureOnly)
	}
	align := uint64(DefaultPlacementAlignment)
	if d.Flags&ddi.ResourceFlag4MBAligned != 0 {
		align = MSAAPlacementAlignment
	}
	return &Resource{
		Desc: d, MipLevels: 1, ArraySize: 1, Depth: 1,
		Footprints: []Footprint{{Width: uint32(min(d.Width, math.MaxUint32)), Height: 1, Depth: 1, RowPitch: d.Width, Rows: 1,
			SlicePitch: d.Width, Size: d.Width}},
		DataSize: d.Width, Size: alignUp(d.Width, align), Alignment: align,
	}, nil
}

func newTexture(d Desc) (*Resource, error) {
	f, err := LookupFormat(d.Format)
	if err != nil {
		return nil, err
	}
	if err := checkTextureShape(&d, f); err != nil {
		return nil, err
	}
	if err := checkTextureFlags(&d, f); err != nil {
		return nil, err
	}
	if d.Layout != ddi.TextureLayoutUndefined {
		return nil, fieldErr(ErrInvalidDesc, "Layout", d.Layout.String(),
			"ebref's GPU lays textures out itself: only UNDEFINED (the driver's layout) is supported")
	}

	r := &Resource{Desc: d, Format: f, MipLevels: uint32(d.MipLevels), ArraySize: 1, Depth: 1}
	if d.Dimension == ddi.ResourceTypeTexture3D {
		r.Depth = uint32(d.DepthOrArraySize)
	} else {
		r.ArraySize = uint32(d.DepthOrArraySize)
	}
	if r.MipLevels == 0 {
		r.MipLevels = fullMipChain(d)
	}
	r.layout()
	r.Alignment = r.chooseAlignment()
	r.Size = alignUp(r.DataSize, r.Alignment)
	return r, nil
}

// fullMipChain is the number of mips down to 1×1×1.
func fullMipChain(d Desc) uint32 {
	m := max(d.Width, uint64(d.Height))
	if d.Dimension == ddi.ResourceTypeTexture3D {
		m = max(m, uint64(d.DepthOrArraySize))
	}
	return uint32(bits.Len64(m))
}

func checkTextureShape(d *Desc, f FormatInfo) error {
	maxSize, arrays := uint64(MaxTexture2DSize), true
	switch d.Dimension {
	case ddi.ResourceTypeTexture1D:
		maxSize = MaxTexture1DWidth
		if d.Height != 1 {
			return fieldErr(ErrInvalidDesc, "Height", fmt.Sprint(d.Height), "must be 1 for a 1D texture")
		}
	case ddi.ResourceTypeTexture3D:
		maxSize, arrays = MaxTexture3DSize, false
	}
	switch {
	case d.Width == 0 || d.Width > maxSize:
		return fieldErr(ErrInvalidDesc, "Width", fmt.Sprint(d.Width), "a %s is 1 to %d texels wide", d.Dimension, maxSize)
	case d.Height == 0 || uint64(d.Height) > maxSize:
		return fieldErr(ErrInvalidDesc, "Height", fmt.Sprint(d.Height), "a %s is 1 to %d texels high", d.Dimension, maxSize)
	case d.DepthOrArraySize == 0:
		return fieldErr(ErrInvalidDesc, "DepthOrArraySize", "0", "at least 1")
	case arrays && d.DepthOrArraySize > MaxArraySize:
		return fieldErr(ErrInvalidDesc, "DepthOrArraySize", fmt.Sprint(d.DepthOrArraySize), "at most %d array slices", MaxArraySize)
	case !arrays && uint64(d.DepthOrArraySize) > maxSize:
		return fieldErr(ErrInvalidDesc, "DepthOrArraySize", fmt.Sprint(d.DepthOrArraySize), "a 3D texture is at most %d deep", maxSize)
	}
	if full := fullMipChain(*d); uint32(d.MipLevels) > full {
		return fieldErr(ErrInvalidDesc, "MipLevels", fmt.Sprint(d.MipLevels), "a %dx%dx%d texture has at most %d mips",
			d.Width, d.Height, d.DepthOrArraySize, full)
	}
	if f.BlockWidth > 1 && d.Width%uint64(f.BlockWidth) != 0 || f.BlockHeight > 1 && d.Height%f.BlockHeight != 0 {
		return fieldErr(ErrInvalidDesc, "Width", fmt.Sprintf("%dx%d", d.Width, d.Height),
			"%s needs mip 0 to be a whole number of %dx%d blocks", d.Format, f.BlockWidth, f.BlockHeight)
	}
	if f.EvenWidth && d.Width%2 != 0 {
		return fieldErr(ErrInvalidDesc, "Width", fmt.Sprint(d.Width), "%s subsamples chroma horizontally: the width must be even", d.Format)
	}
	if f.EvenHeight && d.Height%2 != 0 {
		return fieldErr(ErrInvalidDesc, "Height", fmt.Sprint(d.Height), "%s subsamples chroma vertically: the height must be even", d.Format)
	}
	if f.Class == ClassVideo && d.Dimension != ddi.ResourceTypeTexture2D {
		return fieldErr(ErrInvalidDesc, "ResourceType", d.Dimension.String(), "video formats are 2D only")
	}
	if f.Class == ClassVideo && d.MipLevels != 1 {
		return fieldErr(ErrInvalidDesc, "MipLevels", fmt.Sprint(d.MipLevels), "video formats have one mip level")
	}
	if f.IsDepth() && d.Dimension == ddi.ResourceTypeTexture3D {
		return fieldErr(ErrInvalidDesc, "Format", d.Format.String(), "depth formats are 1D or 2D only")
	}
	switch c := d.SampleDesc.Count; {
	case c != 1 && c != 2 && c != 4 && c != 8 && c != 16:
		return fieldErr(ErrInvalidDesc, "SampleDesc.Count", fmt.Sprint(c), "1, 2, 4, 8 or 16 samples")
	case d.SampleDesc.Quality != 0:
		return fieldErr(ErrInvalidDesc, "SampleDesc.Quality", fmt.Sprint(d.SampleDesc.Quality), "ebref's GPU has one quality level, 0")
	case c > 1 && d.Dimension != ddi.ResourceTypeTexture2D:
		return fieldErr(ErrInvalidDesc, "SampleDesc.Count", fmt.Sprint(c), "only 2D textures are multisampled")
	case c > 1 && d.MipLevels != 1:
		return fieldErr(ErrInvalidDesc, "MipLevels", fmt.Sprint(d.MipLevels), "a multisampled texture has one mip level")
	case c > 1 && (f.Class == ClassBlockCompressed || f.Class == ClassVideo):
		return fieldErr(ErrInvalidDesc, "SampleDesc.Count", fmt.Sprint(c), "%s cannot be multisampled", d.Format)
	}
	switch d.Alignment {
	case 0, SmallPlacementAlignment, DefaultPlacementAlignment, MSAAPlacementAlignment:
	default:
		return fieldErr(ErrInvalidDesc, "Alignment", fmt.Sprint(d.Alignment), "0, 4096, 65536 or 4194304")
	}
	return nil
}

func checkTextureFlags(d *Desc, f FormatInfo) error {
	fl := d.Flags
	has := func(x ddi.ResourceFlags) bool { return fl&x != 0 }
	switch {
	case has(ddi.ResourceFlagRaytracingAccelerationStructure):
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "RAYTRACING_ACCELERATION_STRUCTURE applies to buffers only")
	case has(ddi.ResourceFlagDepthStencil) && !f.IsDepth():
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "DEPTH_STENCIL needs a depth format, not %s", d.Format)
	case has(ddi.ResourceFlagDepthStencil) && has(ddi.ResourceFlagRenderTarget):
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "DEPTH_STENCIL and RENDER_TARGET exclude each other")
	case has(ddi.ResourceFlagDepthStencil) && has(ddi.ResourceFlagUnorderedAccess):
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "DEPTH_STENCIL and UNORDERED_ACCESS exclude each other")
	case has(ddi.ResourceFlagDepthStencil) && has(ddi.ResourceFlagSimultaneousAccess):
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "a depth-stencil texture cannot be simultaneous-access")
	case has(ddi.ResourceFlagRenderTarget) && (f.Class == ClassBlockCompressed || f.Class == ClassDepth):
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "RENDER_TARGET cannot use %s", d.Format)
	case has(ddi.ResourceFlagUnorderedAccess) && d.SampleDesc.Count > 1:
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "a multisampled texture cannot have UNORDERED_ACCESS")
	case has(ddi.ResourceFlagSimultaneousAccess) && d.SampleDesc.Count > 1:
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "a multisampled texture cannot be simultaneous-access")
	case d.SampleDesc.Count > 1 && !has(ddi.ResourceFlagRenderTarget|ddi.ResourceFlagDepthStencil):
		return fieldErr(ErrInvalidDesc, "Flags", fl.String(), "a multisampled texture must allow RENDER_TARGET or DEPTH_STENCIL")
	}
	return nil
}

// layout assigns every subresource its footprint, in subresource-index order
// (mip fastest, then array slice, then plane), each at a 512-byte boundary
// with rows 256-byte aligned. Multisampled texels store their samples side by
// side, so a row holds Width × samples elements.
func (r *Resource) layout() {
	d := r.Desc
	samples := uint64(d.SampleDesc.Count)
	var off uint64
	r.Footprints = make([]Footprint, 0, r.SubresourceCount())
	for p, plane := range r.Format.Planes {
		for s := uint32(0); s < r.ArraySize; s++ {
			for m := uint32(0); m < r.MipLevels; m++ {
				w := max(1, uint32(d.Width>>m)) / plane.SubsampleX
				h := max(1, d.Height>>m) / plane.SubsampleY
				w, h = max(1, w), max(1, h)
				depth := max(1, r.Depth>>m)
				across := uint64(divUp(w, r.Format.BlockWidth)) * samples
				rows := divUp(h, r.Format.BlockHeight)
				pitch := alignUp(across*uint64(plane.BytesPerElement), RowPitchAlignment)
				fp := Footprint{
					Subresource: r.index(m, s, uint32(p)), Mip: m, Slice: s, Plane: uint32(p),
					Offset: alignUp(off, SubresourceAlignment), Width: w, Height: h, Depth: depth,
					RowPitch: pitch, Rows: rows, SlicePitch: pitch * uint64(rows),
				}
				fp.Size = fp.SlicePitch * uint64(depth)
				off = fp.Offset + fp.Size
				r.Footprints = append(r.Footprints, fp)
			}
		}
	}
	r.DataSize = off
}

// chooseAlignment applies D3D12's placement alignment rules: 64 KiB, or 4 MiB
// multisampled or with the 4MB_ALIGNED flag; on request (Desc.Alignment),
// the small alignment SmallAlignment grants.
func (r *Resource) chooseAlignment() uint64 {
	d := r.Desc
	if d.Flags&ddi.ResourceFlag4MBAligned != 0 || d.Alignment == MSAAPlacementAlignment {
		return MSAAPlacementAlignment
	}
	if small, _ := r.SmallAlignment(); small != 0 && d.Alignment == small {
		return small
	}
	if d.SampleDesc.Count > 1 {
		return MSAAPlacementAlignment
	}
	return DefaultPlacementAlignment
}

// SmallAlignment is the small-resource placement alignment the resource
// qualifies for: D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT (4 KiB), or
// 64 KiB for a multisampled texture, whether or not its description asks
// for it; 0 and the reason when it does not qualify. The public rules
// (DirectX-Specs "Direct3D 12 Tight Placed Resource Alignment", "Small
// resource"): a texture of the driver's layout (UNKNOWN), neither render
// target nor depth-stencil unless multisampled, whose size at the small alignment is at most the
// larger one (64 KiB; 4 MiB multisampled). ebref estimates the size as the
// whole texture's data rounded up to the small alignment (errata
// E-SMALL-PLACEMENT); compression metadata is not counted, as the rules say.
func (r *Resource) SmallAlignment() (uint64, string) {
	d := r.Desc
	small, large := uint64(SmallPlacementAlignment), uint64(DefaultPlacementAlignment)
	if d.SampleDesc.Count > 1 {
		small, large = SmallMSAAPlacementAlignment, MSAAPlacementAlignment
	}
	switch {
	case d.IsBuffer():
		return 0, "a buffer is always 64 KiB aligned"
	case d.SampleDesc.Count <= 1 && d.Flags&(ddi.ResourceFlagRenderTarget|ddi.ResourceFlagDepthStencil) != 0:
		// A multisampled texture is always one or the other, so the rule
		// would leave the 64 KiB MSAA alignment to none: it is not applied
		// to them (errata E-SMALL-PLACEMENT).
		return 0, fmt.Sprintf("a %s texture is never a small resource", d.Flags&(ddi.ResourceFlagRenderTarget|ddi.ResourceFlagDepthStencil))
	case d.Flags&ddi.ResourceFlag4MBAligned != 0:
		return 0, "the 4MB_ALIGNED flag asks for 4 MiB"
	case alignUp(r.DataSize, small) > large:
		return 0, fmt.Sprintf("its %d bytes at %d-byte alignment exceed %d", alignUp(r.DataSize, small), small, large)
	}
	return small, ""
}

// SmallRefused is why the small alignment the description asks for was not
// granted ("" when it asks for none or got it).
func (r *Resource) SmallRefused() string {
	small, why := r.SmallAlignment()
	asked := r.Desc.Alignment == SmallPlacementAlignment ||
		r.Desc.Alignment == SmallMSAAPlacementAlignment && r.Desc.SampleDesc.Count > 1
	if !asked || small == r.Desc.Alignment {
		return ""
	}
	if why == "" {
		why = fmt.Sprintf("its small alignment is %d", small)
	}
	return fmt.Sprintf("the texture is not a small resource, so it has no %d-byte alignment: %s "+
		"(D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT rules)", r.Desc.Alignment, why)
}

func divUp(a, b uint32) uint32 { return (a + b - 1) / b }

func alignUp(v, a uint64) uint64 { return (v + a - 1) &^ (a - 1) }
