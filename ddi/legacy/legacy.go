// Package legacy is the D3D12 runtime's half of legacy resource barriers
// on a driver that supports enhanced barriers: there the runtime never
// hands ResourceBarrier to the driver, but translates each one into the
// Barrier DDI (000 "Compatibility"). This package holds the application
// side's structures (D3D12_RESOURCE_BARRIER), what each legacy state
// stands for in syncs, accesses and layouts, single bits and combinations
// alike (StateEquivalent), and the enhanced barrier each legacy barrier
// becomes (Translate).
//
// It sits beside the driver, not in it: package umd never sees a legacy
// state, only the LEGACY_* layouts the translation puts in texture
// barriers, which stand for "this layout, or COMMON if the subresource was
// promoted rather than transitioned" (000 "Legacy layouts"). Where the
// spec leaves a combination open, docs/errata.md records the decision
// (E-LEGACY-COMBINATIONS, E-LEGACY-ALIASING).
//
// This package imports ddi and ddi/debug, and nothing else of ebref.
package legacy

import (
	"fmt"

	"github.com/ebref/ebref/ddi"
)

// BarrierType is D3D12_RESOURCE_BARRIER_TYPE.
type BarrierType uint32

// The barrier types.
const (
	TypeTransition BarrierType = 0
	TypeAliasing   BarrierType = 1
	TypeUAV        BarrierType = 2
)

func (t BarrierType) String() string {
	return enumName(uint32(t), []string{"TRANSITION", "ALIASING", "UAV"}, "BarrierType")
}

// enumName is names[v], or TYPE(v) for a value without a name.
func enumName(v uint32, names []string, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(0x%x)", typ, v)
}

// BarrierFlags is D3D12_RESOURCE_BARRIER_FLAGS.
type BarrierFlags uint32

// The barrier flags: the two halves of a split transition.
const (
	FlagNone      BarrierFlags = 0
	FlagBeginOnly BarrierFlags = 0x1
	FlagEndOnly   BarrierFlags = 0x2
)

func (f BarrierFlags) String() string {
	return enumName(uint32(f), []string{"NONE", "BEGIN_ONLY", "END_ONLY"}, "BarrierFlags")
}

// AllSubresources is D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES.
const AllSubresources = 0xffffffff

// Barrier is D3D12_RESOURCE_BARRIER with its union spread out: a
// transition uses Resource, Subresource, StateBefore and StateAfter; a UAV
// barrier Resource (0 for NULL); an aliasing barrier ResourceBefore and
// ResourceAfter (each 0 for NULL).
type Barrier struct {
	Type                          BarrierType
	Flags                         BarrierFlags
	Resource                      ddi.HResource
	Subresource                   uint32
	StateBefore, StateAfter       ddi.ResourceStates
	ResourceBefore, ResourceAfter ddi.HResource
}

// Transition is a transition barrier of a resource's subresource
// (AllSubresources: every one).
func Transition(r ddi.HResource, sub uint32, before, after ddi.ResourceStates) Barrier {
	return Barrier{Type: TypeTransition, Resource: r, Subresource: sub, StateBefore: before, StateAfter: after}
}

// UAV is a UAV barrier of a resource (0: every resource).
func UAV(r ddi.HResource) Barrier { return Barrier{Type: TypeUAV, Resource: r} }

// Aliasing is an aliasing barrier between two resources (either 0: any).
func Aliasing(before, after ddi.HResource) Barrier {
	return Barrier{Type: TypeAliasing, ResourceBefore: before, ResourceAfter: after}
}

// Equivalent is what a legacy state stands for in an enhanced barrier
// (ddi.LegacyEquivalent).
type Equivalent = ddi.LegacyEquivalence

// StateError is a legacy state that stands for no enhanced barrier state.
type StateError = ddi.LegacyStateError

// StateEquivalent returns what a legacy state stands for on a texture or a
// buffer: ddi.LegacyEquivalent, the rule table's single place.
func StateEquivalent(s ddi.ResourceStates, texture bool) (Equivalent, error) {
	return ddi.LegacyEquivalent(s, texture)
}

// writeStates are the states a subresource holds alone (ddi.LegacyWriteStates).
const writeStates = ddi.LegacyWriteStates

// Resource is what the translation needs to know of a resource.
type Resource struct {
	Texture bool
	// Simultaneous: a texture created ALLOW_SIMULTANEOUS_ACCESS, whose
	// layout is always COMMON (000 "Simultaneous Access").
	Simultaneous bool
	// AccelerationStructure: a buffer created
	// RAYTRACING_ACCELERATION_STRUCTURE, the only kind whose accesses
	// include the acceleration-structure ones.
	AccelerationStructure bool
}

// uavSync and uavAccess are a UAV barrier's scopes: every shader,
// unordered-access clear and acceleration-structure operation that may
// access unordered memory (000 "UAV Barriers"; 002 adds the
// acceleration-structure scopes; the clears' own scope, E-LEGACY-UAV-SYNC).
const (
	uavSync = ddi.SyncAllShading | ddi.SyncClearUnorderedAccessView | ddi.SyncBuildRaytracingAccelerationStructure |
		ddi.SyncCopyRaytracingAccelerationStructure | ddi.SyncEmitRaytracingAccelerationStructurePostbuildInfo
	uavAccess = ddi.AccessUnorderedAccess | ddi.AccessRaytracingAccelerationStructureRead |
		ddi.AccessRaytracingAccelerationStructureWrite
)

