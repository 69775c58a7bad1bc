package hwmodel

import (
	"fmt"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
)

// uavChain is n dispatches over one buffer of size bytes, each reading and
// writing all of it through shader stores, with a UAV barrier (a WAIT that
// drains and holds COMPUTE) between each two: issue 32's frame-scale case.
func uavChain(r *rig, buf, size uint64, n int) *prog {
	p := r.prog()
	for i := range n {
		if i > 0 {
			p.wait(stages(cmdbuf.StageCompute), stages(cmdbuf.StageCompute))
		}
		p.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute,
			rd(buf, uint32(size), cmdbuf.ClientShaderStore), wr(buf, uint32(size), cmdbuf.ClientShaderStore))
	}
	return p
}

// BenchmarkUAVChain runs uavChain over a 4 MiB buffer with 100, 200 and
// 400 dispatches in one submission.
func BenchmarkUAVChain(b *testing.B) {
	for _, prof := range Profiles() {
		for _, n := range []int{100, 200, 400} {
			b.Run(fmt.Sprintf("%s/%d", prof.Name, n), func(b *testing.B) {
				const size = 4 << 20
				r := newRig(b, prof)
				buf := r.alloc("B", size)
				runBench(b, r, uavChain(r, buf, size, n).buffer(), float64(n), "dispatches/s")
			})
		}
	}
}

// BenchmarkCompressibleCreation makes a compressible surface as a committed
// texture's creation does: mapped, defined, zeroed with its metadata, and
// its metadata initialised. The sizes are 2048², 4096² and 8192² texels of
// 16 bytes.
func BenchmarkCompressibleCreation(b *testing.B) {
	for _, side := range []uint64{2048, 4096, 8192} {
		b.Run(fmt.Sprintf("%dx%d", side, side), func(b *testing.B) {
			size := side * side * 16
			b.ReportAllocs()
			for b.Loop() {
				r := newRig(b, Profiles()[0])
				a, err := r.m.Allocate(size+MetadataSize(size), 0, false)
				if err != nil {
					b.Fatal(err)
				}
				if err := r.m.DefineSurface(Surface{ID: 1, Base: a, Size: size, Meta: a + size}); err != nil {
					b.Fatal(err)
				}
				if err := r.m.Fill(a, size+MetadataSize(size), 0); err != nil {
					b.Fatal(err)
				}
				if err := r.m.InitializeMetadataPlain(1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
		})
	}
}
