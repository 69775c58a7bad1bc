package umd

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// opcodes counts a list's packets by opcode.
func opcodes(t *testing.T, cl *CommandList) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, l := range cmdbuf.Listing(cl.Buffer(), nil) {
		out[l.Op]++
	}
	return out
}

// TestCopiesAreSynchronousUnlessExtendedAsync: overlapping copies into one
// buffer with no barrier give the last writer's bytes in a default list
// (each copy is followed by a WAIT, and a flush where its client writes
// back), and race in an ALLOW_EXTENDED_ASYNC one (errata E-SYNC-COPY).
func TestCopiesAreSynchronousUnlessExtendedAsync(t *testing.T) {
	for _, profile := range []string{"discrete", "unified3d", "coherent"} {
		t.Run(profile, func(t *testing.T) {
			e := newEnv(t, profile, Options{})
			src := e.buffer("SRC", 8192, 0, resource.HeapUpload)
			require.NoError(t, e.d.WriteBuffer(src, 4096, []byte{0x22, 0x22, 0x22, 0x22}))
			dst := e.buffer("DST", 4096, 0, resource.HeapDefault)
			sync := e.list(ddi.CommandListTypeDirect)
			sync.CopyBufferRegion(dst, 0, src, 0, 4096)
			sync.CopyBufferRegion(dst, 0, src, 4096, 4096)
			assert.Equal(t, 2, opcodes(t, sync)["WAIT"])
			e.run(sync)
			e.clean(dst)
			got, err := e.d.Contents(dst)
			require.NoError(t, err)
			assert.Equal(t, []byte{0x22, 0x22, 0x22, 0x22}, got[:4], "the last copy wins")

			async, err := e.d.CreateCommandListFlags(ddi.CommandListTypeDirect, ddi.CommandListFlagAllowExtendedAsync)
			require.NoError(t, err)
			async.CopyBufferRegion(dst, 0, src, 0, 4096)
			async.CopyBufferRegion(dst, 0, src, 4096, 4096)
			ops := opcodes(t, async)
			assert.Zero(t, ops["WAIT"])
			assert.Zero(t, ops["CACHE"])
			require.NoError(t, async.Close())
			require.NoError(t, e.direct.ExecuteCommandLists(async))
			require.NoError(t, e.d.WaitIdle())
			assert.NotEmpty(t, e.d.Machine().Hazards(), "unordered copies into the same bytes race")
		})
	}
	e := newEnv(t, "discrete", Options{})
	_, err := e.d.CreateCommandListFlags(ddi.CommandListTypeDirect, 0x2)
	assert.ErrorContains(t, err, "only ALLOW_EXTENDED_ASYNC is defined")
}
