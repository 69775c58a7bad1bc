package hlk

import (
	"maps"
	"slices"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/legacy"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/resource"
)

// The runtime's legacy layer (package ddi/legacy) between a scenario and
// the driver: resources declared with `state` are created in the layout
// their legacy state gives, `resource-barrier` calls are checked against
// each subresource's legacy state and reach the driver as the enhanced
// barriers they translate to, work promotes what it uses, and every
// submission checks what its lists assumed and lets states decay. The
// driver sees nothing of it but Barrier calls, whichever driver it is.

// legacyResource is what the legacy layer needs to know of a resource
// description, false if the description is one the driver will refuse.
func legacyResource(desc ddi.CreateResource0088) (legacy.Resource, uint32, bool) {
	d := resource.DescFromCreateResource(&desc)
	r, err := resource.New(d)
	if err != nil {
		return legacy.Resource{}, 0, false
	}
	return legacy.Resource{Texture: !d.IsBuffer(), Simultaneous: !d.IsBuffer() && d.IsSimultaneousAccess(),
		AccelerationStructure: d.IsBuffer() && d.Flags&ddi.ResourceFlagRaytracingAccelerationStructure != 0}, r.SubresourceCount(), true
}

// legacyUses are the legacy states work puts its views in, by command and
// role (a position for positional views): what promotion starts from.
var legacyUses = map[string]map[string]ddi.ResourceStates{
	"draw": {"rt": ddi.StateRenderTarget, "ds-write": ddi.StateDepthWrite, "ds": ddi.StateDepthRead,
		"vs-srv": ddi.StateNonPixelShaderResource, "ps-srv": ddi.StatePixelShaderResource,
		"vs-cbv": ddi.StateVertexAndConstantBuffer, "ps-cbv": ddi.StateVertexAndConstantBuffer, "vb": ddi.StateVertexAndConstantBuffer,
		"vs-uav": ddi.StateUnorderedAccess, "ps-uav": ddi.StateUnorderedAccess, "ib": ddi.StateIndexBuffer,
		"so": ddi.StateStreamOut, "args": ddi.StateIndirectArgument, "shading-rate": ddi.StateShadingRateSource},
	"dispatch": {"srv": ddi.StateNonPixelShaderResource, "cbv": ddi.StateVertexAndConstantBuffer,
		"uav": ddi.StateUnorderedAccess, "args": ddi.StateIndirectArgument},
	"dispatch-rays": {"as": ddi.StateRaytracingAccelerationStructure, "srv": ddi.StateNonPixelShaderResource,
		"cbv": ddi.StateVertexAndConstantBuffer, "uav": ddi.StateUnorderedAccess},
	"build-as": {"0": ddi.StateRaytracingAccelerationStructure, "inputs": ddi.StateNonPixelShaderResource,
		"source": ddi.StateRaytracingAccelerationStructure, "scratch": ddi.StateUnorderedAccess},
	"copy-as":                {"0": ddi.StateRaytracingAccelerationStructure, "1": ddi.StateRaytracingAccelerationStructure},
	"postbuild-info":         {"0": ddi.StateUnorderedAccess, "1": ddi.StateRaytracingAccelerationStructure},
	"copy-buffer":            {"0": ddi.StateCopyDest, "2": ddi.StateCopySource},
	"resolve-query":          {"0": ddi.StateCopyDest},
	"copy-resource":          {"0": ddi.StateCopyDest, "1": ddi.StateCopySource},
	"copy-texture":           {"0": ddi.StateCopyDest, "4": ddi.StateCopySource},
	"copy-texture-to-buffer": {"0": ddi.StateCopyDest, "2": ddi.StateCopySource},
	"copy-buffer-to-texture": {"0": ddi.StateCopyDest, "1": ddi.StateCopySource},
	"resolve":                {"0": ddi.StateResolveDest, "1": ddi.StateResolveSource},
	"clear-rt":               {"0": ddi.StateRenderTarget},
	"clear-ds":               {"0": ddi.StateDepthWrite},
	"clear-uav":              {"0": ddi.StateUnorderedAccess},
	"predication":            {"0": ddi.StatePredication},
	"atomic-copy":            {"0": ddi.StateUnorderedAccess, "2": ddi.StateUnorderedAccess},
	"decode":                 {"in": ddi.StateVideoDecodeRead, "ref": ddi.StateVideoDecodeRead, "out": ddi.StateVideoDecodeWrite},
	"process":                {"in": ddi.StateVideoProcessRead, "ref": ddi.StateVideoProcessRead, "out": ddi.StateVideoProcessWrite},
	"encode":                 {"in": ddi.StateVideoEncodeRead, "ref": ddi.StateVideoEncodeRead, "out": ddi.StateVideoEncodeWrite},
}

