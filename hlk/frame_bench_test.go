package hlk

import (
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
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
// Each frame must stay hazard-free with the reference bytes. Where the
// system tells it (Linux), it also reports the process's peak resident
// memory: run one profile per process (-bench GBufferFrame/discrete
// -benchtime 1x) for that profile's own figure against the 199 MB the
// frame's work touches.
func BenchmarkGBufferFrame(b *testing.B) {
	src, err := os.ReadFile("testdata/frame-gbuffer.ebs")
	if err != nil {
		b.Fatal(err)
	}
	cases, err := scenario.Parse("frame-gbuffer.ebs", string(src), nil)
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
			if rss, ok := peakRSS(); ok {
				b.ReportMetric(float64(rss)/1e6, "peak-RSS-MB")
			}
		})
	}
}

// keptDriver is the reference driver, keeping the last device it opened
// so a test can look at what its machine holds after a run.
type keptDriver struct {
	Driver
	dev Device
}

func (k *keptDriver) Open(p *hwmodel.Profile, o DeviceOptions) (Device, error) {
	d, err := k.Driver.Open(p, o)
	k.dev = d
	return d, err
}

// TestFrameMemoryFollowsTouchedBytes: the G-buffer frame at 1920x1080
// leaves its machine holding (live heap, after a collection) at most 1.75
// bytes a byte its work touched, plus 8 MiB, on every profile. The
// surfaces' bytes are held once across caches and memory (1x); the rest is
// effect blocks and op buffers kept for reuse, which grow with the largest
// op. The reference keeps what ops wrote as the generators that made it:
// a second copy of the bytes would pass 2x (docs/hardware.md "Speed").
func TestFrameMemoryFollowsTouchedBytes(t *testing.T) {
	src, err := os.ReadFile("testdata/frame-gbuffer.ebs")
	require.NoError(t, err)
	cases, err := scenario.Parse("frame-gbuffer.ebs", strings.ReplaceAll(string(src), "3840x2160", "1920x1080"), nil)
	require.NoError(t, err)
	require.Len(t, cases, 1)
	const touched = 6 * 1920 * 1080 * 4 // six surfaces, 4 bytes a pixel
	for _, p := range hwmodel.Profiles() {
		k := &keptDriver{Driver: Reference}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := Run(k, cases[0], p, "")
		require.Equal(t, Pass, r.Status, "%s: %v", p.Name, r.Failures)
		runtime.GC()
		runtime.ReadMemStats(&after)
		held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		t.Logf("%s: %.1f MB held for %.1f MB touched", p.Name, float64(held)/1e6, touched/1e6)
		assert.LessOrEqual(t, held, int64(touched*7/4+8<<20), p.Name)
		runtime.KeepAlive(k.dev.Machine())
	}
}
