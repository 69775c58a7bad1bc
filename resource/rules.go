package resource

import (
	"github.com/ebref/ebref/ddi"
)

// layoutNeeds says which creation flag a layout needs: a texture can only be
// put in a render-target layout if it allows render targets, and so on. The
// flags are the DDI's, where SHADER_RESOURCE allows shader-resource views.
var layoutNeeds = map[ddi.BarrierLayout]ddi.ResourceFlags{
	ddi.LayoutRenderTarget:                ddi.ResourceFlagRenderTarget,
	ddi.LayoutDepthStencilWrite:           ddi.ResourceFlagDepthStencil,
	ddi.LayoutDepthStencilRead:            ddi.ResourceFlagDepthStencil,
	ddi.LayoutUnorderedAccess:             ddi.ResourceFlagUnorderedAccess,
	ddi.LayoutDirectQueueUnorderedAccess:  ddi.ResourceFlagUnorderedAccess,
	ddi.LayoutComputeQueueUnorderedAccess: ddi.ResourceFlagUnorderedAccess,
	ddi.LayoutShaderResource:              ddi.ResourceFlagShaderResource,
	ddi.LayoutDirectQueueShaderResource:   ddi.ResourceFlagShaderResource,
	ddi.LayoutComputeQueueShaderResource:  ddi.ResourceFlagShaderResource,
	ddi.LayoutLegacyShaderResource:        ddi.ResourceFlagShaderResource,
	ddi.LayoutLegacyPixelShaderResource:   ddi.ResourceFlagShaderResource,
}

// CheckLayout says whether the texture may ever be in layout l: buffers have
// no layout but UNDEFINED (000 "New Resource Creation API's");
// simultaneous-access textures are immutably COMMON (002 "Single-Queue
// Simultaneous Access"); a layout whose accesses need a creation flag needs
// the flag; resolve layouts need the right sample count. UNDEFINED is always
// allowed for textures.
func (r *Resource) CheckLayout(field string, l ddi.BarrierLayout) error {
	if !l.Valid() {
		return fieldErr(ErrLayout, field, l.String(), "not a D3D12DDI_BARRIER_LAYOUT value")
	}
	d := &r.Desc
	switch {
	case d.IsBuffer():
		if l != ddi.LayoutUndefined {
			return fieldErr(ErrLayout, field, l.String(), "a buffer has no layout: only UNDEFINED (000 \"New Resource Creation API's\")")
		}
		return nil
	case l == ddi.LayoutUndefined:
		return nil
	case d.IsSimultaneousAccess() && l != ddi.LayoutCommon:
		return fieldErr(ErrLayout, field, l.String(), "a simultaneous-access texture is always COMMON (002 \"Single-Queue Simultaneous Access\")")
	}
	if need, ok := layoutNeeds[l]; ok && d.Flags&need == 0 {
		return fieldErr(ErrLayout, field, l.String(), "the texture was created without the %s flag", need)
	}
	if l == ddi.LayoutResolveSource && d.SampleDesc.Count == 1 && d.Flags&ddi.ResourceFlagSamplerFeedback == 0 {
		return fieldErr(ErrLayout, field, l.String(), "a resolve source is multisampled (or a sampler-feedback map)")
	}
	if (l == ddi.LayoutResolveDest) && d.SampleDesc.Count > 1 {
		return fieldErr(ErrLayout, field, l.String(), "a resolve destination is not multisampled")
	}
	return nil
}

// CheckInitialLayout applies the creation rules to InitialBarrierLayout: those
// of CheckLayout, naming the member InitialBarrierLayout.
func (r *Resource) CheckInitialLayout(l ddi.BarrierLayout) error {
	return r.CheckLayout("InitialBarrierLayout", l)
}

// accessNeeds says which texture creation flag an access needs.
var accessNeeds = []struct {
	access ddi.BarrierAccess
	flag   ddi.ResourceFlags
}{
	{ddi.AccessRenderTarget, ddi.ResourceFlagRenderTarget},
	{ddi.AccessDepthStencilWrite | ddi.AccessDepthStencilRead, ddi.ResourceFlagDepthStencil},
	{ddi.AccessUnorderedAccess, ddi.ResourceFlagUnorderedAccess},
	{ddi.AccessShaderResource, ddi.ResourceFlagShaderResource},
}

// bufferOnlyAccesses never apply to textures.
const bufferOnlyAccesses = ddi.AccessVertexBuffer | ddi.AccessConstantBuffer | ddi.AccessIndexBuffer |
	ddi.AccessStreamOutput | ddi.AccessIndirectArgument | ddi.AccessPredication |
	ddi.AccessRaytracingAccelerationStructureRead | ddi.AccessRaytracingAccelerationStructureWrite

// rtasAccesses are what a buffer created for acceleration structures allows:
// the acceleration-structure accesses and, for the legacy UAV barrier's sake
// (000 "UAV Barriers"), unordered access.
const rtasAccesses = ddi.AccessRaytracingAccelerationStructureRead | ddi.AccessRaytracingAccelerationStructureWrite |
	ddi.AccessUnorderedAccess

// AllowedAccesses is every access the resource may ever have in a heap of
// the given kind, NO_ACCESS included. Buffers: everything but depth-stencil,
// unordered access only with the UNORDERED_ACCESS flag, acceleration-structure
// access only (and always) with the RAYTRACING_ACCELERATION_STRUCTURE flag
// (errata E-RTAS-BUFFER-ACCESS); upload and readback heaps narrow that to
// their lists (000 "Upload Heap Resources", "Readback Heap Resources").
// Textures: no buffer-only access, and the view accesses need their flags.
func (r *Resource) AllowedAccesses(kind HeapKind) ddi.BarrierAccess {
	d := &r.Desc
	all := ddi.DefinedAccessBits
	var a ddi.BarrierAccess
	if d.IsBuffer() {
		switch {
		case d.Flags&ddi.ResourceFlagRaytracingAccelerationStructure != 0:
			a = rtasAccesses
		default:
			a = all &^ ddi.BufferForbiddenAccesses &^ (ddi.AccessRaytracingAccelerationStructureRead | ddi.AccessRaytracingAccelerationStructureWrite)
			if d.Flags&ddi.ResourceFlagUnorderedAccess == 0 {
				a &^= ddi.AccessUnorderedAccess
			}
			// A buffer has no views that need a layout-bound flag but UAVs;
			// shader resources are always allowed.
		}
		switch kind {
		case HeapUpload:
			a &= ddi.UploadHeapAccesses
		case HeapReadback:
			a &= ddi.ReadbackHeapAccesses
		}
		return a | ddi.AccessNoAccess
	}
	a = all &^ bufferOnlyAccesses
	for _, n := range accessNeeds {
		if d.Flags&n.flag == 0 {
			a &^= n.access
		}
	}
	return a | ddi.AccessNoAccess
}

// CheckAccess says whether every bit of a is allowed (AllowedAccesses),
// naming the field and the first bit that is not.
func (r *Resource) CheckAccess(field string, a ddi.BarrierAccess, kind HeapKind) error {
	bad := a &^ r.AllowedAccesses(kind) & ddi.DefinedAccessBits
	if bad == 0 {
		return nil
	}
	bit := bad & -bad
	what := "texture"
	if r.Desc.IsBuffer() {
		what = kind.String() + "-heap buffer"
	}
	return fieldErr(ErrAccess, field, a.String(), "%s is not an access this %s (flags %s) allows", bit, what, r.Desc.Flags)
}
