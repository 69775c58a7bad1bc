package hwmodel

import (
	"fmt"
	"slices"
	"sort"

	"github.com/ebref/ebref/cmdbuf"
)

// EngineKind is the kind of a hardware engine (a queue's engine).
type EngineKind uint8

// The engine kinds.
const (
	EngineDirect       EngineKind = iota // graphics, compute and copy work
	EngineCompute                        // compute and copy work
	EngineCopy                           // copy work
	EngineVideoDecode                    // video decode
	EngineVideoProcess                   // video processing
	EngineVideoEncode                    // video encode
	NumEngineKinds
)

var engineKindNames = [NumEngineKinds]string{"DIRECT", "COMPUTE", "COPY", "VIDEO_DECODE", "VIDEO_PROCESS", "VIDEO_ENCODE"}

func (k EngineKind) String() string {
	if k < NumEngineKinds {
		return engineKindNames[k]
	}
	return fmt.Sprintf("ENGINE_%d", uint8(k))
}

// ParseEngineKind accepts what String prints.
func ParseEngineKind(s string) (EngineKind, error) {
	for i, n := range engineKindNames {
		if n == s {
			return EngineKind(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not an engine kind", s)
}

// Stages lists the stages an engine kind has; work in another stage faults.
func (k EngineKind) Stages() cmdbuf.StageMask {
	always := cmdbuf.StageCP.Mask() | cmdbuf.StageBlit.Mask()
	switch k {
	case EngineDirect:
		return cmdbuf.AllStages &^ cmdbuf.StageVideo.Mask()
	case EngineCompute:
		return always | cmdbuf.StageCompute.Mask() | cmdbuf.StageRaytrace.Mask() | cmdbuf.StageASBuild.Mask() |
			cmdbuf.StageCopy.Mask() | cmdbuf.StageClear.Mask()
	case EngineCopy:
		return always | cmdbuf.StageCopy.Mask()
	}
	return always | cmdbuf.StageVideo.Mask()
}

// Memory is where a route ends when it names no cache.
const Memory cmdbuf.Cache = 0xff

// CacheSpec describes one cache kind a profile has.
type CacheSpec struct {
	Kind cmdbuf.Cache
	// Shared: one instance serves every engine routed to it; otherwise each
	// engine has its own.
	Shared bool
	// Parent is where flushes and misses go: another cache kind, or Memory.
	Parent cmdbuf.Cache
	// ReadOnly caches never hold writes; a route must not send writes there.
	ReadOnly bool
}

// Costs is a profile's cost model, in cycles.
type Costs struct {
	Packet          uint64 // every packet, for the command processor to parse it
	WaitBase        uint64 // a WAIT or EVENT_WAIT, on top of the idle time it causes
	CacheOpBase     uint64 // a CACHE packet, on top of per-line costs
	FlushPerLine    uint64 // per dirty line written back
	InvalPerLine    uint64 // per line dropped
	DecompressPerKB uint64 // per KiB of surface decompressed
	MetadataPerByte uint64 // per byte of metadata initialised
	BatchEndBase    uint64 // the end-of-submission drain, on top of its flushes
}

// Profile is a hardware profile: which caches exist, which clients of which
// engine go through which cache, which clients decode compression on which
// engine, and what things cost. The driver reads the same facts to decide
// its translation; the model enforces them.
type Profile struct {
	Name        string
	Description string
	Caches      []CacheSpec
	// Route gives each engine kind's clients their first cache (or Memory).
	Route [NumEngineKinds][cmdbuf.NumClients]cmdbuf.Cache
	// Aware says which clients decode compressed surfaces on each engine.
	Aware [NumEngineKinds][cmdbuf.NumClients]bool
	// Compresses says which kinds of texture the GPU keeps compressed when a
	// layout allows it: render targets, depth-stencil, unordered access.
	Compresses struct{ RenderTarget, DepthStencil, UnorderedAccess bool }
	Costs      Costs
}

// Spec returns the spec of a cache kind, false if the profile lacks it.
func (p *Profile) Spec(c cmdbuf.Cache) (CacheSpec, bool) {
	for _, s := range p.Caches {
		if s.Kind == c {
			return s, true
		}
	}
	return CacheSpec{}, false
}

// Has reports whether the profile has a cache kind.
func (p *Profile) Has(c cmdbuf.Cache) bool { _, ok := p.Spec(c); return ok }

// Path returns the caches an engine's client goes through, nearest first,
// ending before memory.
func (p *Profile) Path(e EngineKind, c cmdbuf.Client) []cmdbuf.Cache {
	var out []cmdbuf.Cache
	for k := p.Route[e][c]; k != Memory && len(out) < int(cmdbuf.NumCaches); {
		out = append(out, k)
		s, _ := p.Spec(k)
		k = s.Parent
	}
	return out
}

// CachesBetween returns the caches a write by writer (engine, client) sits
// in before a reader (engine, client) can see it: the writer's path up to,
// not including, the first cache the two paths share (or memory). Flushing
// these, nearest first, makes the write visible; invalidating the reader's
// caches above the shared one drops stale copies (see StaleBetween).
func (p *Profile) CachesBetween(we EngineKind, wc cmdbuf.Client, re EngineKind, rc cmdbuf.Client) []cmdbuf.Cache {
	return p.untilShared(p.Path(we, wc), p.Path(re, rc), we, re)
}

// StaleBetween returns the reader's caches above the first cache it shares
// with the writer: the ones that may hold stale copies of what the writer
// wrote.
func (p *Profile) StaleBetween(we EngineKind, wc cmdbuf.Client, re EngineKind, rc cmdbuf.Client) []cmdbuf.Cache {
	return p.untilShared(p.Path(re, rc), p.Path(we, wc), we, re)
}

// untilShared returns path up to, not including, the first cache it shares
// with other (the same instance, engines we and re).
func (p *Profile) untilShared(path, other []cmdbuf.Cache, we, re EngineKind) []cmdbuf.Cache {
	var out []cmdbuf.Cache
	for _, c := range path {
		if shared(p, c, we, re) && slices.Contains(other, c) {
			break
		}
		out = append(out, c)
	}
	return out
}

// shared reports whether engines a and b use the same instance of c.
func shared(p *Profile, c cmdbuf.Cache, a, b EngineKind) bool {
	s, _ := p.Spec(c)
	return s.Shared || a == b
}

// Validate checks a profile's consistency: every route names a cache the
// profile has, parents form chains to memory, no client writes into a
// read-only cache.
func (p *Profile) Validate() error {
	for _, s := range p.Caches {
		seen := map[cmdbuf.Cache]bool{}
		for k := s.Kind; k != Memory; {
			if seen[k] {
				return fmt.Errorf("profile %s: cache %s's parents loop", p.Name, s.Kind)
			}
			seen[k] = true
			ks, ok := p.Spec(k)
			if !ok {
				return fmt.Errorf("profile %s: cache %s has parent %s, which the profile lacks", p.Name, s.Kind, k)
			}
			k = ks.Parent
		}
	}
	for e := EngineKind(0); e < NumEngineKinds; e++ {
		for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
			k := p.Route[e][c]
			if k == Memory {
				continue
			}
			s, ok := p.Spec(k)
			if !ok {
				return fmt.Errorf("profile %s: %s %s routes to %s, which the profile lacks", p.Name, e, c, k)
			}
			if s.ReadOnly && writes(c) {
				return fmt.Errorf("profile %s: %s %s writes into read-only %s", p.Name, e, c, k)
			}
		}
	}
	return nil
}

// writes reports whether a client ever writes.
func writes(c cmdbuf.Client) bool {
	switch c {
	case cmdbuf.ClientCP, cmdbuf.ClientVertexFetch, cmdbuf.ClientConstFetch, cmdbuf.ClientShaderLoad, cmdbuf.ClientRTTraverse:
		return false
	}
	return true
}

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

// profiles are ebref's hardware profiles, chosen so the best translation of
// the same barrier differs between them (docs/hardware.md has the table).
var profiles = []*Profile{
	discrete(),
	unified3D(),
	coherent(),
}

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

// Profiles returns the built-in profiles, in their documented order.
func Profiles() []*Profile { return append([]*Profile(nil), profiles...) }

// ProfileNames lists the built-in profiles' names, sorted.
func ProfileNames() []string {
	var out []string
	for _, p := range profiles {
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}

// LookupProfile finds a built-in profile by name.
func LookupProfile(name string) (*Profile, error) {
	for _, p := range profiles {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no hardware profile %q (have %v)", name, ProfileNames())
}
