package ddi

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allTables is every name table with how to print and parse a raw value
// through the public API of its type.
var allTables = []struct {
	t     *nameTable
	flags bool
	str   func(uint32) string
	parse func(string) (uint32, error)
}{
	{layoutNames, false, func(v uint32) string { return BarrierLayout(v).String() },
		func(s string) (uint32, error) { v, err := ParseBarrierLayout(s); return uint32(v), err }},
	{syncNames, true, func(v uint32) string { return BarrierSync(v).String() },
		func(s string) (uint32, error) { v, err := ParseBarrierSync(s); return uint32(v), err }},
	{accessNames, true, func(v uint32) string { return BarrierAccess(v).String() },
		func(s string) (uint32, error) { v, err := ParseBarrierAccess(s); return uint32(v), err }},
	{barrierTypeNames, false, func(v uint32) string { return BarrierType(v).String() },
		func(s string) (uint32, error) { v, err := ParseBarrierType(s); return uint32(v), err }},
	{textureFlagNames, true, func(v uint32) string { return TextureBarrierFlags(v).String() },
		func(s string) (uint32, error) { v, err := ParseTextureBarrierFlags(s); return uint32(v), err }},
	{rangedFlagNames, true, func(v uint32) string { return RangedBarrierFlags(v).String() },
		func(s string) (uint32, error) { v, err := ParseRangedBarrierFlags(s); return uint32(v), err }},
	{resourceTypeNames, false, func(v uint32) string { return ResourceType(v).String() },
		func(s string) (uint32, error) { v, err := ParseResourceType(s); return uint32(v), err }},
	{resourceFlagNames, true, func(v uint32) string { return ResourceFlags(v).String() },
		func(s string) (uint32, error) { v, err := ParseResourceFlags(s); return uint32(v), err }},
	{commandListTypeNames, false, func(v uint32) string { return CommandListType(v).String() },
		func(s string) (uint32, error) { v, err := ParseCommandListType(s); return uint32(v), err }},
	{stateNames, true, func(v uint32) string { return ResourceStates(v).String() },
		func(s string) (uint32, error) { v, err := ParseResourceStates(s); return uint32(v), err }},
	{formatNames, false, func(v uint32) string { return Format(v).String() },
		func(s string) (uint32, error) { v, err := ParseFormat(s); return uint32(v), err }},
	{resourceBindingTierNames, false, func(v uint32) string { return ResourceBindingTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseResourceBindingTier(s); return uint32(v), err }},
	{conservativeRasterizationTierNames, false, func(v uint32) string { return ConservativeRasterizationTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseConservativeRasterizationTier(s); return uint32(v), err }},
	{tiledResourcesTierNames, false, func(v uint32) string { return TiledResourcesTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseTiledResourcesTier(s); return uint32(v), err }},
	{crossNodeSharingTierNames, false, func(v uint32) string { return CrossNodeSharingTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseCrossNodeSharingTier(s); return uint32(v), err }},
	{resourceHeapTierNames, false, func(v uint32) string { return ResourceHeapTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseResourceHeapTier(s); return uint32(v), err }},
	{programmableSamplePositionsTierNames, false, func(v uint32) string { return ProgrammableSamplePositionsTier(v).String() },
		func(s string) (uint32, error) {
			v, err := ParseProgrammableSamplePositionsTier(s)
			return uint32(v), err
		}},
	{viewInstancingTierNames, false, func(v uint32) string { return ViewInstancingTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseViewInstancingTier(s); return uint32(v), err }},
	{renderPassTierNames, false, func(v uint32) string { return RenderPassTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseRenderPassTier(s); return uint32(v), err }},
	{raytracingTierNames, false, func(v uint32) string { return RaytracingTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseRaytracingTier(s); return uint32(v), err }},
	{variableShadingRateTierNames, false, func(v uint32) string { return VariableShadingRateTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseVariableShadingRateTier(s); return uint32(v), err }},
	{meshShaderTierNames, false, func(v uint32) string { return MeshShaderTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseMeshShaderTier(s); return uint32(v), err }},
	{samplerFeedbackTierNames, false, func(v uint32) string { return SamplerFeedbackTier(v).String() },
		func(s string) (uint32, error) { v, err := ParseSamplerFeedbackTier(s); return uint32(v), err }},
	{memoryPoolNames, false, func(v uint32) string { return MemoryPool(v).String() },
		func(s string) (uint32, error) { v, err := ParseMemoryPool(s); return uint32(v), err }},
	{cpuPageNames, false, func(v uint32) string { return CPUPageProperty(v).String() },
		func(s string) (uint32, error) { v, err := ParseCPUPageProperty(s); return uint32(v), err }},
	{heapFlagNames, true, func(v uint32) string { return HeapFlags(v).String() },
		func(s string) (uint32, error) { v, err := ParseHeapFlags(s); return uint32(v), err }},
	{textureLayoutNames, false, func(v uint32) string { return TextureLayout(v).String() },
		func(s string) (uint32, error) { v, err := ParseTextureLayout(s); return uint32(v), err }},
	{optimizationFlagNames, true, func(v uint32) string { return ResourceOptimizationFlags(v).String() },
		func(s string) (uint32, error) { v, err := ParseResourceOptimizationFlags(s); return uint32(v), err }},
	{queueFlagNames, true, func(v uint32) string { return CommandQueueFlags(v).String() },
		func(s string) (uint32, error) { v, err := ParseCommandQueueFlags(s); return uint32(v), err }},
	{boolNames, false, func(v uint32) string { return Bool(v).String() },
		func(s string) (uint32, error) { v, err := ParseBool(s); return uint32(v), err }},
}

