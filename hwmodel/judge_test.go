package hwmodel

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	cCP      = cmdbuf.StageCP
	cCompute = cmdbuf.StageCompute
	cColor   = cmdbuf.StageColor
	cCopy    = cmdbuf.StageCopy
	cBlit    = cmdbuf.StageBlit

	load   = cmdbuf.ClientShaderLoad
	store  = cmdbuf.ClientShaderStore
	color  = cmdbuf.ClientColor
	copier = cmdbuf.ClientCopy
)

// judgeCase is a hand-assembled program that is correct as built and breaks
// in one named way when drop is set (a packet left out or weakened).
type judgeCase struct {
	name    string
	applies func(*Profile) bool
	want    HazardKind
	build   func(r *rig, drop bool) []Region
}

func always(*Profile) bool { return true }

func has(c cmdbuf.Cache) func(*Profile) bool { return func(p *Profile) bool { return p.Has(c) } }

func compresses(p *Profile) bool { return p.Compresses.RenderTarget }

// unless returns a when drop is false, b otherwise.
func unless[T any](drop bool, a, b T) T {
	if drop {
		return b
	}
	return a
}

const n = 4096

var judgeCases = []judgeCase{
	// A drain is transitive through holds (hardware.md "Waits"): the second
	// WAIT drains COPY, which the first holds after the dispatch, so the
	// second dispatch is ordered after the first though no copy ran. The
	// broken twin breaks the chain: the second WAIT drains a stage nothing
	// held.
	{"wait-chain", always, HazardReadAfterWrite, func(r *rig, drop bool) []Region {
		x, y := r.alloc("X", n), r.alloc("Y", n)
		p := r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store)).
			wait(stages(cCompute), stages(cCopy)).
			wait(unless(drop, stages(cCopy), stages(cColor)), stages(cCompute, cCP)).
			cache(caches(cmdbuf.CacheShaderL0), caches(cmdbuf.CacheTextureL0)).
			work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store))
		r.run(r.direct, p)
		return []Region{{Name: "Y", Addr: y, Size: n}}
	}},
	{"wait", always, HazardReadAfterWrite, func(r *rig, drop bool) []Region {
		x, y := r.alloc("X", n), r.alloc("Y", n)
		p := r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store))
		if !drop {
			p.wait(stages(cCompute), stages(cCompute, cCP))
		}
		p.cache(caches(cmdbuf.CacheShaderL0), caches(cmdbuf.CacheTextureL0)).
			work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store))
		r.run(r.direct, p)
		return []Region{{Name: "Y", Addr: y, Size: n}}
	}},
	{"flush", has(cmdbuf.CacheColor), HazardMissingFlush, func(r *rig, drop bool) []Region {
		x, y := r.alloc("X", n), r.alloc("Y", n)
		r.run(r.direct, r.prog().
			work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
			wait(stages(cColor), stages(cCompute, cCP)).
			cache(unless(drop, caches(cmdbuf.CacheColor), 0), caches(cmdbuf.CacheTextureL0)).
			work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)))
		return []Region{{Name: "Y", Addr: y, Size: n}}
	}},
	{"invalidate", has(cmdbuf.CacheTextureL0), HazardMissingInvalidate, func(r *rig, drop bool) []Region {
		x, y, z := r.alloc("X", n), r.alloc("Y", n), r.alloc("Z", n)
		r.run(r.direct, r.prog().
			work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(z, n, store)). // fills TEXTURE_L0 with X
			wait(stages(cCompute), stages(cColor)).
			work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
			wait(stages(cColor), stages(cCompute, cCP)).
			cache(caches(cmdbuf.CacheColor), unless(drop, caches(cmdbuf.CacheTextureL0), 0)).
			work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)))
		return []Region{{Name: "Y", Addr: y, Size: n}}
	}},
	{"invalidate-before-flush", has(cmdbuf.CacheColor), HazardInvalidateBeforeFlush, func(r *rig, drop bool) []Region {
		x := r.alloc("X", n)
		r.run(r.direct, r.prog().
			work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
			wait(stages(cColor), stages(cCP)).
			cache(unless(drop, caches(cmdbuf.CacheColor), 0), caches(cmdbuf.CacheColor)))
		return []Region{{Name: "X", Addr: x, Size: n}}
	}},
	{"waw", always, HazardWriteAfterWrite, func(r *rig, drop bool) []Region {
		x := r.alloc("X", n)
		p := r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store))
		if !drop {
			p.wait(stages(cCompute), stages(cCompute))
		}
		r.run(r.direct, p.work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store)))
		return []Region{{Name: "X", Addr: x, Size: n}}
	}},
	{"war", always, HazardWriteAfterRead, func(r *rig, drop bool) []Region {
		x, y, z := r.alloc("X", n), r.alloc("Y", n), r.alloc("Z", n)
		p := r.prog().work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store))
		if !drop {
			p.wait(stages(cCompute), stages(cCopy))
		}
		r.run(r.direct, p.work(cmdbuf.WorkCopy, cCopy, rd(z, n, copier), wr(x, n, copier)))
		return []Region{{Name: "Y", Addr: y, Size: n}}
	}},
	{"fence", always, HazardReadAfterWrite, func(r *rig, drop bool) []Region {
		x, y := r.alloc("X", n), r.alloc("Y", n)
		f := r.m.NewFence()
		r.direct.Submit(r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store)).buffer())
		r.direct.Submit(r.prog().raw(cmdbuf.AppendFenceSignal(nil, cmdbuf.Fence{ID: f, Value: 1})).buffer())
		c := r.prog()
		if !drop {
			c.raw(cmdbuf.AppendFenceWait(nil, cmdbuf.Fence{ID: f, Value: 1}))
		}
		c.work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store))
		r.run(r.compute, c)
		return []Region{{Name: "Y", Addr: y, Size: n}}
	}},
	// Memory re-used for a surface: the previous resource's writes sit in
	// L2 over the surface's metadata; unless L2 is written back first, the
	// end of the submission writes them over the initialised metadata.
	{"metadata-writeback", func(p *Profile) bool { return p.Has(cmdbuf.CacheL2) && compresses(p) }, HazardWriteAfterWrite, func(r *rig, drop bool) []Region {
		s := r.surface("S", n, 1, false)
		p := r.prog().
			work(cmdbuf.WorkDispatch, cCompute, wr(s+n, uint32(MetadataSize(n)), store)).
			wait(stages(cCompute), stages(cCP)).
			cache(unless(!r.m.prof.Has(cmdbuf.CacheShaderL0), caches(cmdbuf.CacheShaderL0), 0), 0)
		if !drop {
			p.cache(caches(cmdbuf.CacheL2), 0)
		}
		r.run(r.direct, p.metaInit(1, n, 0).
			work(cmdbuf.WorkDraw, cColor, onSurface(wr(s, n, color), 1, true)))
		return []Region{{Name: "S", Addr: s, Size: n, Surface: 1}}
	}},
	{"split-event", always, HazardReadAfterWrite, func(r *rig, drop bool) []Region {
		x, y := r.alloc("X", n), r.alloc("Y", n)
		p := r.prog().work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
			wait(stages(cColor), stages(cBlit)).
			raw(cmdbuf.AppendCache(nil, cmdbuf.CacheOp{Flush: caches(cmdbuf.CacheColor), Invalidate: caches(cmdbuf.CacheTextureL0)}, true)).
			raw(cmdbuf.AppendEventSignal(nil, cmdbuf.Event{ID: 7, Stages: stages(cBlit)}))
		if !drop {
			p.raw(cmdbuf.AppendEventWait(nil, cmdbuf.Event{ID: 7, Stages: stages(cCompute)}))
		}
		r.run(r.direct, p.work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)))
		return []Region{{Name: "Y", Addr: y, Size: n}}
	}},
	{"decompress", compresses, HazardCompressedRead, func(r *rig, drop bool) []Region {
		s, y := r.surface("RT", n, 1, true), r.alloc("Y", n)
		p := r.prog().work(cmdbuf.WorkDraw, cColor, onSurface(wr(s, n, color), 1, true)).
			wait(stages(cColor), stages(cCP)).
			cache(caches(cmdbuf.CacheColor), 0)
		if !drop {
			p.decompress(1, n)
		}
		r.run(r.direct, p)
		r.run(r.copy, r.prog().work(cmdbuf.WorkCopy, cCopy, onSurface(rd(s, n, copier), 1, false), wr(y, n, copier)))
		return []Region{{Name: "Y", Addr: y, Size: n}}
	}},
	{"compressed-write", compresses, HazardCompressedWrite, func(r *rig, drop bool) []Region {
		s, z := r.surface("RT", n, 1, true), r.alloc("Z", n)
		p := r.prog().work(cmdbuf.WorkDraw, cColor, onSurface(wr(s, n, color), 1, true)).
			wait(stages(cColor), stages(cCP)).
			cache(caches(cmdbuf.CacheColor), 0)
		if !drop {
			p.decompress(1, n)
		}
		r.run(r.direct, p)
		r.run(r.copy, r.prog().work(cmdbuf.WorkCopy, cCopy, rd(z, n/2, copier), onSurface(wr(s, n/2, copier), 1, false)))
		return []Region{{Name: "RT", Addr: s, Size: n, Surface: 1}}
	}},
	{"metadata", compresses, HazardUninitializedMetadata, func(r *rig, drop bool) []Region {
		s := r.surface("RT", n, 1, false)
		p := r.prog()
		if !drop {
			p.metaInit(1, n, 0)
		}
		// Half of every block: the other half must be decoded from metadata.
		var acc []cmdbuf.Access
		for b := uint64(0); b < n/BlockSize; b++ {
			acc = append(acc, onSurface(wr(s+b*BlockSize, BlockSize/2, color), 1, true))
		}
		r.run(r.direct, p.work(cmdbuf.WorkDraw, cColor, acc...))
		return []Region{{Name: "RT", Addr: s, Size: n, Surface: 1}}
	}},
}

