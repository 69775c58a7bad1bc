package hwmodel

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWideAccessesChangeNothing: logging accesses in their level's wide
// list instead of by 4 KiB bucket gives the same bytes, hazards and costs:
// random programs run with no access in the list, with those covering two
// buckets or more there (so a query meets both), and with all of them,
// retiring after every packet or at the machine's pace.
func TestWideAccessesChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for i := 0; i < 300; i++ {
		data := make([]byte, 100+rng.Intn(1500))
		rng.Read(data)
		opts := []func(*Machine){}
		if i%2 == 1 {
			opts = append(opts, func(m *Machine) { m.retireMin, m.retireAt = 0, 0 })
		}
		buckets := runFuzzProgramLines(t, data, i%4 >= 2, append(opts, func(m *Machine) { m.effects.wideAt = 1 << 62 })...)
		for _, at := range []uint64{1, 0} {
			wide := runFuzzProgramLines(t, data, i%4 >= 2, append(opts, func(m *Machine) { m.effects.wideAt = at })...)
			requireSameRun(t, buckets, wide, i)
		}
	}
}

// TestUAVChainLogsEachDispatchOnce: a chain of dispatches over 1 MiB keeps
// each access once, in its level's wide list, not once a 4 KiB bucket; the
// log holds nothing at the end.
func TestUAVChainLogsEachDispatchOnce(t *testing.T) {
	r := newRig(t, Profiles()[0])
	const size = 1 << 20
	buf := r.alloc("B", size)
	p := uavChain(r, buf, size, 32)
	entries := 0
	r.m.OnPacket(func(PacketCost) {
		n := 0
		for _, as := range r.m.effects.buckets {
			n += len(as)
		}
		for _, as := range r.m.effects.wide {
			n += len(as)
		}
		entries = max(entries, n)
	})
	r.run(r.direct, p)
	assert.LessOrEqual(t, entries, 2*32, "a read and a write a dispatch, each listed once")
	require.Zero(t, r.m.effects.count())
	for _, as := range r.m.effects.wide {
		require.Empty(t, as)
	}
}
