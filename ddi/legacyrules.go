package ddi

import (
	"fmt"
	"math/bits"
)

// LegacyEquivalence is what a legacy state stands for in an enhanced
// barrier. Layout is meaningful for textures only.
type LegacyEquivalence struct {
	Sync   BarrierSync
	Access BarrierAccess
	Layout BarrierLayout
}

// LegacyStateError is a legacy state that stands for no enhanced barrier
// state.
type LegacyStateError struct {
	State ResourceStates
	Rule  string
}

func (e *LegacyStateError) Error() string {
	return fmt.Sprintf("resource state %s (0x%x): %s", e.State, uint32(e.State), e.Rule)
}

// LegacyWriteStates are the states a subresource must hold alone: those
// that let the GPU write it, and the acceleration-structure state, which
// both reads and writes (legacy states allow one write state, or any
// combination of read states: 000 "Resource State Promotion and Decay").
const LegacyWriteStates = StateRenderTarget | StateUnorderedAccess | StateDepthWrite | StateStreamOut |
	StateCopyDest | StateResolveDest | StateVideoDecodeWrite | StateVideoProcessWrite |
	StateVideoEncodeWrite | StateRaytracingAccelerationStructure

// legacyVideoStates are the video states: each stands alone too
// (E-LEGACY-COMBINATIONS).
const legacyVideoStates = StateVideoDecodeRead | StateVideoDecodeWrite | StateVideoProcessRead |
	StateVideoProcessWrite | StateVideoEncodeRead | StateVideoEncodeWrite

// definedLegacyStates are the bits D3D12_RESOURCE_STATES defines.
var definedLegacyStates = func() ResourceStates {
	var s ResourceStates
	for _, r := range LegacyStates {
		s |= r.State
	}
	return s
}()

// legacyRow is the LegacyStates row of one defined state bit.
// INDIRECT_ARGUMENT and PREDICATION share their bit, and their accesses
// and syncs share their values too, so either row serves.
func legacyRow(bit ResourceStates) *LegacyStateRow {
	for i := range LegacyStates {
		if LegacyStates[i].State == bit {
			return &LegacyStates[i]
		}
	}
	return nil
}

// LegacyEquivalent returns what a legacy state stands for on a texture (a
// layout too) or a buffer: the syncs and accesses of its bits' LegacyStates
// rows ORed (000/002 "Equivalent D3D12_BARRIER_{LAYOUT,ACCESS,SYNC} for
// each D3D12_RESOURCE_STATES bit"). COMMON is SyncAll, AccessCommon and
// LayoutCommon. A texture's layout is that of its one bit with a layout;
// NON_PIXEL_SHADER_RESOURCE with PIXEL_SHADER_RESOURCE is
// LEGACY_SHADER_RESOURCE (E-LEGACY-PSR), any other combination of read
// states layout 31, whose accesses cover every texture read (000 "Legacy
// layouts"; E-LEGACY-COMBINATIONS). On a texture the bits of buffer-only
// states (vertex, index, stream-out, indirect-argument,
// acceleration-structure) add nothing: GENERIC_READ is legal on a texture
// and means its texture reads. Errors: undefined bits, a texture state of
// buffer-only bits alone, and a write or video state with any other.
func LegacyEquivalent(s ResourceStates, texture bool) (LegacyEquivalence, error) {
	if s&^definedLegacyStates != 0 {
		return LegacyEquivalence{}, &LegacyStateError{s, fmt.Sprintf("bits 0x%x are no D3D12_RESOURCE_STATES", uint32(s&^definedLegacyStates))}
	}
	if s == StateCommon {
		return LegacyEquivalence{Sync: SyncAll, Access: AccessCommon, Layout: LayoutCommon}, nil
	}
	if bits.OnesCount32(uint32(s)) > 1 {
		switch {
		case s&LegacyWriteStates != 0:
			return LegacyEquivalence{}, &LegacyStateError{s, "a write state (or RAYTRACING_ACCELERATION_STRUCTURE) cannot be combined with any other state"}
		case s&legacyVideoStates != 0:
			return LegacyEquivalence{}, &LegacyStateError{s, "a video state cannot be combined with any other state"}
		}
	}
	var e LegacyEquivalence
	layouts := 0
	for rest := s; rest != 0; rest &= rest - 1 {
		r := legacyRow(rest & -rest)
		if texture && !r.HasLayout {
			continue
		}
		e.Sync |= r.Sync
		e.Access |= r.Access
		if r.HasLayout {
			e.Layout = r.Layout
			layouts++
		}
	}
	switch {
	case !texture:
		e.Layout = 0
	case layouts == 0:
		return LegacyEquivalence{}, &LegacyStateError{s, "a texture has no layout for buffer-only states"}
	case s&^StateAllShaderResource == 0 && layouts == 2:
		e.Layout = LayoutLegacyShaderResource
	case layouts > 1:
		e.Layout = LayoutLegacyDirectQueueGenericReadComputeQueueAccessible
	}
	return e, nil
}

// LegacyCombinations are the combinations of read states the rule
// document lists beside the single states: the API's two composites, and
// every pair of the texture read states that have a layout.
var LegacyCombinations = func() []ResourceStates {
	out := []ResourceStates{StateGenericRead, StateAllShaderResource}
	reads := []ResourceStates{StateDepthRead, StateNonPixelShaderResource, StatePixelShaderResource,
		StateCopySource, StateResolveSource, StateShadingRateSource}
	for i, a := range reads {
		for _, b := range reads[i+1:] {
			if a|b != StateAllShaderResource {
				out = append(out, a|b)
			}
		}
	}
	return out
}()
