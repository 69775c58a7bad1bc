package hlk

import (
	"os"
	"testing"

	"github.com/ebref/ebref/hwmodel"
)

// gbufferFrameBytes are the bytes the frame's work reads and writes: six
// clears of 3840x2160 surfaces of 4 bytes a pixel, the geometry pass
// writing five of them, the lighting pass reading those five and writing
// one (17 surface passes).
const gbufferFrameBytes = 17 * 3840 * 2160 * 4

// BenchmarkGBufferFrame runs the 3840x2160 deferred-shading frame of
// testdata/frame-gbuffer.ebs on every profile (issue 13's frame-sized
// benchmark): ms a frame, and MB/s of the surface bytes its work moves.
// Each frame must stay hazard-free with the reference bytes.
func BenchmarkGBufferFrame(b *testing.B) {
	src, err := os.ReadFile("testdata/frame-gbuffer.ebs")
	if err != nil {
		b.Fatal(err)
	}
	cases, err := Parse("frame-gbuffer.ebs", string(src), nil)
	if err != nil || len(cases) != 1 {
		b.Fatal(err, len(cases))
	}
	for _, p := range hwmodel.ProfileNames() {
		prof, err := hwmodel.LookupProfile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p, func(b *testing.B) {
			b.SetBytes(gbufferFrameBytes)
			for b.Loop() {
				if r := Run(Reference, cases[0], prof, ""); r.Status != Pass {
					b.Fatalf("%s: %v", p, r.Failures)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
		})
	}
}
