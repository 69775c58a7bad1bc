package umd

import (
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// barrierBench is a direct command list and resources for recording
// barrier calls in a loop: a render target (a compression surface on the
// compressing profiles), a UAV buffer and 16 mixed barriers.
type barrierBench struct {
	cl      *CommandList
	texture []ddi.Barrier // RENDER_TARGET → DIRECT_QUEUE_SHADER_RESOURCE and back, one per call
	buffer  []ddi.Barrier
	mixed   []ddi.Barrier
}

func newBarrierBench(tb testing.TB, profile string) *barrierBench {
	e := newEnv(tb, profile, Options{})
	rt := e.texture("RT", 256, 256, rtFlags, ddi.LayoutRenderTarget)
	b := e.buffer("B", 1<<16, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	bb := &barrierBench{cl: e.list(ddi.CommandListTypeDirect)}
	bb.texture = []ddi.Barrier{
		tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt),
		tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
			ddi.LayoutDirectQueueShaderResource, ddi.LayoutRenderTarget, rt),
	}
	bb.buffer = []ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, b)}
	var others []ddi.HResource
	for i := 0; i < 8; i++ {
		others = append(others, e.texture("T", 64, 64, rtFlags, ddi.LayoutRenderTarget),
			e.buffer("U", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault))
	}
	for i := 0; i < 16; i += 2 {
		bb.mixed = append(bb.mixed,
			tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
				ddi.LayoutRenderTarget, ddi.LayoutShaderResource, others[i]),
			buf(ddi.SyncComputeShading, ddi.SyncVertexShading, ddi.AccessUnorderedAccess, ddi.AccessShaderResource, others[i+1]))
	}
	return bb
}

// record records one call, resetting the list (with its memory) now and
// then so it does not grow without bound.
func (bb *barrierBench) record(i int, bs []ddi.Barrier) {
	if i%1024 == 0 {
		bb.cl.Reset()
	}
	bb.cl.Barrier(bs)
}

// BenchmarkTextureBarrier is one texture barrier call, the whole of it:
// validated and tracked, its request built, translated by the device's
// reference through the translator.Translator interface, the reply checked
// and the call's record rebuilt from it (seam.go).
func BenchmarkTextureBarrier(b *testing.B) {
	bb := newBarrierBench(b, "discrete")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		bb.record(i, bb.texture[i%2:i%2+1])
		i++
	}
	require.NoError(b, bb.cl.Err())
}

func BenchmarkBufferBarrier(b *testing.B) {
	bb := newBarrierBench(b, "discrete")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		bb.record(i, bb.buffer)
		i++
	}
	require.NoError(b, bb.cl.Err())
}

func BenchmarkMixedBarriers16(b *testing.B) {
	bb := newBarrierBench(b, "discrete")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%1024 == 0 {
			bb.cl.Reset()
		}
		bb.cl.Barrier(bb.mixed)
		bb.cl.Reset()
		i++
	}
	require.NoError(b, bb.cl.Err())
}

// TestBarrierRecordingAllocatesNothing: in steady state (resources met
// before, command buffer grown) a Barrier call allocates nothing.
func TestBarrierRecordingAllocatesNothing(t *testing.T) {
	bb := newBarrierBench(t, "discrete")
	for i := 0; i < 2048; i++ { // warm up: tracking tables, buffer chunks
		bb.record(i, bb.texture[i%2:i%2+1])
		bb.record(i, bb.buffer)
	}
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		bb.record(i, bb.texture[i%2:i%2+1])
		bb.record(i, bb.buffer)
		i++
	})
	require.NoError(t, bb.cl.Err())
	assert.Zero(t, allocs)
	bb.cl.Reset()
	bb.cl.Barrier(bb.mixed)
	mixed := testing.AllocsPerRun(200, func() {
		bb.cl.Reset()
		bb.cl.Barrier(bb.mixed)
	})
	require.NoError(t, bb.cl.Err())
	assert.Zero(t, mixed)
}