// TestRoundTripEveryName: every spelling of every value, bare and with each
// prefix, parses to its value; every value prints to a string that parses
// back to it.
func TestRoundTripEveryName(t *testing.T) {
	for _, tc := range allTables {
		t.Run(tc.t.kind, func(t *testing.T) {
			for _, n := range tc.t.names {
				spellings := []string{n.text}
				for _, p := range tc.t.prefixes {
					spellings = append(spellings, p+n.text)
				}
				for _, s := range spellings {
					v, err := tc.parse(s)
					require.NoError(t, err, s)
					assert.Equal(t, n.value, v, s)
				}
				printed := tc.str(n.value)
				back, err := tc.parse(printed)
				require.NoError(t, err, printed)
				assert.Equal(t, n.value, back, "%s printed as %q", n.text, printed)
			}
		})
	}
}

// TestRoundTripEveryFlagCombination covers, for each flag set, every pair of
// defined bits, every single undefined bit and all defined bits at once.
func TestRoundTripEveryFlagCombination(t *testing.T) {
	for _, tc := range allTables {
		if !tc.flags {
			continue
		}
		t.Run(tc.t.kind, func(t *testing.T) {
			defined := definedBits(tc.t)
			var vals []uint32
			for i := 0; i < 32; i++ {
				for j := i; j < 32; j++ {
					vals = append(vals, 1<<i|1<<j)
				}
			}
			vals = append(vals, 0, defined, defined|^defined)
			for _, v := range vals {
				s := tc.str(v)
				back, err := tc.parse(s)
				require.NoError(t, err, s)
				assert.Equal(t, v, back, "0x%x printed as %q", v, s)
			}
		})
	}
}

