package umd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callPackets counts, by opcode, the packets of the n-th Barrier call in a
// list's disassembly (callLines).
func callPackets(t *testing.T, cl *CommandList, n int) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, l := range callLines(t, cl, n) {
		counts[l.Op]++
	}
	return counts
}

// callLines is the disassembly of the n-th Barrier call in a list (from 0):
// the packets in its record's dword range, its MARKER (and a CHAIN into a
// new chunk) left out.
func callLines(t *testing.T, cl *CommandList, n int) []cmdbuf.Line {
	t.Helper()
	recs := cl.Records()
	require.Greater(t, len(recs), n, "the list has no Barrier call %d", n)
	rec := recs[n]
	var out []cmdbuf.Line
	for _, l := range cmdbuf.Listing(cl.Buffer(), nil) {
		if l.Offset >= rec.Start && l.Offset < rec.End && l.Op != "MARKER" && l.Op != "CHAIN" {
			out = append(out, l)
		}
	}
	return out
}

// One call of 16 barriers of every kind, after work that writes every
// resource and before work that reads them: at most one WAIT and one
// CACHE ahead of the compression work, at most one compression packet
// per surface, at most one CACHE after it (000 "Barrier Ordering": the
// barriers of one call are one unit) — and the result is hazard-free with
// the reference's bytes.
func TestSixteenBarriersMerge(t *testing.T) {
	for _, p := range hwmodel.ProfileNames() {
		t.Run(p, func(t *testing.T) {
			e := newEnv(t, p, Options{})
			var rts, uavs, dss, bufs []ddi.HResource
			for range 6 {
				rts = append(rts, e.texture("RT", 32, 32, rtFlags, ddi.LayoutRenderTarget))
			}
			for range 2 {
				uavs = append(uavs, e.texture("UAVTEX", 32, 32, uavFlags, ddi.LayoutUnorderedAccess))
				h, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatD32Float, 32, 32, 1, 1, ddi.ResourceFlagDepthStencil|ddi.ResourceFlagShaderResource,
					ddi.LayoutDepthStencilWrite), resource.HeapDefault)
				require.NoError(t, err)
				dss = append(dss, h)
			}
			for range 4 {
				bufs = append(bufs, e.buffer("BUF", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault))
			}
			out := e.buffer("OUT", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)

			cl := e.list(ddi.CommandListTypeDirect)
			var rtViews, uavViews, bufViews []View
			for _, h := range rts {
				rtViews = append(rtViews, WholeTexture(h))
			}
			for _, h := range uavs {
				uavViews = append(uavViews, WholeTexture(h))
			}
			for _, h := range bufs {
				bufViews = append(bufViews, WholeBuffer(h))
			}
			for _, ds := range dss {
				v := WholeTexture(ds)
				cl.Draw(Draw{DepthStencil: &v, DepthWrite: true, RenderTargets: rtViews})
			}
			cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: append(append([]View{}, uavViews...), bufViews...)}})

			var bs []ddi.Barrier
			// Half the render targets stay compressed (the direct queue's
			// shader resource layout), half are decompressed for COMMON,
			// which the copy queue's engine, unaware of compression, may read.
			for i, h := range rts {
				after := ddi.LayoutDirectQueueShaderResource
				if i%2 == 1 {
					after = ddi.LayoutCommon
				}
				bs = append(bs, tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
					ddi.LayoutRenderTarget, after, h))
			}
			for _, h := range uavs {
				bs = append(bs, tex(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess,
					ddi.LayoutUnorderedAccess, ddi.LayoutUnorderedAccess, h))
			}
			for _, h := range dss {
				bs = append(bs, tex(ddi.SyncDepthStencil, ddi.SyncPixelShading, ddi.AccessDepthStencilWrite, ddi.AccessShaderResource,
					ddi.LayoutDepthStencilWrite, ddi.LayoutDirectQueueShaderResource, h))
			}
			for _, h := range bufs {
				bs = append(bs, buf(ddi.SyncComputeShading, ddi.SyncPixelShading, ddi.AccessUnorderedAccess, ddi.AccessShaderResource, h))
			}
			bs = append(bs, glob(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess),
				glob(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource))
			require.Len(t, bs, 16)
			cl.Barrier(bs)
			require.NoError(t, cl.Err())

			var srvs []View
			for _, h := range append(append([]ddi.HResource{}, rts...), dss...) {
				srvs = append(srvs, WholeTexture(h))
			}
			srvs = append(srvs, bufViews...)
			cl.Draw(Draw{Pixel: Shader{ShaderResources: srvs, UnorderedAccess: []View{WholeBuffer(out)}}})
			cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: uavViews}})

			counts := callPackets(t, cl, 0)
			t.Logf("%s: %v", p, counts)
			assert.LessOrEqual(t, counts["WAIT"], 1, "one wait for the call")
			surfaces := 0
			for _, h := range append(append(append([]ddi.HResource{}, rts...), dss...), uavs...) {
				if r, _ := e.d.Resource(h); r.Surface != 0 {
					surfaces++
				}
			}
			compression := counts["DECOMPRESS"] + counts["METADATA_INIT"]
			assert.LessOrEqual(t, compression, surfaces, "at most one compression packet per surface")
			if e.d.Profile().Compresses.RenderTarget {
				assert.GreaterOrEqual(t, compression, 3, "the three render targets put in COMMON are decompressed")
			}
			maxCache := 1
			if compression > 0 {
				maxCache = 2 // the flush the compression work needs
			}
			assert.LessOrEqual(t, counts["CACHE"], maxCache)
			for op := range counts {
				assert.Contains(t, []string{"WAIT", "CACHE", "DECOMPRESS", "METADATA_INIT"}, op)
			}

			// The driver's record of the call says the same.
			recs := cl.Records()
			require.Len(t, recs, 1)
			assert.Equal(t, 16, recs[0].Barriers)
			assert.Equal(t, counts["WAIT"], recs[0].Waits)
			assert.Equal(t, counts["CACHE"], recs[0].CacheOps)
			assert.Equal(t, compression, recs[0].NumOps)

			e.run(cl)
			all := append(append(append(append([]ddi.HResource{out}, rts...), uavs...), dss...), bufs...)
			e.clean(all...)
		})
	}
}