// TestJudge runs every case on every profile it applies to: as built it is
// hazard-free and byte-equal to the reference; with its packet dropped the
// named hazard appears and the bytes differ. No case may ever produce an
// unexplained hazard.
func TestJudge(t *testing.T) {
	for _, c := range judgeCases {
		for _, p := range Profiles() {
			if !c.applies(p) {
				continue
			}
			t.Run(c.name+"/"+p.Name, func(t *testing.T) {
				good := newRig(t, p)
				regions := c.build(good, false)
				assert.Empty(t, good.m.Hazards(), "the correct program is flagged")
				diffs, err := good.m.Compare(regions...)
				require.NoError(t, err)
				assert.Empty(t, diffs, "the correct program's bytes differ from the reference")

				bad := newRig(t, p)
				regions = c.build(bad, true)
				assert.Contains(t, kinds(bad.m.Hazards()), c.want, "dropping the packet is not caught")
				assert.NotContains(t, kinds(bad.m.Hazards()), HazardUnexplained)
				diffs, err = bad.m.Compare(regions...)
				require.NoError(t, err)
				assert.NotEmpty(t, diffs, "dropping the packet leaves the bytes right")
				for _, h := range bad.m.Hazards() {
					t.Log(h.Message)
				}
			})
		}
	}
}
