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

// BenchmarkSyncPackets measures how fast the model executes the packets
// barriers translate to, on each profile. One iteration is one submission
// of 6144 sync packets among 2048 small draws and dispatches; packets/s
// counts the sync packets only, over the whole run time (work included).
func BenchmarkSyncPackets(b *testing.B) {
	for _, prof := range Profiles() {
		b.Run(prof.Name, func(b *testing.B) {
			r := newRig(b, prof)
			rt, uav := r.alloc("rt", 1<<14), r.alloc("uav", 1<<14)
			p, syncs := barrierStream(r, rt, uav, 1024)
			buf := p.buffer()
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
			b.ReportMetric(float64(syncs)*float64(b.N)/b.Elapsed().Seconds(), "packets/s")
		})
	}
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
			b.ReportAllocs()
			b.SetBytes(size)
			b.ResetTimer()
			for b.Loop() {
				r.direct.Submit(buf)
				if err := r.m.Run(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			require.Empty(b, r.m.Faults())
			require.Empty(b, r.m.Hazards())
			b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
		})
	}
}