func TestFlagFormatting(t *testing.T) {
	cases := []struct {
		got, want string
	}{
		{SyncNone.String(), "NONE"},
		{AccessCommon.String(), "COMMON"},
		{TextureBarrierFlagNone.String(), "NONE"},
		{(SyncRenderTarget | 0x40000).String(), "RENDER_TARGET|0x40000"},
		{(SyncPixelShading | SyncRenderTarget | SyncAll).String(), "ALL|PIXEL_SHADING|RENDER_TARGET"},
		{SyncInputAssembler.String(), "INPUT_ASSEMBLER"},
		{SyncPredication.String(), "EXECUTE_INDIRECT"},
		{AccessPredication.String(), "INDIRECT_ARGUMENT"},
		{(AccessRenderTarget | AccessNoAccess).String(), "RENDER_TARGET|NO_ACCESS"},
		{BarrierAccess(0x3000000 | 0x8).String(), "RENDER_TARGET|0x3000000"},
		{LayoutPresent.String(), "COMMON"},
		{LayoutUndefined.String(), "UNDEFINED"},
		{BarrierLayout(99).String(), "0x63"},
		{BarrierType(7).String(), "0x7"},
		{StateGenericRead.String(), "VERTEX_AND_CONSTANT_BUFFER|INDEX_BUFFER|NON_PIXEL_SHADER_RESOURCE|PIXEL_SHADER_RESOURCE|INDIRECT_ARGUMENT|COPY_SOURCE"},
		{(RangedBarrierFlagAtomicCopy | RangedBarrierFlagRelease).String(), "ATOMIC_COPY|RELEASE"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.got)
	}
}

func TestParseAliasesAndPrefixes(t *testing.T) {
	s, err := ParseBarrierSync("D3D12_BARRIER_SYNC_INDEX_INPUT|D3D12DDI_BARRIER_SYNC_PIXEL_SHADING")
	require.NoError(t, err)
	assert.Equal(t, SyncInputAssembler|SyncPixelShading, s)

	a, err := ParseBarrierAccess("PREDICATION")
	require.NoError(t, err)
	assert.Equal(t, AccessIndirectArgument, a)

	l, err := ParseBarrierLayout("D3D12_BARRIER_LAYOUT_PRESENT")
	require.NoError(t, err)
	assert.Equal(t, LayoutCommon, l)

	st, err := ParseResourceStates("GENERIC_READ")
	require.NoError(t, err)
	assert.Equal(t, StateGenericRead, st)

	f, err := ParseResourceFlags("ALLOW_SIMULTANEOUS_ACCESS|RENDER_TARGET")
	require.NoError(t, err)
	assert.Equal(t, ResourceFlagSimultaneousAccess|ResourceFlagRenderTarget, f)
}

// TestParseZeroWithPrefix: every flag set's zero parses with each of its
// prefixes as the header spells it (D3D12DDI_TEXTURE_BARRIER_FLAG_NONE,
// D3D12DDI_BARRIER_SYNC_NONE, D3D12DDI_BARRIER_ACCESS_COMMON, ...), alone
// and beside other names, as it does bare (issue 34, item 6).
func TestParseZeroWithPrefix(t *testing.T) {
	tables := []*nameTable{textureFlagNames, rangedFlagNames, syncNames, accessNames,
		queueFlagNames, resourceFlagNames, heapFlagNames, commandListFlagNames, stateNames, optimizationFlagNames}
	for _, tb := range tables {
		require.NotEmpty(t, tb.zero, tb.kind)
		for _, p := range tb.prefixes {
			v, err := tb.parseFlags(p + tb.zero)
			require.NoError(t, err, "%s%s", p, tb.zero)
			assert.Zero(t, v, "%s%s", p, tb.zero)
			v, err = tb.parseEnum(p + tb.zero)
			require.NoError(t, err, "%s%s", p, tb.zero)
			assert.Zero(t, v)
			_, err = tb.parseFlags(p + "NOT_A_NAME")
			assert.Error(t, err, "only the zero, not any name, after the prefix")
		}
	}
	f, err := ParseTextureBarrierFlags("D3D12DDI_TEXTURE_BARRIER_FLAG_NONE")
	require.NoError(t, err)
	assert.Equal(t, TextureBarrierFlagNone, f)
	r, err := ParseRangedBarrierFlags("D3D12DDI_RANGED_BARRIER_FLAG_NONE|D3D12DDI_RANGED_BARRIER_FLAG_ATOMIC_COPY")
	require.NoError(t, err)
	assert.Equal(t, RangedBarrierFlagAtomicCopy, r)
	s, err := ParseBarrierSync("D3D12DDI_BARRIER_SYNC_NONE")
	require.NoError(t, err)
	assert.Equal(t, SyncNone, s)
}