// ACCESS_COMMON stands for every access the layout allows; in a
// memory-only barrier (both layouts UNDEFINED) the layout is unchanged and
// unknown to the barrier, so COMMON is every access the texture allows.
func TestAccessCommonExpands(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	rt := e.texture("RT", 16, 16, rtFlags, ddi.LayoutRenderTarget)
	cl := e.list(ddi.CommandListTypeDirect)
	cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
	cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessCommon, ddi.AccessShaderResource,
		ddi.LayoutUndefined, ddi.LayoutUndefined, rt)})
	recs := cl.Records()
	require.Len(t, recs, 1)
	assert.NotZero(t, recs[0].Flush&cmdbuf.CacheColor.Mask(), "the render-target writes are flushed")
}

// TestSpansMergeOnlyWhatTheyName: a call's cache ranges merge where they
// overlap or touch, and join across a gap only where no other resource
// lies in it (errata E-CACHE-RANGES).
func TestSpansMergeOnlyWhatTheyName(t *testing.T) {
	var s spans
	s.add(0x300, 0x400)
	s.add(0x100, 0x200)
	s.add(0x1f0, 0x280) // overlaps the first
	s.add(0x400, 0x480) // touches the third
	assert.Equal(t, []span{{lo: 0x100, hi: 0x280}, {lo: 0x300, hi: 0x480}}, s.r)
	assert.True(t, s.covers(0x120, 0x280))
	assert.False(t, s.covers(0x120, 0x300))

	e := newEnv(t, "discrete", Options{})
	d := e.d
	mk := func(name string, size uint64) *Resource {
		return d.resources[e.buffer(name, size, 0, resource.HeapDefault)]
	}
	a, b, c := mk("A", 4096), mk("B", 4096), mk("C", 4096)
	var got [][2]uint64
	collect := func(addr, size uint64) { got = append(got, [2]uint64{addr, size}) }

	s = spans{}
	s.add(a.Addr, a.Addr+4096)
	s.add(c.Addr, c.Addr+4096)
	s.each(&d.addrIndex, collect)
	assert.Equal(t, [][2]uint64{{a.Addr, 4096}, {c.Addr, 4096}}, got, "B lies between A and C")

	got = nil
	s = spans{}
	s.add(a.Addr, a.Addr+4096)
	s.add(b.Addr, b.Addr+4096)
	s.each(&d.addrIndex, collect)
	assert.Equal(t, [][2]uint64{{a.Addr, b.Addr + 4096 - a.Addr}}, got, "nothing lies between A and B")

	got = nil
	s = spans{whole: true}
	s.each(&d.addrIndex, collect)
	assert.Equal(t, [][2]uint64{{0, 0}}, got)
}

