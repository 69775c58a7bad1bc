package hwmodel

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/require"
)

// barrierStream is what a barrier-heavy direct command list looks like to
// the model: a draw renders a 256-byte tile, a barrier makes it a shader
// resource (WAIT, CACHE flush colour / invalidate texture), a dispatch reads
// it and writes a UAV, a split barrier (EVENT_SIGNAL / EVENT_WAIT) and a
// UAV barrier (WAIT, CACHE) follow. It returns the program and how many
// sync packets (WAIT, CACHE, EVENT_*) it holds.
func barrierStream(r *rig, rt, uav uint64, rounds int) (*prog, int) {
	p := r.prog()
	syncs := 0
	for i := range rounds {
		tile := uint64(i%64) * 256
		p.work(cmdbuf.WorkDraw, cmdbuf.StageColor, wr(rt+tile, 256, cmdbuf.ClientColor))
		p.wait(stages(cmdbuf.StageColor), stages(cmdbuf.StageCP))
		p.cache(caches(cmdbuf.CacheColor), caches(cmdbuf.CacheTextureL0))
		p.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, rd(rt+tile, 256, cmdbuf.ClientShaderLoad), wr(uav+tile, 256, cmdbuf.ClientShaderStore))
		p.w = cmdbuf.AppendEventSignal(p.w, cmdbuf.Event{ID: 1, Stages: stages(cmdbuf.StageCompute)})
		p.w = cmdbuf.AppendEventWait(p.w, cmdbuf.Event{ID: 1, Stages: stages(cmdbuf.StageCompute)})
		p.wait(stages(cmdbuf.StageCompute), stages(cmdbuf.StageCP))
		p.cache(caches(cmdbuf.CacheShaderL0), caches(cmdbuf.CacheShaderL0|cmdbuf.CacheTextureL0))
		syncs += 6
	}
	return p, syncs
}

// syncRound appends six sync packets of the shapes barriers take: a WAIT,
// a CACHE flush and invalidate, an EVENT signal and wait, a WAIT and a
// CACHE. It returns how many it appended.
func syncRound(p *prog) int {
	p.wait(stages(cmdbuf.StageColor), stages(cmdbuf.StageCP))
	p.cache(caches(cmdbuf.CacheColor), caches(cmdbuf.CacheTextureL0))
	p.w = cmdbuf.AppendEventSignal(p.w, cmdbuf.Event{ID: 2, Stages: stages(cmdbuf.StageCompute)})
	p.w = cmdbuf.AppendEventWait(p.w, cmdbuf.Event{ID: 2, Stages: stages(cmdbuf.StagePixel)})
	p.wait(stages(cmdbuf.StageCompute), stages(cmdbuf.StageCompute))
	p.cache(caches(cmdbuf.CacheShaderL0), caches(cmdbuf.CacheShaderL0|cmdbuf.CacheTextureL0))
	return 6
}

// BenchmarkSyncPackets measures how fast the model executes sync packets:
// one submission per iteration of 6144 WAIT, CACHE (flush and invalidate)
// and EVENT packets, the shape barrier translations take, after 16 draws
// and dispatches that leave dirty lines for the first flushes to write
// back. packets/s counts the sync packets, over the whole run time.
func BenchmarkSyncPackets(b *testing.B) {
	for _, prof := range Profiles() {
		b.Run(prof.Name, func(b *testing.B) {
			r := newRig(b, prof)
			rt, uav := r.alloc("rt", 1<<14), r.alloc("uav", 1<<14)
			p, _ := barrierStream(r, rt, uav, 8)
			syncs := 0
			for range 1024 {
				syncs += syncRound(p)
			}
			runBench(b, r, p.buffer(), float64(syncs), "packets/s")
		})
	}
}

// BenchmarkBarrierStream measures a barrier-heavy command list end to end:
// 1024 rounds of a draw writing a 256-byte tile, a barrier to shader
// resource, a dispatch reading it and writing a UAV, a split barrier and a
// UAV barrier — 6144 sync packets and 2048 work packets per submission,
// every byte checked against the reference. It reports sync packets/s and
// all packets/s.
func BenchmarkBarrierStream(b *testing.B) {
	for _, prof := range Profiles() {
		b.Run(prof.Name, func(b *testing.B) {
			r := newRig(b, prof)
			rt, uav := r.alloc("rt", 1<<14), r.alloc("uav", 1<<14)
			p, syncs := barrierStream(r, rt, uav, 1024)
			runBench(b, r, p.buffer(), float64(syncs), "sync-packets/s")
			b.ReportMetric(float64(syncs+2048)*float64(b.N)/b.Elapsed().Seconds(), "packets/s")
		})
	}
}

// runBench submits buf once per iteration on the direct engine, requires
// the run to be clean, and reports count per iteration per second as unit.
func runBench(b *testing.B, r *rig, buf *cmdbuf.Buffer, count float64, unit string) {
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.direct.Submit(buf)
		if err := r.m.Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	require.Empty(b, r.m.Faults())
	require.Empty(b, r.m.Hazards(), "the stream is correctly synchronised")
	b.ReportMetric(count*float64(b.N)/b.Elapsed().Seconds(), unit)
}

// BenchmarkCopyTraffic measures simulated copy bandwidth: a direct-queue
// copy of 1 MiB between buffers, read through the copy client's caches and
// written back at the end of the submission, with the reference doing the
// same on plain memory. MB/s counts the bytes copied.
func BenchmarkCopyTraffic(b *testing.B) {
	for _, prof := range Profiles() {
		b.Run(prof.Name, func(b *testing.B) {
			const size = 1 << 20
			r := newRig(b, prof)
			src, dst := r.alloc("src", size), r.alloc("dst", size)
			require.NoError(b, r.m.Fill(src, size, 0x11))
			buf := r.prog().work(cmdbuf.WorkCopy, cmdbuf.StageCopy,
				rd(src, size, cmdbuf.ClientCopy), wr(dst, size, cmdbuf.ClientCopy)).buffer()
			runBench(b, r, buf, size/1e6, "MB/s")
		})
	}
}
