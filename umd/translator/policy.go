package translator

import (
	"fmt"
	"math/bits"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

// Policy is a translator's compression policy on one profile: for each
// kind of texture the profile compresses, which layouts keep a surface
// compressed. A mask has bit n for layout value n (n < 32) and bits 32 to
// 35 for LEGACY_COPY_SOURCE, LEGACY_COPY_DEST, LEGACY_SHADER_RESOURCE and
// LEGACY_PIXEL_SHADER_RESOURCE; UNDEFINED has none (its bytes mean
// nothing). A texture is of the first kind its flags allow, in the order
// depth-stencil, render target, unordered access.
//
// ebref's work packets read and write a surface as the policy says, so a
// layout declared compressed whose allowed accesses go through a client
// that cannot decode compression is the translator's mistake, and the
// judge sees it. The reference's table is the default: a translator that
// declares nothing gets it.
type Policy struct {
	RenderTarget, DepthStencil, UnorderedAccess uint64
}

// Policer is a Translator that declares its compression policy for the
// profile it was opened on (declared false: the reference's table).
type Policer interface {
	Policy() (p Policy, declared bool)
}

// PolicySize is an OpPolicy frame's body: the profile id, a reserved
// dword, and the three masks.
const PolicySize = 8 + 3*8

// OpPolicy is the translator's answer to a profile frame when its hello
// declared policies (HelloDeclaresPolicy).
const OpPolicy uint32 = 4

// HelloDeclaresPolicy, in the translator hello's fourth dword, says it
// answers every profile frame with an OpPolicy frame.
const HelloDeclaresPolicy = 1

// LayoutBit is the policy mask bit of layout l, false for UNDEFINED and
// values no layout has.
func LayoutBit(l ddi.BarrierLayout) (uint64, bool) {
	switch {
	case l < 32:
		return 1 << l, true
	case l >= ddi.LayoutLegacyCopySource && l <= ddi.LayoutLegacyPixelShaderResource:
		return 1 << (32 + (l - ddi.LayoutLegacyCopySource)), true
	}
	return 0, false
}

// For is the mask that applies to a texture with flags f.
func (p Policy) For(f ddi.ResourceFlags) uint64 {
	switch {
	case f&ddi.ResourceFlagDepthStencil != 0:
		return p.DepthStencil
	case f&ddi.ResourceFlagRenderTarget != 0:
		return p.RenderTarget
	case f&ddi.ResourceFlagUnorderedAccess != 0:
		return p.UnorderedAccess
	}
	return 0
}

// Check reports a policy that compresses a kind of texture the profile
// does not, or names bits no layout has.
func (p Policy) Check(prof *hwmodel.Profile) error {
	const layouts = 1<<36 - 1
	for _, k := range []struct {
		name string
		mask uint64
		ok   bool
	}{
		{"render targets", p.RenderTarget, prof.Compresses.RenderTarget},
		{"depth-stencil textures", p.DepthStencil, prof.Compresses.DepthStencil},
		{"unordered-access textures", p.UnorderedAccess, prof.Compresses.UnorderedAccess},
	} {
		if k.mask&^layouts != 0 {
			return fmt.Errorf("the policy for %s has bits %#x, which no layout has (bits 0-35)", k.name, k.mask&^layouts)
		}
		if k.mask != 0 && !k.ok {
			return fmt.Errorf("the policy keeps %s compressed in %d layouts; profile %s does not compress them", k.name, bits.OnesCount64(k.mask), prof.Name)
		}
	}
	return nil
}