func TestParseIsCaseSensitiveAndNamesTheBadPart(t *testing.T) {
	for _, s := range []string{"render_target", "Render_Target", "RENDER_TARGET|pixel_shading", "", "RENDER_TARGET|", "D3D12DDI_BARRIER_ACCESS_RENDER_TARGET"} {
		_, err := ParseBarrierSync(s)
		require.Error(t, err, s)
		assert.True(t, errors.Is(err, ErrUnknownName), s)
		if s != "" {
			assert.Contains(t, err.Error(), "barrier sync")
		}
	}
	_, err := ParseBarrierSync("RENDER_TARGET|pixel_shading")
	assert.Contains(t, err.Error(), `"pixel_shading"`)

	_, err = ParseBarrierLayout("render_target")
	assert.ErrorIs(t, err, ErrUnknownName)
}

// TestNamesListsAliasesTogether pins the listing rule the rules document
// relies on: every DDI name of each value, by value then name, API-only
// spellings left out.
func TestNamesListsAliasesTogether(t *testing.T) {
	assert.Equal(t, []string{"ALL", "EXECUTE_INDIRECT", "PREDICATION"}, (SyncAll | SyncExecuteIndirect).Names())
	assert.Equal(t, []string{"INDEX_INPUT", "INPUT_ASSEMBLER"}, SyncIndexInput.Names(), "the header has both")
	assert.Equal(t, []string{"NONE"}, SyncNone.Names())
	assert.Equal(t, []string{"COMMON"}, AccessCommon.Names())
	assert.Equal(t, []string{"INDIRECT_ARGUMENT", "PREDICATION"}, AccessPredication.Names())
	assert.Equal(t, []string{"COMMON", "PRESENT", "UNDEFINED"}, LayoutNames([]BarrierLayout{LayoutUndefined, LayoutCommon}))
}

func TestEveryDefinedValueHasAName(t *testing.T) {
	for _, l := range AllBarrierLayouts() {
		assert.True(t, l.Valid())
		assert.False(t, strings.HasPrefix(l.String(), "0x"), "layout %d", uint32(l))
	}
	assert.Len(t, AllBarrierLayouts(), 37, "UNDEFINED, 0..31 and four LEGACY_ layouts from 0x80000000")
	assert.Equal(t, BarrierLayout(31), LayoutLegacyDirectQueueGenericReadComputeQueueAccessible)
	for v := BarrierLayout(0); v <= 31; v++ {
		assert.True(t, v.Valid(), fmt.Sprint(v))
	}
	assert.False(t, BarrierLayout(32).Valid())
	assert.False(t, BarrierLayout(0x80000004).Valid())
	assert.True(t, LayoutLegacyPixelShaderResource.IsLegacy())
	assert.False(t, LayoutDirectQueueGenericReadComputeQueueAccessible.IsLegacy(), "31 is an application layout (E-LAYOUT-31)")
	assert.Equal(t, "DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE", BarrierLayout(31).String())
	assert.False(t, LayoutVideoQueueCommon.IsLegacy())
}

func TestSpecValues(t *testing.T) {
	assert.Equal(t, BarrierSync(0x8000), SyncClearUnorderedAccessView)
	assert.Equal(t, SyncExecuteIndirect, SyncPredication)
	assert.Equal(t, BarrierSync(0x4), SyncInputAssembler)
	assert.Equal(t, BarrierSync(0x80000000), SyncSplit)
	assert.Equal(t, AccessIndirectArgument, AccessPredication)
	assert.Equal(t, BarrierAccess(0x200), AccessPredication)
	assert.Equal(t, BarrierAccess(0x80000000), AccessNoAccess)
	assert.Equal(t, BarrierLayout(0x80000000), LayoutLegacyCopySource)
	assert.Equal(t, BarrierLayout(0x80000003), LayoutLegacyPixelShaderResource)
	assert.Equal(t, BarrierLayout(30), LayoutVideoQueueCommon)
	assert.Equal(t, BarrierType(3), BarrierTypeRanged)
	assert.Equal(t, ResourceStates(0xac3), StateGenericRead)
}
