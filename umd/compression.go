package umd

import (
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd/translator"
)

// Compression. A texture the profile compresses (render targets,
// depth-stencil or unordered-access textures, as Profile.Compresses says)
// is a compression surface. Each layout then has one of two states on the
// profile, decided from what the layout allows, not from its name
// (000 "Queue type specific layouts"):
//
//   - compressed: every access the layout allows, on every queue type
//     that may use it, goes through a client that decodes compression on
//     that queue's engine (Profile.Aware). Such accesses read and write
//     through compression, and the metadata must be valid.
//   - plain: some allowed access cannot decode, so the bytes must be plain.
//     Accesses are raw; the metadata may be anything.
//
// LEGACY_* layouts are plain, and so is COMMON: a texture the runtime
// names as, say, LEGACY_SHADER_RESOURCE may really be in COMMON after a
// legacy promotion (000 "Legacy layouts"), and a texture in COMMON is
// promoted to a legacy read or copy state by its first use, with no
// barrier, and decays back (000 "Resource State Promotion and Decay"), so
// the bytes of each must suit the others. (COMMON came out plain from the
// rule below on every built-in profile, since copy queues may use it and
// no copy engine there decodes; on a profile whose every client decodes,
// it did not, and legacy promotions read compressed bytes raw.) So is
// DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE: compute queues read
// it though only direct queues may name it in a barrier, so the queue
// tables alone would not see its compute readers. UNDEFINED has no state:
// its bytes mean nothing.
//
// A layout transition then needs (000 "Layout Transitions", "Placed
// Resource Metadata Initialization"):
//
//	compressed → plain       DECOMPRESS
//	plain → compressed       METADATA_INIT, plain (the bytes are plain;
//	                         their metadata may never have been written)
//	UNDEFINED → compressed   METADATA_INIT, cleared to 0 — only with DISCARD
//	UNDEFINED → plain        METADATA_INIT, plain, discarding: the metadata
//	                         may still mark blocks of an earlier layout
//	                         compressed, and plain writes under it would be
//	                         misread (errata E-UNDEFINED-TO-PLAIN)
//	→ UNDEFINED, equal states, anything on a plain surface's twin: nothing

// layoutSlots numbers the layouts densely: 0..31 are the layout values, the
// four LEGACY_* layouts from 0x80000000 follow, then UNDEFINED.
const (
	legacySlot0    = 32
	undefinedSlot  = legacySlot0 + 4
	numLayoutSlots = undefinedSlot + 1
)

func layoutSlot(l ddi.BarrierLayout) (int, bool) {
	switch {
	case l < legacySlot0:
		return int(l), true
	case l >= ddi.LayoutLegacyCopySource && l <= ddi.LayoutLegacyPixelShaderResource:
		return legacySlot0 + int(l-ddi.LayoutLegacyCopySource), true
	case l == ddi.LayoutUndefined:
		return undefinedSlot, true
	}
	return 0, false
}

// alwaysPlain reports whether l is plain on every profile (see above).
func alwaysPlain(l ddi.BarrierLayout) bool {
	return l.IsLegacy() || l == ddi.LayoutCommon || l == ddi.LayoutDirectQueueGenericReadComputeQueueAccessible
}

// compressible reports whether the profile keeps a texture compressed in
// some layouts. Buffers and simultaneous-access textures never are (their
// layout is always COMMON).
func compressible(p *hwmodel.Profile, r *resource.Resource) bool {
	d := &r.Desc
	if d.IsBuffer() || d.IsSimultaneousAccess() {
		return false
	}
	c := p.Compresses
	return c.RenderTarget && d.Flags&ddi.ResourceFlagRenderTarget != 0 ||
		c.DepthStencil && d.Flags&ddi.ResourceFlagDepthStencil != 0 ||
		c.UnorderedAccess && d.Flags&ddi.ResourceFlagUnorderedAccess != 0
}

// compressedLayouts returns, per layout slot, whether the layout's state is
// compressed for a surface r in a heap of kind on profile p.
func compressedLayouts(p *hwmodel.Profile, r *resource.Resource, kind resource.HeapKind) (out [numLayoutSlots]bool) {
	allowed := r.AllowedAccesses(kind) &^ ddi.AccessNoAccess
	for _, l := range ddi.AllBarrierLayouts() {
		slot, ok := layoutSlot(l)
		if !ok || l == ddi.LayoutUndefined || alwaysPlain(l) {
			continue
		}
		compat, ok := ddi.CompatibleAccesses(l)
		if !ok {
			continue
		}
		used, aware := false, true
		for _, q := range ddi.QueueTypes {
			qr, _ := ddi.QueueRulesFor(q)
			if !qr.AllowsLayout(l) {
				continue
			}
			e := queueEngines[q]
			cs := clientsOf(compat & qr.Accesses & allowed)
			for c := range p.Aware[e] {
				if cs&(1<<c) != 0 {
					used = true
					aware = aware && p.Aware[e][c]
				}
			}
		}
		out[slot] = used && aware
	}
	return out
}

// policyLayouts is compressedLayouts as a translator's policy declares it
// (translator.Policy): the mask for the texture's kind.
func policyLayouts(p *translator.Policy, r *resource.Resource) (out [numLayoutSlots]bool) {
	mask := p.For(r.Desc.Flags)
	for _, l := range ddi.AllBarrierLayouts() {
		slot, ok := layoutSlot(l)
		bit, has := translator.LayoutBit(l)
		if ok && has {
			out[slot] = mask&bit != 0
		}
	}
	return out
}

// compressionWork is what a layout transition of a surface needs.
type compressionWork uint8

const (
	workNone        compressionWork = iota
	workDecompress                  // DECOMPRESS
	workInitPlain                   // METADATA_INIT, plain
	workInitClear                   // METADATA_INIT, cleared to 0
	workInitDiscard                 // METADATA_INIT, plain, the contents discarded
)

// transitionWork decides the compression work of one texture barrier (see
// the table above): surface says the texture is a compression surface, cb
// and ca that its layouts before and after keep it compressed.
func transitionWork(surface bool, before, after ddi.BarrierLayout, cb, ca, discard bool) compressionWork {
	if !surface || after == ddi.LayoutUndefined || before == after {
		return workNone
	}
	if before == ddi.LayoutUndefined {
		switch {
		case !ca:
			return workInitDiscard
		case discard:
			return workInitClear
		}
		return workNone
	}
	switch {
	case cb && !ca:
		return workDecompress
	case !cb && ca:
		return workInitPlain
	}
	return workNone
}

// compressedIn reports whether layout l's state is compressed for r.
func (r *Resource) compressedIn(l ddi.BarrierLayout) bool {
	slot, ok := layoutSlot(l)
	return ok && r.compressed[slot]
}
