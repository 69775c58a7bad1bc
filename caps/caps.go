package caps

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

// Options returns the D3D12DDI_D3D12_OPTIONS_DATA_0089 ebref's driver
// reports on a profile. The profiles differ in caches and compression,
// which this structure does not describe, so every profile reports the same
// features; Members says why each member has its value.
func Options(p *hwmodel.Profile) ddi.OptionsData0089 {
	_ = p // the same on every profile (see above)
	return ddi.OptionsData0089{
		ResourceBindingTier:                ddi.ResourceBindingTier3,
		ConservativeRasterizationTier:      ddi.ConservativeRasterizationTierNotSupported,
		TiledResourcesTier:                 ddi.TiledResourcesTierNotSupported,
		CrossNodeSharingTier:               ddi.CrossNodeSharingTierNotSupported,
		ResourceHeapTier:                   ddi.ResourceHeapTier2,
		ProgrammableSamplePositionsTier:    ddi.ProgrammableSamplePositionsTierNotSupported,
		WriteBufferImmediateQueueFlags:     ddi.CommandQueueFlagNone,
		ViewInstancingTier:                 ddi.ViewInstancingTierNotSupported,
		ReservedBufferPlacementSupported:   ddi.True,
		RenderPassTier:                     ddi.RenderPassTier0,
		RaytracingTier:                     ddi.RaytracingTier1_0,
		VariableShadingRateTier:            ddi.VariableShadingRateTier2,
		ShadingRateImageTileSize:           16,
		MeshShaderTier:                     ddi.MeshShaderTierNotSupported,
		SamplerFeedbackTier:                ddi.SamplerFeedbackTier1_0,
		EnhancedBarriersSupported:          ddi.True,
		CopyQueueTimestampQueriesSupported: ddi.False,
	}
}

// why gives, per member (by its DDI name), the reason for its value.
var why = map[string]string{
	"ResourceBindingTier":           "the simulated GPU has no descriptor limits",
	"ConservativeRasterizationTier": "ebref does not rasterise; a draw is its memory accesses",
	"TiledResourcesTier":            "ebref creates no reserved resources",
	"CrossNodeSharingTier":          "one node",
	"VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation": "no rasteriser",
	"OutputMergerLogicOp":                                   "no output merger beyond the colour client's writes",
	"ResourceHeapTier":                                      "buffers, render-target/depth-stencil textures and other textures share heaps (resource/)",
	"DepthBoundsTestSupported":                              "no depth test",
	"ProgrammableSamplePositionsTier":                       "no rasteriser",
	"CopyQueueTimestampQueriesSupported":                    "no queries",
	"WriteBufferImmediateQueueFlags":                        "WriteBufferImmediate is not implemented",
	"ViewInstancingTier":                                    "no rasteriser",
	"BarycentricsSupported":                                 "no shaders",
	"ReservedBufferPlacementSupported":                      "64 KiB-aligned multisample textures are placed on request (resource/)",
	"Deterministic64KBUndefinedSwizzle":                     "textures use ebref's row-major footprints",
	"SRVOnlyTiledResourceTier3":                             "no tiled resources",
	"RenderPassTier":                                        "render passes are not implemented",
	"RaytracingTier":                                        "acceleration-structure builds, copies, postbuild info and DispatchRays are recorded as their memory traffic",
	"VariableShadingRateTier":                               "the SHADING_RATE_SOURCE layout and access are supported (a read through the texture path)",
	"PerPrimitiveShadingRateSupportedWithViewportIndexing":  "no rasteriser",
	"AdditionalShadingRatesSupported":                       "no rasteriser",
	"ShadingRateImageTileSize":                              "the tile a shading-rate image texel covers, required non-zero at tier 2",
	"BackgroundProcessingSupported":                         "no background work",
	"MeshShaderTier":                                        "no mesh pipeline",
	"SamplerFeedbackTier":                                   "sampler-feedback textures and the RESOLVE_SOURCE/RESOLVE_DEST heap accesses they need are supported (resource/)",
	"DriverManagedShaderCachePresent":                       "no shaders",
	"MeshShaderSupportsFullRangeRenderTargetArrayIndex":     "no mesh pipeline",
	"VariableRateShadingSumCombinerSupported":               "no rasteriser",
	"MeshShaderPerPrimitiveShadingRateSupported":            "no mesh pipeline",
	"MSPrimitivesPipelineStatisticIncludesCulledPrimitives": "no mesh pipeline",
	"EnhancedBarriersSupported":                             "the point of ebref: the Barrier, CreateHeapAndResource, CalcPrivateHeapAndResourceSizes and CheckResourceAllocationInfo DDIs are implemented",
}