// spans.add keeps sorted, disjoint ranges that neither overlap nor touch,
// covering exactly the union of what was added: checked against a byte map
// over random adds in every order, in address order (the append path) and
// touching at either end.
func TestSpansAddIsTheUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for round := range 2000 {
		var s spans
		var in [512]bool
		lo := uint64(0)
		for range 1 + rng.IntN(12) {
			if round%2 == 0 { // rising, as calls usually name resources
				lo += uint64(rng.IntN(40))
			} else {
				lo = uint64(rng.IntN(480))
			}
			hi := lo + 1 + uint64(rng.IntN(30))
			s.add(lo, hi)
			for b := lo; b < hi; b++ {
				in[b] = true
			}
		}
		var want []span
		for b := range uint64(len(in)) {
			switch {
			case !in[b]:
			case len(want) > 0 && want[len(want)-1].hi == b:
				want[len(want)-1].hi++
			default:
				want = append(want, span{lo: b, hi: b + 1})
			}
		}
		if !assert.Equal(t, want, s.r, "round %d", round) {
			return
		}
	}
}

// Resources whose handles share a place in the list's recent tracks keep
// their own tracks: a barrier on one after the other is still checked
// against what its own resource's previous barrier left.
func TestRecentTracksKeepResourcesApart(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	byPlace := map[uint64]ddi.HResource{}
	var a, b ddi.HResource
	for i := 0; b == 0; i++ {
		require.Less(t, i, 1000)
		h := e.texture("T", 16, 16, rtFlags, ddi.LayoutRenderTarget)
		place := uint64(h) % uint64(len(CommandList{}.recent))
		if other, ok := byPlace[place]; ok {
			a, b = other, h
		}
		byPlace[place] = h
	}
	toSR := func(r ddi.HResource) ddi.Barrier {
		return tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, r)
	}
	toRT := func(r ddi.HResource) ddi.Barrier {
		return tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
			ddi.LayoutShaderResource, ddi.LayoutRenderTarget, r)
	}
	cl := e.list(ddi.CommandListTypeDirect)
	cl.Barrier([]ddi.Barrier{toSR(a)})
	cl.Barrier([]ddi.Barrier{toSR(b)})
	cl.Barrier([]ddi.Barrier{toRT(a)}) // a is in SHADER_RESOURCE: valid
	require.NoError(t, cl.Err())
	// a is a render target again; b is still a shader resource, its last
	// SyncAfter PIXEL_SHADING, which this SyncBefore lacks (checked before
	// the layout). Had b been given a's track, it would pass.
	cl.Barrier([]ddi.Barrier{toSR(a), toSR(b)})
	err := cl.Close()
	require.Error(t, err)
	var m *Message
	require.ErrorAs(t, err, &m)
	assert.Equal(t, 4, m.Call)
	assert.Equal(t, 1, m.Barrier, "the second barrier, on b")
	assert.Equal(t, "SyncBefore", m.Field)
}

