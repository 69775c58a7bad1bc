package hwmodel

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/require"
)

// TestSyncPacketsAllocateNothing: once a machine is warm (its timeline full,
// its scratch grown), a submission of the packets barriers become — WAITs,
// CACHE flushes and invalidates, EVENT signals and waits — allocates
// nothing, on every profile. A CACHE that writes back and drops nothing
// gives its op record back; one that does would keep it.
func TestSyncPacketsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates: allocation counts are not the model's")
	}
	for _, prof := range Profiles() {
		t.Run(prof.Name, func(t *testing.T) {
			r := newRig(t, prof)
			p := r.prog()
			for range 256 {
				syncRound(p)
			}
			bufs := []*cmdbuf.Buffer{p.buffer()}
			run := func() {
				r.direct.Submit(bufs...)
				require.NoError(t, r.m.Run())
			}
			// Warm up past the timeline's limit, so recording spans stops.
			for range TimelineLimit/(6*256) + 2 {
				run()
			}
			require.Zero(t, testing.AllocsPerRun(20, run))
			require.Empty(t, r.m.Hazards())
			require.Empty(t, r.m.Faults())
		})
	}
}

// TestEncodeIsKey: encode steps the key's product instead of computing it
// per byte; it must give key's bytes, from any start address.
func TestEncodeIsKey(t *testing.T) {
	for _, addr := range []uint64{0, 1, 255, 1 << 32, 1<<64 - 300} {
		b := make([]byte, 300)
		encode(b, addr)
		for i, x := range b {
			require.Equal(t, key(addr+uint64(i)), x, "byte %d from 0x%x", i, addr)
		}
	}
}

// TestWorkAllocatesOnlyItsRecord: on a warm machine, a submission of a
// 1 MiB copy — its reads and writes logged for the write-after-read and
// write-after-write checks, 16,384 lines through the caches and back —
// allocates only the op records hazards may name: the copy's and the end
// of the submission's.
func TestWorkAllocatesOnlyItsRecord(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates: allocation counts are not the model's")
	}
	for _, prof := range Profiles() {
		t.Run(prof.Name, func(t *testing.T) {
			const size = 1 << 20
			r := newRig(t, prof)
			src, dst := r.alloc("src", size), r.alloc("dst", size)
			bufs := []*cmdbuf.Buffer{r.prog().work(cmdbuf.WorkCopy, cmdbuf.StageCopy,
				rd(src, size, cmdbuf.ClientCopy), wr(dst, size, cmdbuf.ClientCopy)).buffer()}
			run := func() {
				r.direct.Submit(bufs...)
				require.NoError(t, r.m.Run())
			}
			for range 4 {
				run()
			}
			require.LessOrEqual(t, testing.AllocsPerRun(10, run), 2.0)
			require.Empty(t, r.m.Hazards())
		})
	}
}
