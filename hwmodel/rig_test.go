package hwmodel

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/require"
)

// rig is a machine with a direct, a compute and a copy engine and some
// memory, for hand-assembled programs.
type rig struct {
	t       testing.TB
	m       *Machine
	direct  *Engine
	compute *Engine
	copy    *Engine
	nextID  uint32
}

func newRig(t testing.TB, p *Profile) *rig {
	t.Helper()
	m, err := New(p)
	require.NoError(t, err)
	r := &rig{t: t, m: m}
	r.direct, err = m.NewEngine(EngineDirect)
	require.NoError(t, err)
	r.compute, err = m.NewEngine(EngineCompute)
	require.NoError(t, err)
	r.copy, err = m.NewEngine(EngineCopy)
	require.NoError(t, err)
	return r
}

// alloc maps size bytes and labels them.
func (r *rig) alloc(name string, size uint64) uint64 {
	a, err := r.m.Allocate(size, 0, false)
	require.NoError(r.t, err)
	r.m.Label(a, size, name)
	return a
}

// surface maps a compressible surface with its metadata and, if init,
// initialises the metadata to plain-looking clear value 0 (as committed
// creation does).
func (r *rig) surface(name string, size uint64, id uint16, init bool) uint64 {
	a, err := r.m.Allocate(size+MetadataSize(size), 0, false)
	require.NoError(r.t, err)
	require.NoError(r.t, r.m.DefineSurface(Surface{ID: id, Base: a, Size: size, Meta: a + size, Name: name}))
	r.m.Label(a, size, name)
	if init {
		require.NoError(r.t, r.m.Fill(a, size, 0))
		require.NoError(r.t, r.m.InitializeMetadata(id, 0))
	}
	return a
}

// prog assembles packets.
type prog struct {
	r *rig
	w []uint32
}

func (r *rig) prog() *prog { return &prog{r: r} }

func rd(addr uint64, size uint32, c cmdbuf.Client) cmdbuf.Access {
	return cmdbuf.Access{Addr: addr, Size: uint64(size), Dir: cmdbuf.DirRead, Client: c}
}

func wr(addr uint64, size uint32, c cmdbuf.Client) cmdbuf.Access {
	return cmdbuf.Access{Addr: addr, Size: uint64(size), Dir: cmdbuf.DirWrite, Client: c}
}

func onSurface(a cmdbuf.Access, id uint16, compressed bool) cmdbuf.Access {
	a.Surface, a.Compressed = id, compressed
	return a
}

func (p *prog) work(kind cmdbuf.WorkKind, stage cmdbuf.Stage, acc ...cmdbuf.Access) *prog {
	p.r.nextID++
	p.w = cmdbuf.AppendWork(p.w, cmdbuf.Work{Kind: kind, Stage: stage, Duration: 100, ID: p.r.nextID}, acc...)
	return p
}

func (p *prog) wait(drain, hold cmdbuf.StageMask) *prog {
	p.w = cmdbuf.AppendWait(p.w, cmdbuf.Wait{Drain: drain, Hold: hold})
	return p
}

func (p *prog) cache(flush, inval cmdbuf.CacheMask) *prog {
	p.w = cmdbuf.AppendCache(p.w, cmdbuf.CacheOp{Flush: flush, Invalidate: inval}, false)
	return p
}

func (p *prog) decompress(id uint16, size uint64) *prog {
	p.w = cmdbuf.AppendDecompress(p.w, cmdbuf.SurfaceRegion{Surface: id, Size: size}, false)
	return p
}

func (p *prog) metaInit(id uint16, size uint64, v byte) *prog {
	p.w = cmdbuf.AppendMetadataInit(p.w, cmdbuf.SurfaceRegion{Surface: id, Size: size, Value: v}, false)
	return p
}

func (p *prog) raw(words []uint32) *prog { p.w = append(p.w, words...); return p }

func (p *prog) buffer() *cmdbuf.Buffer {
	b := cmdbuf.NewBuffer(0)
	b.Append(p.w)
	return b
}

// run submits progs as one batch each on the given engines, in order, and
// runs the machine.
func (r *rig) run(subs ...any) {
	r.t.Helper()
	for i := 0; i < len(subs); i += 2 {
		e := subs[i].(*Engine)
		e.Submit(subs[i+1].(*prog).buffer())
	}
	require.NoError(r.t, r.m.Run())
	require.Empty(r.t, r.m.Faults())
}

func stages(ss ...cmdbuf.Stage) cmdbuf.StageMask {
	var m cmdbuf.StageMask
	for _, s := range ss {
		m |= s.Mask()
	}
	return m
}

func caches(cs ...cmdbuf.Cache) cmdbuf.CacheMask {
	var m cmdbuf.CacheMask
	for _, c := range cs {
		m |= c.Mask()
	}
	return m
}

func kinds(hs []Hazard) []HazardKind {
	var out []HazardKind
	for _, h := range hs {
		out = append(out, h.Kind)
	}
	return out
}