// A handle the runtime gives again, after its resource was destroyed,
// names the new resource in the list's recent tracks: in the same list
// (recorded on before the old one was destroyed) and after the list is
// reset and submitted again, a barrier on it is checked against the new
// resource's state, not the old one's.
func TestReusedHandleNamesTheNewResource(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	const h = ddi.HResource(0x5000)
	create := func() {
		desc := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 16, 16, 1, 1, rtFlags, ddi.LayoutRenderTarget)
		info, err := e.d.CheckResourceAllocationInfo(&desc, 0, 0, 1)
		require.NoError(t, err)
		heap := CommittedHeap(info, resource.HeapDefault)
		_, got, err := e.d.createHeapAndResource(&heap, 0, &desc, 0, h)
		require.NoError(t, err)
		require.Equal(t, h, got)
	}
	toSR := tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
		ddi.LayoutRenderTarget, ddi.LayoutShaderResource, h)
	create()
	cl := e.list(ddi.CommandListTypeDirect)
	cl.Barrier([]ddi.Barrier{toSR}) // the old resource is now SHADER_RESOURCE
	e.run(cl)
	require.NoError(t, cl.Reset())
	cl.Barrier([]ddi.Barrier{toSR})
	require.NoError(t, cl.Err(), "a reset list starts afresh")

	// One list later: the list met the old resource under h, which goes.
	require.NoError(t, e.d.DestroyResource(h))
	create() // RENDER_TARGET again
	cl.Barrier([]ddi.Barrier{toSR})
	require.NoError(t, cl.Err(), "the new resource is a render target: the old track must not answer for it")
	cl.Barrier([]ddi.Barrier{toSR}) // now it is SHADER_RESOURCE
	var m *Message
	require.ErrorAs(t, cl.Err(), &m)
	assert.Equal(t, 3, m.Call)
}

// TestTrackingOfPartsAndWholes: a barrier on one mip leaves the other's
// layout as it was, one on the whole resource after that moves every
// subresource, and the list checks each subresource's LayoutBefore against
// its own: what a uniform track expanded, or one whole barrier, must not
// mix up one call later.
func TestTrackingOfPartsAndWholes(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	r, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 2, rtFlags, ddi.LayoutRenderTarget), resource.HeapDefault)
	require.NoError(t, err)
	mip := func(i uint32) ddi.SubresourceRange {
		return ddi.SubresourceRange{IndexOrFirstMipLevel: i, NumMipLevels: 1, NumArraySlices: 1, NumPlanes: 1}
	}
	toRead := func(i uint32) ddi.Barrier {
		return texRange(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, r, mip(i), 0)
	}
	cl := e.list(ddi.CommandListTypeDirect)
	cl.Barrier([]ddi.Barrier{toRead(0)})
	cl.Barrier([]ddi.Barrier{toRead(1)}) // mip 1 is still RENDER_TARGET
	require.NoError(t, cl.Err())
	cl.Barrier([]ddi.Barrier{tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
		ddi.LayoutDirectQueueShaderResource, ddi.LayoutRenderTarget, r)})
	cl.Barrier([]ddi.Barrier{toRead(1)}) // the whole barrier moved mip 1 back
	require.NoError(t, cl.Err())
	cl.Barrier([]ddi.Barrier{texRange(ddi.SyncRenderTarget|ddi.SyncPixelShading, ddi.SyncPixelShading, ddi.AccessShaderResource, ddi.AccessShaderResource,
		ddi.LayoutDirectQueueShaderResource, ddi.LayoutDirectQueueShaderResource, r, mip(0), 0)})
	var m *Message
	require.ErrorAs(t, cl.Err(), &m, "mip 0 is RENDER_TARGET")
	assert.Equal(t, "LayoutBefore", m.Field)
}