// Translate returns the enhanced barrier one legacy barrier becomes at the
// Barrier DDI of a command list of type q, given what its resource is
// (res; unused for NULL resources). A transition takes its before and
// after scopes from StateEquivalent; BEGIN_ONLY makes SyncAfter SPLIT,
// END_ONLY SyncBefore (000 "Split Barriers"); a simultaneous-access
// texture keeps layout COMMON, and so does any texture on a copy list,
// where it is in COMMON, promoted or decayed, whatever its legacy state
// (E-LEGACY-COPY-QUEUE). A UAV barrier of NULL covers the UAV scopes; of a buffer, their
// syncs and the accesses the buffer may have (the acceleration-structure
// ones only on an acceleration-structure buffer); of a texture, its
// shaders' unordered accesses in layout UNORDERED_ACCESS. An
// aliasing barrier is a global barrier that waits for all work and makes
// all writes visible (E-LEGACY-ALIASING). The states are not checked
// against what the subresource holds: that is the tracker's job.
func Translate(b Barrier, res Resource, q ddi.CommandListType) (ddi.Barrier, error) {
	switch b.Type {
	case TypeTransition:
		return transition(b, res, q)
	case TypeUAV:
		if b.Flags != FlagNone {
			return ddi.Barrier{}, fmt.Errorf("a UAV barrier takes no flags (Flags %s)", b.Flags)
		}
		switch {
		case b.Resource == 0:
			return ddi.NewGlobalBarrier(ddi.GlobalBarrier{SyncBefore: uavSync, SyncAfter: uavSync,
				AccessBefore: uavAccess, AccessAfter: uavAccess}), nil
		case !res.Texture:
			access := ddi.AccessUnorderedAccess
			if res.AccelerationStructure {
				access = uavAccess
			}
			return ddi.NewBufferBarrier(ddi.BufferBarrier{SyncBefore: uavSync, SyncAfter: uavSync,
				AccessBefore: access, AccessAfter: access, Resource: b.Resource}), nil
		}
		layout := ddi.LayoutUnorderedAccess
		if res.Simultaneous {
			layout = ddi.LayoutCommon
		}
		// The state's scopes, the acceleration-structure ones included
		// though a texture never meets them: a UAV barrier after a
		// transition to UNORDERED_ACCESS must hold its SyncAfter (000
		// "Sequential Barriers"; E-LEGACY-UAV-SYNC).
		return ddi.NewTextureBarrier(ddi.TextureBarrier{SyncBefore: uavSync, SyncAfter: uavSync,
			AccessBefore: ddi.AccessUnorderedAccess, AccessAfter: ddi.AccessUnorderedAccess,
			LayoutBefore: layout, LayoutAfter: layout, Resource: b.Resource, Subresources: allSubresources}), nil
	case TypeAliasing:
		if b.Flags != FlagNone {
			return ddi.Barrier{}, fmt.Errorf("an aliasing barrier takes no flags (Flags %s)", b.Flags)
		}
		return ddi.NewGlobalBarrier(ddi.GlobalBarrier{SyncBefore: ddi.SyncAll, SyncAfter: ddi.SyncAll,
			AccessBefore: ddi.AccessCommon, AccessAfter: ddi.AccessCommon}), nil
	}
	return ddi.Barrier{}, fmt.Errorf("no resource barrier type is %d", uint32(b.Type))
}

var allSubresources = ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresourcesIndex}

func transition(b Barrier, res Resource, q ddi.CommandListType) (ddi.Barrier, error) {
	before, err := StateEquivalent(b.StateBefore, res.Texture)
	if err != nil {
		return ddi.Barrier{}, fmt.Errorf("StateBefore: %w", err)
	}
	after, err := StateEquivalent(b.StateAfter, res.Texture)
	if err != nil {
		return ddi.Barrier{}, fmt.Errorf("StateAfter: %w", err)
	}
	switch b.Flags {
	case FlagNone:
	case FlagBeginOnly:
		after.Sync = ddi.SyncSplit
	case FlagEndOnly:
		before.Sync = ddi.SyncSplit
	default:
		//lint:ignore ST1005 the message starts with the field it names, as the validation message it becomes does
		return ddi.Barrier{}, fmt.Errorf("Flags %s: a transition is whole, BEGIN_ONLY or END_ONLY", b.Flags)
	}
	if !res.Texture {
		return ddi.NewBufferBarrier(ddi.BufferBarrier{SyncBefore: before.Sync, SyncAfter: after.Sync,
			AccessBefore: before.Access, AccessAfter: after.Access, Resource: b.Resource}), nil
	}
	if res.Simultaneous || q == ddi.CommandListTypeCopy {
		before.Layout, after.Layout = ddi.LayoutCommon, ddi.LayoutCommon
	}
	// One subresource is the index form of the range (NumMipLevels 0):
	// 000 "D3D12_BARRIER_SUBRESOURCE_RANGE".
	return ddi.NewTextureBarrier(ddi.TextureBarrier{SyncBefore: before.Sync, SyncAfter: after.Sync,
		AccessBefore: before.Access, AccessAfter: after.Access, LayoutBefore: before.Layout, LayoutAfter: after.Layout,
		Resource: b.Resource, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: b.Subresource}}), nil
}
