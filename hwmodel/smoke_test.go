package hwmodel

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProfilesAreValid(t *testing.T) {
	require.Len(t, Profiles(), 5)
	for _, p := range Profiles() {
		assert.NoError(t, p.Validate(), p.Name)
		q, err := LookupProfile(p.Name)
		require.NoError(t, err)
		assert.Same(t, p, q)
	}
	_, err := LookupProfile("nope")
	assert.ErrorContains(t, err, `no hardware profile "nope"`)
}

// A dispatch writes a buffer, a second reads it and writes another: with a
// wait and the flushes and invalidates the profile needs, the bytes equal
// the reference's and nothing is flagged.
func TestSmokeDependentDispatches(t *testing.T) {
	for _, p := range Profiles() {
		t.Run(p.Name, func(t *testing.T) {
			r := newRig(t, p)
			x, y := r.alloc("X", 4096), r.alloc("Y", 4096)
			r.run(r.direct, r.prog().
				work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(x, 4096, cmdbuf.ClientShaderStore)).
				wait(stages(cmdbuf.StageCompute), stages(cmdbuf.StageCompute, cmdbuf.StageCP)).
				cache(caches(cmdbuf.CacheShaderL0), caches(cmdbuf.CacheTextureL0)).
				work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, rd(x, 4096, cmdbuf.ClientShaderLoad), wr(y, 4096, cmdbuf.ClientShaderStore)))
			assert.Empty(t, r.m.Hazards())
			diffs, err := r.m.Compare(Region{Name: "Y", Addr: y, Size: 4096}, Region{Name: "X", Addr: x, Size: 4096})
			require.NoError(t, err)
			assert.Empty(t, diffs)
			c := r.direct.Counters()
			assert.Equal(t, uint64(2), c.PacketCount(cmdbuf.OpWork))
			assert.NotZero(t, c.Cycles)
		})
	}
}