// A barrier's cache work is its list's engine's: the same call recorded on
// lists of each type that can record it flushes and invalidates what that
// engine's paths need (the profile's own per-pair answers, joined over the
// call's barriers): on discrete a video engine writes back its VIDEO cache,
// which the direct engine's paths do not have. The lists, each submission
// on its own queue after the last one's fence, leave their buffers as the
// reference has them. Each call runs twice on its list, across a reset, so
// the second meets tracks the first left.
func TestCacheWorkFollowsEachListsEngine(t *testing.T) {
	mask := func(cs []cmdbuf.Cache) (m cmdbuf.CacheMask) {
		for _, c := range cs {
			m |= c.Mask()
		}
		return m
	}
	type pair struct{ writer, user cmdbuf.Client }
	for _, name := range hwmodel.ProfileNames() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, name, Options{})
			p := e.d.Profile()
			var writeBack cmdbuf.CacheMask
			for _, s := range p.Caches {
				if !s.ReadOnly {
					writeBack |= s.Kind.Mask()
				}
			}
			f := e.d.CreateFence()
			fenced := uint64(0)
			var all []ddi.HResource
			// record records calls on a list of type typ twice, across a
			// reset, and checks the call's cache work against pairs (toMem:
			// users NO_ACCESS), then runs the list on a queue of its type.
			record := func(typ ddi.CommandListType, calls func(cl *CommandList), pairs []pair, toMem bool) {
				cl := e.list(typ)
				for round := range 2 {
					if round == 1 {
						require.NoError(t, cl.Reset())
					}
					calls(cl)
					require.NoError(t, cl.Err())
				}
				eng := queueEngines[typ]
				var flush, inval cmdbuf.CacheMask
				for _, pr := range pairs {
					if toMem {
						common := ^cmdbuf.CacheMask(0)
						for c := cmdbuf.Client(0); c < cmdbuf.NumClients; c++ {
							common &= mask(p.Path(eng, c))
						}
						flush |= mask(p.Path(eng, pr.writer)) &^ common
						continue
					}
					flush |= mask(p.CachesBetween(eng, pr.writer, eng, pr.user))
					inval |= mask(p.StaleBetween(eng, pr.writer, eng, pr.user))
				}
				flush |= inval & writeBack
				recs := cl.Records()
				require.Len(t, recs, 1)
				assert.Equal(t, flush, recs[0].Flush, "%s list flushes", typ)
				assert.Equal(t, inval, recs[0].Invalidate, "%s list invalidates", typ)
				require.NoError(t, cl.Close())
				q, err := e.d.CreateQueue(typ)
				require.NoError(t, err)
				if fenced > 0 {
					require.NoError(t, q.Wait(f, fenced))
				}
				require.NoError(t, q.ExecuteCommandLists(cl))
				fenced++
				require.NoError(t, q.Signal(f, fenced))
			}
			st, ld := cmdbuf.ClientShaderStore, cmdbuf.ClientShaderLoad
			for _, typ := range []ddi.CommandListType{ddi.CommandListTypeDirect, ddi.CommandListTypeCompute} {
				u := e.buffer("U", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
				w := e.buffer("W", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
				out := e.buffer("OUT", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
				all = append(all, u, w, out)
				record(typ, func(cl *CommandList) {
					cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(u), WholeBuffer(w)}}})
					cl.Barrier([]ddi.Barrier{
						buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessShaderResource, u),
						buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, w),
					})
					cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeBuffer(u)}, UnorderedAccess: []View{WholeBuffer(w), WholeBuffer(out)}}})
				}, []pair{{st, ld}, {st, st}}, false)
			}
			v := e.buffer("V", 16384, 0, resource.HeapDefault)
			all = append(all, v)
			record(ddi.CommandListTypeVideoDecode, func(cl *CommandList) {
				cl.Barrier([]ddi.Barrier{buf(ddi.SyncVideoDecode, ddi.SyncNone, ddi.AccessVideoDecodeWrite, ddi.AccessNoAccess, v)})
			}, []pair{{cmdbuf.ClientVideo, 0}}, true)
			require.NoError(t, e.d.WaitIdle())
			require.Empty(t, e.d.Machine().Faults())
			e.clean(all...)
		})
	}
}