// Member is one member of OPTIONS_DATA_0089: its DDI name, its value as the
// enum names print it (numbers for plain integers), and why.
type Member struct {
	Name  string
	Value string
	Why   string
}

// Members lists the members of o in DDI order.
func Members(o ddi.OptionsData0089) []Member {
	v := reflect.ValueOf(o)
	t := v.Type()
	out := make([]Member, t.NumField())
	for i := range out {
		f := v.Field(i)
		val := fmt.Sprint(f.Interface())
		if s, ok := f.Interface().(fmt.Stringer); ok {
			val = s.String()
		}
		out[i] = Member{Name: t.Field(i).Name, Value: val, Why: why[t.Field(i).Name]}
	}
	return out
}

// QueueLayouts lists, ascending, the layouts a Barrier recorded on a
// command list of type t may name (ddi.Queues). Bundles take no barriers.
func QueueLayouts(t ddi.CommandListType) ([]ddi.BarrierLayout, bool) {
	q, ok := ddi.QueueRulesFor(t)
	if !ok {
		return nil, false
	}
	return append([]ddi.BarrierLayout(nil), q.Layouts...), true
}

// Report is what `ebref caps` prints for a profile.
type Report struct {
	Profile     string
	Description string
	Options     []Member
	// Queues maps each command-list type that takes barriers to its
	// layouts, in ddi.QueueTypes order.
	Queues []QueueLayoutList
}

// QueueLayoutList is one command-list type's layouts.
type QueueLayoutList struct {
	Type    ddi.CommandListType
	Layouts []ddi.BarrierLayout
}

// NewReport builds the report for a profile.
func NewReport(p *hwmodel.Profile) Report {
	r := Report{Profile: p.Name, Description: p.Description, Options: Members(Options(p))}
	for _, t := range ddi.QueueTypes {
		ls, _ := QueueLayouts(t)
		r.Queues = append(r.Queues, QueueLayoutList{t, ls})
	}
	return r
}

// MarshalJSON writes the report with members and queues in DDI order:
// {"profile":..., "description":..., "options":{"ResourceBindingTier":"TIER_3",...},
// "why":{...}, "queue_layouts":{"DIRECT":["COMMON",...],...}}. Integer
// members are numbers, BOOLs true/false, enums their names.
func (r Report) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	w := func(v any) {
		j, _ := json.Marshal(v)
		b.Write(j)
	}
	b.WriteString(`{"profile":`)
	w(r.Profile)
	b.WriteString(`,"description":`)
	w(r.Description)
	b.WriteString(`,"options":{`)
	o := reflect.ValueOf(Options(nil))
	for i, m := range r.Options {
		if i > 0 {
			b.WriteByte(',')
		}
		w(m.Name)
		b.WriteByte(':')
		switch f := o.FieldByName(m.Name).Interface().(type) {
		case ddi.Bool:
			w(f != ddi.False)
		case uint32:
			w(f)
		default:
			w(m.Value)
		}
	}
	b.WriteString(`},"why":{`)
	for i, m := range r.Options {
		if i > 0 {
			b.WriteByte(',')
		}
		w(m.Name)
		b.WriteByte(':')
		w(m.Why)
	}
	b.WriteString(`},"queue_layouts":{`)
	for i, q := range r.Queues {
		if i > 0 {
			b.WriteByte(',')
		}
		w(q.Type.String())
		b.WriteByte(':')
		w(ddi.LayoutNames(q.Layouts))
	}
	b.WriteString("}}")
	return b.Bytes(), nil
}