// legacyObserve records the legacy layer's messages.
func (x *exec) legacyObserve(msgs []legacy.Message, list string, pos scenario.Pos) {
	for _, m := range msgs {
		x.observe(Observed{Severity: m.Severity, ID: m.ID, List: list, Field: m.Field, Text: m.Error(), Pos: pos})
	}
}

// legacyCreated records a resource the driver created: in its legacy state
// (st.HasState), or as one that enhanced barriers keep.
func (x *exec) legacyCreated(st *scenario.ResourceStep, h ddi.HResource) {
	r, subs, ok := legacyResource(st.Desc)
	if !ok {
		return
	}
	if st.HasState {
		x.legacyObserve(x.leg.Create(h, r, subs, st.State), "", st.Pos)
		// The runtime created it through the legacy path: a driver whose
		// debug layer checks layouts leaves this resource's to the legacy
		// layer until the application's own barrier names it, as after
		// a translated barrier (umd.Device.LegacyCreated): one mistake,
		// one message.
		if lc, ok := x.dev.(interface{ LegacyCreated(ddi.HResource) error }); ok {
			if err := lc.LegacyCreated(h); err != nil {
				x.createErr(st.Pos, err)
			}
		}
		return
	}
	x.leg.CreateEnhanced(h, r, subs)
}

// legacyCall is one ResourceBarrier call: the legacy layer checks and
// translates it, and the driver gets one Barrier call of what it let
// through (none if it let nothing through), whose barriers it returns as
// they print, by handle and by name.
func (x *exec) legacyCall(cl CommandList, l *legacy.List, list string, c scenario.Cmd) (text, named []string) {
	bs := make([]legacy.Barrier, len(c.Legacy))
	for i, s := range c.Legacy {
		b := s.Barrier
		b.Resource, b.ResourceBefore, b.ResourceAfter = x.legacyHandle(s.Res), x.legacyHandle(s.Before), x.legacyHandle(s.After)
		bs[i] = b
	}
	out, msgs := l.ResourceBarrier(bs)
	x.legacyObserve(msgs, list, c.Pos)
	if len(out) == 0 {
		return nil, nil
	}
	// The runtime's translation, which a driver may tell from the
	// application's own calls (umd.CommandList.TranslatedBarrier).
	if t, ok := cl.(interface{ TranslatedBarrier([]ddi.Barrier) }); ok {
		t.TranslatedBarrier(out)
	} else {
		cl.Barrier(out)
	}
	text, named = make([]string, len(out)), make([]string, len(out))
	for i := range out {
		text[i], named[i] = out[i].String(), out[i].Named(x.name)
	}
	return text, named
}

func (x *exec) legacyHandle(name string) ddi.HResource {
	if name == "" {
		return 0
	}
	return x.res[name]
}

// legacyUse tells the legacy layer what a work command uses, and an
// enhanced barrier call which resources it names.
func (x *exec) legacyUse(l *legacy.List, list string, c scenario.Cmd) {
	if c.Op == "barrier" {
		for _, b := range c.Barriers {
			if b.HasRes && b.Res.Res != "" {
				x.legacyObserve(l.EnhancedBarrier("Barrier", x.res[b.Res.Res]), list, b.Pos)
			}
		}
		return
	}
	roles := legacyUses[c.Op]
	for _, role := range slices.Sorted(maps.Keys(c.Views)) {
		st, ok := roles[role]
		if !ok {
			continue
		}
		for _, v := range c.Views[role] {
			if v.Res == "" {
				continue
			}
			sub := uint32(legacy.AllSubresources)
			if v.HasSub {
				sub = v.Sub
			}
			x.legacyObserve(l.Use(c.Op, x.res[v.Res], sub, st), list, c.Pos)
		}
	}
}
