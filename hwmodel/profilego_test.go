package hwmodel

import "github.com/ebref/ebref/cmdbuf"

// The first three built-in profiles as they were written in Go before
// they became profile files: TestBuiltinProfilesAreFiles holds the files to
// them, field by field, so the files changed nothing.

// route builds a route table entry for the direct and compute engines from a
// client → cache list.
func route(m map[cmdbuf.Client]cmdbuf.Cache, fallback cmdbuf.Cache) [cmdbuf.NumClients]cmdbuf.Cache {
	var r [cmdbuf.NumClients]cmdbuf.Cache
	for c := range r {
		r[c] = fallback
	}
	for c, k := range m {
		r[c] = k
	}
	return r
}

func aware(cs ...cmdbuf.Client) [cmdbuf.NumClients]bool {
	var a [cmdbuf.NumClients]bool
	for _, c := range cs {
		a[c] = true
	}
	return a
}

var defaultCosts = Costs{
	Packet: 1, WaitBase: 8, CacheOpBase: 24, FlushPerLine: 8, InvalPerLine: 1,
	DecompressPerKB: 64, MetadataPerByte: 1, BatchEndBase: 64,
}

// goProfiles are the built-in profiles as Go values, before they became
// files (profiles/*.json): the files must give exactly these.
var goProfiles = []*Profile{discrete(), unified3D(), coherent()}

// discrete: render-target and depth compression that direct-queue shader
// reads decode but compute-queue reads, copy and video cannot; separate
// colour and depth caches and non-coherent shader L0 caches in front of a
// shared L2; the copy and video engines bypass L2.
func discrete() *Profile {
	p := &Profile{Name: "discrete", Description: "RT/depth compression readable by direct-queue shaders only; " +
		"separate colour, depth, texture and shader L0 caches before a shared L2; copy and video engines bypass L2",
		Costs: defaultCosts}
	p.Caches = []CacheSpec{
		{cmdbuf.CacheColor, false, cmdbuf.CacheL2, false},
		{cmdbuf.CacheDepth, false, cmdbuf.CacheL2, false},
		{cmdbuf.CacheTextureL0, false, cmdbuf.CacheL2, true},
		{cmdbuf.CacheShaderL0, false, cmdbuf.CacheL2, false},
		{cmdbuf.CacheL2, true, Memory, false},
		{cmdbuf.CacheVideo, false, Memory, false},
	}
	gfx := route(map[cmdbuf.Client]cmdbuf.Cache{
		cmdbuf.ClientCP: cmdbuf.CacheL2, cmdbuf.ClientVertexFetch: cmdbuf.CacheTextureL0,
		cmdbuf.ClientConstFetch: cmdbuf.CacheTextureL0, cmdbuf.ClientShaderLoad: cmdbuf.CacheTextureL0,
		cmdbuf.ClientRTTraverse: cmdbuf.CacheTextureL0, cmdbuf.ClientShaderStore: cmdbuf.CacheShaderL0,
		cmdbuf.ClientStreamOut: cmdbuf.CacheShaderL0, cmdbuf.ClientASBuild: cmdbuf.CacheShaderL0,
		cmdbuf.ClientColor: cmdbuf.CacheColor, cmdbuf.ClientDepth: cmdbuf.CacheDepth,
		cmdbuf.ClientCopy: cmdbuf.CacheL2, cmdbuf.ClientBlit: cmdbuf.CacheL2, cmdbuf.ClientVideo: cmdbuf.CacheL2,
	}, cmdbuf.CacheL2)
	p.Route[EngineDirect], p.Route[EngineCompute] = gfx, gfx
	p.Route[EngineCopy] = route(nil, Memory)
	video := route(map[cmdbuf.Client]cmdbuf.Cache{cmdbuf.ClientVideo: cmdbuf.CacheVideo}, Memory)
	p.Route[EngineVideoDecode], p.Route[EngineVideoProcess], p.Route[EngineVideoEncode] = video, video, video
	p.Aware[EngineDirect] = aware(cmdbuf.ClientColor, cmdbuf.ClientDepth, cmdbuf.ClientShaderLoad, cmdbuf.ClientBlit)
	p.Aware[EngineCompute] = aware(cmdbuf.ClientBlit)
	p.Compresses.RenderTarget, p.Compresses.DepthStencil = true, true
	return p
}

// unified3D: separate render and sampler caches, but shader stores go
// straight into the shared L2; every client on the 3D engine decodes
// compression (so unordered-access textures compress too), the compute
// engine's do not; the copy engine bypasses L2.
func unified3D() *Profile {
	p := &Profile{Name: "unified3d", Description: "every direct-engine client decodes compression (RT, depth and UAV " +
		"compressed), compute does not; colour, depth and texture caches before L2, coherent shader stores; " +
		"copy engine bypasses L2", Costs: defaultCosts}
	p.Costs.FlushPerLine = 6
	p.Costs.DecompressPerKB = 48
	p.Caches = []CacheSpec{
		{cmdbuf.CacheColor, false, cmdbuf.CacheL2, false},
		{cmdbuf.CacheDepth, false, cmdbuf.CacheL2, false},
		{cmdbuf.CacheTextureL0, false, cmdbuf.CacheL2, true},
		{cmdbuf.CacheL2, true, Memory, false},
	}
	gfx := route(map[cmdbuf.Client]cmdbuf.Cache{
		cmdbuf.ClientVertexFetch: cmdbuf.CacheTextureL0, cmdbuf.ClientConstFetch: cmdbuf.CacheTextureL0,
		cmdbuf.ClientShaderLoad: cmdbuf.CacheTextureL0, cmdbuf.ClientRTTraverse: cmdbuf.CacheTextureL0,
		cmdbuf.ClientColor: cmdbuf.CacheColor, cmdbuf.ClientDepth: cmdbuf.CacheDepth,
	}, cmdbuf.CacheL2)
	p.Route[EngineDirect], p.Route[EngineCompute] = gfx, gfx
	p.Route[EngineCopy] = route(nil, Memory)
	video := route(nil, cmdbuf.CacheL2)
	p.Route[EngineVideoDecode], p.Route[EngineVideoProcess], p.Route[EngineVideoEncode] = video, video, video
	var all [cmdbuf.NumClients]bool
	for c := range all {
		all[c] = true
	}
	p.Aware[EngineDirect] = all
	p.Aware[EngineCompute] = aware(cmdbuf.ClientBlit)
	p.Compresses.RenderTarget, p.Compresses.DepthStencil, p.Compresses.UnorderedAccess = true, true, true
	return p
}

// coherent: one cache every client of every engine shares, and no
// compression: only waits matter.
func coherent() *Profile {
	p := &Profile{Name: "coherent", Description: "one coherent cache shared by every client of every engine, " +
		"no compression: only waits matter", Costs: defaultCosts}
	p.Caches = []CacheSpec{{cmdbuf.CacheL2, true, Memory, false}}
	for e := range p.Route {
		p.Route[e] = route(nil, cmdbuf.CacheL2)
	}
	return p
}
