package hwmodel

import (
	"fmt"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/internal/memtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocated runs f and returns the bytes it allocated.
var allocated = memtest.Allocated

// TestHostBudgetRefusesWork: a dispatch over 2 GiB, which would need more
// of the host's memory than the default budget, faults its submission with
// EBREF_OUT_OF_MEMORY naming what it asked and the budget, having
// allocated next to nothing; the next submission runs.
func TestHostBudgetRefusesWork(t *testing.T) {
	r := newRig(t, Profiles()[0])
	const size = 2 << 30
	buf := r.alloc("big", size)
	small := r.alloc("small", 4096)
	big := r.prog().work(cmdbuf.WorkDispatch, cmdbuf.StageCompute,
		rd(buf, size, cmdbuf.ClientShaderStore), wr(buf, size, cmdbuf.ClientShaderStore)).buffer()
	n := allocated(func() {
		r.direct.Submit(big)
		require.NoError(t, r.m.Run())
	})
	assert.Less(t, n, uint64(1<<20), "the refused dispatch allocated %d bytes", n)
	require.Len(t, r.m.Faults(), 1)
	ask := uint64(size*HostBytesPerRead + size*HostBytesPerWrite)
	assert.Contains(t, r.m.Faults()[0].Reason, fmt.Sprintf("EBREF_OUT_OF_MEMORY: DISPATCH reads %d bytes and writes %d, which asks %d bytes", size, size, ask))
	assert.Contains(t, r.m.Faults()[0].Reason, fmt.Sprintf("host-memory budget of %d bytes", uint64(HostBudget)))
	r.direct.Submit(r.prog().work(cmdbuf.WorkDispatch, cmdbuf.StageCompute,
		rd(small, 4096, cmdbuf.ClientShaderStore), wr(small, 4096, cmdbuf.ClientShaderStore)).buffer())
	require.NoError(t, r.m.Run())
	assert.Len(t, r.m.Faults(), 1, "the next submission runs")
}

// TestHostBudgetBoundsWhatAccumulates: submissions that each fit, over
// fresh buffers, fill the host's memory a few MiB at a time; once what the
// machine holds and what the next work asks pass the budget, that work
// faults, so the machine never allocates much past its budget.
func TestHostBudgetBoundsWhatAccumulates(t *testing.T) {
	for _, prof := range Profiles() {
		t.Run(prof.Name, func(t *testing.T) {
			r := newRig(t, prof)
			const budget, size = 64 << 20, 2 << 20
			r.m.SetHostBudget(budget)
			require.Equal(t, uint64(budget), r.m.HostBudget())
			var faulted int
			n := allocated(func() {
				for i := range 48 {
					buf := r.alloc(fmt.Sprint("b", i), size)
					r.direct.Submit(r.prog().work(cmdbuf.WorkDispatch, cmdbuf.StageCompute,
						rd(buf, size, cmdbuf.ClientShaderStore), wr(buf, size, cmdbuf.ClientShaderStore)).buffer())
					require.NoError(t, r.m.Run())
					assert.LessOrEqual(t, r.m.hostHeld(), uint64(budget), "submission %d", i)
				}
				faulted = len(r.m.Faults())
			})
			require.NotZero(t, faulted, "48 dispatches over 2 MiB each hold more than 64 MiB")
			assert.Contains(t, r.m.Faults()[0].Reason, "EBREF_OUT_OF_MEMORY")
			assert.Less(t, n, uint64(2*budget), "allocated %d bytes", n)
			r.m.SetHostBudget(0)
			assert.Equal(t, uint64(HostBudget), r.m.HostBudget())
		})
	}
}