// A BarrierRecord's [Start, End) is exactly what its call added to the
// list, through chunk after chunk, in process and through the seam: a
// MARKER numbered as the call, then its packets: Dwords of them, and a
// CHAIN where the call ran into a new chunk, and no call's range overlaps another's
// or the draws between them.
func TestBarrierRecordRange(t *testing.T) {
	for _, opts := range []Options{{}, {Translator: ReferenceOpener{}}} {
		e := newEnv(t, "discrete", opts)
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		cl := e.list(ddi.CommandListTypeDirect)
		bs := []ddi.Barrier{
			tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
				ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt),
			tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
				ddi.LayoutDirectQueueShaderResource, ddi.LayoutRenderTarget, rt),
		}
		for i := range 1200 { // several 4096-dword chunks
			if i%2 == 0 {
				cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
			}
			cl.Barrier(bs[i%2 : i%2+1])
		}
		require.NoError(t, cl.Close())
		require.Greater(t, len(cl.Buffer().Chunks()), 2)
		lines := cmdbuf.Listing(cl.Buffer(), nil)
		at := map[int]int{}
		for i, l := range lines {
			at[l.Offset] = i
		}
		end := 0
		for _, rec := range cl.Records() {
			require.GreaterOrEqual(t, rec.Start, end, "call %d begins inside the last call", rec.Call)
			end = rec.End
			i, ok := at[rec.Start]
			require.True(t, ok, "call %d: no packet at its Start %d", rec.Call, rec.Start)
			chain := 0
			if lines[i].Op == "CHAIN" {
				chain += 2
				i++
			}
			require.Equal(t, "MARKER", lines[i].Op, "call %d", rec.Call)
			require.Contains(t, lines[i].Text, fmt.Sprintf(`"Barrier #%d"`, rec.Call))
			for i++; i < len(lines) && lines[i].Offset < rec.End; i++ {
				require.NotEqual(t, "MARKER", lines[i].Op, "call %d runs into the next command", rec.Call)
				if lines[i].Op == "CHAIN" {
					chain += 2
				}
			}
			assert.Equal(t, rec.Dwords, rec.End-rec.Start-chain, "call %d", rec.Call)
		}
	}
}

// The caches a barrier to NO_ACCESS writes back to (cacheTable.written,
// E-NO-ACCESS-FLUSH) are those on the path of every client that writes,
// the blit client (decompression and metadata work) among them. The blit
// term can only take caches away (an intersection over one path more):
// a table without it flushes the same caches or more, never fewer, so
// leaving it out cannot cause a hazard, only cost. On every built-in
// profile and engine the blit path holds every cache the other writers
// share, so the term changes nothing at all there: the operator mutant
// that drops it (tools/mutate, device.go "| blitClient") is equivalent on
// them. A profile file whose blit path bypassed a cache the writers share
// would make it a cost difference, still not a safety one.
func TestWrittenCachesBlitTermIsEquivalent(t *testing.T) {
	writers, _ := clientRoles(ddi.WriteAccesses)
	for _, name := range hwmodel.ProfileNames() {
		p, err := hwmodel.LookupProfile(name)
		require.NoError(t, err)
		for e := range hwmodel.NumEngineKinds {
			tb := newCacheTable(p, hwmodel.EngineKind(e))
			without := tb.of(writers).every
			assert.Equal(t, tb.written, tb.written&without, "%s %v: the blit term only narrows", name, hwmodel.EngineKind(e))
			assert.Equal(t, without, tb.written, "%s %v: the blit path holds what the writers share", name, hwmodel.EngineKind(e))
		}
	}
}
